/**
 * Preset comparison: the same scene in one world per preset, stepped together, drawn side by
 * side, with the reported contact force of one body plotted for every preset (uPlot) and each
 * preset's statement of what its reported force contains. Joint scenes (pendulum, chain) plot
 * the joint readback instead; a preset whose solver refuses a step shows its refusal. The time
 * slider under the plot (web/scrub.js) moves every lane to the same recorded step together.
 * @module tribo/web/presets_app
 */
import { init } from '../js/index.js';
import { SCENES, sceneValue } from './preset_scenes.js';
import { SideView } from './side_view.js';
import { LivePlot, REFERENCE_COLOR, download } from './live_plot.js';
import { Timeline, hashBytes } from './timeline.js';
import { bindScrub } from './scrub.js';

const PRESETS = ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi', 'mujoco', 'kamino', 'genesis'];
const COLORS = ['#60a5fa', '#34d399', '#f472b6', '#fbbf24', '#a78bfa', '#f87171', '#2dd4bf'];
const HISTORY = 600; /* steps kept in the plot (10 s at 60 Hz) */
const TIMESTEP = 1 / 60; /* s: every preset's default step */

const params = new URLSearchParams(location.search);
const state = (window.tribo = { ready: false, error: null, steps: 0, presets: {}, values: {}, notes: {}, bottom: {}, scene: null,
  colors: Object.fromEntries(PRESETS.map((p, k) => [p, COLORS[k]])), physicsColor: REFERENCE_COLOR });

function fail(e) {
  state.error = String(e?.message ?? e);
  const box = document.getElementById('error');
  box.textContent = state.error;
  box.hidden = false;
}

