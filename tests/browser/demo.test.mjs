// Browser test of the Tribo demo page (demos/index.html) in headless Chromium via playwright-core.
//
//   make && node --test tests/browser/demo.test.mjs
//
// Starts web/server.mjs in-process twice (cross-origin isolated, then not), loads /demos/ and checks:
//   - isolated: crossOriginIsolated === true and the worker world runs the 'threads' build;
//     not isolated: crossOriginIsolated === false and the 'simd' build;
//   - the WebGL canvas is not blank (many colours, mostly non-background pixels, contact markers visible);
//   - on a paused (frozen) frame: contactCount > 0 and drawnContactMarkers === contactCount, and the
//     frame counter no longer moves;
//   - isolated run only: the Step, Drop and Reset buttons (one frame, one more body, initial scene);
//   - no uncaught page errors (console errors and failed requests are reported in failure messages).
//
// Env: TRIBO_CHROMIUM (default /usr/bin/chromium); TRIBO_TEST_SHOTS=dir saves screenshots there
// (on failure a screenshot is always written to the OS temp dir and named in the message).
// WebGL: '--disable-gpu' in headless Chromium 156 falls back to SwiftShader (ANGLE/Vulkan) by itself;
// '--enable-unsafe-swiftshader' is added so that newer Chromium versions keep allowing that fallback.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.TRIBO_CHROMIUM || '/usr/bin/chromium';
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--enable-unsafe-swiftshader',
];
const BACKGROUND = [0x1b, 0x1f, 0x27]; // web/renderer.js BACKGROUND
/* the machine may be loaded (a worker world of the threads build starts a pthread pool; Reset and a
 * preset change start a new one): waits are generous */
const READY_TIMEOUT = 45_000;
const SETTLE_TIMEOUT = 30_000;
const ACTION_TIMEOUT = 30_000; // Step, Drop
const RESET_TIMEOUT = 60_000;
const MIN_STEPS = 20; // frames simulated before the frozen-frame checks

let browser;

function missingPrerequisites() {
  const missing = [];
  if (!fs.existsSync(CHROMIUM)) missing.push(`Chromium not found at ${CHROMIUM} (apt-get install chromium, or set TRIBO_CHROMIUM)`);
  if (!fs.existsSync(path.join(ROOT, 'js/index.js'))) missing.push('js/index.js (the JavaScript API) is missing');
  for (const f of ['dist/tribo_simd.mjs', 'dist/tribo_simd.wasm', 'dist/tribo_mt.mjs', 'dist/tribo_mt.wasm']) {
    if (!fs.existsSync(path.join(ROOT, f))) missing.push(`${f} is missing (run \`make\` in the repository root)`);
  }
  if (!fs.existsSync(path.join(ROOT, 'node_modules/three/build/three.module.js'))) missing.push('node_modules/three is missing (run `npm install`)');
  return missing;
}

before(async () => {
  const missing = missingPrerequisites();
  assert.equal(missing.length, 0, `demo test prerequisites:\n  ${missing.join('\n  ')}`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS, headless: true, timeout: 30_000 });
});

after(async () => {
  await browser?.close();
});

/** Opens the demo on a fresh server; collects page errors, console errors and failed requests. */
async function openDemo(isolation, viewport = { width: 1000, height: 640 }) {
  const server = await startServer({ port: 0, isolation });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const log = { pageErrors: [], consoleErrors: [], failedRequests: [] };
  page.on('pageerror', (err) => log.pageErrors.push(err.stack || err.message || String(err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') log.consoleErrors.push(msg.text());
  });
  page.on('requestfailed', (req) => log.failedRequests.push(`${req.url()} (${req.failure()?.errorText})`));
  page.on('response', (res) => {
    if (res.status() >= 400) log.failedRequests.push(`${res.url()} -> HTTP ${res.status()}`);
  });
  const close = async () => {
    await context.close().catch(() => {});
    await server.close();
  };
  return { server, page, log, close };
}

function describeLog(log) {
  const lines = [];
  if (log.pageErrors.length) lines.push(`uncaught page errors:\n    ${log.pageErrors.join('\n    ')}`);
  if (log.consoleErrors.length) lines.push(`console errors:\n    ${log.consoleErrors.slice(0, 10).join('\n    ')}`);
  if (log.failedRequests.length) lines.push(`failed requests:\n    ${log.failedRequests.slice(0, 10).join('\n    ')}`);
  return lines.length ? `\n  ${lines.join('\n  ')}` : '';
}

async function saveShot(page, name) {
  const dir = process.env.TRIBO_TEST_SHOTS || path.join(ROOT, 'build/screenshots');
  const file = path.join(dir, `tribo-demo-${name}.png`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: file, timeout: 10_000 });
    return file;
  } catch {
    return '(screenshot failed)';
  }
}

