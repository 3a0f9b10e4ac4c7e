#!/usr/bin/env node
// Tribo against peer engines, in one node run: `npm run bench` / `make bench`.
//
// Scenes (bench/scenes.mjs): pyramid (210 cubes), pile (1000 mixed bodies in a box container),
// readback (contact normal impulse of a resting 1 kg sphere against m·g).
// Engines are named `<module>[:<param>]…`: the adapter bench/engines/<module>.mjs, and parameters
// (a word or key=value) handed to its load() and engineId(), which gives the row name in the
// report. Default set: tribo:simd, tribo:threads (JS API, js/index.js, default world = the
// physx-tgs preset; rows tribo-simd, tribo-threads), tribo-native (bench/native_bench.c, run as a
// child), one entry per Tribo preset tribo:preset=<name> (simd build, 1 thread; rows
// tribo-physx-pgs, tribo-physx-tgs, tribo-newton-xpbd, tribo-newton-semi, …), rapier, rapier-simd,
// havok, jolt, cannon. `mujoco` (MuJoCo's own wasm build, the peer of tribo:preset=mujoco) runs
// only when named: its pile steps take seconds each.
//
// Environment:
//   BENCH_ROUNDS   rounds per engine and scene (default 3); figures are medians over rounds
//   BENCH_STEPS    steps of the pyramid and pile scenes (default 600; timing window = second half)
//   BENCH_ENGINES  comma list of engine names to run instead of the default set
//   BENCH_SCENES   comma list of pyramid,pile,readback (default: all)
//   BENCH_OUT      results file (default bench/RESULTS.md; '-' = do not write)
//   BENCH_ISOLATE  engines run in a child process per scene and round, killed when a step makes
//                  no progress for BENCH_HANG_S seconds (default: every engine but tribo-native,
//                  itself a child process; 30 s, or an adapter's own hangSeconds when larger)
//   BENCH_SCALING  body counts of the scaling table (piles of 10 layers, 10·side² bodies), e.g.
//                  250,1000,4000,16000 (or 1 for that list); default engines then tribo:simd,
//                  tribo:threads, tribo-native, rapier-simd; ms/step, ms per 1000 bodies, first step;
//                  and per Node engine the smallest against the largest pile in one process
//                  (bench/scaling_ab.mjs, BENCH_SCALING_PAIRS pairs of turns, default 20)
//   BENCH_HOG      1: also run every threads-build entry and tribo:simd with a CPU hog (a busy child process)
//                  beside it, as the row `<entry>+hog`
//   BENCH_TIERING  1: V8's default wasm tiering instead of `node --no-liftoff` (bench/v8_flags.mjs)
//
// RESULTS.md: the generated part sits between the BEGIN/END marker comments below; everything
// after the END marker (the "## Collision…" sections of make bench-collision, bench-mesh,
// bench-broadphase) is kept as it is. Within it the scaling table has its own part: a run writes the
// parts it ran and keeps the other (bench/results_file.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { startHog } from './hog.mjs';
import { crossCoreRoundTripNs } from './core_latency.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mergeResults } from './results_file.mjs';
import { fmtRatio, sceneFailure, speedRatioCell } from './speed_ratio.mjs';
import { roundOrder } from './round_order.mjs';
import { parseEngineName } from './engine_name.mjs';
import * as S from './scenes.mjs';
import { PRESETS } from './engines/tribo.mjs';
import { compilerNote, ensureOptimizingCompiler } from './v8_flags.mjs';

ensureOptimizingCompiler(); // steady-state code of every engine (bench/v8_flags.mjs); children inherit execArgv

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

const ROUNDS = posInt('BENCH_ROUNDS', 3);
const STEPS = posInt('BENCH_STEPS', 600);
const OUT = process.env.BENCH_OUT ?? path.join(HERE, 'RESULTS.md');
const DEFAULT_ENGINES = ['tribo:simd', 'tribo:threads', 'tribo:threads:fixed', 'tribo-native', ...PRESETS.map((p) => `tribo:preset=${p}`),
  'rapier', 'rapier-simd', 'havok', 'jolt', 'cannon'];
const SCALING_ENGINES = ['tribo:simd', 'tribo:threads', 'tribo-native', 'rapier-simd'];
const CHILD = process.argv[2] === '--child'; // one engine, one scene: runIsolated's child process
const SCALING = CHILD ? [] : scalingCounts(process.env.BENCH_SCALING);
const HOG = process.env.BENCH_HOG === '1';
// Selected engines in report order: { name, id (row name), module, params, mod }. The tables key
// everything by id.
const ENTRIES = CHILD ? [] : await engineEntries(listOf(process.env.BENCH_ENGINES) ?? (SCALING.length ? SCALING_ENGINES : DEFAULT_ENGINES));
const ENTRY = new Map(ENTRIES.map((e) => [e.id, e]));
const ENGINES = ENTRIES.map((e) => e.id);
const TRIBO = ENTRIES.filter((e) => e.module.startsWith('tribo')).map((e) => e.id);
const PEERS = ENGINES.filter((e) => !TRIBO.includes(e));
const PRESET_ENGINES = ENTRIES.filter((e) => e.module === 'tribo' && e.params.preset).map((e) => e.id);
// With BENCH_SCALING and no BENCH_SCENES only the scaling table runs.
const SCENE_NAMES = SCALING.length && !process.env.BENCH_SCENES ? []
  : listEnv(process.env.BENCH_SCENES, ['pyramid', 'pile', 'readback']);
// Threads-build entries that also run beside a CPU hog (BENCH_HOG=1), as rows `<id>+hog`, and
// tribo-simd too: a +hog row's threads ratio is taken against the simd build beside the same hog
// (the hog also takes memory bandwidth and shared cache from a single thread).
const HOG_OF = new Map(HOG ? ENTRIES.filter((e) => e.module === 'tribo' && (e.params.threads || e.id === 'tribo-simd'))
  .map((e) => [`${e.id}+hog`, e.id]) : []);
