/**
 * tribo/element: `<tribo-scene>`, a scene for documentation pages. A canvas in shadow DOM draws a
 * world stepped in a worker (WorkerWorld), with its contact points, normals and force arrows.
 *
 *   <script type="module" src="https://…/tribo/js/element.js"></script>
 *   <tribo-scene scene="stack" preset="physx-tgs" show="points forces" camera="3 2 4"></tribo-scene>
 *
 * Attributes: scene (a built-in scene: 'sphere', 'stack', 'pile'), preset (world preset),
 * show (any of points, normals, forces), paused, camera ("x y z" eye, m, world; optional target
 * "x y z" after it; default "3 2.2 4  0 0.5 0"), plot (indices into the scene's bodies: a
 * force-time plot of the magnitude of each one's net contact force, N). An inline
 * `<script type="application/json">` child replaces `scene`: { world: {world options},
 * bodies: [body descriptors of World.addBody], plot?: [indices] } — the same descriptors as the
 * JS API. Several elements share one engine load (one compiled wasm module); removing an element
 * frees its world and stops its worker (`freed` resolves with the worker engine's live bytes).
 * @module tribo/element
 */
import { createWorkerWorld } from './index.js';
import { defaultBuild, fileLocator } from './loader.js';

const BACKGROUND = '#1b1f27';
const NEWTONS_PER_METRE = 200; // force arrow scale, N per m of arrow
const PLOT_SAMPLES = 240;

export const SCENES = {
  sphere: { bodies: [
    { type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] },
    { position: [0, 0.6, 0], shapes: [{ type: 'sphere', radius: 0.5, density: 1000 }] },
  ] },
  stack: { bodies: [
    { type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] },
    ...[0, 1, 2].map((i) => ({ position: [0, 0.25 + 0.5 * i, 0], shapes: [{ type: 'box', halfExtents: [0.25, 0.25, 0.25], density: 500 }] })),
  ] },
  pile: { bodies: [
    { type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] },
    ...Array.from({ length: 8 }, (_, i) => ({
      position: [0.3 * ((i % 3) - 1), 0.4 + 0.55 * i, 0.25 * ((i % 2) - 0.5)],
      shapes: [i % 2 ? { type: 'box', halfExtents: [0.2, 0.2, 0.2], density: 500 } : { type: 'sphere', radius: 0.22, density: 500 }],
    })),
  ] },
};

/** One engine load for every element of the page: the wasm compiled once, posted to each worker. */
let engine = null;
function sharedEngine() {
  engine ??= (async () => {
    const build = defaultBuild();
    const url = fileLocator({}, build)(build === 'threads' ? 'tribo_mt.wasm' : 'tribo_simd.wasm');
    TriboScene.engineLoads += 1;
    try {
      return { build, wasmModule: await WebAssembly.compileStreaming(fetch(url)) };
    } catch {
      return { build }; // each worker loads the wasm itself
    }
  })();
  return engine;
}

const q = (r, v) => { // rotate v by unit quaternion r = [x, y, z, w]
  const [x, y, z, w] = r; const [a, b, c] = v;
  const tx = 2 * (y * c - z * b), ty = 2 * (z * a - x * c), tz = 2 * (x * b - y * a);
  return [a + w * tx + y * tz - z * ty, b + w * ty + z * tx - x * tz, c + w * tz + x * ty - y * tx];
};

