// Tribo demo page: a box pyramid on a ground plane with spheres and capsules dropped onto it,
// simulated in a worker world (the page's main thread only renders) and drawn with three.js,
// with contact points, normals and force arrows from the frame's contact views.
//
// URL parameters (optional): rows (pyramid rows, default 7), drops (initial falling bodies,
// default 10), substeps (default 4), seed (default 7), paused=1 (start paused), preset
// (physx-pgs, physx-tgs (default), newton-xpbd, newton-semi, mujoco, kamino, genesis; also the panel's
// selector, under which the panel states what the preset's reported force contains), scene
// (pyramid (default), pendulum, chain: web/scene.js; also the panel's scene selector).
//
// For tests, window.tribo = { build, ready, frame, contactCount, drawnContactMarkers, bodyCount,
// overflowed, error, refused, pause(), resume(), step(n), reset(), drop(), lastFrame(),
// transformHash(), firstFrameHash, pick(x, y), picked, forceSamples, forceCsv(), readbackInfo,
// scrubTo(step), timeline() }
// is kept up to date every frame. Reset restores the snapshot taken when the world was built
// (world.restore): the same bodies, ids and, step by step, bitwise the same frames; a preset
// change builds a new world. A click picks the shape under the cursor (web/picking.js). The time
// slider under the view (web/scrub.js, web/timeline.js) shows any recorded step exactly.

import { createWorkerWorld } from '../js/index.js';
import { Renderer } from './renderer.js';
import { ContactOverlay } from './contact_overlay.js';
import { bindControls } from './controls.js';
import { sceneOf, SCENE_NAMES, dropDef } from './scene.js';
import { cameraRay, pick, describePick } from './picking.js';
import { LivePlot } from './live_plot.js';
import { Timeline, hashBytes } from './timeline.js';
import { bindScrub } from './scrub.js';

const params = new URLSearchParams(location.search);
const intParam = (name, def, min, max) => {
  const v = Number.parseInt(params.get(name) ?? '', 10);
  return Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : def;
};
const PRESETS = ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi', 'mujoco', 'kamino', 'genesis'];
const CONFIG = {
  preset: PRESETS.includes(params.get('preset')) ? params.get('preset') : 'physx-tgs',
  scene: SCENE_NAMES.includes(params.get('scene')) ? params.get('scene') : 'pyramid',
  rows: intParam('rows', 7, 1, 12),
  drops: intParam('drops', 10, 0, 60),
  substeps: intParam('substeps', 4, 1, 16),
  seed: intParam('seed', 7, 0, 2 ** 31 - 1),
  timestep: 1 / 60,
  gravity: [0, -9.81, 0],
  maxStepsPerFrame: 2,
};

const statusEl = document.getElementById('status');
const detailEl = document.getElementById('detail');
const pickEl = document.getElementById('pick');
const forceBox = document.getElementById('force-plot');
const errorEl = document.getElementById('error');

// Test/debug hook: exists from the start so that a failed start is visible as window.tribo.error.
const api = {
  build: null,
  threads: null,
  ready: false,
  frame: 0,
  contactCount: 0,
  drawnContactMarkers: 0,
  bodyCount: 0,
  overflowed: false,
  paused: false,
  error: null,
  refused: null,
  pause: () => pause(),
  resume: () => resume(),
  /** n steps (paused first); inside the recorded range they are shown by seeking. */
  step: (n = 1) => stepOnce(n),
  reset: () => reset(),
  drop: () => drop(),
  /** Shows step `n` of the recorded range exactly (pauses); resolves like pause(). */
  scrubTo: (n) => scrubTo(n),
  /** The recorded range { first, last }, the step shown, the ring's snapshots and bytes, the interval. */
  timeline: () => ({ ...timeline.range, step: timeline.shown, snapshots: timeline.ring.count, bytes: timeline.ring.bytes, every: timeline.every }),
  /** FNV-1a of the bytes of the last applied frame's body transforms (Reset must repeat them bitwise). */
  transformHash: () => {
    const t = state.lastFrame?.bodies?.transform;
    return t ? hashBytes(t) : null;
  },
  /** The last applied frame (views as given by sim.step(); do not keep across steps). */
  lastFrame: () => state.lastFrame,
  /** Picks at normalized device coordinates (−1..1); resolves with { hit, wrench, note }. */
  pick: (x, y) => pickAt(x, y),
  picked: null,
  firstFrameHash: null, // transformHash() of the built world's first frame
};
window.tribo = api;

