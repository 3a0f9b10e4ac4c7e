// The JS API: validation with errors that name the field, views, stages, memory, capacity.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, near } from './helpers.mjs';
import { LIMITS } from '../../js/limits.js';
import { engineTables } from '../../js/fields.js';

const ball = (extra = {}) => ({ position: [0, 0.5, 0], shapes: [{ type: 'sphere', radius: 0.5 }], ...extra });

for (const build of BUILDS) {
  describe(`api (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('reports which build is loaded', () => {
      assert.equal(tribo.build, build);
      assert.equal(tribo.maxThreads > 1, build === 'threads');
    });

    it('rejects bad input with an error naming the field and value, and the world keeps working', () => {
      const w = tribo.createWorld();
      const g = w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const cases = [
        [() => w.addBody({ shapes: [{ type: 'sphere', radius: -1 }] }), RangeError, /addBody: shapes\[0\]: radius must be finite and in \[1e-6, 1e6\] \(got -1\)/],
        [() => w.addBody({ shapes: [{ type: 'sphere', radius: NaN }] }), RangeError, /shapes\[0\]: radius must be finite and in \[1e-6, 1e6\] \(got NaN\)/],
        [() => w.addBody({ position: [0, Infinity, 0] }), RangeError, /addBody: position\[1\] must be finite \(got Infinity\)/],
        [() => w.addBody({ shapes: [{ type: 'box', halfExtents: [1, 0, 1] }] }), RangeError, /shapes\[0\]: halfExtents\[1\] must be finite and in \[1e-6, 1e6\] \(got 0\)/],
        [() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, density: -2 }] }), RangeError, /shapes\[0\]: density must be finite and in \[1e-6, 1e6\] \(got -2\)/],
        [() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, density: 0 }] }), RangeError, /density must be finite and in \[1e-6, 1e6\] \(got 0\)/],
        [() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, friction: -0.1 }] }), RangeError, /friction must be finite and >= 0 \(got -0.1\)/],
        [() => w.addBody({ shapes: [{ type: 'sphere', radius: 1, restitution: 1.5 }] }), RangeError, /restitution must be finite and in \[0, 1\] \(got 1.5\)/],
        [() => w.addBody({ shapes: [{ type: 'cone', radius: 1 }] }), RangeError, /shapes\[0\]\.type must be one of plane, sphere, capsule, box(, [a-z]+)* \(got "cone"\)/],
        [() => w.addBody({ type: 'floating' }), RangeError, /addBody: type must be 'static', 'kinematic' or 'dynamic' \(got "floating"\)/],
        [() => w.addBody({ rotation: [0, 0, 0, 2] }), RangeError, /rotation must be a unit quaternion \(got length 2\)/],
        [() => w.addBody({ shapes: [{ type: 'capsule', radius: 0.2 }] }), TypeError, /shapes\[0\]\.halfHeight is required for a capsule/],
        [() => w.addBody({ shapes: [{ type: 'plane' }] }), RangeError, /a plane may only belong to a static body/],
        [() => w.addBody({ postion: [0, 0, 0] }), RangeError, /unknown option postion/],
        [() => w.addBody(null), TypeError, /addBody: expected an options object \(got null\)/],
        [() => tribo.createWorld([1]), TypeError, /createWorld: expected an options object/],
        [() => w.addBody({ position: [1, 2] }), TypeError, /position must be an array of 3 numbers \(got \[1,2\]\)/],
        [() => w.setVelocity(123456, [0, 0, 0]), RangeError, /setVelocity: id: body 123456 does not exist/],
        [() => w.setVelocity(g, [1, 0, 0]), RangeError, /setVelocity: body \d+ is static and cannot move/],
        [() => w.setMass(w.addBody(ball()), { mass: -3, inertia: [1, 1, 1] }), RangeError, /setMass: mass must be finite and in \[1e-30, 1e30\] \(got -3\)/],
        [() => tribo.createWorld({ timestep: 0 }), RangeError, /createWorld: timestep must be finite and in \[1e-12, 1e\+12\] s \(got 0\)/],
        // a float32 denormal or a huge step: one step's h², 1/h² and g·h² leave float32 (the step failed as non-finite)
        [() => tribo.createWorld({ timestep: 1e-40 }), RangeError, /createWorld: timestep must be finite and in \[1e-12, 1e\+12\] s \(got 9\.99995e-41\)/],
        [() => tribo.createWorld({ timestep: 1e19 }), RangeError, /createWorld: timestep must be finite and in \[1e-12, 1e\+12\] s \(got 1e\+19\)/],
        [() => w.setTimestep(2e-13), RangeError, /setTimestep: timestep must be finite and in \[1e-12, 1e12\] \(got 2e-13\)/],
        [() => tribo.createWorld({ substeps: 0 }), RangeError, /createWorld: substeps must be in \[1, 64\] \(got 0\)/],
        [() => w.setPose(g), TypeError, /setPose: position is required/],
        // 5e21 rad/s used to be taken, and the next step failed (the rotation's norm overflowed)
        [() => w.setVelocity(w.addBody(ball()), [0, 0, 0], [0, 5e21, 0]), RangeError, /setVelocity: angular\[1\] must be within ±1000000 rad\/s \(got 5e\+21\)/],
        [() => w.addBody({ ...ball(), linearVelocity: [0, 0, -1.5e6] }), RangeError, /addBody: linearVelocity\[2\] must be within ±1000000 m\/s \(got -1500000\)/],
        // 3e38 m/s² or 1/s were taken, and every PGS / TGS / XPBD / penalty / Kamino step failed
        [() => w.setGravity([0, -3e38, 0]), RangeError, /setGravity: gravity\[1\] must be within ±1000000 m\/s² \(got -3e\+38\)/],
        [() => tribo.createWorld({ gravity: [0, -2e6, 0] }), RangeError, /createWorld: gravity\[1\] must be within ±1e\+06 m\/s² \(got -2e\+06\)/],
        [() => w.addBody({ ...ball(), linearDamping: 3e38 }), RangeError, /addBody: linearDamping must be finite and in \[0, 1e6\] \(got 3e\+38\)/],
        [() => w.setMass(g, { mass: 1 }), TypeError, /setMass: inertia is required/],
        [() => w.step(2.5), RangeError, /step: n must be an integer \(got 2.5\)/],
        [() => tribo.createWorld({ threads: 99 }), RangeError, /threads must be in \[1, \d+\] in this build \(got 99\)/],
        [() => tribo.createWorld({ preset: 'bullet' }), RangeError, /preset "bullet" is not available in this version \(available: .*genesis/],
      ];
      for (const [fn, type, pattern] of cases) {
        assert.throws(fn, (e) => e instanceof type && pattern.test(e.message), `expected ${type.name} matching ${pattern}`);
      }
      // a failed addBody leaves nothing behind, the world still steps and a good body still works
      const slotsBefore = w.bodies.slotCount;
      assert.throws(() => w.addBody({ shapes: [{ type: 'sphere', radius: 0.5 }, { type: 'box', halfExtents: [1, -1, 1] }] }), /shapes\[1\]/);
      const id = w.addBody(ball());
      assert.ok(w.bodies.slotCount <= slotsBefore + 1, 'the failed body slot is reused');
      w.step(30);
      assert.ok(w.contacts.count > 0);
      w.free();
    });

    it("an id of another world is rejected as another world's, and the world is unchanged", () => {
      const make = () => {
        const w = tribo.createWorld();
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        const a = w.addBody(ball()), b = w.addBody(ball({ position: [2, 0.5, 0] }));
        return { w, a, b, shape: w.shapeIds(a)[0], sensor: w.addContactSensor(a, { capacity: 4 }),
          joint: w.addJoint({ type: 'distance', body0: a, body1: b, anchor0: [0, 0.5, 0], anchor1: [2, 0.5, 0] }) };
      };
      const A = make(), B = make();
      assert.equal(A.w.bodySlot(A.a), B.w.bodySlot(B.a), 'the same slot in both worlds');
      for (const k of ['a', 'b', 'shape', 'sensor', 'joint']) assert.notEqual(A[k], B[k], `${k}: the worlds hand out different ids`);
      B.w.step(3);
      const before = JSON.stringify([B.w.getState(B.a), B.w.getState(B.b)]);
      const foreign = /does not exist in this world \(an id of another world\)/;
      const cases = [
        () => B.w.setPose(A.a, [5, 5, 5]), () => B.w.removeBody(A.b), () => B.w.getState(A.a),
        () => B.w.setMaterial(A.shape, { friction: 0.1 }), () => B.w.removeContactSensor(A.sensor),
        () => B.w.removeJoint(A.joint), () => B.w.setParent(B.a, A.b),
      ];
      for (const call of cases) assert.throws(call, (e) => e instanceof RangeError && foreign.test(e.message), String(call));
      assert.equal(JSON.stringify([B.w.getState(B.a), B.w.getState(B.b)]), before);
      // the world's own removed id is named removed, not foreign
      B.w.removeBody(B.b);
      assert.throws(() => B.w.getState(B.b), /does not exist in this world \(removed\)/);
      A.w.free();
      B.w.free();
    });

    it('a removed body id is rejected afterwards, and its slot reuse gives a new id', () => {
      const w = tribo.createWorld();
      const a = w.addBody(ball());
      w.removeBody(a);
      assert.throws(() => w.getState(a), /body \d+ does not exist/);
      assert.throws(() => w.removeBody(a), /removeBody: id: body \d+ does not exist/);
      const b = w.addBody(ball());
      assert.equal(w.bodySlot(b), w.bodySlot(a), 'slot reused');
      assert.notEqual(b, a, 'generation differs');
      assert.throws(() => w.getPosition(a), /getPosition: id: body \d+ does not exist/);
      w.free();
    });

    it('getters fill a caller-supplied array; the body views hold the same numbers', () => {
      const w = tribo.createWorld();
      const id = w.addBody({ position: [1, 2, 3], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2], linearVelocity: [4, 5, 6], shapes: [{ type: 'box', halfExtents: [1, 1, 1] }] });
      const out = new Float32Array(3);
      assert.equal(w.getPosition(id, out), out);
      assert.deepEqual(Array.from(out), [1, 2, 3]);
      const t = w.bodies.transform, slot = w.bodySlot(id);
      near(assert, t[7 * slot + 5], Math.SQRT1_2, 1e-6, 'rotation z in the transform view');
      assert.deepEqual(Array.from(w.getLinearVelocity(id)), [4, 5, 6]);
      assert.equal(w.bodies.bodyType[slot], 2);
      w.free();
    });

    it('mass properties from density match closed forms (box, sphere, capsule)', () => {
      const w = tribo.createWorld();
      const box = w.getMass(w.addBody({ shapes: [{ type: 'box', halfExtents: [0.5, 1, 1.5], density: 10 }] }));
      const m = 10 * 1 * 2 * 3;
      near(assert, box.mass, m, 1e-3, 'box mass (kg)');
      near(assert, box.inertia[0], (m / 12) * (2 ** 2 + 3 ** 2), 1e-3, 'box Ixx (kg·m²)');
      near(assert, box.inertia[8], (m / 12) * (1 + 2 ** 2), 1e-3, 'box Izz (kg·m²)');
      const r = 0.3, h = 0.4, rho = 1000;
      const cap = w.getMass(w.addBody({ shapes: [{ type: 'capsule', radius: r, halfHeight: h, density: rho }] }));
      const mc = rho * Math.PI * r * r * 2 * h, ms = rho * (4 / 3) * Math.PI * r ** 3;
      near(assert, cap.mass, mc + ms, 1e-2, 'capsule mass (kg)');
      near(assert, cap.inertia[4], mc * r * r / 2 + ms * 0.4 * r * r, 1e-3, 'capsule Iyy about its axis (kg·m²)');
      w.free();
    });

    it('setGravity and setTimestep change the following steps (free fall v = g·t)', () => {
      const w = tribo.createWorld({ gravity: [0, 0, 0] });
      const b = w.addBody(ball());
      w.setGravity([0, -2, 0]);
      w.setTimestep(0.01);
      w.step(50);
      near(assert, w.getLinearVelocity(b)[1], -1.0, 1e-4, 'velocity after 0.5 s at 2 m/s² (m/s)');
      assert.throws(() => w.setTimestep(-1), /setTimestep: timestep must be finite and in \[1e-12, 1e12\] \(got -1\)/);
      // LIMITS' bounds on positions and velocities are the engine's constants
      const { maxCoordinate, maxSpeed, maxAngularSpeed, maxGravity, maxDamping } = engineTables(w._M).constants;
      assert.deepEqual([LIMITS.position, LIMITS.speed, LIMITS.angularSpeed, LIMITS.gravity, LIMITS.damping],
        [maxCoordinate, maxSpeed, maxAngularSpeed, maxGravity, maxDamping]);
      // and their ends are accepted by the engine
      w.setGravity([LIMITS.gravity, -LIMITS.gravity, 0]);
      w.addBody({ ...ball(), linearDamping: LIMITS.damping, angularDamping: LIMITS.damping });
      w.setGravity([0, -2, 0]);
      // LIMITS.timestep is the engine's range: its ends are accepted by the engine, just past them refused
      for (const [ok, bad] of [[LIMITS.timestep.min, LIMITS.timestep.min * 0.999], [LIMITS.timestep.max, LIMITS.timestep.max * 1.001]]) {
        w.setTimestep(ok);
        assert.equal(w.timestep, Math.fround(ok));
        tribo.createWorld({ timestep: ok }).free();
        assert.throws(() => w.setTimestep(bad), RangeError);
        assert.throws(() => tribo.createWorld({ timestep: bad }), /createWorld: timestep must be finite and in/);
      }
      w.setTimestep(0.01);
      assert.throws(() => w.setGravity([0, NaN, 0]), /setGravity: gravity\[1\] must be finite/);
      w.free();
    });

    it('collide() then solve() equals step(); solve() without collide() is refused', () => {
      const make = () => {
        const w = tribo.createWorld();
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        w.addBody({ position: [0, 0.6, 0], rotation: [0.1, 0.2, 0, Math.sqrt(1 - 0.05)], shapes: [{ type: 'box', halfExtents: [0.3, 0.3, 0.3] }] });
        return w;
      };
      const a = make(), b = make();
      for (let i = 0; i < 40; i++) { a.step(); b.collide(); assert.equal(b.contacts.readbackValid, false); b.solve(); }
      assert.deepEqual(Array.from(a.bodies.transform), Array.from(b.bodies.transform));
      assert.throws(() => b.solve(), /solve: call collide\(\) first/);
      a.free(); b.free();
    });

    it('a contact store created too small grows in the step and flags it; a reserved one does not', () => {
      const w = tribo.createWorld({ contactCapacity: 3 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }] });
      w.step();
      let c = w.contacts;
      assert.equal(c.requested, 4);
      assert.equal(c.count, 4);
      assert.equal(c.grew, true);
      assert.equal(c.overflowed, false);
      assert.equal(c.normalImpulse.length, 4);
      w.step(4);
      assert.equal(w.contacts.grew, false);
      w.setContactCapacity(64);
      assert.equal(w.contacts.capacity, 64);
      w.step();
      c = w.contacts;
      assert.equal(c.grew, false);
      assert.equal(c.count, 4);
      w.free();
    });

    it('pair arrays created too small grow in the step: every candidate pair is kept', () => {
      const w = tribo.createWorld({ pairCapacity: 2 });
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      for (let i = 0; i < 5; i++) w.addBody({ position: [2 * i, 0.4, 0], shapes: [{ type: 'sphere', radius: 0.4 }] });
      w.step();
      assert.equal(w.contacts.pairsGrew, true);
      assert.equal(w.contacts.pairsOverflowed, false);
      assert.equal(w.contacts.pairsRequested, 5);
      assert.equal(w.contacts.pairCount, 5);
      assert.equal(w.contacts.count, 5);
      w.step();
      assert.equal(w.contacts.pairsGrew, false);
      assert.throws(() => w.setPairCapacity(0), /setPairCapacity: capacity must be >= 1 \(got 0\)/);
      w.free();
    });

    it('every contact field has a unit and a doc from the engine field list', () => {
      const names = tribo.fields.contact.map((f) => f.name);
      for (const n of ['point', 'normal', 'separation', 'normalImpulse', 'tangentImpulse', 'force', 'featureId', 'body0', 'body1']) {
        assert.ok(names.includes(n), `contact field ${n}`);
      }
      const force = tribo.fields.contact.find((f) => f.name === 'force');
      assert.equal(force.unit, 'N');
      assert.match(force.doc, /on body1 by body0/);
      assert.equal(tribo.fields.contact.find((f) => f.name === 'normalImpulse').unit, 'N·s');
    });

    it('freeing a world returns the live byte count to where it was', () => {
      const before = tribo.liveBytes();
      const w = tribo.createWorld();
      w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      for (let i = 0; i < 200; i++) w.addBody({ position: [i % 10, 1 + Math.floor(i / 10), 0], shapes: [{ type: 'sphere', radius: 0.4 }] });
      w.step(20);
      assert.ok(tribo.liveBytes() > before, 'a world allocates');
      w.free();
      assert.equal(tribo.liveBytes(), before);
      assert.throws(() => w.step(), /this world was freed/);
    });

    it('views are re-created after wasm memory grows', () => {
      const w = tribo.createWorld();
      const first = w.addBody(ball());
      const t0 = w.bodies.transform;
      const bytes0 = t0.buffer.byteLength;
      // add bodies until the engine's memory grows (the module may already have grown before)
      for (let i = 0; i < 400000 && w.bodies.transform.buffer.byteLength <= bytes0; i++) {
        w.addBody({ position: [i, 5, 0], shapes: [{ type: 'sphere', radius: 0.3 }] });
      }
      const t1 = w.bodies.transform;
      assert.equal(t1.length, 7 * w.bodies.slotCount);
      near(assert, t1[7 * w.bodySlot(first) + 1], 0.5, 0, 'first body y read from the new view');
      assert.ok(t1.buffer.byteLength > bytes0, `memory grew (${bytes0} -> ${t1.buffer.byteLength} bytes)`);
      w.free();
    });
  });
}