for (const [hogId, id] of HOG_OF) { ENGINES.push(hogId); TRIBO.push(hogId); ENTRY.set(hogId, ENTRY.get(id)); }
// Default: every engine in a fresh process per scene and round (tribo-native is a child process already).
const ISOLATE = CHILD ? ['tribo-threads']
  : process.env.BENCH_ISOLATE === undefined ? ENTRIES.filter((e) => e.module !== 'tribo-native').map((e) => e.id)
  : ['', 'none'].includes(process.env.BENCH_ISOLATE) ? [] : (await engineEntries(listOf(process.env.BENCH_ISOLATE))).map((e) => e.id);
const HANG_S = posInt('BENCH_HANG_S', 30);
/** Seconds without progress before an isolated entry's child is killed: BENCH_HANG_S, or the adapter's hangSeconds when larger. */
const hangSeconds = (id) => Math.max(HANG_S, ENTRY.get(id)?.mod.hangSeconds ?? 0);

/** Environment variable `name` as a positive whole number; unset or empty: dflt. Anything else
 *  (0, -3, 2.5, 12abc, a number past 2^53) stops the run with a message naming the variable. */
function posInt(name, dflt) {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  if (!/^[1-9][0-9]*$/.test(v) || !Number.isSafeInteger(Number(v))) {
    console.error(`${name} must be a positive whole number (got ${JSON.stringify(v)})`);
    process.exit(1);
  }
  return Number(v);
}
/** The pile's columns per side for n bodies (10 layers: n = 10·side²). */
function sideOf(n) { return Math.round(Math.sqrt(n / 10)); }

/** BENCH_SCALING: '1' = 250,1000,4000,16000; else a list of body counts 10·side² (side >= 1). */
function scalingCounts(v) {
  if (!v) return [];
  const counts = v === '1' ? [250, 1000, 4000, 16000] : listOf(v).map(Number);
  for (const n of counts) {
    const side = sideOf(n);
    if (!Number.isInteger(n) || side < 1 || 10 * side * side !== n) {
      console.error(`BENCH_SCALING: ${n} is not a pile size 10·side² (e.g. 250, 1000, 4000, 16000)`);
      process.exit(1);
    }
  }
  return counts;
}
function listOf(v) {
  return v ? v.split(',').map((s) => s.trim()).filter(Boolean) : null;
}
function listEnv(v, all) {
  const want = listOf(v);
  if (!want) return all;
  const bad = want.filter((w) => !all.includes(w));
  if (bad.length) { console.error(`unknown: ${bad.join(', ')} (known: ${all.join(', ')})`); process.exit(1); }
  return all.filter((a) => want.includes(a));
}

/** The adapter of an engine name, and its row name; exits naming a bad engine or parameter. */
async function engineEntry(name) {
  const { module, params } = parseEngineName(name);
  const file = path.join(HERE, 'engines', `${module}.mjs`);
  if (!/^[a-z0-9-]+$/.test(module) || module.endsWith('-common') || !fs.existsSync(file)) {
    throw new RangeError(`unknown engine ${name} (default set: ${DEFAULT_ENGINES.join(', ')})`);
  }
  const mod = await import(pathToFileURL(file).href);
  if (!mod.engineId && Object.keys(params).length) throw new RangeError(`engine ${module} takes no parameters (got ${name})`);
  return { name, id: mod.engineId ? mod.engineId(params) : module, module, params, mod };
}

async function engineEntries(names) {
  try {
    const entries = await Promise.all(names.map(engineEntry));
    const seen = new Map();
    for (const e of entries) {
      if (seen.has(e.id)) throw new RangeError(`${seen.get(e.id)} and ${e.name} are the same entry (${e.id})`);
      seen.set(e.id, e.name);
    }
    return entries;
  } catch (err) {
    console.error(`BENCH_ENGINES / BENCH_ISOLATE: ${err.message}`);
    process.exit(1);
  }
}
const log = (...a) => console.log(...a);
const median = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const m = v.length >> 1;
  return v.length & 1 ? v[m] : (v[m - 1] + v[m]) / 2;
};

/** A scene by name: pyramid, pile, readback, or pile-<bodies> of the scaling table. */
function makeScene(name) {
  switch (name) {
    case 'pyramid': return S.pyramid({ steps: STEPS });
    case 'pile': return S.pile({ steps: STEPS });
    case 'readback': return S.readback();
    default: {
      const m = /^pile-(\d+)$/.exec(name);
      if (!m) throw new Error(name);
      return { ...S.pile({ side: sideOf(Number(m[1])), steps: STEPS }), name };
    }
  }
}
const isPile = (name) => name === 'pile' || name.startsWith('pile-');

// ---------------------------------------------------------------------------------------------
// One engine, one scene, one round (in-process adapters).

/** Larger of a and b; NaN once either is NaN (a NaN position must not hide behind a later finite one). */
function nanMax(a, b) {
  return Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b);
}

function checkPyramid(scene, start, end) {
  const n = start.length / 3;
  let maxDxz = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.hypot(end[3 * i] - start[3 * i], end[3 * i + 2] - start[3 * i + 2]);
    maxDxz = nanMax(maxDxz, d);
  }
  const topDy = end[3 * (n - 1) + 1] - start[3 * (n - 1) + 1];
  return { topDy, maxDxz, stands: Math.abs(topDy) <= 0.1 && maxDxz <= 0.25 };
}

function checkPile(scene, prev, end) {
  const { inner, height } = scene.container;
  const n = end.length / 3;
  let escaped = 0, maxSpeed = 0, maxY = -Infinity, sumY = 0;
  for (let i = 0; i < n; i++) {
    const x = end[3 * i], y = end[3 * i + 1], z = end[3 * i + 2];
    if (!(Math.abs(x) < inner && Math.abs(z) < inner && y > 0 && y < height)) escaped++;
    const v = Math.hypot(x - prev[3 * i], y - prev[3 * i + 1], z - prev[3 * i + 2]) / S.DT;
    maxSpeed = nanMax(maxSpeed, v);
    maxY = Math.max(maxY, y); sumY += y;
  }
  return { escaped, maxSpeed, maxY, meanY: sumY / n };
}

/**
 * A fresh process's first steps compile the engine (wasm tiers, JS JIT): 30 steps of the 250-body
 * pile, freed again, before the timed scene, so that its first step measures the engine's work on
 * a new scene (sort order, new contacts) and not the compiler, for every engine alike.
 */
function warmUp(engine) {
  const world = engine.createWorld(makeScene('pile-250'));
  try {
    for (let s = 0; s < 30; s++) world.step();
  } finally {
    world.free();
  }
}

