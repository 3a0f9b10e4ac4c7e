// The package as users get it: `npm pack` output installed into a temporary project
// (build/package/app), then used from Node, Vite (build and dev server), esbuild, a plain page with
// an import map, another origin, `<tribo-scene>`, and TypeScript.
//
//   make wasm && node --test tests/package/
//
// Node, vite, esbuild, typescript and three come from the repository's node_modules (installed
// into the project from those directories, so no registry access); Chromium from
// /usr/bin/chromium (TRIBO_CHROMIUM).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = path.join(ROOT, 'build/package');
const APP = path.join(WORK, 'app');
const CHROMIUM = process.env.TRIBO_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader'];
const G = 9.81;
const MG = 1000 * (4 / 3) * Math.PI * 0.5 ** 3 * G; // N: weight of the snippets' 0.5 m sphere, 1000 kg/m³

let context;
let userDataDir;

const write = (rel, text) => { fs.mkdirSync(path.dirname(path.join(APP, rel)), { recursive: true }); fs.writeFileSync(path.join(APP, rel), text); };
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: APP, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000, ...opts });

// The page program of the bundler and cross-origin checks: an in-process world and a worker world.
const PAGE_MAIN = (entry) => `import { init, createWorkerWorld } from '${entry}';
const out = {};
try {
  const tribo = await init();
  out.build = tribo.build; out.fallback = tribo.fallback; out.isolated = self.crossOriginIsolated;
  const w = tribo.createWorld({ gravity: [0, -9.81, 0] });
  w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
  const ball = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'sphere', radius: 0.5, density: 1000 }] });
  w.step(120);
  out.contactForce = w.netContactWrench(ball).force[1];
  const ww = await createWorkerWorld({ gravity: [0, -9.81, 0] });
  out.workerBuild = ww.build;
  await ww.addBody({ position: [0, 1, 0], shapes: [{ type: 'sphere', radius: 0.5, density: 1000 }] });
  const f = await ww.step(30);
  out.workerY = f.bodies.transform[1];
  await ww.free();
} catch (e) { out.error = String(e?.stack ?? e); }
window.__result = out;
`;

before(async () => {
  assert.ok(fs.existsSync(path.join(ROOT, 'dist/tribo_compat.mjs')), 'dist/ is not built (run `make wasm`)');
  fs.rmSync(WORK, { recursive: true, force: true });
  fs.mkdirSync(APP, { recursive: true });
  const tgz = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', WORK], { cwd: ROOT, encoding: 'utf8' }))[0].filename;
  write('package.json', JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const local = ['vite', 'esbuild', 'typescript', 'three'].map((d) => path.join(ROOT, 'node_modules', d));
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', path.join(WORK, tgz), ...local]);
  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribo-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 20_000 });
});

after(async () => {
  await context?.close();
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
});

/** Loads url, waits for window.__result; console errors and failed requests fail the check. */
async function load(url, { result = '__result', timeout = 30_000 } = {}) {
  const page = await context.newPage();
  const errors = [];
  const notes = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(`console: ${m.text()}`); else notes.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`HTTP ${r.status()} ${r.url()}`); });
  page.on('requestfailed', (r) => errors.push(`failed ${r.url()}: ${r.failure()?.errorText}`));
  await page.goto(url);
  const out = await page.waitForFunction((k) => window[k], result, { timeout }).then((h) => h.jsonValue())
    .catch((e) => ({ error: `no result: ${e.message}` }));
  return { page, out, errors, notes };
}

/** The page program's checks: both worlds step, the expected build, no errors. */
async function checkPage(url, { isolated, build, label }) {
  const { page, out, errors } = await load(url);
  try {
    assert.equal(out.error, undefined, `${label}: ${out.error}\n${errors.join('\n')}`);
    assert.deepEqual(errors, [], `${label}: errors`);
    assert.equal(out.isolated, isolated, `${label}: crossOriginIsolated`);
    assert.equal(out.build, build, `${label}: in-process build (fallback: ${out.fallback})`);
    assert.equal(out.workerBuild, build, `${label}: worker build`);
    // A resting 0.5 m sphere: the contact force balances m·g within 2 %.
    assert.ok(Math.abs(out.contactForce - MG) < 0.02 * MG, `${label}: contact force ${out.contactForce} N, m·g = ${MG.toFixed(1)} N`);
    // Free fall for n = 30 steps of h = 1/60 s from y = 1 m, semi-implicit Euler (no ground):
    // y = 1 - g h² n (n + 1) / 2 ≈ -0.267 m, within 1 cm.
    const h = 1 / 60;
    assert.ok(Math.abs(out.workerY - (1 - G * h * h * 30 * 31 / 2)) < 0.01, `${label}: worker y ${out.workerY}`);
  } finally {
    await page.close();
  }
  return out;
}

