/**
 * The course page framework: every concept page (demos/<id>.html) is a page spec (web/pages/) mounted
 * here. It builds the page: a collapsible control panel with the spec's sliders and selectors (with
 * units), one side view and one 3D view (web/course_3d.js) per preset stepped together, a live plot
 * of the taught quantity next to its closed form, the headline number per preset against the
 * formula, the explanation, CSV export of the plotted series, and the embed mode.
 *
 * URL: any param key (e.g. ?theta=30), paused=1, embed=1 (compact: no explanation, panel folded
 * unless panel=1), cx, cy, span (the side views' camera: centre x, y and width in m), view (side, 3d
 * or both: which views each lane shows, default both), camera (the 3D camera: x,y,z eye, optionally
 * then x,y,z target, m, world; default: looking at the side view's centre).
 * For tests, window.course holds ready, error, build, params, headline, reference, lanes, camera,
 * camera3d (the 3D camera the page started with), camera3dNow (after orbiting), view, renders3d (3D lane frames rendered so far), and set(key, value), step(n), csv(),
 * pause(), resume(), setView(mode).
 * @module tribo/web/course
 */
import { init } from '../js/index.js';
import { Lane, readParams, optionValue, optionLabel, parseOption } from './course_model.js';
import { SideView } from './side_view.js';
import { Course3D, cameraFrom } from './course_3d.js';
import { LivePlot, download } from './live_plot.js';

export const PRESET_COLORS = { 'physx-pgs': '#60a5fa', 'physx-tgs': '#34d399', 'newton-xpbd': '#f472b6', 'newton-semi': '#fbbf24', mujoco: '#a78bfa', kamino: '#fb923c' };
const colorOf = (lane, k) => lane.color ?? PRESET_COLORS[lane.preset] ?? ['#60a5fa', '#34d399', '#f472b6', '#fbbf24'][k % 4];

const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'html') e.innerHTML = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
};
const fmt = (v, digits = 3) => (v == null || !Number.isFinite(v) ? 'n/a' : v.toFixed(digits));

/** The page skeleton; returns its parts. */
function skeleton(spec, embed, panelOpen) {
  document.title = `Tribo course: ${spec.title}`;
  document.body.classList.toggle('embed', embed);
  const panel = el('details', { id: 'panel', class: 'panel' }, el('summary', {}, 'controls'));
  if (panelOpen) panel.open = true;
  const sliders = el('div', { id: 'sliders' });
  const buttons = el('div', { class: 'buttons' },
    el('button', { id: 'btn-pause', type: 'button' }, 'Pause'), el('button', { id: 'btn-step', type: 'button' }, 'Step'),
    el('button', { id: 'btn-reset', type: 'button' }, 'Reset'), el('button', { id: 'btn-csv', type: 'button', title: 'plotted series as CSV' }, 'CSV'),
    el('label', {}, 'views ', viewSelect()));
  panel.append(sliders, buttons);
  const header = el('header', {}, el('a', { href: './', class: 'back' }, '← all demos'), el('h1', {}, spec.title));
  const explain = el('details', { id: 'explain', class: 'explain' }, el('summary', {}, 'the physics'), el('div', { html: spec.explanation }));
  if (!embed) explain.open = true;
  const main = el('main', {},
    el('div', { id: 'lanes' }),
    el('section', { class: 'plotbox' }, el('div', { id: 'plot-title', class: 'plot-title' }), el('div', { id: 'plot' })),
    el('section', { id: 'headline' }), el('section', { id: 'table' }));
  const error = el('div', { id: 'error', hidden: '' });
  document.body.append(header, panel, main, explain, error);
  return { panel, sliders, lanes: main.querySelector('#lanes'), plot: main.querySelector('#plot'), headline: main.querySelector('#headline'), table: main.querySelector('#table'), error };
}

const VIEW_MODES = { both: 'side + 3D', side: 'side view', '3d': '3D' };
function viewSelect() {
  const s = el('select', { id: 'view-mode', 'aria-label': 'views of each lane' });
  for (const [v, label] of Object.entries(VIEW_MODES)) s.add(new Option(label, v));
  return s;
}

/** One slider or selector per spec param, calling onChange(key, value). */
function controls(box, spec, params, onChange) {
  const inputs = {};
  for (const p of spec.params) {
    const id = `param-${p.key}`;
    let input, out = null;
    if (p.options) {
      input = el('select', { id, 'data-key': p.key });
      for (const o of p.options) input.add(new Option(optionLabel(o), String(optionValue(o))));
      input.value = String(params[p.key]);
      input.onchange = () => onChange(p.key, parseOption(p, input.value));
    } else {
      input = el('input', { id, type: 'range', min: p.min, max: p.max, step: p.step, 'data-key': p.key });
      input.value = params[p.key];
      out = el('output', { for: id });
      const show = () => { out.textContent = `${Number(input.value)} ${p.unit ?? ''}`.trim(); };
      show();
      input.oninput = () => { show(); onChange(p.key, Number(input.value)); };
    }
    inputs[p.key] = { input, out, show: () => out && (out.textContent = `${Number(input.value)} ${p.unit ?? ''}`.trim()) };
    box.append(el('label', { class: 'param', for: id }, el('span', { class: 'name' }, p.label), input, ...(out ? [out] : [])));
  }
  return inputs;
}