function runScene(engine, scene, onProgress = null) {
  const n = S.dynamicBodies(scene).length;
  const start = new Float64Array(3 * n), prev = new Float64Array(3 * n), end = new Float64Array(3 * n);
  const world = engine.createWorld(scene);
  try {
    world.readPositions(start);
    const [from, to] = scene.window;
    const times = [];
    let firstMs = NaN;
    for (let s = 0; s < scene.steps; s++) {
      if (onProgress && s % 20 === 0) onProgress(s);
      if (s === scene.steps - 1) world.readPositions(prev);
      const t0 = performance.now();
      world.step();
      const t1 = performance.now();
      if (s === 0) firstMs = t1 - t0;
      if (s >= from && s < to) times.push(t1 - t0);
    }
    world.readPositions(end);
    const res = { ms: median(times), firstMs, bodies: n, ...(world.info?.() ?? {}) };
    for (let i = 0; i < end.length; i++) {
      if (!Number.isFinite(end[i])) { res.nonFinite = true; break; }
    }
    if (scene.name === 'pyramid') Object.assign(res, checkPyramid(scene, start, end));
    if (isPile(scene.name)) Object.assign(res, checkPile(scene, prev, end));
    if (scene.name === 'readback') {
      const r = world.contactNormalImpulse(0);
      if (r.unavailable) res.unavailable = r.unavailable;
      else Object.assign(res, { impulse: r.impulse, points: r.points, source: r.source,
        force: r.impulse / S.DT, ratio: r.impulse / S.DT / scene.expected });
      // Per-body net contact force (N, world, y up): the only readback of a solver without
      // per-contact forces (newton-semi); for the others the sum of their per-contact readback.
      const nf = world.netContactForce?.(0);
      if (nf?.unavailable) res.netUnavailable = nf.unavailable;
      else if (nf) Object.assign(res, { netForce: nf.force, netRatio: nf.force[1] / scene.expected, netSource: nf.source });
      res.restY = end[1];
    }
    return res;
  } finally {
    world.free();
  }
}

// ---------------------------------------------------------------------------------------------
// Isolated engines: one child process (`run.mjs --child <engine> <scene>`) per scene and round.
// The child reports progress every 20 steps on stderr; a child silent for hangSeconds(id) seconds
// (a step that never returns, e.g. a deadlocked thread pool) is killed and the scene reported as an
// error. An adapter whose steps take seconds (mujoco's pile) exports a larger hangSeconds.

function runIsolated(id, sceneName) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', ENTRY.get(id).name, sceneName],
      { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', errText = '', lastStep = -1, phase = 'loading', timer = null, done = false;
    const hangS = hangSeconds(id);
    const finish = (fn, v) => { if (!done) { done = true; clearTimeout(timer); fn(v); } };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        finish(reject, new Error(`no progress for ${hangS} s ${phase === 'loading' ? 'while loading/creating the world'
          : `after step ${lastStep} (a step that does not return; child killed)`}`));
      }, hangS * 1000);
    };
    arm();
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => {
      for (const line of `${d}`.split('\n')) {
        const m = /^@progress (\d+)/.exec(line);
        if (m) { lastStep = Number(m[1]); phase = 'stepping'; arm(); } else if (line.trim()) errText += `${line}\n`;
      }
    });
    child.on('close', (code, signal) => {
      if (done) return;
      const line = out.trim().split('\n').pop() ?? '';
      let msg;
      try { msg = JSON.parse(line); } catch {
        return finish(reject, new Error(`child exited (${signal ?? code}) without a result: ${(errText || out).trim().slice(0, 200)}`));
      }
      if (msg.error) {
        const e = new Error(msg.error);
        e.unavailable = !!msg.unavailable;
        return finish(reject, e);
      }
      finish(resolve, msg.result);
    });
  });
}

async function childMain(name, sceneName) {
  let result;
  try {
    const { mod, params } = await engineEntry(name);
    let eng;
    try {
      eng = await mod.load(params);
    } catch (err) {
      process.stdout.write(`${JSON.stringify({ error: err.message, unavailable: err?.constructor?.name === 'Unavailable' })}\n`);
      process.exit(0);
    }
    warmUp(eng);
    result = runScene(eng, makeScene(sceneName), (s) => process.stderr.write(`@progress ${s}\n`));
    result.notes = eng.notes;
    eng.close?.();
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ error: `${err?.message ?? err}` })}\n`);
    process.exit(0);
  }
  process.stdout.write(`${JSON.stringify({ result })}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Loading engines.

async function loadEngines() {
  const loaded = new Map(), skipped = new Map();
  for (const { id, mod, params } of ENTRIES) {
    try {
      if (ISOLATE.includes(id) && !mod.external) {
        loaded.set(id, { id, isolated: true, notes: null });
        log(`  [${id}] runs in a child process per scene (killed after ${hangSeconds(id)} s without progress)`);
      } else if (mod.external) {
        mod.ensureBinary((m) => log(`  [${id}] ${m}`));
        loaded.set(id, { id, external: true, mod, notes: `native gcc -O2 ${mod.compilerVersion() ?? ''}, 1 thread, Tribo default solver` });
      } else {
        const t0 = performance.now();
        const eng = await mod.load(params);
        eng.packageName = mod.packageName;
        loaded.set(id, eng);
        log(`  [${id}] loaded in ${(performance.now() - t0).toFixed(0)} ms`);
      }
    } catch (err) {
      const reason = err?.constructor?.name === 'Unavailable' ? err.message : `${err?.message ?? err}`;
      skipped.set(id, reason);
      log(`  [${id}] SKIPPED: ${reason}`);
    }
  }
  for (const [hogId, id] of HOG_OF) {
    if (skipped.has(id)) { skipped.set(hogId, skipped.get(id)); continue; }
    loaded.set(hogId, { id: hogId, isolated: true, hog: true, notes: `${id} with a CPU hog (a busy node process) beside it` });
    log(`  [${hogId}] ${id} in a child process with a CPU hog running beside it`);
  }
  return { loaded, skipped };
}

// ---------------------------------------------------------------------------------------------
// Report.

function pkgVersion(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch { return 'not installed'; }
}