test('Node: the README snippet and the worker snippet print m·g and the process exits', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const snippets = [...readme.matchAll(/<!-- snippet: ([\w-]+) -->\s*```js\n([\s\S]*?)```/g)];
  const names = snippets.map((m) => m[1]);
  assert.ok(names.includes('node') && names.includes('node-worker'), `README snippets found: ${names}`);
  for (const [, name, code] of snippets.filter((m) => m[1].startsWith('node'))) {
    write(`${name}.mjs`, code);
    const t0 = Date.now();
    const stdout = run('node', [`${name}.mjs`], { timeout: 30_000 });
    const value = Number(stdout.match(/(-?[\d.]+)\s*N/)?.[1]);
    assert.ok(Math.abs(value - MG) < 0.02 * MG, `${name}: printed ${JSON.stringify(stdout)}; m·g = ${MG.toFixed(1)} N`);
    assert.ok(Date.now() - t0 < 30_000, `${name}: the process exits`);
  }
});

const writeViteApp = () => {
  write('vite/index.html', '<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>');
  write('vite/main.js', PAGE_MAIN('tribo'));
};

test('Vite: `vite build` output, with and without COOP/COEP', async () => {
  writeViteApp();
  run('npx', ['vite', 'build', 'vite', '--logLevel', 'warn']);
  const out = path.join(APP, 'vite/dist');
  assert.ok(!fs.readdirSync(path.join(out, 'assets')).some((f) => /worker_host.*\.js$/.test(f) && fs.readFileSync(path.join(out, 'assets', f), 'utf8').includes("from './index.js'")),
    'the worker is bundled, not copied raw');
  for (const isolation of [true, false]) {
    const s = await serve(out, { isolation });
    try {
      await checkPage(`${s.origin}/`, { isolated: isolation, build: isolation ? 'threads' : 'simd', label: `vite build, isolation ${isolation}` });
    } finally { await s.close(); }
  }
});

test('Vite: dev server, with and without COOP/COEP', async () => {
  writeViteApp();
  const { createServer } = await import(pathToFileURL(path.join(APP, 'node_modules/vite/dist/node/index.js')).href);
  for (const isolation of [true, false]) {
    const headers = isolation ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {};
    // A fresh port per server: the browser must not reuse responses of the other header set.
    const port = await new Promise((r) => { const n = net.createServer().listen(0, '127.0.0.1', () => { const p = n.address().port; n.close(() => r(p)); }); });
    const server = await createServer({ root: path.join(APP, 'vite'), configFile: false, logLevel: 'warn', server: { port, strictPort: true, host: '127.0.0.1', headers } });
    await server.listen();
    try {
      await checkPage(`http://127.0.0.1:${port}/`, { isolated: isolation, build: isolation ? 'threads' : 'simd', label: `vite dev, isolation ${isolation}` });
    } finally { await server.close(); }
  }
});

test('esbuild: `esbuild --bundle` of tribo/compat, with and without COOP/COEP', async () => {
  write('es/index.html', '<!doctype html><meta charset="utf-8"><script type="module" src="./out/main.js"></script>');
  write('es/main.js', PAGE_MAIN('tribo/compat'));
  run('npx', ['esbuild', '--bundle', 'es/main.js', '--format=esm', '--outfile=es/out/main.js', '--log-level=warning']);
  const bundle = fs.readFileSync(path.join(APP, 'es/out/main.js'), 'utf8');
  assert.ok(!/from\s*"node:|require\("node:/.test(bundle), 'no node:* import in the browser bundle');
  for (const isolation of [true, false]) {
    const s = await serve(path.join(APP, 'es'), { isolation });
    try {
      const out = await checkPage(`${s.origin}/`, { isolated: isolation, build: 'simd', label: `esbuild compat, isolation ${isolation}` });
      if (isolation) assert.match(out.fallback, /simd/, 'compat on an isolated page says why it runs simd');
    } finally { await s.close(); }
  }
});

