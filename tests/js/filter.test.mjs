// Filtering, broad-phase generators, sleep and queries through the JS API, on both builds.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, axisAngle, near } from './helpers.mjs';

/** Two overlapping dynamic spheres without gravity; returns the world, bodies and shapes. */
function twoSpheres(tribo, filterRule, fa = {}, fb = {}) {
  const w = tribo.createWorld({ gravity: [0, 0, 0], filterRule });
  const a = w.addBody({ shapes: [{ type: 'sphere', radius: 0.5, ...fa }] });
  const b = w.addBody({ position: [0.8, 0, 0], shapes: [{ type: 'sphere', radius: 0.5, ...fb }] });
  return { w, a, b, sa: w.shapeIds(a)[0], sb: w.shapeIds(b)[0] };
}

/** Candidate pairs after collide(). */
function pairs(w) {
  w.collide();
  return w.contacts.pairCount;
}

for (const build of BUILDS) {
  describe(`filtering and queries (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('Newton truth table: shape worlds and collision groups', () => {
      // [world a, world b, group a, group b, collides]
      const rows = [
        [-1, -1, 1, 1, 1], [0, 1, 1, 1, 0], [0, 0, 1, 1, 1], [-1, 3, 1, 1, 1], [0, 0, 0, 1, 0],
        [0, 0, 1, 2, 0], [0, 0, 1, -1, 1], [0, 0, -1, -1, 0], [0, 0, -1, -2, 1], [5, 6, -1, -2, 0],
      ];
      for (const [wa, wb, ga, gb, expect] of rows) {
        const t = twoSpheres(tribo, 'newton', { world: wa, collisionGroup: ga }, { world: wb, collisionGroup: gb });
        assert.equal(pairs(t.w), expect, `worlds ${wa}/${wb} groups ${ga}/${gb}`);
        t.w.free();
      }
      const t = twoSpheres(tribo, 'newton');
      t.w.excludePair({ shapes: [t.sa, t.sb] });
      assert.equal(pairs(t.w), 0, 'excluded shape pair');
      t.w.excludePair({ shapes: [t.sb, t.sa] }, false);
      assert.equal(pairs(t.w), 1, 'exclusion removed');
      t.w.free();
    });

    it('MuJoCo: contype/conaffinity table, parent/child, exclude, explicit pairs bypass the bitmask', () => {
      // [contype a, conaffinity a, contype b, conaffinity b, collides]
      const rows = [[1, 1, 1, 1, 1], [1, 0, 0, 1, 1], [1, 0, 1, 0, 0], [2, 1, 1, 2, 1], [4, 4, 2, 2, 0], [0, 0, 0, 0, 0]];
      for (const rule of ['mujoco', 'genesis']) {
        for (const [ta, aa, tb, ab, expect] of rows) {
          const t = twoSpheres(tribo, rule, { contype: ta, conaffinity: aa }, { contype: tb, conaffinity: ab });
          assert.equal(pairs(t.w), expect, `${rule} contype ${ta}/${tb} conaffinity ${aa}/${ab}`);
          t.w.free();
        }
      }
      const t = twoSpheres(tribo, 'mujoco');
      t.w.setParent(t.b, t.a);
      assert.equal(t.w.getParent(t.b), t.a);
      assert.equal(pairs(t.w), 0, 'parent/child filtered');
      t.w.setParent(t.b, -1);
      t.w.excludePair({ bodies: [t.a, t.b] });
      assert.equal(pairs(t.w), 0, 'exclude body pair');
      t.w.setShapeFilter(t.sa, { contype: 0, conaffinity: 0 });
      t.w.setContactPair(t.sa, t.sb, { margin: 0.001, gap: 0.002 });
      assert.equal(pairs(t.w), 1, 'explicit pair bypasses exclusion and bitmask');
      t.w.setContactPair(t.sa, t.sb, null);
      assert.equal(pairs(t.w), 0, 'explicit pair removed');
      assert.throws(() => t.w.setContactPair(t.sa, t.sb, { gap: -1 }), /setContactPair: gap must be finite and >= 0 \(got -1\)/);
      assert.deepEqual(t.w.getShapeFilter(t.sa), { world: -1, collisionGroup: 1, contype: 0, conaffinity: 0, filterData: [1, 0, 0xffffffff, 0], trigger: false });
      t.w.free();
    });

    it('PhysX: filter-data masks, and a ball passes through a trigger box with its velocity unchanged', () => {
      const masked = twoSpheres(tribo, 'physx', { filterData: [1, 2, 0, 0] }, { filterData: [1, 2, 0, 0] });
      assert.equal(pairs(masked.w), 0, '(1 & 2) = 0: filtered');
      masked.w.setShapeFilter(masked.sb, { filterData: [2, 1, 0, 0] });
      assert.equal(pairs(masked.w), 1, 'masks agree');
      masked.w.free();

      const w = tribo.createWorld({ gravity: [0, 0, 0], filterRule: 'physx' });
      w.addBody({ type: 'static', shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], trigger: true }] });
      const ball = w.addBody({ position: [-2, 0, 0], linearVelocity: [3, 0, 0], shapes: [{ type: 'sphere', radius: 0.25 }] });
      let withContacts = 0;
      for (let i = 0; i < 120; i++) {
        w.step();
        const c = w.contacts;
        if (c.count > 0) {
          withContacts++;
          const v = w.getLinearVelocity(ball);
          near(assert, v[0], 3, 1e-6, `vx while touching the trigger (step ${i})`);
          near(assert, Math.abs(v[1]) + Math.abs(v[2]), 0, 1e-6, 'vy, vz');
          for (let k = 0; k < c.count; k++) assert.equal(c.normalImpulse[k], 0, 'no impulse from a trigger');
        }
      }
      assert.ok(withContacts >= 20, `contacts with the trigger reported in ${withContacts} steps`);
      assert.ok(w.getPosition(ball)[0] > 3, 'the ball came out on the far side');
      w.free();
    });

    it('Genesis: maxCollisionPairs overflow throws naming count and limit; the world stays usable', () => {
      const w = tribo.createWorld({ filterRule: 'genesis', maxCollisionPairs: 3 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const balls = [];
      for (let i = 0; i < 5; i++) balls.push(w.addBody({ position: [2 * i, 0.49, 0], shapes: [{ type: 'sphere', radius: 0.5 }] }));
      const before = Array.from(w.getState(balls[0]));
      assert.throws(() => w.step(), (e) => e instanceof RangeError && /5 candidate pairs exceed max_collision_pairs 3/.test(e.message));
      assert.deepEqual(Array.from(w.getState(balls[0])), before, 'nothing moved');
      w.setOptions({ maxCollisionPairs: 5 });
      w.step();
      assert.equal(w.contacts.pairCount, 5);
      assert.throws(() => w.setOptions({ maxCollisionPairs: -1 }), /setOptions: maxCollisionPairs must be >= 0 \(0 = unlimited\) \(got -1\)/);
      w.free();
    });

    it('the three broad-phase generators give identical contacts on a random scene', () => {
      // full generations only: a refreshed manifold (persistentManifolds) carries the points of the
      // collide() before it, and that one differs between the three generators
      const w = tribo.createWorld({ broadPhase: 'sap', persistentManifolds: false });
      const bodies = [w.addBody({ type: 'static', shapes: [{ type: 'plane' }] })];
      let seed = 12345;
      const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
      for (let i = 0; i < 60; i++) {
        const kind = i % 3;
        const shape = kind === 0 ? { type: 'sphere', radius: 0.2 + 0.2 * rnd() }
          : kind === 1 ? { type: 'box', halfExtents: [0.1 + 0.3 * rnd(), 0.1 + 0.3 * rnd(), 0.1 + 0.3 * rnd()] }
            : { type: 'capsule', radius: 0.1 + 0.2 * rnd(), halfHeight: 0.1 + 0.3 * rnd() };
        bodies.push(w.addBody({ position: [4 * rnd() - 2, 0.3 + 2 * rnd(), 4 * rnd() - 2], rotation: axisAngle([0, 0.6, 0.8], 6 * rnd()), shapes: [shape] }));
      }
      for (let s = 0; s < 20; s++) w.step();
      // every shape pair, listed from the highest shape down
      const shapes = bodies.flatMap((b) => w.shapeIds(b));
      const all = [];
      for (let i = shapes.length - 1; i >= 0; i--) for (let j = 0; j < i; j++) all.push([shapes[i], shapes[j]]);
      w.setExplicitPairs(all);
      const snap = () => {
        w.collide();
        const c = w.contacts;
        return { n: c.count, pairs: c.pairCount, s0: Array.from(c.shape0), s1: Array.from(c.shape1), p: Array.from(c.point), d: Array.from(c.separation) };
      };
      const sap = snap();
      w.setOptions({ broadPhase: 'all-pairs' });
      const allPairs = snap();
      w.setOptions({ broadPhase: 'explicit' });
      const explicit = snap();
      assert.ok(sap.n > 20, `contacts in the scene: ${sap.n}`);
      assert.deepEqual(allPairs, sap);
      assert.deepEqual(explicit, sap);
      w.setExplicitPairs([]);
      assert.equal(snap().pairs, 0, 'an empty explicit list has no pairs');
      assert.throws(() => w.setOptions({ broadPhase: 'octree' }), (e) => e instanceof RangeError && /broadPhase/.test(e.message) && /octree/.test(e.message));
      assert.throws(() => w.setExplicitPairs([[shapes[1], 999999]]), /setExplicitPairs: pairs\[0\]\[1\]: shape 999999 does not exist/);
      w.free();
    });

    it('sleeping bodies are not moved and their pairs with static or sleeping bodies are skipped', () => {
      const w = tribo.createWorld({ sleep: 'off' }); // manual sleep: nothing wakes a body (sleep.test.mjs: automatic)
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const low = w.addBody({ position: [0, 0.5, 0], sleeping: true, shapes: [{ type: 'sphere', radius: 0.5 }] });
      const air = w.addBody({ position: [5, 3, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
      const high = w.addBody({ position: [0, 1.5, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
      w.setSleeping(air, true);
      assert.equal(w.isSleeping(air), true);
      assert.equal(w.isSleeping(high), false);
      const airBefore = Array.from(w.getState(air)), lowBefore = Array.from(w.getState(low));
      w.step(60);
      assert.deepEqual(Array.from(w.getState(air)), airBefore, 'a sleeping body in the air stays put');
      assert.deepEqual(Array.from(w.getState(low)), lowBefore, 'a sleeping body under a load stays put');
      near(assert, w.getPosition(high)[1], 1.5, 0.02, 'the awake body rests on the sleeping one');
      assert.equal(w.contacts.pairCount, 1, 'only the awake-sleeping pair');
      w.setSleeping(air, false);
      w.step(10);
      assert.ok(w.getPosition(air)[1] < 2.9, 'woken: falls');
      assert.throws(() => w.setSleeping(0, true), /setSleeping: body 0 is static and cannot sleep/);
      assert.throws(() => w.setSleeping(air, 1), TypeError);
      w.free();
    });

    it('ray casts match closed forms: plane, sphere, rotated box, rotated capsule, misses, inside', () => {
      const w = tribo.createWorld({ gravity: [0, 0, 0] });
      const ground = w.addBody({ type: 'static', shapes: [{ type: 'plane', offset: -2 }] });
      const ball = w.addBody({ position: [3, 1, 0], shapes: [{ type: 'sphere', radius: 0.5 }] });
      const box = w.addBody({ position: [0, 0, 10], rotation: axisAngle([0, 0, 1], Math.PI / 4), shapes: [{ type: 'box', halfExtents: [1, 0.5, 0.5] }] });
      const cap = w.addBody({ position: [0, 0, -10], rotation: axisAngle([0, 0, 1], Math.PI / 2), shapes: [{ type: 'capsule', radius: 0.3, halfHeight: 0.5 }] });
      const s2 = Math.SQRT1_2;
      const hitNear = (h, d, p, n, what) => {
        assert.ok(h, `${what}: a hit`);
        near(assert, h.distance, d, 2e-5, `${what} distance`);
        for (let i = 0; i < 3; i++) near(assert, h.point[i], p[i], 2e-5, `${what} point[${i}]`);
        for (let i = 0; i < 3; i++) near(assert, h.normal[i], n[i], 2e-5, `${what} normal[${i}]`);
      };
      // plane y = -2, from (20, 3, 0) straight down: 5 m
      let h = w.rayCast([20, 3, 0], [0, -1, 0]);
      hitNear(h, 5, [20, -2, 0], [0, 1, 0], 'plane');
      assert.equal(h.body, -1);
      assert.equal(h.shape, w.shapeIds(ground)[0]);
      // sphere, offset 0.3 from the axis: chord half-length 0.4
      h = w.rayCast([0, 1.3, 0], [2, 0, 0]);
      hitNear(h, 2.6, [2.6, 1.3, 0], [-0.8, 0.6, 0], 'sphere');
      assert.equal(h.body, ball);
      // box rotated 45° about z: enters its local +y face (n = (-s2, s2, 0)) at x = -0.5 / s2
      h = w.rayCast([-5, 0, 10], [1, 0, 0]);
      hitNear(h, 5 - 0.5 / s2, [-0.5 / s2, 0, 10], [-s2, s2, 0], 'rotated box');
      assert.equal(h.body, box);
      // capsule lying along x: end cap at x = 0.8, side at y = 0.3
      h = w.rayCast([3, 0, -10], [-1, 0, 0]);
      hitNear(h, 2.2, [0.8, 0, -10], [1, 0, 0], 'capsule cap');
      h = w.rayCast([0.2, 3, -10], [0, -1, 0]);
      hitNear(h, 2.7, [0.2, 0.3, -10], [0, 1, 0], 'capsule side');
      assert.equal(h.body, cap);
      // misses, maxDistance, inside
      assert.equal(w.rayCast([0, 1.6, 0], [1, 0, 0], { maxDistance: 10 }), null, 'passes above the sphere');
      assert.equal(w.rayCast([20, 3, 0], [0, -1, 0], { maxDistance: 4.9 }), null, 'plane beyond maxDistance');
      h = w.rayCast([3.1, 1, 0], [1, 0, 0]);
      hitNear(h, 0, [3.1, 1, 0], [-1, 0, 0], 'inside the sphere');
      // all hits along +x through the sphere's centre line at y = 1 ... only the sphere; skipBody removes it
      const all = w.rayCastAll([0, 1, 0], [1, 0, 0], { maxDistance: 100 });
      assert.equal(all.requested, 1);
      near(assert, all.hits[0].distance, 2.5, 1e-5, 'rayCastAll distance');
      assert.equal(w.rayCast([0, 1, 0], [1, 0, 0], { maxDistance: 100, skipBody: ball }), null);
      assert.throws(() => w.rayCast([0, 0, 0], [0, 0, 0]), /rayCast: direction must be a non-zero vector \(got length 0\)/);
      assert.throws(() => w.rayCast([0, 0, 0], [1, 0, 0], { maxDistance: -1 }), /rayCast: maxDistance must be > 0 \(got -1\)/);
      assert.throws(() => w.rayCast([0, 0, 0], [1, 0, 0], { maxdistance: 1 }), /unknown option maxdistance/);
      w.free();
    });

    it('rayCastAll orders hits and reports overflow; overlap finds the shapes a query shape touches', () => {
      const w = tribo.createWorld({ gravity: [0, 0, 0] });
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(w.addBody({ position: [2 * i + 2, 0, 0], shapes: [{ type: 'sphere', radius: 0.5 }] }));
      const r = w.rayCastAll([0, 0, 0], [1, 0, 0], { capacity: 2 });
      assert.equal(r.requested, 4);
      assert.equal(r.overflowed, true);
      assert.deepEqual(r.hits.map((h) => h.body), [ids[0], ids[1]]);
      near(assert, r.hits[1].distance, 3.5, 1e-5, 'second hit');
      // a sphere of radius 0.7 at x = 5: centre distances 1 to the spheres at 4 and 6 (< 1.2), 3 to the others
      const o = w.overlap({ type: 'sphere', radius: 0.7 }, { position: [5, 0, 0] });
      assert.deepEqual(o.shapes, [w.shapeIds(ids[1])[0], w.shapeIds(ids[2])[0]]);
      assert.equal(o.overflowed, false);
      // radius 0.45: 0.95 < 1, nothing
      assert.equal(w.overlap({ type: 'sphere', radius: 0.45 }, { position: [5, 0, 0] }).requested, 0);
      // a long box along x covers all four; capacity 3 reports the overflow
      const b = w.overlap({ type: 'box', halfExtents: [10, 0.1, 0.1] }, { position: [5, 0, 0], capacity: 3 });
      assert.equal(b.requested, 4);
      assert.equal(b.shapes.length, 3);
      assert.equal(b.overflowed, true);
      // turned 90° about z it stands upright at x = 5 (4.9..5.1), between the spheres' surfaces at 4.5 and 5.5
      assert.equal(w.overlap({ type: 'box', halfExtents: [10, 0.1, 0.1] }, { position: [5, 0, 0], rotation: axisAngle([0, 0, 1], Math.PI / 2) }).requested, 0);
      assert.throws(() => w.overlap({ type: 'sphere', radius: -1 }), /overlap: shape: radius must be finite and in \[1e-6, 1e6\] \(got -1\)/);
      assert.throws(() => w.overlap({ type: 'cone', radius: 1 }), /overlap: shape.type must be one of/);
      w.free();
    });

    it('ray casts and overlaps with convex shapes: cylinder, ellipsoid, hull', () => {
      const w = tribo.createWorld({ gravity: [0, 0, 0] });
      const cyl = w.addBody({ shapes: [{ type: 'cylinder', radius: 0.4, halfHeight: 0.6 }] });
      const ell = w.addBody({ position: [0, 0, 5], shapes: [{ type: 'ellipsoid', radii: [1, 0.5, 0.25] }] });
      const cube = [];
      for (const x of [-0.5, 0.5]) for (const y of [-0.5, 0.5]) for (const z of [-0.5, 0.5]) cube.push(x, y, z);
      const hull = w.addBody({ position: [0, 0, -5], shapes: [{ type: 'hull', points: cube, contype: 2 }] });
      let h = w.rayCast([-3, 0.2, 0], [1, 0, 0]);
      near(assert, h.distance, 2.6, 2e-5, 'cylinder side (m)');
      assert.equal(h.body, cyl);
      h = w.rayCast([0.6, 5, 5], [0, -1, 0]);
      near(assert, h.distance, 4.6, 2e-5, 'ellipsoid at x = 0.6: y = 0.4 (m)');
      assert.equal(h.body, ell);
      h = w.rayCast([0.2, 5, -5], [0, -1, 0]);
      near(assert, h.distance, 4.5, 2e-5, 'hull cube top (m)');
      near(assert, h.normal[1], 1, 1e-6, 'hull normal y');
      assert.equal(h.body, hull);
      assert.equal(w.getShapeFilter(w.shapeIds(hull)[0]).contype, 2, 'a hull takes filter fields');
      assert.equal(w.rayCast([0.2, 5, -5], [0, -1, 0], { mask: 1, maxDistance: 8 }), null, 'masked out by contype');
      const o = w.overlap({ type: 'cylinder', radius: 0.1, halfHeight: 10 }, { rotation: axisAngle([1, 0, 0], Math.PI / 2) });
      assert.deepEqual(o.shapes, [w.shapeIds(cyl)[0], w.shapeIds(ell)[0], w.shapeIds(hull)[0]], 'a rod along z through all three');
      w.free();
    });

    it('bad filter fields are named and leave the world unchanged', () => {
      const w = tribo.createWorld();
      assert.throws(() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, world: -2 }] }), /addBody: shapes\[0\]: world must be -1 \(shared\) or >= 0 \(got -2\)/);
      assert.throws(() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, contype: -1 }] }), /contype must be an integer in \[0, 2\^32\) \(got -1\)/);
      assert.throws(() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, filterData: [0, 0, 0] }] }), /filterData must be an array of 4 numbers/);
      assert.throws(() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, trigger: 1 }] }), /trigger must be a boolean/);
      const alive = () => { const v = w.bodies; let n = 0; for (let i = 0; i < v.slotCount; i++) n += v.bodyType[i] >= 0; return n; };
      assert.equal(alive(), 0, 'no body was added by the failed calls');
      assert.throws(() => tribo.createWorld({ filterRule: 'bullet' }), (e) => e instanceof RangeError && /filterRule/.test(e.message) && /bullet/.test(e.message));
      assert.throws(() => w.excludePair({ shapes: [1, 2], bodies: [1, 2] }), /excludePair: expected/);
      const ok = w.addBody({ shapes: [{ type: 'sphere', radius: 1 }] });
      assert.throws(() => w.setParent(ok, ok), /setParent: parent must differ from the body/);
      w.step();
      w.free();
    });
  });
}

describe('filtering and queries in a worker world', () => {
  it('filter rule, trigger flag and ray casts cross the worker boundary', async () => {
    const tribo = await engine('simd');
    const sim = await tribo.createWorkerWorld({ gravity: [0, 0, 0], filterRule: 'physx' });
    const box = await sim.addBody({ type: 'static', shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], trigger: true }] });
    const [boxShape] = await sim.shapeIds(box);
    assert.equal((await sim.getShapeFilter(boxShape)).trigger, true);
    const ball = await sim.addBody({ position: [-2, 0, 0], linearVelocity: [3, 0, 0], shapes: [{ type: 'sphere', radius: 0.25 }] });
    await sim.step(40);
    const v = await sim.getLinearVelocity(ball);
    near(assert, v[0], 3, 1e-6, 'vx after passing the trigger');
    const hit = await sim.rayCast([0, 5, 0], [0, -1, 0]);
    near(assert, hit.distance, 4.5, 1e-5, 'ray onto the box top (m)');
    assert.equal(hit.shape, boxShape);
    await assert.rejects(sim.setShapeFilter(boxShape, { world: -3 }), (e) => e instanceof RangeError && /world must be -1 \(shared\) or >= 0 \(got -3\)/.test(e.message));
    assert.equal(await sim.free(), 0);
  });
});
