/**
 * Preset comparison: the same scene in one world per preset, stepped together, drawn side by
 * side, with the reported contact force of one body plotted for every preset (uPlot) and each
 * preset's statement of what its reported force contains.
 * @module tribo/web/presets_app
 */
import uPlot from 'uplot';
import { init } from '../js/index.js';
import { SCENES, sceneValue } from './preset_scenes.js';
import { SideView } from './side_view.js';

const PRESETS = ['physx-pgs', 'physx-tgs', 'newton-xpbd', 'newton-semi', 'mujoco', 'kamino'];
const COLORS = ['#60a5fa', '#34d399', '#f472b6', '#fbbf24', '#a78bfa', '#f87171'];
const HISTORY = 600; /* steps kept in the plot (10 s at 60 Hz) */

const params = new URLSearchParams(location.search);
const state = (window.tribo = { ready: false, error: null, steps: 0, presets: {}, values: {}, scene: null });

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
  let data = null;

  function build() {
    for (const l of lanes) l.world?.free();
    const grid = document.getElementById('lanes');
    grid.textContent = '';
    state.scene = select.value;
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
        const info = lane.world.readbackInfo;
        el.querySelector('.info').textContent = Object.entries(info)
          .map(([k, v]) => `${k}: ${Array.isArray(v) ? (v.length ? v.join('; ') : 'nothing') : v}`).join('\n');
        state.presets[preset] = { available: true, perContactForce: info.perContactForce };
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
    data = [[], [], ...PRESETS.map(() => [])];
    const box = document.getElementById('plot');
    box.textContent = '';
    plot = new uPlot({
      width: Math.min(1100, box.clientWidth || 900), height: 260,
      /* ranges never degenerate (an empty or flat series would give uPlot a zero-width axis) */
      scales: {
        x: { time: false, range: (u, lo, hi) => (lo == null || !(hi > lo) ? [lo ?? 0, (lo ?? 0) + 1] : [lo, hi]) },
        y: { range: (u, lo, hi) => (lo == null || !(hi > lo) ? [(lo ?? 0) - 1, (lo ?? 0) + 1] : [Math.min(0, lo), hi + 0.1 * (hi - lo)]) },
      },
      axes: [{ label: 't (s)', stroke: '#ccc' }, { label: scene?.quantity ?? '', stroke: '#ccc' }],
      series: [{}, { label: 'physics', stroke: '#888', dash: [6, 4] },
        ...PRESETS.map((p, k) => ({ label: p, stroke: COLORS[k], width: 2, spanGaps: false }))],
    }, data, box);
    state.steps = 0;
  }

  function step() {
    const t = (state.steps + 1) / 60;
    data[0].push(t);
    const ref = lanes.find((l) => l.scene)?.scene;
    data[1].push(ref ? ref.expected : null);
    lanes.forEach((lane, k) => {
      let v = null;
      if (lane.world) {
        lane.world.step();
        v = sceneValue(lane.scene, lane.world);
        state.presets[lane.preset].perContactForce = !!lane.world.readbackInfo.perContactForce;
        lane.view.draw(lane.scene, lane.world);
        lane.el.querySelector('.value').textContent = v === null
          ? 'per-contact force: not available for this preset'
          : `${lane.scene.quantity} = ${v.toFixed(4)}`;
      }
      data[k + 2].push(v);
      state.values[lane.preset] = v;
    });
    if (data[0].length > HISTORY) for (const s of data) s.shift();
    state.steps += 1;
  }

  let paused = params.get('paused') === '1';
  document.getElementById('btn-pause').onclick = (e) => { paused = !paused; e.target.textContent = paused ? 'Resume' : 'Pause'; };
  document.getElementById('btn-step').onclick = () => { step(); plot.setData(data); };
  document.getElementById('btn-reset').onclick = () => build();
  select.onchange = () => build();
  state.step = (n = 1) => { for (let i = 0; i < n; i++) step(); plot.setData(data); };
  state.select = (key) => { select.value = key; build(); };
  build();
  state.ready = true;
  const loop = () => {
    if (!paused) { step(); plot.setData(data); }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

main().catch(fail);