function showError(err) {
  const msg = err && err.stack ? `${err.message}\n${err.stack}` : String(err && err.message ? err.message : err);
  api.error = err && err.message ? err.message : String(err);
  errorEl.hidden = false;
  errorEl.textContent = `Tribo demo error: ${msg}`;
  console.error('Tribo demo error:', err);
}
window.addEventListener('unhandledrejection', (e) => showError(e.reason));

const state = {
  tribo: null,
  sim: null,
  build: null,
  paused: params.get('paused') === '1',
  busy: false, // reset in progress
  editing: false, // a body is being added: no step is sent meanwhile
  inflight: null, // promise of the step in flight
  generation: 0, // bumps on reset: frames of an old world are dropped
  bodyCount: 0,
  random: null,
  accumulator: 0,
  lastTime: 0,
  stepMs: 0,
  framesApplied: 0,
  lastFrame: null,
  stepBase: 0, // the worker's step count at the shown world's step 0
  initial: null, // { bytes: the world's snapshot when built, placed: [{ id, entry }] }
  placed: [], // the bodies now in the world, [{ id, entry }] (a new array when one is added)
};

/* The time slider's recordings: { bytes: the worker world's snapshot, placed: its bodies } */
const timeline = new Timeline({
  restore: (data, step) => restoreEntry(data, step),
  advance: async (n) => {
    if (n > 0) await runSteps(n, { record: false });
    else await showRestored();
    force.plot?.showUntil(api.frame * CONFIG.timestep);
    force.plot?.redraw();
  },
  truncate: (step) => { force.plot?.truncate(step * CONFIG.timestep); force.plot?.showUntil(null); force.plot?.redraw(); },
});

let renderer;
let overlay;
let controls;
let scrub;

function updateStatus(frame) {
  const c = frame?.contacts;
  const contacts = c ? c.count : 0;
  const overflowed = !!(c && c.overflowed);
  const build = state.build ?? '?';
  const buildText = build === 'threads'
    ? `threads (pthreads, ${state.threads ?? '?'} threads in the worker)`
    : build === 'simd' ? 'simd (single-threaded, in a worker)' : build;
  statusEl.innerHTML = '';
  const parts = [
    `build: ${buildText}`,
    `preset: ${CONFIG.preset}   scene: ${CONFIG.scene}`,
    ...(state.refused ? [`refused: ${state.refused}`] : []),
    `bodies: ${state.bodyCount}   contacts: ${contacts}`,
  ];
  statusEl.append(parts.join('\n') + '\n');
  const store = document.createElement('span');
  store.textContent = overflowed ? 'contact store: OVERFLOWED (frame incomplete)' : 'contact store: ok';
  if (overflowed) store.className = 'overflow';
  statusEl.append(store);
  const st = overlay.stats;
  detailEl.textContent =
    `step ${api.frame}${state.paused ? ' (paused)' : ''}   ${state.stepMs.toFixed(1)} ms/step (round trip)\n` +
    `drawn: ${st.markers} points, ${st.normals} normals, ${st.arrows} arrows${st.capped ? ` (${st.capped} capped)` : ''}\n` +
    `max |F| ${st.maxForce.toFixed(0)} N`;
  if (api.picked) pickEl.textContent = describePick(api.picked);
}

/* Force–time plot of the picked body: its net contact force (N, world y and magnitude) after each
 * frame, against its weight m·g. */