export class TriboScene extends HTMLElement {
  static observedAttributes = ['scene', 'preset', 'show', 'paused', 'camera', 'plot'];
  static engineLoads = 0;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>:host{display:block;position:relative;min-height:120px;aspect-ratio:16/9}'
      + 'canvas{position:absolute;inset:0;width:100%;height:100%}</style><canvas part="canvas"></canvas>';
    this.canvas = root.querySelector('canvas');
    /** The WorkerWorld (null before connection and after removal). */
    this.world = null;
    /** Last frame drawn, and what was drawn of it. */
    this.frame = null;
    this.stats = { contacts: 0, markers: 0, arrows: 0 };
    /** Resolves with the worker engine's live bytes once a removed element's world is freed. */
    this.freed = null;
    this.ready = new Promise((r) => { this._ready = r; });
    this._history = [];
  }

  connectedCallback() {
    this._alive = true;
    this._resize = new ResizeObserver(() => this._fit());
    this._resize.observe(this);
    this._fit();
    this._start().catch((e) => this._fail(e));
  }

  disconnectedCallback() {
    this._alive = false;
    this._resize?.disconnect();
    cancelAnimationFrame(this._raf);
    const world = this.world;
    this.world = null;
    this.freed = (async () => (await this._starting, world ? world.free() : 0))();
  }

  attributeChangedCallback(name) {
    if (name === 'paused' && !this.hasAttribute('paused')) this._loop();
  }

  /** The scene description: inline JSON child, else the `scene` attribute. */
  description() {
    const json = this.querySelector('script[type="application/json"]');
    if (json) {
      try { return JSON.parse(json.textContent); } catch (e) { throw new TypeError(`<tribo-scene>: the inline JSON scene is not valid JSON: ${e.message}`); }
    }
    const name = this.getAttribute('scene') ?? 'stack';
    if (!SCENES[name]) throw new RangeError(`<tribo-scene>: scene must be one of ${Object.keys(SCENES).join(', ')} (got ${JSON.stringify(name)})`);
    return SCENES[name];
  }

  async _start() {
    let finish;
    this._starting = new Promise((r) => { finish = r; });
    try {
      const desc = this.description();
      const options = { gravity: [0, -9.81, 0], ...(desc.world ?? {}) };
      if (this.hasAttribute('preset')) options.preset = this.getAttribute('preset');
      const { build, wasmModule } = await sharedEngine();
      const world = await createWorkerWorld({ ...options, build, wasmModule });
      if (!this._alive) { await world.free(); return; }
      this._bodies = [];
      for (const b of desc.bodies ?? []) this._bodies.push({ id: await world.addBody(b), shapes: b.shapes ?? [], slot: null });
      for (const b of this._bodies) b.slot = await world.bodySlot(b.id);
      this._plot = (this.getAttribute('plot')?.trim().split(/\s+/).map(Number) ?? desc.plot ?? []).filter((i) => this._bodies[i]);
      this.world = world;
      this.frame = await world.frame();
      this._draw();
      this._ready(this);
      this._loop();
    } finally {
      finish();
    }
  }

  _fail(e) {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = BACKGROUND; ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.fillStyle = '#ff6b6b'; ctx.font = '13px sans-serif'; ctx.fillText(String(e.message ?? e), 8, 20);
    this.error = e;
    this.dispatchEvent(new CustomEvent('error', { detail: e }));
  }

  _loop() {
    cancelAnimationFrame(this._raf);
    this._raf = requestAnimationFrame(async () => {
      if (!this._alive || !this.world || this.hasAttribute('paused') || this._busy) return;
      this._busy = true;
      try {
        const world = this.world;
        this.frame = await world.step(1);
        if (this._plot.length) {
          const f = [];
          for (const i of this._plot) {
            const w = await world.netContactWrench(this._bodies[i].id);
            f.push(Math.hypot(...w.force));
          }
          this._history.push(f);
          if (this._history.length > PLOT_SAMPLES) this._history.shift();
        }
        this._draw();
      } catch (e) {
        if (this._alive) this._fail(e);
        return;
      } finally {
        this._busy = false;
      }
      this._loop();
    });
  }

  _fit() {
    const dpr = globalThis.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(this.clientWidth * dpr)), h = Math.max(1, Math.round(this.clientHeight * dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w; this.canvas.height = h;
      if (this.frame) this._draw();
    }
  }

  /** Perspective projection from the camera attribute: world point (m) -> [x, y (px), depth (m)] or null. */
  _projector(width, height) {
    const c = (this.getAttribute('camera') ?? '3 2.2 4 0 0.5 0').trim().split(/[\s,]+/).map(Number);
    const eye = c.slice(0, 3), target = c.length >= 6 ? c.slice(3, 6) : [0, 0.5, 0];
    const norm = (v) => { const l = Math.hypot(...v) || 1; return v.map((x) => x / l); };
    const fwd = norm(target.map((t, i) => t - eye[i]));
    const right = norm([fwd[1] * 0 - fwd[2] * 1, fwd[2] * 0 - fwd[0] * 0, fwd[0] * 1 - fwd[1] * 0]);
    const up = [right[1] * fwd[2] - right[2] * fwd[1], right[2] * fwd[0] - right[0] * fwd[2], right[0] * fwd[1] - right[1] * fwd[0]];
    const f = 0.9 * height; // focal length, px (vertical field of view ≈ 58°)
    return (p) => {
      const d = [p[0] - eye[0], p[1] - eye[1], p[2] - eye[2]];
      const z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
      if (z < 0.05) return null;
      return [width / 2 + f * (d[0] * right[0] + d[1] * right[1] + d[2] * right[2]) / z,
        height / 2 - f * (d[0] * up[0] + d[1] * up[1] + d[2] * up[2]) / z, z, f / z];
    };
  }

  _draw() {
    const { width, height } = this.canvas;
    const ctx = this.canvas.getContext('2d');
    const plotH = this._plot?.length ? Math.round(height * 0.28) : 0;
    const viewH = height - plotH;
    ctx.fillStyle = BACKGROUND; ctx.fillRect(0, 0, width, height);
    const P = this._projector(width, viewH);
    const line = (a, b) => { const pa = P(a), pb = P(b); if (pa && pb) { ctx.moveTo(pa[0], pa[1]); ctx.lineTo(pb[0], pb[1]); } };
    const t = this.frame.bodies.transform;
    ctx.lineWidth = 1.5;
    for (const b of this._bodies) {
      const pos = [t[7 * b.slot], t[7 * b.slot + 1], t[7 * b.slot + 2]];
      const rot = [t[7 * b.slot + 3], t[7 * b.slot + 4], t[7 * b.slot + 5], t[7 * b.slot + 6]];
      const w = (v) => { const r = q(rot, v); return [r[0] + pos[0], r[1] + pos[1], r[2] + pos[2]]; };
      for (const s of b.shapes) {
        const o = s.position ?? [0, 0, 0];
        ctx.strokeStyle = s.type === 'plane' ? '#3a4252' : '#c9d1e0';
        ctx.beginPath();
        if (s.type === 'plane') {
          for (let i = -4; i <= 4; i++) { line([i * 0.5, 0, -2], [i * 0.5, 0, 2]); line([-2, 0, i * 0.5], [2, 0, i * 0.5]); }
        } else if (s.type === 'sphere' || s.type === 'capsule') {
          const ends = s.type === 'sphere' ? [[0, 0, 0]] : [[0, -s.halfHeight, 0], [0, s.halfHeight, 0]];
          for (const e of ends) {
            const c = P(w([o[0] + e[0], o[1] + e[1], o[2] + e[2]]));
            if (c) { ctx.moveTo(c[0] + s.radius * c[3], c[1]); ctx.arc(c[0], c[1], s.radius * c[3], 0, 2 * Math.PI); }
          }
        } else if (s.type === 'box') {
          const h = s.halfExtents;
          const v = (i) => w([o[0] + (i & 1 ? h[0] : -h[0]), o[1] + (i & 2 ? h[1] : -h[1]), o[2] + (i & 4 ? h[2] : -h[2])]);
          for (let i = 0; i < 8; i++) for (const bit of [1, 2, 4]) if (!(i & bit)) line(v(i), v(i | bit));
        }
        ctx.stroke();
      }
    }
    const show = new Set((this.getAttribute('show') ?? 'points').split(/\s+/));
    const c = this.frame.contacts;
    const stats = { contacts: c.count, markers: 0, arrows: 0 };
    for (let i = 0; i < c.count; i++) {
      const p = [c.point[3 * i], c.point[3 * i + 1], c.point[3 * i + 2]];
      const pp = P(p);
      if (show.has('normals')) {
        ctx.strokeStyle = '#3fd0ff'; ctx.beginPath();
        line(p, [p[0] + 0.2 * c.normal[3 * i], p[1] + 0.2 * c.normal[3 * i + 1], p[2] + 0.2 * c.normal[3 * i + 2]]); ctx.stroke();
      }
      if (show.has('forces') && c.force) {
        const s = 1 / NEWTONS_PER_METRE;
        ctx.strokeStyle = '#ffd23f'; ctx.beginPath();
        line(p, [p[0] + s * c.force[3 * i], p[1] + s * c.force[3 * i + 1], p[2] + s * c.force[3 * i + 2]]); ctx.stroke();
        stats.arrows++;
      }
      if (show.has('points') && pp) {
        ctx.fillStyle = '#ff4d2e'; ctx.beginPath(); ctx.arc(pp[0], pp[1], 3, 0, 2 * Math.PI); ctx.fill();
        stats.markers++;
      }
    }
    if (plotH) this._drawPlot(ctx, viewH, width, plotH);
    this.stats = stats;
  }

  _drawPlot(ctx, y0, width, h) {
    ctx.fillStyle = '#141820'; ctx.fillRect(0, y0, width, h);
    const max = Math.max(1, ...this._history.flat());
    const colors = ['#ffd23f', '#3fd0ff', '#ff5ad2', '#7dff6b'];
    this._plot.forEach((_, k) => {
      ctx.strokeStyle = colors[k % colors.length]; ctx.beginPath();
      this._history.forEach((f, i) => {
        const x = (i / (PLOT_SAMPLES - 1)) * width, y = y0 + h - 4 - (f[k] / max) * (h - 18);
        if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y);
      });
      ctx.stroke();
    });
    ctx.fillStyle = '#8a8f99'; ctx.font = `${Math.max(10, Math.round(h / 8))}px sans-serif`;
    ctx.fillText(`|net contact force| (N), max ${max.toFixed(1)}`, 6, y0 + Math.max(12, h / 7));
  }
}

if (typeof customElements === 'object' && !customElements.get('tribo-scene')) customElements.define('tribo-scene', TriboScene);