/** Waits for window.tribo.ready (or window.tribo.error) and fails with the page's own message. */
async function waitReady(page, log) {
  try {
    await page.waitForFunction(() => window.tribo && (window.tribo.ready || window.tribo.error), null, { timeout: READY_TIMEOUT, polling: 100 });
  } catch {
    const state = await page.evaluate(() => (window.tribo ? { ...window.tribo } : null)).catch(() => null);
    assert.fail(`demo did not become ready within ${READY_TIMEOUT / 1000} s; window.tribo = ${JSON.stringify(state)}${describeLog(log)}`);
  }
  const err = await page.evaluate(() => window.tribo.error);
  assert.equal(err, null, `demo reported an error: ${err}${describeLog(log)}`);
}

/** Waits until the simulation has run MIN_STEPS frames and has contacts. */
async function waitSettled(page, log) {
  try {
    await page.waitForFunction((min) => window.tribo.frame >= min && window.tribo.contactCount > 0, MIN_STEPS, { timeout: SETTLE_TIMEOUT, polling: 100 });
  } catch {
    const s = await page.evaluate(() => ({ ...window.tribo }));
    assert.fail(`simulation did not reach ${MIN_STEPS} steps with contacts within ${SETTLE_TIMEOUT / 1000} s: ` +
      `frame=${s.frame} contactCount=${s.contactCount} error=${s.error}${describeLog(log)}`);
  }
}

/** Reads the WebGL canvas back (the renderer keeps its drawing buffer) and counts colours. */
async function canvasStats(page) {
  return page.evaluate((bg) => {
    const c = document.getElementById('view');
    const w = c.width;
    const h = c.height;
    const tmp = document.createElement('canvas');
    tmp.width = w;
    tmp.height = h;
    const ctx = tmp.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(c, 0, 0);
    const d = ctx.getImageData(0, 0, w, h).data;
    const colours = new Set();
    let nonBackground = 0;
    let markerLike = 0; // the contact markers' red-orange (#ff4d2e)
    let arrowLike = 0; // the force arrows' yellow (#ffd23f)
    for (let i = 0; i < d.length; i += 4) {
      const r = d[i], g = d[i + 1], b = d[i + 2];
      colours.add(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3));
      if (Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]) > 12) nonBackground++;
      if (r > 220 && g > 40 && g < 120 && b < 90) markerLike++;
      if (r > 220 && g > 180 && b < 120) arrowLike++;
    }
    return { width: w, height: h, pixels: w * h, distinctColours: colours.size, nonBackground, markerLike, arrowLike };
  }, BACKGROUND);
}

function assertDrawn(stats, label, { expectMarkers }) {
  const msg = `${label}: canvas looks blank or incomplete: ${JSON.stringify(stats)}`;
  assert.ok(stats.pixels > 0, msg);
  assert.ok(stats.distinctColours > 50, `${msg} (expected > 50 distinct colours)`);
  assert.ok(stats.nonBackground > 0.1 * stats.pixels, `${msg} (expected > 10% non-background pixels)`);
  if (expectMarkers) assert.ok(stats.markerLike > 20, `${msg} (expected contact-marker pixels)`);
}