const force = { body: -1, plot: null, weight: null, pending: false };
api.forceSamples = 0;
/** The force plot's samples as shown (CSV: t (s), F_y, |F|, m·g), or null when nothing is picked. */
api.forceCsv = () => force.plot?.csv() ?? null;

async function followPicked(p) {
  force.body = p?.hit && p.hit.body >= 0 && p.wrench ? p.hit.body : -1;
  forceBox.hidden = force.body < 0;
  force.plot?.destroy();
  force.plot = null;
  api.forceSamples = 0;
  if (force.body < 0) return;
  const mass = (await state.sim.getMass(force.body)).mass;
  force.weight = mass * Math.hypot(...CONFIG.gravity);
  force.plot = new LivePlot(forceBox, {
    x: 't (s)', y: 'F (N)', reference: 'm·g', height: 150, history: 300,
    series: [{ label: 'F_y', color: '#ffd23f' }, { label: '|F|', color: '#3fd0ff' }],
  });
}

function sampleForce() {
  if (force.body < 0 || !force.plot || force.pending || !state.sim) return;
  force.pending = true;
  const body = force.body, gen = state.generation, t = api.frame * CONFIG.timestep; /* s: the frame's time */
  state.sim.netContactWrench(body).then((w) => {
    if (gen !== state.generation || body !== force.body || !force.plot) return;
    if (!(t > force.plot.lastX)) return; /* a step shown again after scrubbing back is plotted already */
    force.plot.push(t, [w.force[1], Math.hypot(w.force[0], w.force[1], w.force[2])], force.weight);
    force.plot.redraw();
    api.forceSamples++;
  }).catch(() => {}).finally(() => { force.pending = false; });
}

/** Ray from the camera through (x, y) in normalized device coordinates, cast in the worker. */
async function pickAt(x, y) {
  if (!state.sim) return null;
  api.picked = await pick(state.sim, cameraRay(renderer.camera, x, y));
  await followPicked(api.picked);
  if (state.lastFrame) updateStatus(state.lastFrame);
  return api.picked;
}

/** The world's own statement of what its reported force contains (readbackInfo), fetched once per
 * world after its first step, as lines of text under the preset selector. */
function showReadback() {
  if (!state.sim || state.readbackFor === state.generation) return;
  const generation = (state.readbackFor = state.generation);
  state.sim.readbackInfo.then((info) => {
    if (generation !== state.generation) return;
    api.readbackInfo = info;
    const line = ([k, v]) => `${k}: ${Array.isArray(v) ? (v.length ? v.join('; ') : 'nothing')
      : v && typeof v === 'object' ? Object.entries(v).map(([c, t]) => `${c}: ${t}`).join(' | ') : v}`;
    document.getElementById('readback-info').textContent = Object.entries(info).map(line).join('\n');
  }).catch(() => { /* the world was freed meanwhile (reset): the next world fetches its own */ });
}

/** Applies a completed frame: body poses, contact overlay, status, and the window.tribo counters. */
function applyFrame(frame) {
  state.framesApplied++;
  state.lastFrame = frame;
  renderer.updateTransforms(frame.bodies?.transform);
  const st = overlay.update(frame.contacts);
  /* the worker counts every step since it was created: frames count from the world's build */
  api.frame = typeof frame.step === 'number' ? frame.step - state.stepBase : state.framesApplied;
  if (api.frame === 1 && api.firstFrameHash === null) api.firstFrameHash = api.transformHash(); /* per built world */
  api.contactCount = frame.contacts ? frame.contacts.count : 0;
  api.drawnContactMarkers = overlay.showPoints ? overlay.markers.count : 0;
  api.overflowed = st.overflowed;
  api.bodyCount = state.bodyCount;
  updateStatus(frame);
  showReadback();
  sampleForce();
}

/** The worker world's snapshot and its bodies, as the timeline records them. */
async function capture() {
  const bytes = await state.sim.snapshot();
  return { data: { bytes, placed: state.placed }, bytes: bytes.length };
}

