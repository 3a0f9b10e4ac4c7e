// mujoco-js: the official MuJoCo WebAssembly build (MuJoCo 3.3.8), the engine Tribo's `mujoco`
// preset follows. Each scene becomes one MJCF model, written to Emscripten's in-memory file system
// and loaded with MjModel.loadFromXML, as tools/mujoco_reference.mjs does.
//
// Same problem as tribo:preset=mujoco (Tribo's values: src/world/world_def.c
// tb_mujoco_params_default and the TB_PRESET_MUJOCO case of tb_world_def_apply_preset;
// src/model/material.c tb_material_defaults; src/api/shape.c margin = gap = 0):
//   <option> solver Newton, cone pyramidal, integrator Euler, iterations 100, tolerance 1e-8,
//   ls_iterations 50, ls_tolerance 0.01, impratio 1; warm start, refsafe and islands on
//   (MuJoCo's default flags; Tribo's Newton also solves island after island).
//   Every geom: friction "0.6 0.005 0.0001" (the scene's μ; MuJoCo's and Tribo's torsional and
//   rolling defaults), condim 3, solref "0.02 1", solimp "0.9 0.95 0.001 0.5 2", solmix 1,
//   margin 0, gap 0; with dt = 1/60 s refsafe raises the time constant 0.02 s to 2·dt in both.
//   Sleeping: MuJoCo 3.3.8 has none; the preset runs with sleep off.
// Not matched: collision. MuJoCo's own narrow phase (box–box, capsule–box, … routines of
// engine_collision_*.c, nativeccd) and broad phase produce other contact points and counts than
// Tribo's, so the two solvers see different constraint rows for the same poses. MuJoCo computes
// in float64, Tribo in float32. Restitution 0 needs no setting: MuJoCo has none.
//
// Axes: the scenes are y-up, MuJoCo is z-up. A scene vector (x, y, z) is (x, −z, y) in MuJoCo
// (a +90° turn about x, C); a body's quaternion q is C·q·C⁻¹, i.e. (w, qx, −qz, qy), so each
// body's local frame is turned by C as well: a box's half extents become (hx, hz, hy) and a
// capsule's local y axis becomes its local z, MuJoCo's capsule axis (no extra geom rotation).
// Positions are read from qpos (the free joints in body order) and turned back to the scene's axes.
import { DT, GRAVITY } from '../scenes.mjs';

export const id = 'mujoco';
export const packageName = 'mujoco-js';
/**
 * Seconds run.mjs lets this engine's child go without progress (a report every 20 steps) before it
 * kills it: once the pile has landed, MuJoCo's steps take seconds each (9 s at step 100, 12–16 s
 * at steps 110–116, almost all in mj_fwdConstraint; RESULTS "perf26"), far beyond run.mjs's 30 s
 * default for a hung thread pool.
 */
export const hangSeconds = 1800;

/** Scene (y-up) vector → MuJoCo (z-up). */
const toMj = ([x, y, z]) => [x, -z, y];
/** Scene quaternion (x, y, z, w) → MuJoCo quaternion (w, x, y, z) in MuJoCo's axes. */
const quatToMj = ([x, y, z, w]) => [w, x, -z, y];
const vec = (a) => a.map((v) => +v.toPrecision(17)).join(' ');

/** Solver options of the model, Tribo's mujoco-preset defaults (see the header). */
const OPTION = `timestep="${DT}" gravity="${vec(toMj(GRAVITY))}" solver="Newton" cone="pyramidal" ` +
  'integrator="Euler" iterations="100" tolerance="1e-8" ls_iterations="50" ls_tolerance="0.01" impratio="1"';

/** Contact parameters of every geom (static and dynamic alike, so MuJoCo's mix gives them unchanged). */
function contactAttrs(b) {
  return `friction="${b.friction} 0.005 0.0001" condim="3" solref="0.02 1" solimp="0.9 0.95 0.001 0.5 2" ` +
    'solmix="1" margin="0" gap="0"';
}