/**
 * Mounts a page spec on the current document.
 * @param {object} spec see web/course_model.js
 */
export async function mountCourse(spec) {
  const q = new URLSearchParams(location.search);
  const embed = q.get('embed') === '1';
  const state = (window.course = { ready: false, error: null, id: spec.id, params: readParams(spec, location.search), headline: {}, reference: null, lanes: [] });
  const dom = skeleton(spec, embed, embed ? q.get('panel') === '1' : true);
  const fail = (e) => {
    state.error = String(e?.message ?? e);
    dom.error.textContent = state.error;
    dom.error.hidden = false;
  };
  try {
    const tribo = await init(); /* 'threads' on an isolated page, else 'simd'; small worlds on the page's thread */
    state.build = tribo.build;
    const view = { ...(spec.view ?? {}) };
    for (const [k, i] of [['cx', 0], ['cy', 1]]) if (q.has(k) && Number.isFinite(+q.get(k))) (view.center = [...(view.center ?? [0, 0.5])])[i] = +q.get(k);
    if (q.has('span') && +q.get('span') > 0) view.metersAcross = +q.get('span');

    state.camera = { center: view.center ?? [0, 0.5], metersAcross: view.metersAcross ?? 3 };
    state.camera3d = cameraFrom(q.get('camera'), state.camera);
    /* the 3D views: one shared renderer, made when a 3D view is first shown */
    let course3d = null;
    const shows3d = () => state.view !== 'side';
    const modeSelect = document.getElementById('view-mode');
    state.view = VIEW_MODES[q.get('view')] ? q.get('view') : 'both';
    modeSelect.value = state.view;
    let lanes = [], plot = null, views = [];
    const rebuild = () => {
      for (const l of lanes) l.free();
      for (const v of views) v.view3d?.dispose();
      dom.lanes.textContent = '';
      dom.lanes.dataset.view = state.view;
      lanes = spec.presets.map((preset) => new Lane(tribo, spec, preset, state.params));
      views = lanes.map((lane, k) => {
        const name = el('h2', { style: `color:${colorOf(lane, k)}` }, lane.preset);
        const canvas = el('canvas', { class: 'side', width: 360, height: 220, 'aria-label': `${lane.preset} side view` });
        const canvas3d = el('canvas', { class: 'view3d', width: 360, height: 220, 'aria-label': `${lane.preset} 3D view (drag to orbit)` });
        const value = el('div', { class: 'value' }, lane.error ?? '');
        const section = el('section', { class: `lane${lane.error ? ' unavailable' : ''}` }, name, canvas, canvas3d, value);
        dom.lanes.append(section);
        const sv = new SideView(canvas, { newtonsPerMeter: spec.newtonsPerMeter ?? 40, ...view });
        if (spec.drag && !lane.error) dragging(canvas, sv, spec.drag);
        return { view: sv, canvas3d, view3d: null, value, section };
      });
      attach3d();
      state.lanes = lanes.map((l) => ({ preset: l.preset, available: !l.error, reason: l.error }));
      plot?.destroy();
      plot = new LivePlot(dom.plot, {
        x: spec.plot.x, y: spec.plot.y, reference: spec.plot.reference, points: !!spec.sweep,
        series: lanes.map((l, k) => ({ label: l.preset, color: colorOf(l, k) })),
      });
      document.getElementById('plot-title').textContent = spec.plot.title ?? '';
      /* spec.table(params): HTML of an editable table whose <select data-key> cells set params;
       * spec.tableDraw(root, lanes, params) fills its result cells at each redraw */
      if (spec.table) dom.table.innerHTML = spec.table(state.params);
      draw();
    };
    /* a 3D view per available lane once 3D is shown (the renderer is made then) */
    const attach3d = () => {
      if (!shows3d()) return;
      course3d ??= new Course3D(state.camera3d);
      lanes.forEach((lane, k) => {
        if (lane.world && !views[k].view3d) views[k].view3d = course3d.lane(views[k].canvas3d, lane.scene, { newtonsPerMeter: spec.newtonsPerMeter ?? 40, span: state.camera.metersAcross });
      });
    };
    const draw = () => {
      lanes.forEach((lane, k) => {
        if (!lane.world) return;
        views[k].view.draw(lane.scene, lane.world);
        if (shows3d()) views[k].view3d?.draw(lane.world);
      });
      state.reference = spec.headlineReference?.(state.params) ?? null;
      const rows = lanes.map((lane, k) => {
        const v = lane.headline();
        state.headline[lane.preset] = v;
        const note = lane.failed ?? lane.error ?? (spec.note?.(lane, state.params) || '');
        views[k].value.textContent = lane.error ? lane.error : `${spec.headlineLabel}: ${fmt(v, spec.digits)}${note ? ` — ${note}` : ''}`;
        return `<tr><td style="color:${colorOf(lane, k)}">${lane.preset}</td><td>${fmt(v, spec.digits)}</td><td>${note}</td></tr>`;
      });
      dom.headline.innerHTML = `<table><tr><th></th><th>${spec.headlineLabel}</th><th></th></tr>${rows.join('')}` +
        `<tr class="ref"><td>${spec.headlineReferenceLabel ?? 'closed form'}</td><td>${fmt(state.reference, spec.digits)}</td><td>${spec.formula ?? ''}</td></tr></table>`;
      spec.tableDraw?.(dom.table, lanes, state.params);
      if (spec.sweep) {
        const s = spec.sweep(lanes, state.params);
        plot.set(s.xs, s.ys, s.ref);
      }
      plot.redraw();
    };
    const step = () => {
      if (lanes.every((l) => !l.world || l.failed || l.t >= (spec.duration ?? 2) - 1e-9)) {
        if (spec.loop === false) return;
        rebuild();
      }
      const values = lanes.map((l) => l.step());
      const t = Math.max(...lanes.map((l) => l.t));
      if (!spec.sweep) plot.push(t, values, spec.reference?.(state.params, t) ?? null);
    };

    /* spec.drag = { keys: [xKey, yKey], apply(lane, params) }: dragging on a side view moves those
     * two params to the pointer (m); apply() moves the lane's world without rebuilding it */
    const dragging = (canvas, sv, { keys }) => {
      let on = false;
      const move = (e) => {
        if (!on) return;
        const r = canvas.getBoundingClientRect();
        const m = sv.meters(((e.clientX - r.left) * canvas.width) / r.width, ((e.clientY - r.top) * canvas.height) / r.height);
        const next = { ...state.params };
        keys.forEach((k, i) => {
          const p = spec.params.find((q) => q.key === k);
          next[k] = Math.min(p.max, Math.max(p.min, Math.round(m[i] / p.step) * p.step));
        });
        state.params = next;
        for (const k of keys) { inputs[k].input.value = String(next[k]); inputs[k].show(); }
        for (const l of lanes) { l.params = next; if (l.world) spec.drag.apply(l, next); }
        step(); draw();
      };
      canvas.style.touchAction = 'none';
      canvas.style.cursor = 'grab';
      canvas.addEventListener('pointerdown', (e) => { on = true; canvas.setPointerCapture?.(e.pointerId); move(e); });
      canvas.addEventListener('pointermove', move);
      canvas.addEventListener('pointerup', () => { on = false; });
    };
    dom.table.addEventListener('change', (e) => {
      const key = e.target?.dataset?.key;
      if (key) state.set(key, e.target.value);
    });
    const inputs = controls(dom.sliders, spec, state.params, (key, v) => { state.params = { ...state.params, [key]: v }; rebuild(); });
    let paused = q.get('paused') === '1';
    const pauseBtn = document.getElementById('btn-pause');
    const setPaused = (p) => { paused = p; pauseBtn.textContent = p ? 'Resume' : 'Pause'; };
    setPaused(paused);
    pauseBtn.onclick = () => setPaused(!paused);
    document.getElementById('btn-step').onclick = () => { step(); draw(); };
    document.getElementById('btn-reset').onclick = () => rebuild();
    document.getElementById('btn-csv').onclick = () => download(`tribo-${spec.id}.csv`, plot.csv());
    Object.assign(state, {
      step: (n = 1) => { for (let i = 0; i < n; i++) step(); draw(); return { ...state.headline }; },
      set: (key, v) => {
        const p = spec.params.find((x) => x.key === key);
        if (!p) throw new RangeError(`set: unknown param ${key}`);
        state.params = { ...state.params, [key]: p.options ? parseOption(p, v) : Number(v) };
        inputs[key].input.value = String(state.params[key]);
        inputs[key].show();
        rebuild();
      },
      csv: () => plot.csv(),
      pause: () => setPaused(true), resume: () => setPaused(false),
      setView: (mode) => {
        if (!VIEW_MODES[mode]) throw new RangeError(`setView: mode must be one of ${Object.keys(VIEW_MODES).join(', ')} (got ${mode})`);
        state.view = modeSelect.value = mode;
        dom.lanes.dataset.view = mode;
        attach3d();
        draw();
      },
    });
    Object.defineProperty(state, 'renders3d', { get: () => course3d?.renders ?? 0 });
    Object.defineProperty(state, 'camera3dNow', { get: () => course3d?.cameraState ?? state.camera3d });
    modeSelect.onchange = () => state.setView(modeSelect.value);
    rebuild();
    state.ready = true;
    let frame = 0;
    const loop = () => {
      if (!paused) {
        for (let i = 0; i < (spec.stepsPerFrame ?? 1); i++) step();
        if (++frame % 2 === 0 || spec.sweep) draw(); /* redraw at 30 Hz */
      }
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  } catch (e) {
    fail(e);
  }
}