/**
 * Starts `n` steps in the worker; resolves after the resulting frame is applied. `record`: steps of
 * the running simulation (the timeline records them; stepping on from a step shown back in time
 * discards the recorded future); false for the steps of a seek.
 */
function runSteps(n, { record = true } = {}) {
  const sim = state.sim;
  const gen = state.generation;
  const t0 = performance.now();
  if (record) timeline.continueHere();
  const p = sim
    .step(n)
    .then((frame) => {
      if (gen !== state.generation || !frame) return; // world was replaced meanwhile
      state.stepMs = (performance.now() - t0) / n;
      applyFrame(frame);
      if (!record) return undefined;
      force.plot?.showUntil(null);
      return timeline.stepped(api.frame, capture); /* the snapshot is taken before the next step is sent */
    })
    .catch(async (err) => {
      if (gen !== state.generation) return;
      /* a refused step (e.g. an unstable explicit configuration) leaves the world unchanged: said in
       * the status line, the page paused, not an error of the page; a worker that answers nothing
       * any more is one */
      const answers = await sim.frame().then(() => true, () => false);
      if (gen !== state.generation) return;
      if (answers) {
        state.refused = api.refused = err?.message ?? String(err);
        pause();
        updateStatus(state.lastFrame);
      } else showError(err);
    })
    .finally(() => {
      if (state.inflight === p) state.inflight = null;
    });
  state.inflight = p;
  return p;
}

function animate(now) {
  requestAnimationFrame(animate);
  const dt = state.lastTime ? Math.min((now - state.lastTime) / 1000, 0.1) : CONFIG.timestep;
  state.lastTime = now;
  if (!state.paused && !state.busy && !state.editing && state.sim) {
    state.accumulator = Math.min(state.accumulator + dt, CONFIG.timestep * CONFIG.maxStepsPerFrame);
    if (!state.inflight) {
      // real time when the worker keeps up; never more than maxStepsPerFrame per displayed frame
      // and never past a step the timeline records
      const n = Math.min(timeline.untilDue(), Math.max(1, Math.floor(state.accumulator / CONFIG.timestep + 1e-6)));
      state.accumulator = Math.max(0, state.accumulator - n * CONFIG.timestep);
      runSteps(n);
    }
  }
  renderer.render();
}

async function pause() {
  state.paused = true;
  api.paused = true;
  controls?.setPaused(true);
  // let the step in flight land, so that the counters describe the frame now on screen
  if (state.inflight) await state.inflight;
  renderer?.render();
  if (state.lastFrame) updateStatus(state.lastFrame);
  return snapshot();
}

/** Runs on from the step shown (a step shown back in time: the recorded future after it is discarded). */
async function resume() {
  await timeline.idle();
  timeline.continueHere();
  state.paused = false;
  api.paused = false;
  state.accumulator = 0;
  controls?.setPaused(false);
  return snapshot();
}

/** n steps forward, paused: by seeking inside the recorded range, by stepping past its end. */
async function stepOnce(n = 1) {
  if (!state.paused) await pause();
  if (state.inflight) await state.inflight;
  if (!state.sim || state.busy) return snapshot();
  await timeline.idle();
  const target = timeline.shown + n;
  if (timeline.shown < timeline.last) await timeline.seek(Math.min(target, timeline.last));
  for (let at = timeline.shown; at < target && !state.refused && state.sim; at = timeline.shown) {
    await runSteps(Math.min(target - at, timeline.untilDue()));
    if (timeline.shown === at) break; /* the step failed (the error is shown) */
  }
  renderer.render();
  return snapshot();
}

/** Shows step n of the recorded range exactly (the page paused). */
async function scrubTo(n) {
  if (!state.sim || state.busy) return snapshot();
  await scrub.seek(n);
  renderer.render();
  return snapshot();
}