/** MJCF geom type and size (m, MuJoCo's local axes) of a scene shape. */
function geomShape(s) {
  switch (s.type) {
    case 'box': { const [hx, hy, hz] = s.halfExtents; return `type="box" size="${vec([hx, hz, hy])}"`; }
    case 'sphere': return `type="sphere" size="${s.radius}"`;
    case 'capsule': return `type="capsule" size="${s.radius} ${s.halfHeight}"`; // radius, half segment length
    default: throw new Error(`mujoco: unsupported shape ${s.type}`);
  }
}

/** The MJCF text of a scene: static bodies as worldbody geoms, each dynamic body a free body. */
export function sceneXml(scene) {
  const statics = [], dynamics = [];
  for (const b of scene.bodies) {
    const pose = `pos="${vec(toMj(b.position))}" quat="${vec(quatToMj(b.rotation))}"`;
    if (b.type === 'static') {
      statics.push(`<geom ${pose} ${geomShape(b.shape)} ${contactAttrs(b)}/>`);
    } else {
      dynamics.push(`<body ${pose}><freejoint/><geom ${geomShape(b.shape)} density="${b.density}" ${contactAttrs(b)}/></body>`);
    }
  }
  return `<mujoco model="${scene.name}">\n<option ${OPTION}/>\n<worldbody>\n${statics.join('\n')}\n${dynamics.join('\n')}\n</worldbody>\n</mujoco>\n`;
}

export async function load() {
  const mj = await (await import('mujoco-js')).default();
  mj.FS.mkdir('/bench');
  let models = 0;
  const version = mj.mj_versionString();

  return {
    id,
    version,
    notes: `MuJoCo ${version} wasm (float64, 1 thread); Newton, pyramidal cone, Euler, 100 iterations, tolerance 1e-8, ` +
      'solref 0.02 1, solimp 0.9 0.95 0.001 0.5 2, margin 0: the tribo-mujoco defaults; MuJoCo collision',
    createWorld(scene) {
      const file = `/bench/${scene.name}-${models++}.xml`;
      mj.FS.writeFile(file, sceneXml(scene));
      const m = mj.MjModel.loadFromXML(file);
      mj.FS.unlink(file);
      if (!m) throw new Error(`mujoco: loading the ${scene.name} model failed`);
      const d = new mj.MjData(m);
      const n = m.nbody - 1; // dynamic bodies 1..n in scene order; body 0 is the world
      return {
        step() { mj.mj_step(m, d); },
        /** Body centres (m) in the scene's y-up axes: qpos holds (x, y, z, qw, qx, qy, qz) per free joint. */
        readPositions(out) {
          const q = d.qpos;
          for (let i = 0; i < n; i++) {
            out[3 * i] = q[7 * i]; out[3 * i + 1] = q[7 * i + 2]; out[3 * i + 2] = -q[7 * i + 1];
          }
        },
        mass(i) { return m.body_mass[i + 1]; },
        /**
         * Sum of the normal impulses (N·s) on dynamic body i over the last step: the normal force of
         * each of its contacts decoded from efc_force as mj_contactForce does for the pyramidal cone
         * (fₙ = Σ of the 2(dim − 1) edge forces), times dt.
         */
        contactNormalImpulse(i) {
          const body = i + 1, bodyOf = m.geom_bodyid, f = d.efc_force;
          let sum = 0, points = 0;
          for (let k = 0; k < d.ncon; k++) {
            const c = d.contact.get(k);
            if (bodyOf[c.geom1] !== body && bodyOf[c.geom2] !== body) continue;
            if (c.efc_address >= 0) {
              const rows = c.dim === 1 ? 1 : 2 * (c.dim - 1);
              for (let r = 0; r < rows; r++) sum += f[c.efc_address + r];
            }
            points++;
          }
          return { impulse: sum * DT, points, source: 'efc_force decoded as mj_contactForce (pyramidal: Σ edge forces), × dt' };
        },
        /** Arena bytes used at most and the warnings MuJoCo counted (e.g. a full arena drops contacts). */
        info() {
          const warnings = [];
          for (let k = 0; k < d.warning.size(); k++) { const w = d.warning.get(k); if (w.number) warnings.push(`${k}:${w.number}`); }
          return { arenaBytes: Number(d.maxuse_arena), ...(warnings.length ? { mjWarnings: warnings.join(' ') } : {}) };
        },
        free() { d.delete(); m.delete(); },
      };
    },
  };
}