test('esbuild: `esbuild --bundle` of tribo has no node:* import and resolves', () => {
  write('es2/main.js', "import { init } from 'tribo'; init().then((t) => console.log(t.build));\n");
  run('npx', ['esbuild', '--bundle', 'es2/main.js', '--format=esm', '--outfile=es2/out.js', '--log-level=warning']);
  const bundle = fs.readFileSync(path.join(APP, 'es2/out.js'), 'utf8');
  assert.ok(!/"node:[a-z_/]+"/.test(bundle), 'no node:* specifier in the browser bundle');
});

test('another origin (CORS): isolated uses threads through same-origin worker trampolines, not isolated simd', async () => {
  const cdn = await serve(path.join(APP, 'node_modules'), { cors: true });
  const html = `<!doctype html><meta charset="utf-8"><script type="importmap">{"imports":{"tribo":"${cdn.origin}/tribo/js/index.js"}}</script>
<script type="module" src="./main.js"></script>`;
  write('cross/index.html', html);
  write('cross/main.js', PAGE_MAIN('tribo'));
  try {
    for (const isolation of [true, false]) {
      const s = await serve(path.join(APP, 'cross'), { isolation });
      try {
        await checkPage(`${s.origin}/`, { isolated: isolation, build: isolation ? 'threads' : 'simd', label: `cross-origin, isolation ${isolation}` });
      } finally { await s.close(); }
    }
  } finally { await cdn.close(); }
});

test('a pthread worker script that cannot load: init() falls back to simd, names the file, notes it once', async () => {
  // The package's files served with CORP (embeddable) but the pthread worker script blocked (404);
  // once with the wasm held back 1.5 s, so that the worker's failure comes before the threads
  // build has compiled (init() used to wait for that worker forever).
  for (const wasmDelay of [0, 1500]) {
    const cdn = await serve(path.join(APP, 'node_modules'), { cors: true, delay: (p) => (p.endsWith('.wasm') ? wasmDelay : 0) });
    const html = `<!doctype html><meta charset="utf-8"><script type="module">
import { init } from '${cdn.origin}/tribo/js/index.js';
const t = await init({ locateFile: (name) => name.endsWith('.worker.js') ? '${cdn.origin}/missing.worker.js' : undefined });
const w = t.createWorld({}); w.step(1);
window.__result = { build: t.build, fallback: t.fallback };
</script>`;
    write('fallback/index.html', html);
    const s = await serve(path.join(APP, 'fallback'), { isolation: true });
    try {
      const { page, out, notes } = await load(`${s.origin}/`);
      await page.close();
      assert.equal(out.build, 'simd', `wasm held back ${wasmDelay} ms: ${JSON.stringify(out)}`);
      assert.match(out.fallback, /pthread worker .*missing\.worker\.js/, 'the fallback names the file that failed');
      assert.equal(notes.filter((n) => n.startsWith('tribo: using')).length, 1, 'one console note');
    } finally { await cdn.close(); await s.close(); }
  }
});