/** Text for a Markdown table cell: no pipes or newlines, bounded length. */
function esc(t, max = 160) {
  const s = `${t ?? ''}`.replace(/\s+/g, ' ').replace(/\|/g, '/');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
function fmtMs(x) { return Number.isFinite(x) ? (x < 10 ? x.toFixed(3) : x.toFixed(2)) : '–'; }
function cell(results, id, scene) { return results[id]?.[scene]; }

/** The run's two parts of RESULTS.md: the main tables (null when no scene ran) and the scaling table
 * (null without BENCH_SCALING); a part that did not run keeps its last text (bench/results_file.mjs). */
function buildReport(run) {
  return {
    main: SCENE_NAMES.length ? [buildMainReport(run), nativeReport(run), threadsReport(run)].filter(Boolean).join('\n') : null,
    scaling: SCALING.length ? scalingReport(run) : null,
  };
}

/** wasm (tribo-simd) against native (tribo-native, gcc -O2) ms/step, per scene. */
function nativeReport({ results }) {
  const wasm = results['tribo-simd'], native = results['tribo-native'];
  const scenes = ['pyramid', 'pile'].filter((sc) => wasm?.[sc] && native?.[sc]);
  if (!scenes.length) return '';
  const L = ['## wasm against native: tribo-simd ms / tribo-native ms (1.00 = as fast as native)', ''];
  L.push('| scene | tribo-simd ms/step | tribo-native ms/step | wasm / native |');
  L.push('| --- | ---: | ---: | ---: |');
  for (const sc of scenes) L.push(`| ${sc} | ${fmtMs(wasm[sc].ms)} | ${fmtMs(native[sc].ms)} | ${fmtRatio(wasm[sc].ms / native[sc].ms)} |`);
  L.push('');
  return L.join('\n');
}

/**
 * The threads build against the simd build (one thread): tribo-simd ms / entry ms, computed per
 * round from the two entries' medians of that round, then the median and min–max of those ratios.
 */
function threadsReport({ results }) {
  const simd = results['tribo-simd'];
  const ids = Object.keys(results).filter((id) => /^tribo-threads(-fixed)?(\+hog)?$/.test(id));
  // a +hog row against tribo-simd+hog when it ran (BENCH_HOG=1 runs both), else the quiet simd build
  const refOf = (id) => (id.endsWith('+hog') && results['tribo-simd+hog'] ? results['tribo-simd+hog'] : simd);
  const scenes = ['pyramid', 'pile'].filter((sc) => simd?.[sc]?.rounds);
  if (!scenes.length || !ids.length) return '';
  const L = ['## Threads build against one thread: tribo-simd ms / entry ms (> 1 = faster than the simd build)', ''];
  L.push('Per round (the same round of both entries), then the median and the min–max over the rounds. tribo-threads adapts');
  L.push('(README "Threads": it runs on one thread while that is faster), tribo-threads-fixed always runs both threads; "+hog" =');
  L.push('beside a busy process, against tribo-simd+hog (the simd build beside the same busy process) when that ran. The aims: at');
  L.push('least 1.70 on a quiet machine, and never below 0.95 (5 % slower than the simd build), beside a busy process too.');
  L.push('');
  L.push(`| entry | ${scenes.join(' | ')} |`);
  L.push(`| --- |${scenes.map(() => ' ---: |').join('')}`);
  for (const id of ids) {
    const cells = scenes.map((sc) => {
      const a = refOf(id)?.[sc]?.rounds ?? [], b = results[id]?.[sc]?.rounds ?? [];
      const r = a.map((x, i) => x / b[i]).filter(Number.isFinite);
      return r.length ? `${fmtRatio(median(r))} (${fmtRatio(Math.min(...r))}–${fmtRatio(Math.max(...r))})` : '–';
    });
    L.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  L.push('');
  return L.join('\n');
}

/**
 * The smallest against the largest pile of the scaling table, each Node engine in one child process
 * stepping both in turns (bench/scaling_ab.mjs): the cost per body's growth with both sizes under
 * the same state of the machine. Returns inProcess[id] = its JSON line, or { error }.
 */
function scalingInProcess(loaded, skipped) {
  const sides = [SCALING[0], SCALING[SCALING.length - 1]].map((n) => String(sideOf(n)));
  const pairs = String(posInt('BENCH_SCALING_PAIRS', 20));
  const out = {};
  for (const id of ENGINES.filter((e) => !HOG_OF.has(e) && !skipped.has(e) && loaded.has(e) && !loaded.get(e).external)) {
    log(`scaling in one process: ${id}, ${SCALING[0]} against ${SCALING[SCALING.length - 1]} bodies`);
    try {
      const text = execFileSync(process.execPath, [...process.execArgv, path.join(HERE, 'scaling_ab.mjs'), ...sides, pairs], {
        encoding: 'utf8', env: { ...process.env, ENGINE: ENTRY.get(id).name, SCALING_AB_JSON: '1' }, timeout: 1800 * 1000, stdio: ['ignore', 'pipe', 'pipe'],
      });
      out[id] = JSON.parse(text.trim().split('\n').pop());
      log(`  large / small cost per body ${inProcessCell(out[id])}`);
    } catch (err) {
      out[id] = { error: `${err?.stderr || err?.message || err}`.trim().split('\n')[0].slice(0, 200) };
      log(`  ERROR: ${out[id].error}`);
    }
  }
  return out;
}

/** A scaling_ab result as a cell: median large / small cost per body (95 % interval), or its error. */
function inProcessCell(ip) {
  if (!ip) return '–';
  return ip.error ? `error: ${esc(ip.error, 60)}` : `${fmtRatio(ip.ratio)} (${ip.lo.toFixed(2)}–${ip.hi.toFixed(2)})`;
}

/** Scaling table: per engine and pile size, ms/step, ms per 1000 bodies and the first step. */
function scalingReport(run) {
  const { skipped, scaling, errors, inProcess = {} } = run;
  const L = [`## Scaling: piles of ${SCALING.join(' / ')} bodies (10 layers, same bodies per m² of floor)`, ''];
  L.push('Each cell: ms/step (timing window) · ms per 1000 bodies · first step ms. "flat" = largest / smallest ms per');
  L.push('1000 bodies over the sizes (1.00 = cost per body independent of the scene size); "flat, fastest rounds" = the');
  L.push('same from each size\'s fastest round instead of its median (a shared host\'s slow periods only add time, and one');
  L.push('that falls on two rounds of one size moves its median: bench/RESULTS.md "perf41"); "first / later" = the');
  L.push('largest first step over that size\'s ms/step (in a child process, after a warm-up of 30 steps of a 250-body pile');
  L.push('that compiles the engine; tribo-native: its own process, no warm-up). Memory: Tribo\'s live bytes at the end of the');
  L.push('largest pile, per body. "flat in one process" = the smallest against the largest pile of one Node engine');
  L.push('stepping in turns in one child process (bench/scaling_ab.mjs): the median over the pairs of turns of their');
  L.push('cost per body\'s ratio with its 95 % interval, both sizes under the same state of the machine.');
  L.push('');
  const m = run.meta;
  L.push(`Run: ${m.date}, Tribo ${m.tribo}, \`nproc\` = ${m.nproc}, ${m.cpu}, cross-core round trip ${m.roundTripStart} then ` +
    `${m.roundTripEnd} ns, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} of ${STEPS} steps (timing window from step ${S.windowFor(STEPS)[0]}), ` +
    `${m.totalS.toFixed(0)} s in all; kept by runs without BENCH_SCALING, so it may be older than the tables above.`);
  L.push('');
  L.push(`| engine | ${SCALING.map((n) => `${n} bodies`).join(' | ')} | flat | flat, fastest rounds | flat in one process | first / later | bytes per body |`);
  L.push(`| --- |${SCALING.map(() => ' ---: |').join('')} ---: | ---: | ---: | ---: | ---: |`);
  for (const id of ENGINES.filter((e) => !HOG_OF.has(e))) {
    // a skipped engine: its reason in the first size's cell, the other cells empty
    if (skipped.has(id)) { L.push(`| ${id} | skipped: ${esc(skipped.get(id))} |${' |'.repeat(SCALING.length + 4)}`); continue; }
    const row = SCALING.map((n) => scaling[id]?.[n]);
    const per = row.map((r, i) => r ? r.ms / SCALING[i] * 1000 : NaN);
    const cells = row.map((r, i) => errors[`${id}/pile-${SCALING[i]}`] ? `error: ${esc(errors[`${id}/pile-${SCALING[i]}`], 60)}`
      : r ? `${fmtMs(r.ms)} · ${fmtMs(per[i])} · ${fmtMs(r.firstMs)}${r.escaped ? ` (${r.escaped} escaped)` : ''}` : '–');
    // a pile that lost bodies did other work (bench/speed_ratio.mjs): no part in the ratio
    const ok = per.filter((x, i) => Number.isFinite(x) && !sceneFailure('pile', row[i]));
    const left = row.filter((r) => r && sceneFailure('pile', r)).length;
    // largest over smallest ms per 1000 bodies, from each size's median and from its fastest round
    const spread = (xs) => (xs.length > 1 ? fmtRatio(Math.max(...xs) / Math.min(...xs)) : '–');
    const flat = spread(ok) + (left ? ` (${left} size${left > 1 ? 's' : ''} with escaped bodies left out)` : '');
    const fastest = row.map((r, i) => r && !sceneFailure('pile', r) ? Math.min(...r.rounds) / SCALING[i] * 1000 : NaN).filter(Number.isFinite);
    const flatFastest = spread(fastest);
    const first = row.map((r) => r ? r.firstMs / r.ms : NaN).filter(Number.isFinite);
    const last = row[row.length - 1];
    const bytes = last?.liveBytes ? (last.liveBytes / SCALING[SCALING.length - 1]).toFixed(0) : '–';
    L.push(`| ${id} | ${cells.join(' | ')} | ${flat} | ${flatFastest} | ${inProcessCell(inProcess[id])} | ${first.length ? fmtRatio(Math.max(...first)) : '–'} | ${bytes} |`);
  }
  L.push('');
  return L.join('\n');
}

function buildMainReport({ loaded, skipped, results, errors, meta }) {
  const L = [];
  const ids = ENGINES;
  const hasScene = (s) => SCENE_NAMES.includes(s);
  L.push('## Median ms/step (steps ' + (hasScene('pyramid') ? `${S.windowFor(STEPS)[0]}–${STEPS}` : '') +
    `, median over ${ROUNDS} round${ROUNDS > 1 ? 's' : ''})`);
  L.push('');
  L.push('| engine | pyramid ms/step | pyramid stands (top Δy, max horiz. move) | pile ms/step | pile end (escaped, max speed, max y) | notes |');
  L.push('| --- | ---: | --- | ---: | --- | --- |');
  for (const id of ids) {
    if (skipped.has(id)) { L.push(`| ${id} | skipped | | | | ${esc(skipped.get(id))} |`); continue; }
    const p = cell(results, id, 'pyramid'), q = cell(results, id, 'pile');
    const pErr = errors[`${id}/pyramid`], qErr = errors[`${id}/pile`];
    const pyr = !hasScene('pyramid') ? ['', ''] : pErr ? ['error', esc(pErr)] : p ? [fmtMs(p.ms),
      `${p.stands ? 'yes' : 'NO'} (${p.topDy.toFixed(3)} m, ${p.maxDxz.toFixed(3)} m)${p.nonFinite ? ' NaN!' : ''}`] : ['–', ''];
    const pil = !hasScene('pile') ? ['', ''] : qErr ? ['error', esc(qErr)] : q ? [fmtMs(q.ms),
      `${q.escaped}, ${q.maxSpeed.toFixed(2)} m/s, ${q.maxY.toFixed(2)} m${q.nonFinite ? ' NaN!' : ''}`] : ['–', ''];
    L.push(`| ${id} | ${pyr[0]} | ${pyr[1]} | ${pil[0]} | ${pil[1]} | ${esc(loaded.get(id)?.notes)} |`);
  }
  L.push('');

  // Ratios: peer ms / tribo ms (> 1: Tribo faster).
  const tribos = TRIBO.filter((t) => ids.includes(t));
  const peers = PEERS.filter((p) => ids.includes(p) && !skipped.has(p));
  L.push('## Tribo speed-up: peer ms / Tribo ms (> 1 means Tribo is faster)');
  L.push('');
  L.push('"n/a (fell)", "n/a (N escaped)", "n/a (NaN state)": that Tribo run did other work than the scene (a pyramid that fell,');
  L.push('a pile that lost bodies, a state that went NaN), so it gets no ratio; "n/a (peer: …)": the same of the peer.');
  L.push('');
  const liveTribos = tribos.filter((t) => !skipped.has(t) && results[t]);
  if (!liveTribos.length) {
    L.push(tribos.length
      ? `Not measured: ${tribos.map((t) => `${t} skipped (${esc(skipped.get(t) ?? 'no results', 240)})`).join('; ')}.`
      : 'Not measured: no Tribo variant selected (BENCH_ENGINES).');
    L.push('');
  } else {
    for (const sc of ['pyramid', 'pile']) {
      if (!hasScene(sc)) continue;
      L.push(`${sc}:`);
      L.push('');
      L.push(`| Tribo entry | ${peers.join(' | ')} |`);
      L.push(`| --- |${peers.map(() => ' ---: |').join('')}`);
      // A run that fell, lost bodies or went NaN stepped other work: a mark, no ratio (bench/speed_ratio.mjs).
      for (const t of liveTribos) L.push(`| ${t} | ${peers.map((p) => speedRatioCell(sc, cell(results, p, sc), cell(results, t, sc))).join(' | ')} |`);
      L.push('');
    }
  }

  const presets = PRESET_ENGINES.filter((t) => ids.includes(t));
  if (presets.length) {
    L.push('## Tribo presets: does the pyramid stand, and what do the reported forces say');
    L.push('');
    L.push('Each preset with its own default parameters (simd build, 1 thread). "top drop" is how far the top cube of the');
    L.push('pyramid moved down (m, + = down) at the end; it stands when |Δy| <= 0.1 m and no cube moved more than 0.25 m');
    L.push('sideways. The readback columns are the readback scene (1 kg sphere resting on the ground, 120 steps):');
    L.push('Σ reported normal force = Σ contacts.normalImpulse / dt over the contacts of the sphere, divided by m·g;');
    L.push('net contact force = world.netContactWrench(sphere).force (y component, N, world, y up) / m·g. 1.000 is');
    L.push('the honest answer for a body at rest. The ms/step of a scene that fell apart or went NaN is not comparable');
    L.push('with the others (other contacts, or none).');
    L.push('');
    L.push('| preset | pyramid ms/step | pile ms/step | pyramid stands | top drop (m) | max horiz. move (m) | pile: escaped of 1000 | Σ normal force / m·g | net contact force / m·g |');
    L.push('| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |');
    for (const t of presets) {
      const name = t.slice('tribo-'.length);
      if (skipped.has(t)) { L.push(`| ${name} | skipped: ${esc(skipped.get(t))} | | | | | | | |`); continue; }
      const p = cell(results, t, 'pyramid'), q = cell(results, t, 'pile'), r = cell(results, t, 'readback');
      const pErr = errors[`${t}/pyramid`], qErr = errors[`${t}/pile`], rErr = errors[`${t}/readback`];
      const nanTag = (x) => (x?.nonFinite ? ' (NaN state)' : '');
      const pyrMs = pErr ? 'error' : fmtMs(p?.ms) + nanTag(p), pilMs = qErr ? 'error' : fmtMs(q?.ms) + nanTag(q);
      const stands = pErr ? esc(pErr) : p ? `${p.stands ? 'yes' : 'NO'}${p.nonFinite ? ' (NaN!)' : ''}` : '–';
      const drop = p && !pErr ? (-p.topDy).toFixed(3) : '–', dxz = p && !pErr ? p.maxDxz.toFixed(3) : '–';
      const normal = rErr ? `error: ${esc(rErr)}` : !r ? '–' : r.unavailable ? `not available (${esc(r.unavailable, 200)})` : r.ratio.toFixed(4);
      const net = rErr ? 'error' : !r ? '–' : r.netUnavailable ? `not available (${esc(r.netUnavailable, 120)})` : r.netRatio.toFixed(4);
      const esc1000 = qErr ? 'error' : q ? `${q.escaped}${q.nonFinite ? ' (NaN state)' : ''}` : '–';
      L.push(`| ${name} | ${pyrMs} | ${pilMs} | ${stands} | ${drop} | ${dxz} | ${esc1000} | ${normal} | ${net} |`);
    }
    L.push('');
    // tribo-simd and tribo-physx-tgs run the same configuration: their gap is this run's noise.
    const a = results['tribo-simd'], b = results['tribo-physx-tgs'];
    if (a && b) {
      const gap = (sc) => `${sc} ${fmtMs(a[sc]?.ms)} vs ${fmtMs(b[sc]?.ms)} ms (${(100 * Math.abs(a[sc]?.ms / b[sc]?.ms - 1)).toFixed(0)} %)`;
      L.push(`Noise check: tribo-simd and tribo-physx-tgs are the same configuration measured twice in this run: ` +
        `${['pyramid', 'pile'].filter(hasScene).map(gap).join(', ')}. Differences of that size between entries mean nothing.`);
      L.push('');
    }
  }

  if (hasScene('readback')) {
    L.push('## Readback: contact normal impulse / dt of a resting 1 kg sphere, against m·g = 9.81 N (after 120 steps)');
    L.push('');
    L.push('| engine | reported force (N) | ratio to m·g | contacts | source | Tribo net contact force y (N) / m·g |');
    L.push('| --- | ---: | ---: | ---: | --- | --- |');
    for (const id of ids) {
      if (skipped.has(id)) { L.push(`| ${id} | skipped | | | ${esc(skipped.get(id))} | |`); continue; }
      const r = cell(results, id, 'readback'), err = errors[`${id}/readback`];
      const net = !r || (r.netRatio === undefined && !r.netUnavailable) ? ''
        : r.netUnavailable ? `not available (${esc(r.netUnavailable, 120)})` : `${r.netForce[1].toFixed(4)} / ${r.netRatio.toFixed(4)}`;
      if (err) L.push(`| ${id} | error | | | ${esc(err)} | |`);
      else if (!r) L.push(`| ${id} | – | | | | |`);
      else if (r.unavailable) L.push(`| ${id} | not available | | | ${esc(r.unavailable, 240)} | ${net} |`);
      else L.push(`| ${id} | ${r.force.toFixed(4)} | ${r.ratio.toFixed(4)} | ${r.points} | ${r.source} | ${net} |`);
    }
    L.push('');
  }

  L.push('## Per-round medians (ms/step)');
  L.push('');
  for (const id of ids) {
    if (skipped.has(id) || !results[id]) continue;
    const parts = [];
    for (const s of ['pyramid', 'pile']) {
      const rr = results[id][s]?.rounds;
      if (rr) parts.push(`${s}: ${rr.map(fmtMs).join(', ')}`);
    }
    if (parts.length) L.push(`- ${id}: ${parts.join('; ')}`);
  }
  L.push('');
  return L.join('\n');
}

function writeResults({ main, scaling }, meta) {
  const head = [
    '# Bench results',
    '',
    'Written by `node bench/run.mjs` (`npm run bench`, `make bench`): the script rewrites the part between the BEGIN and END',
    'markers and keeps the sections after END (`make bench-collision`, `make bench-mesh`, `make bench-broadphase`); the',
    'scaling table at the end of its part comes from the last run with `BENCH_SCALING` and says when that was.',
    '',
    `- date: ${meta.date}`,
    `- machine: \`nproc\` = ${meta.nproc}, ${meta.cpu}; load average (1, 5, 15 min) at start ${meta.loadStart}, at end ${meta.loadEnd}` +
      ' (the machine is shared: a load above nproc means other processes competed for the cores, which hurts multi-threaded entries most)',
    `- cross-core round trip (bench/core_latency.mjs) at start ${meta.roundTripStart} ns, at end ${meta.roundTripEnd} ns (the threads` +
      ' build pays for every cache line its two threads share: one machine here measured 100 ns at one time and 440–530 ns at another, in C, and its threaded pile ran about 1.6× and 1.1× as fast as one thread then)',
    `- node ${meta.node}, ${meta.platform}; ${compilerNote()}`,
    `- rounds: ${ROUNDS}, steps: ${STEPS} (pyramid, pile), timing window: steps ${S.windowFor(STEPS)[0]}–${STEPS}; total run ${meta.totalS.toFixed(0)} s` +
      (ROUNDS !== 3 || STEPS !== 600 ? ' — **quick run, not the default settings**' : ''),
    `- packages: ${meta.packages.map(([n, v]) => `${n} ${v}`).join(', ')}`,
    `- Tribo: ${meta.tribo}`,
    '',
    'Setup for every engine: gravity −9.81 m/s² (y up), dt 1/60 s, friction 0.6, restitution 0, each',
    "engine's default solver iterations, sleeping disabled, one thread unless stated. Ground and",
    'container are static boxes. ms/step is the median of `performance.now()` around each step call',
    '(native: `clock_gettime` around `tb_world_step`) over the timing window, then the median of the',
    `rounds; engines interleaved per round, in an order turned each round, ${ISOLATE.length ? `each of ${ISOLATE.join(', ')} in a fresh child process per scene and round` : 'all in this process'} (native: a child process).`,
    'Pile: 1000 bodies (sphere r 0.5, cube half 0.5, capsule r 0.3 / half-height 0.4, cycling; density',
    '1 kg/m³) from a 10×10×10 grid 1.5 m apart (±0.05 m fixed jitter), lowest layer y = 2, in a',
    '16×16 m container; "escaped" counts bodies outside it at the end, "max speed" is the largest',
    'body speed over the last step. The machine is shared and noisy: compare ratios within one run.',
    '',
  ];
  const generated = { main: main === null ? null : head.join('\n') + '\n' + main, scaling };
  fs.writeFileSync(OUT, mergeResults(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '', generated));
}


// ---------------------------------------------------------------------------------------------

async function main() {
  const t0 = performance.now();
  const loadStart = loadavg();
  const roundTripStart = (await crossCoreRoundTripNs()).toFixed(0);
  const nproc = (() => { try { return execFileSync('nproc', { encoding: 'utf8' }).trim(); } catch { return String(os.cpus().length); } })();
  log(`bench: rounds ${ROUNDS}, steps ${STEPS}, engines ${ENGINES.join(', ')}, scenes ${SCENE_NAMES.join(', ')}`);
  log(`node ${process.version}, nproc ${nproc}, cross-core round trip ${roundTripStart} ns`);
  log('loading engines:');
  const { loaded, skipped } = await loadEngines();

  const results = {};   // results[id][scene] = { ms, rounds: [...], ...checks of the last round }
  const errors = {};
  const scenes = SCENE_NAMES.map(makeScene);
  for (let round = 0; round < ROUNDS; round++) {
    log(`round ${round + 1}/${ROUNDS}`);
    for (const id of roundOrder(ENGINES, round, ROUNDS)) {
      const eng = loaded.get(id);
      if (!eng) continue;
      if (eng.external) {
        // Native: one child process per round, all selected scenes.
        try {
          const out = eng.mod.runRound({ steps: STEPS, scenes: SCENE_NAMES });
          for (const s of SCENE_NAMES) {
            const r = out.scenes?.[s];
            if (!r) continue;
            const res = s === 'pyramid' ? { ms: r.median_ms, topDy: r.top_dy, maxDxz: r.max_dxz, stands: r.stands }
              : s === 'pile' ? { ms: r.median_ms, escaped: r.escaped, maxSpeed: r.max_speed, maxY: r.max_y }
              : r.unavailable ? { unavailable: r.unavailable }
              : { force: r.impulse / S.DT, ratio: r.ratio, impulse: r.impulse, points: r.points, source: 'contact field normal_impulse (C API)' };
            record(results, id, s, res);
            log(`  ${id.padEnd(18)} ${s.padEnd(9)} ${describe(s, res)}`);
          }
        } catch (err) {
          skipped.set(id, err.message);
          loaded.delete(id);
          log(`  [${id}] SKIPPED: ${err.message}`);
        }
        continue;
      }
      for (const scene of scenes) {
        if (scene.name === 'readback' && round > 0) continue; // deterministic; once is enough
        const key = `${id}/${scene.name}`;
        if (errors[key]) continue;
        try {
          const hog = eng.hog ? startHog() : null;
          let res;
          try {
            res = eng.isolated ? await runIsolated(id, scene.name) : runScene(eng, scene);
          } finally {
            hog?.kill('SIGKILL');
          }
          if (eng.isolated && res.notes && !eng.hog) eng.notes = res.notes;
          record(results, id, scene.name, res);
          log(`  ${id.padEnd(18)} ${scene.name.padEnd(9)} ${describe(scene.name, res)}`);
        } catch (err) {
          if (err?.unavailable) {
            skipped.set(id, err.message);
            loaded.delete(id);
            log(`  [${id}] SKIPPED: ${err.message}`);
            break;
          }
          errors[key] = `${err?.message ?? err}`.split('\n')[0].slice(0, 200);
          log(`  ${id.padEnd(18)} ${scene.name.padEnd(9)} ERROR: ${errors[key]}`);
        }
        globalThis.gc?.();
      }
    }
  }
  const scaling = {}; // scaling[id][bodies] = { ms, firstMs, liveBytes, rounds }
  for (let round = 0; round < (SCALING.length ? ROUNDS : 0); round++) {
    log(`scaling round ${round + 1}/${ROUNDS}`);
    for (const n of SCALING) {
      const name = `pile-${n}`;
      for (const id of ENGINES) {
        const eng = loaded.get(id);
        if (!eng || eng.hog || errors[`${id}/${name}`]) continue;
        try {
          let res;
          if (eng.external) {
            const r = eng.mod.runRound({ steps: STEPS, scenes: ['pile'], side: sideOf(n) }).scenes.pile;
            res = { ms: r.median_ms, firstMs: r.first_step_ms, escaped: r.escaped, liveBytes: r.live_bytes };
          } else {
            res = eng.isolated ? await runIsolated(id, name) : runScene(eng, makeScene(name));
          }
          const cellOf = ((scaling[id] ??= {})[n] ??= { rounds: [], first: [] });
          cellOf.rounds.push(res.ms); cellOf.first.push(res.firstMs);
          Object.assign(cellOf, { ms: median(cellOf.rounds), firstMs: median(cellOf.first), escaped: res.escaped, liveBytes: res.liveBytes });
          log(`  ${id.padEnd(18)} ${name.padEnd(11)} ${fmtMs(res.ms)} ms/step, first step ${fmtMs(res.firstMs)} ms, escaped ${res.escaped}${threadsNote(res)}`);
        } catch (err) {
          errors[`${id}/${name}`] = `${err?.message ?? err}`.split('\n')[0].slice(0, 200);
          log(`  ${id.padEnd(18)} ${name.padEnd(11)} ERROR: ${errors[`${id}/${name}`]}`);
        }
        globalThis.gc?.();
      }
    }
  }
  for (const eng of loaded.values()) eng.close?.();
  const inProcess = SCALING.length > 1 ? scalingInProcess(loaded, skipped) : {};

  const meta = {
    date: new Date().toISOString(),
    nproc,
    cpu: `${os.cpus()[0]?.model ?? 'unknown CPU'}`.trim(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    packages: ['@dimforge/rapier3d-compat', '@dimforge/rapier3d-simd-compat', '@babylonjs/havok', 'jolt-physics', 'cannon-es', 'mujoco-js']
      .map((n) => [n, pkgVersion(n)]),
    tribo: tribosummary(skipped),
    totalS: (performance.now() - t0) / 1000,
    loadStart,
    loadEnd: loadavg(),
    roundTripStart,
    roundTripEnd: (await crossCoreRoundTripNs()).toFixed(0),
  };
  const report = buildReport({ loaded, skipped, results, errors, meta, scaling, inProcess });
  log('');
  for (const part of [report.main, report.scaling]) if (part) log(part);
  if (OUT !== '-') {
    writeResults(report, meta);
    log(`wrote ${path.relative(process.cwd(), OUT)} (${meta.totalS.toFixed(0)} s)`);
  }
}

function loadavg() {
  return os.loadavg().map((x) => x.toFixed(2)).join(', ');
}

function tribosummary(skipped) {
  let head = 'unknown';
  try {
    head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'js'], { cwd: ROOT, encoding: 'utf8' }).trim();
    if (dirty) head += ' + uncommitted changes in src/ or js/';
  } catch { /* no git */ }
  const sk = TRIBO.filter((t) => ENGINES.includes(t) && skipped.has(t));
  return `commit ${head}` + (sk.length ? `; skipped: ${sk.map((t) => `${t} (${skipped.get(t)})`).join('; ')}` : '');
}

function record(results, id, scene, res) {
  const r = (results[id] ??= {});
  const prev = r[scene];
  const rounds = [...(prev?.rounds ?? []), res.ms];
  r[scene] = { ...res, rounds, ms: median(rounds) };
}

/** ", threads used N" (last step) and, for an adaptive threads entry, ", mode serial|threads (k switches)". */
function threadsNote(r) {
  const used = r.threadsUsed !== undefined ? `, threads used ${r.threadsUsed}` : '';
  return used + (r.serial !== undefined ? `, mode ${r.serial ? 'serial' : 'threads'} (${r.switches} switches)` : '');
}

function describe(scene, r) {
  const th = threadsNote(r);
  if (scene === 'pyramid') return `${fmtMs(r.ms)} ms/step, stands ${r.stands ? 'yes' : 'NO'} (top Δy ${r.topDy.toFixed(3)}, max horiz ${r.maxDxz.toFixed(3)})${th}`;
  if (scene === 'pile') return `${fmtMs(r.ms)} ms/step, escaped ${r.escaped}, max speed ${r.maxSpeed.toFixed(2)} m/s, max y ${r.maxY.toFixed(2)}${th}`;
  const net = r.netRatio !== undefined ? `; net contact force y ${r.netForce[1].toFixed(4)} N, ratio ${r.netRatio.toFixed(4)}`
    : r.netUnavailable ? `; net contact force not available: ${r.netUnavailable}` : '';
  if (r.unavailable) return `normal impulse not available: ${r.unavailable}${net}`;
  return `force ${r.force.toFixed(4)} N, ratio ${r.ratio.toFixed(4)} (${r.points} contact${r.points === 1 ? '' : 's'})${net}`;
}

if (CHILD) {
  childMain(process.argv[3], process.argv[4]);
} else {
  main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
}