function snapshot() {
  return {
    build: api.build,
    frame: api.frame,
    contactCount: api.contactCount,
    drawnContactMarkers: api.drawnContactMarkers,
    bodyCount: api.bodyCount,
    overflowed: api.overflowed,
    paused: api.paused,
  };
}

async function addBody(sim, entry) {
  const id = await sim.addBody(entry.def);
  if (typeof id !== 'number' || id < 0) throw new Error(`addBody returned ${id} for a ${entry.tag}`);
  renderer.addBody(id, entry.display ?? entry.def, entry.tag);
  return id;
}

/** The renderer's bodies (and the body count) as `placed` lists them. */
function showBodies(placed) {
  renderer.clearBodies();
  for (const { id, entry } of placed) renderer.addBody(id, entry.display ?? entry.def, entry.tag);
  state.placed = placed;
  state.bodyCount = api.bodyCount = placed.length;
}

async function createWorld() {
  const sim = await createWorkerWorld({
    preset: CONFIG.preset,
    gravity: CONFIG.gravity,
    timestep: CONFIG.timestep,
    substeps: CONFIG.substeps,
  });
  const { bodies, joints, random } = sceneOf(CONFIG.scene, { rows: CONFIG.rows, drops: CONFIG.drops, seed: CONFIG.seed });
  const placed = [];
  for (const entry of bodies) placed.push({ id: await addBody(sim, entry), entry });
  const ids = placed.map((p) => p.id);
  for (const j of joints) await sim.addJoint({ ...j, body0: j.body0 < 0 ? 'world' : ids[j.body0], body1: ids[j.body1] });
  // Reset restores this snapshot: the same world, bodies, joints and ids as built, whatever came since
  state.initial = { bytes: await sim.snapshot(), placed };
  state.placed = placed;
  state.refused = api.refused = null;
  state.random = random;
  state.bodyCount = bodies.length;
  state.build = sim.build;
  state.threads = sim.threads ?? null;
  api.build = state.build;
  api.threads = state.threads;
  api.bodyCount = state.bodyCount;
  state.sim = sim;
  state.accumulator = 0;
  api.firstFrameHash = null;
  state.stepBase = 0;
  return sim;
}

async function freeWorld(sim) {
  if (!sim) return;
  try {
    await sim.free();
  } catch (err) {
    console.warn('Tribo demo: free() failed', err);
  }
}

/** Puts the world in a recorded state ({ bytes, placed }) that is its step `step` since built. */
async function restoreEntry(data, step) {
  await state.sim.restore(data.bytes);
  /* the worker counts every step it ran: frames count from the world's build */
  state.stepBase = (await state.sim.frame()).step - step;
  if (data.placed !== state.placed) showBodies(data.placed);
  state.refused = api.refused = null;
  state.accumulator = 0;
}

/** Shows the world's state as restored (a snapshot holds its step's contacts and forces too). */
async function showRestored() {
  const gen = state.generation;
  const frame = await state.sim.frame();
  if (gen === state.generation) applyFrame(frame);
}

/** Puts the world back to its state when built (world.restore of the snapshot taken then). */
async function restoreInitial() {
  await restoreEntry(state.initial, 0);
  /* drops repeat from the seed, as after loading */
  state.random = sceneOf(CONFIG.scene, { rows: CONFIG.rows, drops: CONFIG.drops, seed: CONFIG.seed }).random;
}

async function reset({ rebuild = false } = {}) {
  if (state.busy || !state.sim) return snapshot();
  state.busy = true;
  controls.setBusy(true);
  try {
    await timeline.idle();
    state.generation++;
    await followPicked(null); /* the new world's ids are not the picked body's */
    api.picked = null;
    if (state.inflight) await state.inflight;
    overlay.update(null);
    state.lastFrame = null;
    if (rebuild || !state.initial) {
      // another preset or scene: a new world (the snapshot holds the old one)
      const old = state.sim;
      state.sim = null;
      await freeWorld(old);
      renderer.clearBodies();
      await createWorld();
    } else {
      await restoreInitial();
    }
    timeline.start(0, state.initial, state.initial.bytes.length);
    await runSteps(1); // show the initial state (also when paused)
  } catch (err) {
    showError(err);
  } finally {
    state.busy = false;
    controls.setBusy(false);
  }
  return snapshot();
}