test('<tribo-scene>: two on a plain page draw, markers equal the API count, removal frees the world', async () => {
  const html = `<!doctype html><meta charset="utf-8">
<script type="importmap">{"imports":{"tribo/element":"/node_modules/tribo/js/element.js"}}</script>
<script type="module" src="/node_modules/tribo/js/element.js"></script>
<tribo-scene id="a" scene="stack" show="points forces" style="width:320px;height:180px"></tribo-scene>
<tribo-scene id="b" style="width:320px;height:200px" plot="1">
  <script type="application/json">{"world":{"preset":"physx-tgs"},"bodies":[
    {"type":"static","shapes":[{"type":"plane","normal":[0,1,0],"offset":0}]},
    {"position":[0,0.5,0],"shapes":[{"type":"sphere","radius":0.5,"density":1000}]}]}</script>
</tribo-scene>
<script type="module">
await customElements.whenDefined('tribo-scene');
const els = [...document.querySelectorAll('tribo-scene')];
await Promise.all(els.map((e) => e.ready));
await new Promise((r) => setTimeout(r, 1500));
const res = { loads: customElements.get('tribo-scene').engineLoads, scenes: [] };
for (const e of els) {
  e.setAttribute('paused', '');
  await new Promise((r) => setTimeout(r, 200));
  const f = await e.world.frame();
  const px = e.canvas.getContext('2d').getImageData(0, 0, e.canvas.width, e.canvas.height).data;
  const colours = new Set(); let lit = 0;
  for (let i = 0; i < px.length; i += 4) { const k = (px[i] << 16) | (px[i + 1] << 8) | px[i + 2]; colours.add(k); if (k !== 0x1b1f27) lit++; }
  res.scenes.push({ apiCount: f.contacts.count, drawnCount: e.stats.contacts, markers: e.stats.markers, colours: colours.size, lit: lit / (px.length / 4),
    live: await e.world.liveBytes(), base: e.world.baseBytes });
}
const b = els[1];
b.remove();
res.freedLive = await b.freed;
res.afterRemove = b.world;
window.__result = res;
</script>`;
  write('scene/index.html', html);
  const s = await serve(APP, { isolation: false });
  try {
    const { page, out, errors } = await load(`${s.origin}/scene/`);
    await page.close();
    assert.deepEqual(errors, []);
    assert.equal(out.loads, 1, 'two elements, one engine load');
    for (const sc of out.scenes) {
      assert.ok(sc.apiCount > 0, `contacts ${JSON.stringify(sc)}`);
      assert.equal(sc.drawnCount, sc.apiCount, 'the drawn frame is the API frame');
      assert.equal(sc.markers, sc.apiCount, 'one marker per contact');
      assert.ok(sc.colours > 4 && sc.lit > 0.01, `non-blank canvas ${JSON.stringify(sc)}`);
      assert.ok(sc.live > sc.base, 'a world holds engine memory');
    }
    assert.equal(out.freedLive, out.scenes[1].base, 'removing the element returns the live bytes');
    assert.equal(out.afterRemove, null);
  } finally { await s.close(); }
});

test('TypeScript: a user program on the new entry points passes tsc --strict', () => {
  write('ts/user.ts', `import { init, createWorkerWorld, type Tribo } from 'tribo';
import * as compat from 'tribo/compat';
import { TriboScene } from 'tribo/element';
import { ContactOverlay } from 'tribo/three';
declare const scene: { add(o: object): unknown; remove(o: object): unknown };
async function main(): Promise<number> {
  const t: Tribo = await init({ locateFile: (name: string) => new URL(name, 'https://cdn.example/tribo/dist/') });
  const b: 'threads' | 'simd' = t.build;
  const why: string | null = t.fallback;
  const c = await compat.init();
  const ww = await createWorkerWorld({ wasmURL: '/tribo_simd.wasm' });
  const frame = await ww.step();
  const overlay = new ContactOverlay(scene, { newtonsPerMetre: 300 });
  const stats = overlay.update(frame);
  overlay.update(c.createWorld({}).contacts);
  const el = document.createElement('tribo-scene') as TriboScene;
  el.setAttribute('show', 'points forces');
  const live: number = await (el.freed ?? Promise.resolve(0));
  overlay.dispose();
  return stats.markers + live + (why ? 1 : 0) + (b === 'simd' ? 0 : 1);
}
main();
`);
  write('ts/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], skipLibCheck: true }, files: ['user.ts'] }));
  write('ts/bad.ts', "import { init } from 'tribo';\ninit({ locateFile: 42 });\n");
  run('npx', ['tsc', '-p', 'ts/tsconfig.json']);
  assert.throws(() => run('npx', ['tsc', '--strict', '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'ts/bad.ts']), (e) => /bad\.ts\(2,.*TS2322/.test(e.stdout), 'a wrong locateFile type is rejected');
});

test('prepack refuses to pack without the built dist/ files, naming them', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'tribo-dist-'));
  try {
    assert.throws(() => execFileSync('node', ['tools/prepack.mjs'], { cwd: ROOT, env: { ...process.env, TRIBO_DIST: empty }, encoding: 'utf8', stdio: 'pipe' }),
      (e) => e.status === 1 && /refusing to pack: .* lacks tribo_simd\.web\.mjs/.test(e.stderr));
    execFileSync('node', ['tools/prepack.mjs'], { cwd: ROOT, env: { ...process.env, TRIBO_DIST: path.join(ROOT, 'dist') } });
  } finally { fs.rmSync(empty, { recursive: true, force: true }); }
});
