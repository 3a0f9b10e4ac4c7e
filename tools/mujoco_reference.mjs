// Reference numbers for the `mujoco` preset from the official MuJoCo WebAssembly build (npm
// `mujoco-js`, MuJoCo 3.3.8), written to tests/js/fixtures/mujoco_reference.json. The test
// tests/js/mujoco_reference.test.mjs compares Tribo to that file; it does not need mujoco-js.
//
//   MUJOCO_JS=/path/to/node_modules/mujoco-js/dist/mujoco_wasm.js node tools/mujoco_reference.mjs
//   (without MUJOCO_JS the package is imported by name)
//
// Every scene keeps margin = gap = 0 (MuJoCo 3.3.8 has the older margin/gap rule; Tribo the 3.15
// one; they agree at zero). MuJoCo is z-up; Tribo y-up: the fixture is written in Tribo's axes,
// (X, Y, Z) = (x, z, −y). Forces are decoded from efc_force as mj_contactForce does (pyramidal:
// fₙ = Σλ, fᵢ = μᵢ(λ₂ᵢ₋₂ − λ₂ᵢ₋₁); elliptic: the rows themselves).
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'tests', 'js', 'fixtures', 'mujoco_reference.json');
const load = (await import(process.env.MUJOCO_JS ? pathToFileURL(process.env.MUJOCO_JS).href : 'mujoco-js')).default;
const mj = await load();
mj.FS.mkdir('/ref');

const H = 0.002; // s, MuJoCo's default timestep
const vec = (a) => a.join(' ');

/* one free body on the plane z = 0; geom and plane share the contact parameters, so MuJoCo's
 * combination (max friction, condim max, solmix mean) gives exactly them */
function model({ geom, gravity = [0, 0, -9.81], cone, contact, pair }) {
  const p = `friction="${vec(contact.friction)}" condim="${contact.condim}" solref="${vec(contact.solref)}" ` +
    `solimp="${vec(contact.solimp)}" margin="0" gap="0"` + (pair ? ' contype="0" conaffinity="0"' : '');
  /* an explicit pair: the only source of contacts (the geoms' own collision is off), its own parameters */
  const pairXml = pair ? `<contact><pair geom1="floor" geom2="body" condim="${pair.condim}" friction="${vec(pair.friction)}" ` +
    `solref="${vec(pair.solref)}" solreffriction="${vec(pair.solreffriction)}" solimp="${vec(pair.solimp)}" margin="0" gap="0"/></contact>` : '';
  const xml = `<mujoco><option timestep="${H}" gravity="${vec(gravity)}" cone="${cone}" solver="Newton" ` +
    `integrator="Euler" iterations="100" tolerance="1e-8" impratio="1"/>
    <worldbody><geom name="floor" type="plane" size="10 10 0.1" ${p}/>
    <body pos="0 0 ${geom.z}"><freejoint/><geom name="body" ${geom.xml} density="1000" ${p}/></body></worldbody>${pairXml}</mujoco>`;
  mj.FS.writeFile('/ref/m.xml', xml);
  const m = mj.MjModel.loadFromXML('/ref/m.xml');
  return { m, d: new mj.MjData(m) };
}

/* contact-frame force [normal, t0, t1, torsion, roll0, roll1] of contact i (mj_contactForce) */
function contactForce(d, i, cone) {
  const c = d.contact.get(i), f = [0, 0, 0, 0, 0, 0];
  const adr = c.efc_address, dim = c.dim;
  if (adr < 0) return f;
  if (dim === 1 || cone === 'elliptic') {
    for (let k = 0; k < dim; k++) f[k] = d.efc_force[adr + k];
  } else {
    for (let k = 0; k < 2 * (dim - 1); k++) f[0] += d.efc_force[adr + k];
    for (let j = 1; j < dim; j++) f[j] = c.friction[j - 1] * (d.efc_force[adr + 2 * (j - 1)] - d.efc_force[adr + 2 * (j - 1) + 1]);
  }
  return f;
}

const DEFAULT = { solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2] };
const SPHERE = { xml: 'type="sphere" size="0.1"', z: 0.1, radius: 0.1 };
const BOX = { xml: 'type="box" size="0.1 0.1 0.1"', z: 0.1, half: 0.1 };

/* resting sphere and box: normal force summed over the contacts, penetration, centre height */
function resting(name, geom, contact, cone, steps) {
  const { m, d } = model({ geom, cone, contact });
  for (let s = 0; s < steps; s++) mj.mj_step(m, d);
  let fn = 0, dist = 0;
  for (let i = 0; i < d.ncon; i++) { fn += contactForce(d, i, cone)[0]; dist += d.contact.get(i).dist; }
  const r = { name, kind: 'rest', shape: geom === SPHERE ? 'sphere' : 'box', cone, contact, steps,
    mass: m.body_mass[1], contacts: d.ncon, normalForce: fn, dist: dist / d.ncon, height: d.qpos[2] };
  m.delete(); d.delete();
  return r;
}