/** Pauses and checks the frozen frame: markers drawn === contacts, contacts > 0, frame not moving. */
async function checkFrozenFrame(page, log, label) {
  const paused = await page.evaluate(() => window.tribo.pause());
  await page.waitForTimeout(400);
  const later = await page.evaluate(() => ({ ...window.tribo }));
  assert.equal(later.frame, paused.frame, `${label}: frame counter moved while paused (${paused.frame} -> ${later.frame})`);
  assert.ok(later.contactCount > 0, `${label}: no contacts on the paused frame (the pyramid rests on the ground, so contacts are expected): ${JSON.stringify(later)}${describeLog(log)}`);
  assert.equal(later.drawnContactMarkers, later.contactCount,
    `${label}: drawnContactMarkers (${later.drawnContactMarkers}) !== contactCount (${later.contactCount}) on frame ${later.frame}`);
  return later;
}

/** The buttons: Step advances one frame, Drop adds a body, Reset restores the built world (bitwise its first frame). */
async function checkButtons(page, log, label, frozen) {
  const read = () => page.evaluate(() => ({ ...window.tribo }));
  await page.click('#btn-step');
  await page.waitForFunction((f) => window.tribo.frame === f + 1, frozen.frame, { timeout: ACTION_TIMEOUT }).catch(async () => {
    assert.fail(`${label}: Step did not advance exactly one frame from ${frozen.frame}: ${JSON.stringify(await read())}${describeLog(log)}`);
  });
  const stepped = await read();
  assert.equal(stepped.drawnContactMarkers, stepped.contactCount, `${label}: after Step, drawnContactMarkers !== contactCount`);
  await page.click('#btn-drop');
  await page.waitForFunction((n) => window.tribo.bodyCount === n + 1, frozen.bodyCount, { timeout: ACTION_TIMEOUT }).catch(async () => {
    assert.fail(`${label}: Drop did not add a body: ${JSON.stringify(await read())}${describeLog(log)}`);
  });
  await page.click('#btn-reset');
  await page.waitForFunction((n) => window.tribo.bodyCount === n && window.tribo.frame <= 2, frozen.bodyCount, { timeout: RESET_TIMEOUT }).catch(async () => {
    assert.fail(`${label}: Reset did not restore the initial scene (${frozen.bodyCount} bodies, frame 1): ${JSON.stringify(await read())}${describeLog(log)}`);
  });
  const after = await read();
  assert.equal(after.paused, true, `${label}: Reset should keep the paused state`);
  assert.equal(after.error, null, `${label}: error after Reset: ${after.error}`);
  /* Reset restores the snapshot of the built world: its first frame again, bitwise */
  const hash = await page.evaluate(() => window.tribo.transformHash());
  assert.equal(after.frame, 1, `${label}: Reset shows the first frame`);
  assert.ok(after.firstFrameHash !== null, `${label}: the first frame's transforms were hashed`);
  assert.equal(hash, after.firstFrameHash, `${label}: body transforms after Reset differ from the first frame's`);
}

