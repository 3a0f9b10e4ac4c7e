// Type-checked (not run) by `make test-types`: the API as a TypeScript user meets it.
import { init, createWorkerWorld, type ContactViews } from '../../js/index.js';

async function main(): Promise<number> {
  const tribo = await init({ build: 'simd' });
  const world = tribo.createWorld({ gravity: [0, -9.81, 0], timestep: 1 / 60, substeps: 4 });
  world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
  const id: number = world.addBody({
    position: [0, 1, 0],
    shapes: [
      { type: 'sphere', radius: 0.5, density: 1000, friction: 0.5 },
      { type: 'box', halfExtents: [0.2, 0.2, 0.2], position: [0, 0.6, 0] },
      { type: 'capsule', radius: 0.1, halfHeight: 0.3 },
    ],
  });
  world.step(10);
  const c: ContactViews = world.contacts;
  const fy: number = c.force[3 * 0 + 1];
  const out = world.getPosition(id, new Float32Array(3));
  const sim = await createWorkerWorld({ timestep: 1 / 120 });
  const frame = await sim.step(2);
  const n: number = frame.contacts.count + frame.bodies.transform.length;
  await sim.free();
  world.free();
  return fy + out[1] + n;
}
void main;

// Materials: per-shape material, shape ids of a body, combine rule, per-contact combined values.
async function materials(): Promise<number> {
  const tribo = await init({ build: 'simd' });
  const world = tribo.createWorld({ combineRule: 'mujoco', kaminoCombine: { restitution: 'min' } });
  const body = world.addBody({
    shapes: [{ type: 'sphere', radius: 0.5, friction: 0.9, material: { frictionCombine: 'min', compliant: { stiffness: 1e4 } } }],
  });
  const [shape] = world.shapesOf(body);
  world.setMaterial(shape, { staticFriction: 0.05, disableStrongFriction: true, ke: 3000, solref: [0.02, 1], condim: 4 });
  const m = world.getMaterial(shape);
  const rule: 'physx' | 'mean' | 'vbd' | 'kamino' | 'mujoco' = world.combineRule;
  world.setCombineRule('kamino', { friction: 'max' });
  world.step();
  const c = world.contacts;
  const mu: number = c.staticFriction[0] + c.dynamicFriction[0] + c.spinFriction[1] + c.materialFlags[0];
  world.free();
  return mu + m.compliant.stiffness + m.solimp[0] + c.solref[0] + c.condim[0] + (rule === 'physx' ? 1 : 0);
}
void materials;
