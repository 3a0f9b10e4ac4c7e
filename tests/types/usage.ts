// Type-checked (not run) by `make test-types`: the API as a TypeScript user meets it.
import { init, createWorkerWorld, type ContactViews, type HullInfo } from '../../js/index.js';

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
  world.addBody({ type: 'static', shapes: [
    { type: 'heightfield', rows: 2, cols: 2, heights: new Float32Array(4), cellSize: [1, 1] },
    { type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 2, 1], friction: 0.7 },
  ] });
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

// Convex shapes: cylinder, ellipsoid, hull (flat point array or Float32Array) and hull statistics.
async function convexShapes(): Promise<number> {
  const tribo = await init({ build: 'simd' });
  const world = tribo.createWorld();
  const b = world.addBody({
    shapes: [
      { type: 'cylinder', radius: 0.3, halfHeight: 0.4 },
      { type: 'ellipsoid', radii: [0.3, 0.2, 0.1], position: [0, 1, 0] },
      { type: 'hull', points: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]), supportField: { resolution: 90 } },
      { type: 'hull', points: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1] },
    ],
  });
  const info: HullInfo = world.hullInfo(b, 1);
  world.free();
  return info.vertexCount - info.edgeCount + info.faceCount + info.supportFieldBytes;
}
void convexShapes;