async function runDemoChecks(t, { isolation, expectBuild, name, buttons = false, phone = false }) {
  const { page, log, close, server } = await openDemo(isolation, phone ? { width: 390, height: 780 } : undefined);
  let failed = true;
  try {
    await page.goto(`${server.url}pyramid.html`, { waitUntil: 'load', timeout: READY_TIMEOUT });
    await waitReady(page, log);

    const coi = await page.evaluate(() => globalThis.crossOriginIsolated);
    assert.equal(coi, isolation, `${name}: crossOriginIsolated is ${coi}, expected ${isolation} (server isolation=${isolation})`);
    const build = await page.evaluate(() => window.tribo.build);
    assert.equal(build, expectBuild, `${name}: window.tribo.build is '${build}', expected '${expectBuild}'`);

    await waitSettled(page, log);
    const frozen = await checkFrozenFrame(page, log, name);
    // render the frozen frame once more before reading it back
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const stats = await canvasStats(page);
    assertDrawn(stats, name, { expectMarkers: true });

    const status = await page.locator('#status').textContent(); /* textContent: the panel may be folded (phone) */
    assert.match(status, new RegExp(`build: ${expectBuild}`), `${name}: status line does not name the build: ${status}`);
    assert.match(status, new RegExp(`contacts: ${frozen.contactCount}\\b`), `${name}: status line does not show the contact count ${frozen.contactCount}: ${status}`);

    if (buttons) await checkButtons(page, log, name, frozen);

    // picking: the view's centre is the pyramid (a body carrying weight); near the bottom edge, the ground
    const centre = await page.evaluate(() => window.tribo.pick(0, 0));
    assert.ok(centre && centre.hit, `${name}: a pick at the view centre hits something`);
    assert.ok(centre.hit.body >= 0, `${name}: the view centre is a moving body (got body ${centre.hit.body})`);
    assert.ok(centre.hit.distance > 1 && centre.hit.distance < 20, `${name}: pick distance ${centre.hit.distance} m`);
    assert.ok(centre.wrench && centre.wrench.force[1] > 1, `${name}: the picked body is held up by its contacts (f_y ${centre.wrench?.force[1]} N)`);
    const ground = await page.evaluate(() => window.tribo.pick(0, -0.95));
    assert.ok(ground.hit && ground.hit.body === -1 && Math.abs(ground.hit.point[1]) < 1e-3, `${name}: near the bottom edge the ground plane y = 0 is hit`);
    assert.match(await page.locator('#pick').textContent(), /pick: shape \d+ \(static\)/, `${name}: the pick is described`);

    if (buttons) {
      // the picked body's contact force is plotted over time: its weight is carried (F_y > 0)
      await page.evaluate(() => window.tribo.pick(0, 0));
      const samples = await page.evaluate(async () => { for (let i = 0; i < 4; i++) await window.tribo.step(); return window.tribo.forceSamples; });
      assert.ok(samples >= 2, `${name}: force–time plot of the picked body gets a sample per frame (got ${samples})`);
      assert.equal(await page.locator('#force-plot').isVisible(), true, `${name}: force plot shown`);
    }
    if (phone) {
      // a phone: the panel is a folded sheet at the bottom, the scene stays visible
      const box = await page.locator('#panel').boundingBox();
      assert.ok(box.height < 0.25 * 780, `${name}: folded panel height ${box.height} px of 780`);
      assert.equal(await page.evaluate(() => document.getElementById('panel-body').open), false, `${name}: panel folded on a phone`);
    }
    if (buttons) {
      // the preset selector rebuilds the same scene under another engine's contact semantics
      await page.evaluate(() => window.tribo.setPreset('newton-xpbd'));
      await page.evaluate(() => window.tribo.step());
      assert.match(await page.locator('#status').innerText(), /preset: newton-xpbd/, `${name}: status names the preset`);
      const after = await page.evaluate(() => ({ contacts: window.tribo.contactCount, error: window.tribo.error }));
      assert.equal(after.error, null, `${name}: no error after switching preset`);
      assert.ok(after.contacts > 0, `${name}: the XPBD world has contacts`);
      // mujoco, kamino and genesis are in the selector; the panel states what each one's force contains
      for (const [preset, says] of [['mujoco', /mj_contactForce/], ['kamino', /PADMM/], ['genesis', /force_a/]]) {
        await page.evaluate((p) => window.tribo.setPreset(p), preset);
        await page.evaluate(() => window.tribo.step());
        await page.waitForFunction((p) => window.tribo.readbackInfo?.preset === p, preset, { timeout: 60000 });
        assert.match(await page.locator('#status').innerText(), new RegExp(`preset: ${preset}`), `${name}: status names ${preset}`);
        assert.match(await page.locator('#readback-info').textContent(), says, `${name}: ${preset} readback statement shown`);
        assert.equal(await page.evaluate(() => window.tribo.error), null, `${name}: no error under ${preset}`);
      }
    }

    assert.deepEqual(log.pageErrors, [], `${name}: uncaught page errors${describeLog(log)}`);
    const threads = await page.evaluate(() => window.tribo.threads);
    t.diagnostic(`${name}: build=${build} threads=${threads} frame=${frozen.frame} bodies=${frozen.bodyCount} contacts=${frozen.contactCount} ` +
      `overflowed=${frozen.overflowed} colours=${stats.distinctColours} nonBackground=${(100 * stats.nonBackground / stats.pixels).toFixed(0)}%`);
    if (log.consoleErrors.length) t.diagnostic(`${name}: console errors: ${log.consoleErrors.join(' | ')}`);
    if (log.failedRequests.length) t.diagnostic(`${name}: failed requests: ${log.failedRequests.join(' | ')}`);
    await saveShot(page, name);
    failed = false;
  } finally {
    if (failed) {
      const shot = await saveShot(page, name);
      t.diagnostic(`${name}: screenshot at ${shot}${describeLog(log)}`);
    }
    await close();
  }
}