/* box on a slope: gravity tilted by θ about the horizontal axis; position and speed down-slope */
function slope(name, tan, mu, cone, steps, pair) {
  const th = Math.atan(tan), contact = { ...DEFAULT, friction: [mu, 0.005, 0.0001], condim: 3 };
  const { m, d } = model({ geom: BOX, cone, contact, pair, gravity: [9.81 * Math.sin(th), 0, -9.81 * Math.cos(th)] });
  for (let s = 0; s < steps; s++) mj.mj_step(m, d);
  const r = { name, kind: 'slope', cone, contact, ...(pair ? { pair } : {}), tan, steps, x: d.qpos[0], vx: d.qvel[0] };
  m.delete(); d.delete();
  return r;
}

/* condim 4: a sphere spinning about the normal; spin rate sampled every `every` steps */
function spin(name, cone, steps, every, pair) {
  const contact = pair ? { ...DEFAULT, friction: [1, 0.005, 0.0001], condim: 3 } : { ...DEFAULT, friction: [1, 0.02, 0.0001], condim: 4 };
  const { m, d } = model({ geom: SPHERE, cone, contact, pair });
  d.qvel[5] = 10; // rad/s about the normal (body z = world z)
  const omega = [];
  for (let s = 1; s <= steps; s++) {
    mj.mj_step(m, d);
    if (s % every === 0) omega.push(d.qvel[5]);
  }
  const r = { name, kind: 'spin', cone, contact, ...(pair ? { pair } : {}), omega0: 10, steps, every, omega };
  m.delete(); d.delete();
  return r;
}

const soft = { solref: [0.01, 0.7], solimp: [0.8, 0.95, 0.002, 0.4, 3] };
const direct = { solref: [-20000, -200], solimp: [0.9, 0.95, 0.001, 0.5, 2] };
const scenes = [];
for (const cone of ['pyramidal', 'elliptic']) {
  scenes.push(resting(`sphere-default-${cone}`, SPHERE, { ...DEFAULT, friction: [1, 0.005, 0.0001], condim: 3 }, cone, 1500));
  scenes.push(resting(`sphere-soft-${cone}`, SPHERE, { ...soft, friction: [0.7, 0.005, 0.0001], condim: 3 }, cone, 1500));
  scenes.push(resting(`box-default-${cone}`, BOX, { ...DEFAULT, friction: [0.5, 0.005, 0.0001], condim: 3 }, cone, 1500));
  scenes.push(resting(`box-direct-${cone}`, BOX, { ...direct, friction: [0.5, 0.005, 0.0001], condim: 3 }, cone, 1500));
  scenes.push(slope(`slope-stick-${cone}`, 0.4, 0.5, cone, 500));
  scenes.push(slope(`slope-slip-${cone}`, 0.6, 0.5, cone, 500));
  scenes.push(spin(`spin-condim4-${cone}`, cone, 150, 10));
  /* explicit pairs over geoms that say otherwise (μ 1, condim 3, default solref / solimp) */
  const pairSlide = { condim: 3, friction: [0.5, 0.5, 0.005, 0.0001, 0.0001], solref: [0.02, 1],
    solreffriction: [0.01, 1], solimp: [0.85, 0.95, 0.002, 0.5, 2] };
  scenes.push(slope(`pair-slope-stick-${cone}`, 0.4, 1, cone, 500, pairSlide));
  scenes.push(slope(`pair-slope-slip-${cone}`, 0.6, 1, cone, 500, pairSlide));
  scenes.push(slope(`pair-condim1-${cone}`, 0.1, 1, cone, 250, { ...pairSlide, condim: 1 }));
  scenes.push(spin(`pair-spin-condim4-${cone}`, cone, 150, 10,
    { condim: 4, friction: [1, 1, 0.03, 0.0001, 0.0001], solref: [0.02, 1], solreffriction: [0, 0], solimp: [0.9, 0.95, 0.001, 0.5, 2] }));
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({
  source: `mujoco-js, MuJoCo ${mj.mj_versionString()}`, generator: 'tools/mujoco_reference.mjs', timestep: H,
  axes: 'Tribo y-up: (X, Y, Z) = (x_mj, z_mj, -y_mj); heights are Y, slope motion is along +X',
  units: { normalForce: 'N', dist: 'm (contact dist, < 0 penetrating)', height: 'm (centre)', x: 'm', vx: 'm/s', omega: 'rad/s' },
  scenes,
}, null, 1) + '\n');
console.log(`wrote ${scenes.length} scenes to ${out}`);
