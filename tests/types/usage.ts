// Type-checked (not run) by `make test-types`: the API as a TypeScript user meets it.
import { init, createWorkerWorld, LIMITS, type ContactViews, type HullInfo, type JointState, type Wrench } from '../../js/index.js';

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
  const hinge: number = world.addJoint({ type: 'revolute', body1: id, anchor: [0, 2, 0], axis: [0, 0, 1],
    limit: { lower: -1, upper: 1 }, motor: { speed: 1, maxForce: 5 } });
  world.step(10);
  const js: JointState = world.jointState(hinge);
  const reaction: Wrench = world.jointWrench(hinge, 1);
  const removed: number[] = world.removeBody(id);
  const c: ContactViews = world.contacts;
  const fy: number = c.force[3 * 0 + 1];
  const out = world.getPosition(id, new Float32Array(3));
  const sim = await createWorkerWorld({ timestep: 1 / 120 });
  const frame = await sim.step(2);
  const n: number = frame.contacts.count + frame.bodies.transform.length;
  await sim.free();
  world.free();
  return fy + out[1] + n + js.position + reaction.force[1] + removed.length;
}
void main;

// filtering, sleep and queries
async function filtering(): Promise<number> {
  const tribo = await init();
  const world = tribo.createWorld({ broadPhase: 'all-pairs', filterRule: 'mujoco', maxCollisionPairs: 0 });
  const a = world.addBody({ shapes: [{ type: 'sphere', radius: 0.5, contype: 1, conaffinity: 2, trigger: false }] });
  const b = world.addBody({ parent: a, sleeping: true, shapes: [{ type: 'box', halfExtents: [1, 1, 1], filterData: [1, 2, 0, 0] }] });
  const [sa] = world.shapeIds(a);
  const [sb] = world.shapeIds(b);
  world.setOptions({ filterRule: 'newton', broadPhase: 'explicit', maxCollisionPairs: 100 });
  world.setExplicitPairs([[sa, sb]]);
  world.excludePair({ shapes: [sa, sb] }, false);
  world.excludePair({ bodies: [a, b] });
  world.setContactPair(sa, sb, { margin: 0.001, gap: 0, friction: [1, 1, 0.005, 0.0001, 0.0001] });
  world.setShapeFilter(sa, { world: 0, collisionGroup: -1 });
  const f = world.getShapeFilter(sa);
  world.setSleeping(b, false);
  const hit = world.rayCast([0, 5, 0], [0, -1, 0], { maxDistance: 10, skipBody: b, mask: 1 });
  const all = world.rayCastAll([0, 5, 0], [0, -1, 0], { capacity: 8 });
  const o = world.overlap({ type: 'sphere', radius: 1 }, { position: [0, 0, 0], capacity: 4 });
  world.free();
  return (hit ? hit.distance : 0) + all.requested + o.shapes.length + f.contype + (world.isSleeping(b) ? 1 : 0);
}
void filtering;
async function presets(): Promise<void> {
  const tribo = await init();
  const w = tribo.createWorld({ preset: 'physx-tgs', broadPhase: 'all-pairs', matching: 'sticky' });
  w.setOptions({ positionIterations: 8, filterRule: 'newton' });
  const solver: string = w.options.solver;
  w.setPreset('physx-tgs');
  const ww = await tribo.createWorkerWorld({ combineRule: 'mean' });
  await ww.setOptions({ maxPointsPerPair: 2 });
  const o = await ww.options;
  const mode: { adaptive: boolean; serial: boolean; switches: number } = await ww.threadMode;
  const adaptive: boolean = await ww.adaptiveThreads;
  console.log(solver, o.broadPhase, mode.serial, adaptive);
}
void presets;
// Distance rules, matching and per-shape distances.
async function distances(): Promise<number> {
  const tribo = await init({ build: 'simd' });
  const world = tribo.createWorld({ distanceRule: 'mujoco', matching: 'sticky', matchDistance: 0.01 });
  world.addBody({ position: [0, 1, 0], shapes: [{ type: 'sphere', radius: 0.5, margin: 0.01, gap: 0.02, contactOffset: 0.03, restOffset: 0.01 }] });
  world.setOptions({ distanceRule: 'newton', matching: 'latest', matchDistance: 0.02, persistentManifolds: false });
  world.collide();
  const c = world.contacts;
  const v: number = c.distance[0] + c.margin[0] + c.gap[0] + c.active[0] + c.excluded[0] + c.point0[0] + c.localPoint1[2] +
    c.reportedNormal[1] + c.reduced[0] + c.matchKey[0] + c.matchIndex[0] + c.age[0] + c.distanceRule[0];
  world.free();
  return v;
}
void distances;
// Observation (type-checked only).
import { wrenchShift, wrenchAverage, type ContactEvents, type ObservedWrench } from '../../js/index.js';
async function observation(): Promise<number> {
  const tribo = await init({ build: 'simd' });
  const world = tribo.createWorld();
  const ball = world.addBody({ position: [0, 0.2, 0], shapes: [{ type: 'sphere', radius: 0.2 }] });
  world.setEventCapacity(16);
  const sensor: number = world.addContactSensor(ball, { capacity: 8, with: 'static' });
  world.step(10);
  const net: ObservedWrench = world.netContactWrench(ball, { with: 'static', excludeSelf: true });
  const moved = wrenchShift(net, [0, 0, 0]);
  const avg = wrenchAverage([net, moved], [0.5, 0.5], [0, 0, 0]);
  const ev: ContactEvents = world.events;
  const conv = world.convertContacts('physx');
  const px = conv.convention === 'physx' ? conv.impulse[1] : 0;
  const h = world.contactSensorHistory(sensor);
  const valid: boolean = world.readbackInfo.valid ?? false;
  const sim = await createWorkerWorld();
  const wnet = await sim.netContactWrench(0);
  const hits = await sim.rayCastAll([0, 1, 0], [0, -1, 0], { capacity: LIMITS.queryCapacity });
  const big: number = LIMITS.length.max + hits.requested;
  const pending = sim.step(1000);
  sim.terminate();
  await pending.catch((e: Error) => e.message);
  void big;
  world.free();
  return avg.force[1] + ev.count + px + h.count + (valid ? 1 : 0) + wnet.force[1];
}
void observation;
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
  const rule: 'physx' | 'mean' | 'vbd' | 'kamino' | 'mujoco' = world.options.combineRule;
  world.setOptions({ combineRule: 'kamino', kaminoCombine: { friction: 'max' } });
  world.step();
  const c = world.contacts;
  const mu: number = c.staticFriction[0] + c.dynamicFriction[0] + c.spinFriction[1] + c.materialFlags[0];
  world.free();
  return mu + m.compliant.stiffness + m.solimp[0] + c.solref[0] + c.condim[0] + (rule === 'physx' ? 1 : 0);
}
void materials;
// Newton presets: options, the wrench view, per-body wrench and overrides.
export async function newtonUsage(): Promise<number> {
  const tribo = await init();
  const world = tribo.createWorld({ preset: 'newton-xpbd', iterations: 2, relaxation: 0.8, contactWeighting: true, restitution: false });
  const ball = world.addBody({ position: [0, 1, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
  world.step();
  const c: ContactViews = world.contacts;
  const wrench: Float32Array = c.wrench;
  const scale: Float32Array = c.readbackScale;
  const w6 = world.netContactWrench(ball).force;
  const xpbd = tribo.createWorld({ preset: 'newton-xpbd', xpbdSubsteps: 10, iterations: 2 });
  const xpbdSubsteps: number | undefined = xpbd.readbackInfo.substeps;
  xpbd.free();
  const semi = tribo.createWorld({ preset: 'newton-semi', ke: 1e4, kd: 100, kf: 100, ka: 0, penaltySubsteps: 8, frictionSmoothing: 1 });
  semi.collide();
  if (semi.contacts.count > 0) semi.setContactOverride(0, { stiffness: 2e4, frictionScale: 2 });
  const it: number = world.options.iterations;
  return wrench.length + scale.length + w6[1] + it;
}
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

// islands and automatic sleep
async function sleeping(): Promise<number> {
  const tribo = await init();
  const world = tribo.createWorld({ preset: 'genesis', sleep: 'genesis', sleepVelocityThreshold: 2e-3, sleepSteps: 10 });
  world.setOptions({ sleep: 'physx', sleepEnergyThreshold: 5e-3, wakeCounter: 0.4 });
  const b = world.addBody({ shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
  world.step(30);
  const asleep: Int32Array = world.bodies.asleep;
  const kept: Int32Array = world.contacts.sleeping;
  const s = world.stepStats;
  const island: number = world.island(b);
  const mode: 'off' | 'genesis' | 'physx' = world.options.sleep;
  const st = world.sleepState(b);
  const rule: 'off' | 'genesis' | 'physx' = st.rule;
  const counter: number | null = st.wakeCounter;
  const steps: number = st.stepsBelow ?? 0;
  world.setOptions({ maxDepenetrationVelocity: null });
  world.setOptions({ maxDepenetrationVelocity: 3 });
  const cap: number | null = world.options.maxDepenetrationVelocity;
  world.free();
  return asleep[0] + kept.length + s.islandCount + s.sleepingIslands + s.sleepingBodies + s.skippedShapes + s.sleepingPairs +
    s.sleepingContacts + s.refreshedPairs + s.regeneratedPairs + s.apartPairs + island + mode.length + rule.length + (counter ?? 0) + steps + (cap ?? 0);
}
void sleeping;
