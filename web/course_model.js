/**
 * The part of the course page framework that needs no page: parameters read from a URL, and a
 * lane (one world of one preset running a page's scene) stepped and measured. The pages use it in
 * the browser; the browser tests use it in Node to compute a page's headline number on the same
 * scene with the JS API.
 *
 * A page spec (web/pages/*.js) is a plain object:
 *   id, title, params: [{ key, label, unit, min, max, step, value } | { key, label, options: [...], value }],
 *   presets: preset names shown side by side (or { name, preset, options }: a preset with axes changed),
 *   timestep (s, default 1/60; or a function of the params), duration (s of one run; the page loops),
 *   world(params, preset) -> extra createWorld options,
 *   build(world, params, preset) -> scene ({ bodies, planes } for the side view, plus any state),
 *   collideOnly (each step is world.collide() alone), drive?(world, scene, params, t) before each step, sample(world, scene, params, t) -> number|null,
 *   reference(params, t) -> closed form at t (or null), headline(lane, params) -> number|null,
 *   headlineReference(params) -> number|null, headlineLabel, plot: { x, y, reference }.
 * @module tribo/web/course_model
 */

/** Parameter values: each param's default, overridden by the URL's value (clamped to its range). */
export function readParams(spec, search = '') {
  const q = new URLSearchParams(search);
  const out = {};
  for (const p of spec.params) {
    const raw = q.get(p.key);
    if (p.options) out[p.key] = raw !== null && p.options.some((o) => String(optionValue(o)) === raw) ? parseOption(p, raw) : p.value;
    else {
      const v = raw === null ? NaN : Number(raw);
      out[p.key] = Number.isFinite(v) ? Math.min(p.max, Math.max(p.min, v)) : p.value;
    }
  }
  return out;
}

/** A select option is a value or { value, label }. */
export const optionValue = (o) => (o !== null && typeof o === 'object' ? o.value : o);
export const optionLabel = (o) => (o !== null && typeof o === 'object' ? o.label : String(o));
/** The option of `p` whose value reads as `raw`, with its type. */
export function parseOption(p, raw) {
  const o = p.options.find((x) => String(optionValue(x)) === String(raw));
  if (o === undefined) throw new RangeError(`${p.key} must be one of ${p.options.map(optionValue).join(', ')} (got ${raw})`);
  return optionValue(o);
}

/** One preset's world running the page's scene; `samples` holds [t, value] per step. */
export class Lane {
  /**
   * @param {object} tribo from init()
   * @param {object} spec page spec
   * @param {string} preset
   * @param {object} params
   */
  constructor(tribo, spec, preset, params) {
    this.spec = spec;
    /* a lane is a preset, or { name, preset, options } for a preset with some axes changed */
    const base = typeof preset === 'string' ? { name: preset, preset, options: {} } : preset;
    this.preset = base.name;
    this.color = base.color;
    this.params = params;
    this.h = (typeof spec.timestep === 'function' ? spec.timestep(params) : spec.timestep) ?? 1 / 60;
    this.t = 0;
    this.samples = [];
    this.error = null;
    try {
      this.world = tribo.createWorld({ preset: base.preset, timestep: this.h, ...base.options, ...(spec.world?.(params, base.name) ?? {}) });
      this.scene = spec.build(this.world, params, base.name);
    } catch (e) {
      this.world?.free();
      this.world = null;
      this.error = e.message; /* e.g. a preset not in this version */
    }
  }

  /** Steps once and samples; returns the sample (null when not available). */
  step() {
    if (!this.world || this.failed) return null;
    const { spec, world, scene, params } = this;
    try {
      spec.drive?.(world, scene, params, this.t);
      if (spec.collideOnly) world.collide(); /* the collision stage alone: nothing moves */
      else world.step();
    } catch (e) {
      /* e.g. an explicit penalty step that is unstable: the world is undone and says why */
      this.failed = e.message;
      return null;
    }
    this.t += this.h;
    const v = spec.sample(world, scene, params, this.t);
    this.samples.push([this.t, v]);
    return v;
  }

  /** The page's headline number of this lane (null when not available). */
  headline() { return this.world && !this.failed ? this.spec.headline(this, this.params) : null; }

  free() { this.world?.free(); this.world = null; }
}

/** Runs one lane for `steps` steps and returns it (Node tests: the page's number on the same scene). */
export function runLane(tribo, spec, preset, params, steps) {
  const lane = new Lane(tribo, spec, preset, params);
  for (let i = 0; i < steps; i++) lane.step();
  return lane;
}

/** Least-squares slope of the samples with t in [t0, t1] (e.g. an acceleration from velocities). */
export function slope(samples, t0, t1) {
  let n = 0, st = 0, sv = 0, stt = 0, stv = 0;
  for (const [t, v] of samples) {
    if (t < t0 - 1e-9 || t > t1 + 1e-9 || v == null) continue;
    n++; st += t; sv += v; stt += t * t; stv += t * v;
  }
  if (n < 2) return null;
  return (n * stv - st * sv) / (n * stt - st * st);
}

/** Mean of the sample values (nulls skipped) over the last `fraction` of the run, e.g. a resting value. */
export function tailMean(samples, fraction) {
  const tail = samples.slice(Math.floor(samples.length * (1 - fraction))).filter(([, v]) => v != null);
  return tail.length ? tail.reduce((a, [, v]) => a + v, 0) / tail.length : null;
}

/**
 * A ground plane and a stack of n boxes of half extents `half` (m) and mass `mass` (kg) each, resting
 * face on face; returns the scene parts the side view draws and the box ids, bottom first.
 */
export function buildStack(world, n, half, mass) {
  world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
  const shape = { type: 'box', halfExtents: half, density: boxDensity(mass, half) };
  const ids = [];
  for (let k = 0; k < n; k++) ids.push(world.addBody({ position: [0, half[1] * (2 * k + 1), 0], shapes: [shape] }));
  return { bodies: ids.map((id) => ({ id, shape })), planes: [{ normal: [0, 1, 0], offset: 0 }], ids };
}

export const G = 9.81; /* m/s², the pages' gravity */
export const deg = (d) => (d * Math.PI) / 180;
/** Quaternion (x, y, z, w) of a rotation of `angle` rad about +z. */
export const aboutZ = (angle) => [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
/** Density (kg/m³) giving a box of half extents h the mass m (kg). */
export const boxDensity = (m, h) => m / (8 * h[0] * h[1] * h[2]);
/** Density (kg/m³) giving a sphere of radius r the mass m (kg). */
export const sphereDensity = (m, r) => m / ((4 / 3) * Math.PI * r ** 3);
/** Dot product of a 3-vector with a slice of a flat array. */
export const dotAt = (a, i, v) => a[3 * i] * v[0] + a[3 * i + 1] * v[1] + a[3 * i + 2] * v[2];