async function main() {
  const tribo = await init({ build: 'simd' }); /* small worlds on the page's thread */
  state.build = tribo.build;
  const select = document.getElementById('scene');
  for (const [key, s] of Object.entries(SCENES)) select.add(new Option(s.label, key));
  select.value = params.get('scene') ?? 'resting';

  let lanes = [];
  let plot = null;

  /* every lane's world and its scene's own state (the pendulum's running samples), refusal included */
  const capture = () => {
    let bytes = 0;
    const data = lanes.map((lane) => {
      if (!lane.world) return null;
      const snap = lane.world.snapshot();
      bytes += snap.length;
      return { bytes: snap, ...structuredClone({ scene: lane.scene?.state ?? null, failed: lane.failed ?? null, readout: lane.readout ?? null }) };
    });
    return { data, bytes };
  };
  const putBack = (data) => lanes.forEach((lane, k) => {
    const d = data[k];
    if (!lane.world || !d) return;
    lane.world.restore(d.bytes);
    const { scene, failed, readout } = structuredClone({ scene: d.scene, failed: d.failed, readout: d.readout });
    if (lane.scene?.state) Object.assign(lane.scene.state, scene);
    lane.failed = failed;
    lane.readout = readout;
  });
  const timeline = new Timeline({
    restore: (data, step) => { putBack(data); state.steps = step; },
    advance: (n) => {
      if (n === 0) for (const lane of lanes) if (lane.world) showLane(lane); /* the restored step as it ran */
      for (let i = 0; i < n; i++) step({ record: false });
      plot.showUntil(state.steps * TIMESTEP);
      plot.redraw();
    },
    truncate: (at) => { plot.truncate(at * TIMESTEP); plot.showUntil(null); plot.redraw(); },
  });

  function build() {
    for (const l of lanes) l.world?.free();
    const grid = document.getElementById('lanes');
    grid.textContent = '';
    state.scene = select.value;
    state.values = {}; state.notes = {}; state.bottom = {};
    lanes = PRESETS.map((preset, k) => {
      const el = document.createElement('section');
      el.className = 'lane';
      el.innerHTML = `<h2 style="color:${COLORS[k]}">${preset}</h2><canvas width="360" height="240"></canvas>` +
        '<div class="value"></div><details><summary>what the reported force contains</summary><div class="info"></div></details>';
      grid.append(el);
      const lane = { preset, el, world: null, scene: null, view: new SideView(el.querySelector('canvas')) };
      try {
        lane.world = tribo.createWorld({ preset, ...(SCENES[select.value].worldOptions?.[preset] ?? {}) });
        lane.scene = SCENES[select.value].build(lane.world);
        /* the readback statement describes a step that ran: filled after the first step */
        el.querySelector('.info').textContent = 'filled after the first step';
        state.presets[preset] = { available: true, perContactForce: null };
      } catch (e) {
        lane.world = null;
        el.querySelector('.value').textContent = e.message; /* e.g. not available in this version */
        el.classList.add('unavailable');
        state.presets[preset] = { available: false, reason: e.message };
      }
      return lane;
    });
    const scene = lanes.find((l) => l.scene)?.scene;
    document.getElementById('title').textContent = scene ? `${scene.title}. Plot: ${scene.quantity}; physics: ${scene.expect}.` : '';
    newPlot(scene);
    initial = capture(); /* Reset restores it: the same worlds, ids and scene state */
    timeline.start(0, initial.data, initial.bytes);
  }
  let initial = null;

  /** Every lane back to its state when built (world.restore of its snapshot), the plot cleared. */
  function reset() {
    putBack(initial.data);
    newPlot(lanes.find((l) => l.scene)?.scene);
    timeline.start(0, initial.data, initial.bytes);
  }

  function newPlot(scene) {
    plot?.destroy();
    plot = new LivePlot(document.getElementById('plot'), {
      x: 't (s)', y: scene?.axis ?? '', reference: 'physics', history: HISTORY,
      series: PRESETS.map((p, k) => ({ label: p, color: COLORS[k] })),
    });
    state.steps = 0;
  }

  /** The world's readback statement (`readbackInfo`) as lines of text. */
  const infoText = (info) => Object.entries(info)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? (v.length ? v.join('; ') : 'nothing')
      : v && typeof v === 'object' ? Object.entries(v).map(([c, t]) => `${c}: ${t}`).join(' | ') : v}`).join('\n');

  /**
   * One step of a lane and what it shows after it (`lane.readout`, kept with the lane's snapshots:
   * a restored step shows it again).
   */
  function stepLane(lane) {
    try {
      lane.world.step();
    } catch (e) {
      /* a refused step (e.g. an unstable penalty configuration): the world is unchanged and says why */
      lane.failed = e.message;
      lane.readout = { ...lane.readout, value: null, text: `refused: ${e.message}` };
      return;
    }
    const value = sceneValue(lane.scene, lane.world);
    const info = lane.world.readbackInfo;
    const note = lane.scene.note?.() ?? '';
    lane.readout = {
      value, note, info: infoText(info), perContactForce: !!info.perContactForce, bottom: lane.scene.state?.bottom,
      text: (value === null ? 'per-contact force: not available for this preset' : `${lane.scene.quantity} = ${value.toFixed(4)}`) + (note ? `; ${note}` : ''),
    };
  }

  /** A lane's side view, readout and readback statement, and its entries of window.tribo. */
  function showLane(lane) {
    const r = lane.readout, p = state.presets[lane.preset];
    lane.view.draw(lane.scene, lane.world); /* a refused lane: the scene as before the step */
    lane.el.classList.toggle('refused', !!lane.failed);
    p.refused = lane.failed ?? undefined;
    if (!r) return; /* as built: nothing stepped yet */
    lane.el.querySelector('.value').textContent = r.text;
    const box = lane.el.querySelector('.info');
    if (r.info && box.textContent !== r.info) box.textContent = r.info;
    if (r.perContactForce !== undefined) p.perContactForce = r.perContactForce;
    state.values[lane.preset] = r.value;
    if (r.note !== undefined) state.notes[lane.preset] = r.note;
    if (lane.scene.state) state.bottom[lane.preset] = r.bottom;
  }

  /** One step of every lane; `record`: a step of the running simulation (the timeline records it). */
  function step({ record = true } = {}) {
    if (record) timeline.continueHere(); /* stepping on from a step shown back in time */
    const values = lanes.map((lane) => {
      if (!lane.world || lane.failed) return null;
      stepLane(lane);
      showLane(lane);
      return lane.readout.value;
    });
    const ref = lanes.find((l) => l.scene)?.scene;
    const t = (state.steps + 1) * TIMESTEP;
    if (t > plot.lastX) plot.push(t, values, ref ? ref.expected : null); /* a step shown again after scrubbing is plotted already */
    state.steps += 1;
    if (record) {
      plot.showUntil(null);
      timeline.stepped(state.steps, capture);
    }
  }

  let paused = params.get('paused') === '1';
  const pauseBtn = document.getElementById('btn-pause');
  const setPaused = (p) => {
    paused = p;
    pauseBtn.textContent = paused ? 'Resume' : 'Pause';
    if (!paused) timeline.continueHere(); /* resuming from a step shown back in time: its future is discarded */
  };
  setPaused(paused);
  pauseBtn.onclick = () => timeline.idle().then(() => setPaused(!paused));
  const stepLive = () => { step(); plot.redraw(); };
  const scrub = bindScrub(document.getElementById('scrub'), timeline, {
    timestep: TIMESTEP, paused: () => paused, pause: () => setPaused(true), stepLive, onError: fail,
  });
  document.getElementById('btn-step').onclick = () => scrub.forward();
  document.getElementById('btn-reset').onclick = () => timeline.idle().then(reset);
  state.reset = () => reset();
  document.getElementById('btn-csv').onclick = () => download(`tribo-presets-${state.scene}.csv`, plot.csv());
  state.csv = () => plot.csv();
  select.onchange = () => timeline.idle().then(build);
  state.step = (n = 1) => { for (let i = 0; i < n; i++) step(); plot.redraw(); };
  state.select = (key) => { select.value = key; build(); };
  state.pause = () => setPaused(true);
  state.resume = () => setPaused(false);
  /** Every lane at step `n` of the recorded range (pauses); resolves with the step shown. */
  state.scrubTo = (n) => scrub.seek(n);
  /** The recorded range { first, last }, the step shown, and the ring's size. */
  state.timeline = () => ({ ...timeline.range, step: timeline.shown, snapshots: timeline.ring.count, bytes: timeline.ring.bytes, every: timeline.every });
  /** FNV-1a of every running lane's body transforms, lane after lane (bitwise identity of the shown state). */
  state.transformHash = () => hashBytes(...lanes.filter((l) => l.world).map((l) => l.world.bodies.transform));
  build();
  state.ready = true;
  const loop = () => {
    if (!paused) { step(); plot.redraw(); }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

main().catch(fail);