/** Adds a falling body at the step shown: the recorded future after it is discarded, the world recorded with it. */
async function drop() {
  if (!state.sim || state.busy) return snapshot();
  state.editing = true;
  try {
    await timeline.idle();
    if (state.inflight) await state.inflight;
    const entry = dropDef(state.random, { height: CONFIG.rows * 0.5 + 3 });
    const id = await addBody(state.sim, entry);
    state.placed = [...state.placed, { id, entry }];
    state.bodyCount = api.bodyCount = state.placed.length;
    await timeline.changed(capture); /* the world with the body at the step shown, before any step */
  } finally {
    state.editing = false;
  }
  return snapshot();
}

async function main() {
  const canvas = document.getElementById('view');
  renderer = new Renderer(canvas);
  overlay = new ContactOverlay(renderer.scene);
  controls = bindControls(document, {
    onPause: () => (state.paused ? resume() : pause()),
    onStep: () => stepOnce(),
    onReset: () => reset(),
    onDrop: () => drop(),
    onOverlay: (v) => {
      overlay.setVisibility(v);
      api.drawnContactMarkers = overlay.showPoints ? overlay.markers.count : 0;
    },
    onScale: (n) => {
      overlay.newtonsPerMetre = n;
      if (state.lastFrame) overlay.update(state.lastFrame.contacts);
    },
  });
  controls.sync();
  controls.setPaused(state.paused);
  scrub = bindScrub(document.getElementById('scrub'), timeline, {
    timestep: CONFIG.timestep, paused: () => state.paused, pause: () => pause(), stepLive: () => stepOnce(), onError: showError,
    ready: () => !!state.sim && !state.busy,
  });
  // the preset: the same scene under another engine's contact semantics (a new world)
  const presetSelect = document.getElementById('preset');
  presetSelect.value = CONFIG.preset;
  presetSelect.addEventListener('change', () => {
    CONFIG.preset = presetSelect.value;
    reset({ rebuild: true }).catch(showError);
  });
  api.setPreset = (name) => { presetSelect.value = name; CONFIG.preset = name; return reset({ rebuild: true }); };
  const sceneSelect = document.getElementById('scene');
  sceneSelect.value = CONFIG.scene;
  sceneSelect.addEventListener('change', () => { CONFIG.scene = sceneSelect.value; reset({ rebuild: true }).catch(showError); });
  api.setScene = (name) => { sceneSelect.value = name; CONFIG.scene = name; return reset({ rebuild: true }); };
  // a click (not a drag of the orbit controls) picks the shape under the cursor
  let down = null;
  canvas.addEventListener('pointerdown', (e) => { down = [e.clientX, e.clientY]; });
  canvas.addEventListener('pointerup', (e) => {
    if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
    const r = canvas.getBoundingClientRect();
    pickAt(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1).catch(showError);
  });
  api.paused = state.paused;
  /* a phone keeps the scene visible: the panel starts folded */
  if (matchMedia('(max-width: 600px)').matches) document.getElementById('panel-body').open = false;
  statusEl.textContent = 'loading the engine…';

  // The engine is loaded only inside the worker: this thread renders.
  statusEl.textContent = 'creating the worker world…';
  await createWorld();
  timeline.start(0, state.initial, state.initial.bytes.length);
  await runSteps(1);
  requestAnimationFrame(animate);
  // ready once the first frame is on screen
  requestAnimationFrame(() => {
    api.ready = true;
  });
}

window.addEventListener('pagehide', () => {
  state.generation++;
  state.sim?.free().catch(() => {});
});

main().catch(showError);
