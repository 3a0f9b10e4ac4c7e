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

// Newton presets: options, the wrench view, per-body wrench and overrides.
export async function newtonUsage(): Promise<number> {
  const tribo = await init();
  const world = tribo.createWorld({ preset: 'newton-xpbd', iterations: 2, relaxation: 0.8, contactWeighting: true, restitution: false });
  const ball = world.addBody({ position: [0, 1, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
  world.step();
  const c: ContactViews = world.contacts;
  const wrench: Float32Array = c.wrench;
  const scale: Float32Array = c.readbackScale;
  const w6: Float32Array = world.bodyContactWrench(ball);
  const semi = tribo.createWorld({ preset: 'newton-semi', ke: 1e4, kd: 100, kf: 100, ka: 0, penaltySubsteps: 8, frictionSmoothing: 1 });
  semi.collide();
  if (semi.contacts.count > 0) semi.setContactOverride(0, { stiffness: 2e4, frictionScale: 2 });
  const it: number = world.newtonOptions.iterations;
  return wrench.length + scale.length + w6[1] + it;
}