test('demo, cross-origin isolated: threads build, draws, contact markers match contacts, buttons work, picked body\'s force plotted', { timeout: 240_000 }, async (t) => {
  await runDemoChecks(t, { isolation: true, expectBuild: 'threads', name: 'isolated', buttons: true });
});

test('demo, not isolated (--no-isolation): simd build, draws, phone layout keeps the scene visible', { timeout: 150_000 }, async (t) => {
  await runDemoChecks(t, { isolation: false, expectBuild: 'simd', name: 'no-isolation', phone: true });
});

test('demo scene selector: a pendulum and a hinged chain run in the worker world, also under the mujoco solver', { timeout: 240_000 }, async (t) => {
  const { server, page, log, close } = await openDemo(false);
  const t0 = Date.now();
  try {
    await page.goto(`${server.url}pyramid.html?scene=pendulum&paused=1`, { waitUntil: 'load', timeout: READY_TIMEOUT });
    await waitReady(page, log);
    assert.equal(await page.evaluate(() => window.tribo.bodyCount), 2, 'ground and bob');
    /* the bob swings: released from 1.2 rad at 2 m, after 0.5 s it has moved */
    const frame0 = await page.evaluate(() => window.tribo.lastFrame().bodies.transform.slice(7, 10));
    for (let i = 0; i < 30; i++) await page.evaluate(() => window.tribo.step());
    const frame1 = await page.evaluate(() => window.tribo.lastFrame().bodies.transform.slice(7, 10));
    const r = Math.hypot(frame1[0] - 0, frame1[1] - 3.2);
    assert.ok(Math.abs(r - 2) < 0.02, `the bob stays 2 m from the pivot (${r} m)`);
    assert.ok(frame1[0] < frame0[0] - 0.3, `the bob swung (x ${frame0[0]} → ${frame1[0]} m)`);
    await page.evaluate(() => window.tribo.setScene('chain'));
    for (let i = 0; i < 10; i++) await page.evaluate(() => window.tribo.step());
    assert.equal(await page.evaluate(() => window.tribo.bodyCount), 11, 'ground and ten links');
    assert.match(await page.locator('#status').innerText(), /scene: chain/);
    await saveShot(page, 'chain');
    /* the mujoco solver solves the chain too (equality rows): it runs, no refusal, no page error */
    await page.evaluate(() => window.tribo.setPreset('mujoco'));
    for (let i = 0; i < 10; i++) await page.evaluate(() => window.tribo.step());
    assert.equal(await page.evaluate(() => window.tribo.refused), null, 'the chain runs under mujoco');
    assert.equal(await page.evaluate(() => window.tribo.error), null);
    assert.equal(await page.evaluate(() => window.tribo.bodyCount), 11, 'ground and ten links under mujoco');
    assert.deepEqual([...log.pageErrors, ...log.consoleErrors], [], `page errors${describeLog(log)}`);
    t.diagnostic(`scenes: ok in ${Date.now() - t0} ms`);
  } finally {
    await close();
  }
});
