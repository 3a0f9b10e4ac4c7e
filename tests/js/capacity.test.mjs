// Capacities past the engine's bound are refused by name before anything is allocated, so one
// call can never wrap a size in wasm32 and kill the module; other worlds keep stepping. A rejected
// addBody consumes no id.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine, twinId } from './helpers.mjs';
import { heapBuffer } from '../../js/fields.js';

/** A sphere dropped on a plane; returns the world and the sphere's id. */
function dropSphere(tribo) {
  const w = tribo.createWorld();
  w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
  const id = w.addBody({ position: [0, 2, 0], shapes: [{ type: 'sphere', radius: 0.25 }] });
  return { w, id };
}

for (const build of BUILDS) {
  describe(`capacities (${build} build)`, () => {
    let tribo;
    before(async () => { tribo = await engine(build); });

    it('createWorld({ contactCapacity: 2**30 }) is a RangeError naming contactCapacity; another world keeps stepping', () => {
      const { w, id } = dropSphere(tribo);
      w.step(10);
      const y0 = w.getState(id)[1];
      const max = 1 << 24;
      assert.throws(() => tribo.createWorld({ contactCapacity: 2 ** 30 }),
        { name: 'RangeError', message: new RegExp(`createWorld: contactCapacity must be at most ${max} \\(got ${2 ** 30}\\)`) });
      assert.throws(() => tribo.createWorld({ pairCapacity: 2 ** 31 - 1 }),
        { name: 'RangeError', message: /createWorld: pairCapacity must be at most 16777216/ });
      assert.throws(() => w.setContactCapacity(2 ** 30), { name: 'RangeError', message: /setContactCapacity: capacity must be at most 16777216/ });
      assert.throws(() => w.setPairCapacity(2 ** 30), { name: 'RangeError', message: /setPairCapacity: capacity must be at most 16777216/ });
      /* the module is intact: the existing world steps on (the sphere keeps falling: 20 steps of
       * free fall from rest after 10 take it at least 0.5 m lower), and a new world works */
      w.step(20);
      const y1 = w.getState(id)[1];
      assert.ok(Number.isFinite(y1) && y0 - y1 > 0.5, `sphere fell from ${y0} to ${y1}`);
      const other = dropSphere(tribo);
      other.w.step(5);
      assert.ok(other.w.getState(other.id)[1] < 2);
      other.w.free();
      w.free();
    });

    it('memory of a freed large scene is reused: building it again does not grow wasm memory, and live bytes return', () => {
      /* WebAssembly memory never shrinks (README "Memory"): what free() gives back is reused by
       * the module's later worlds. 4000 spheres in a 20 × 20 × 10 grid, stepped until they touch. */
      const build4000 = () => {
        const w = tribo.createWorld();
        w.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
        for (let i = 0; i < 4000; i++) {
          const x = (i % 20) - 9.5, z = (Math.floor(i / 20) % 20) - 9.5, y = 0.5 + Math.floor(i / 400);
          w.addBody({ position: [x, y, z], shapes: [{ type: 'sphere', radius: 0.5 }] });
        }
        w.step(3);
        assert.ok(w.contacts.count >= 4000, `the grid is in contact (${w.contacts.count} contacts)`);
        return w;
      };
      const live0 = tribo.liveBytes();
      const a = build4000();
      const grown = heapBuffer(tribo._M).byteLength;
      const liveA = tribo.liveBytes();
      assert.ok(liveA - live0 > 1e6, `the scene holds more than 1 MB (${liveA - live0} bytes)`);
      a.free();
      assert.equal(tribo.liveBytes(), live0, 'live bytes after free (bytes)');
      const b = build4000();
      assert.equal(tribo.liveBytes(), liveA, 'the same scene holds the same bytes');
      assert.equal(heapBuffer(tribo._M).byteLength, grown, 'wasm memory size (bytes) when the scene is built again');
      b.free();
      assert.equal(tribo.liveBytes(), live0);
    });

    it('memory that runs out fails the call by name and leaves the world as its twin, live bytes as before', () => {
      /* maxCapacity pairs (2^24) are allowed by the bound but need several GB of pair arrays (the
       * pair, its manifold, its material, ...): more than a wasm32 memory can grow to (README
       * "Memory"), so the module refuses the allocation and the call must say so (a failed malloc
       * takes the same path: tests/c/test_robust.c test_allocation_failure) */
      const a = dropSphere(tribo), b = dropSphere(tribo);
      a.w.step(5);
      b.w.step(5);
      const live = tribo.liveBytes();
      const max = 1 << 24;
      assert.throws(() => a.w.setPairCapacity(max), { message: new RegExp(`setPairCapacity: out of memory for ${max} pairs`) });
      assert.equal(tribo.liveBytes(), live, 'live bytes after the failed call (bytes): nothing half-allocated');
      a.w.step(30);
      b.w.step(30);
      assert.deepEqual(Array.from(a.w.getState(a.id)), Array.from(b.w.getState(b.id)), 'the same state as the twin, bit for bit');
      assert.ok(a.w.getState(a.id)[1] < 1.9, 'the sphere fell on (m)');
      a.w.free();
      b.w.free();
    });

    it('a request more than the module can ever hold fails before the memory grows', () => {
      /* WebAssembly memory grows up to the module's maximum and never shrinks: a call that grew it
       * on the way to an allocation that fails anyway would leave the page holding up to 2 GB for
       * good. 2^24 contacts and 2^24 pairs each need more than the maximum (several arrays of
       * 64 MB and more), so both calls must fail with the memory as it was */
      const { w } = dropSphere(tribo);
      w.step(5);
      const bytes = heapBuffer(tribo._M).byteLength, live = tribo.liveBytes();
      const max = 1 << 24;
      assert.throws(() => w.setContactCapacity(max), { message: new RegExp(`setContactCapacity: out of memory for ${max} contacts`) });
      assert.equal(heapBuffer(tribo._M).byteLength, bytes, 'wasm memory size after the failed setContactCapacity (bytes)');
      assert.throws(() => w.setPairCapacity(max), { message: new RegExp(`setPairCapacity: out of memory for ${max} pairs`) });
      assert.equal(heapBuffer(tribo._M).byteLength, bytes, 'wasm memory size after the failed setPairCapacity (bytes)');
      assert.equal(tribo.liveBytes(), live, 'live bytes (bytes)');
      w.free();
    });

    it('setContactCapacity and setPairCapacity keep the last step: its contacts read the same, solve() follows collide()', () => {
      const { w, id } = dropSphere(tribo);
      w.step(60); /* the sphere rests on the plane */
      const before = { count: w.contacts.count, impulse: Array.from(w.contacts.normalImpulse.subarray(0, w.contacts.count)) };
      assert.ok(before.count >= 1 && before.impulse[0] > 0, `resting contact (${before.count}, ${before.impulse[0]})`);
      w.setContactCapacity(4 * w.contacts.capacity);
      w.setPairCapacity(4 * w.contacts.pairCapacity);
      assert.equal(w.contacts.count, before.count, 'the contacts of the last step are still there');
      assert.deepEqual(Array.from(w.contacts.normalImpulse.subarray(0, before.count)), before.impulse);
      w.collide();
      w.setContactCapacity(8 * w.contacts.capacity);
      w.solve(); /* on the collide() before the reservation */
      const fy = w.contacts.normalImpulse[0] / (1 / 60);
      const m = w.getMass(id).mass;
      assert.ok(Math.abs(fy - m * 9.81) < 1e-3 * m * 9.81, `resting force ${fy} N against m·g ${m * 9.81} N`);
      assert.ok(Math.abs(w.getState(id)[1] - 0.25) < 0.01);
      w.free();
    });

    it('a rejected addBody hands out the same ids afterwards as a twin world that never saw it', () => {
      const a = dropSphere(tribo), b = dropSphere(tribo);
      assert.throws(() => a.w.addBody({ shapes: [{ type: 'sphere', radius: 0.2 }, { type: 'sphere', radius: -1 }] }), RangeError);
      /* ids up to the worlds' salts (twinId, from each world's sphere) */
      const ids = ({ w, id }) => [0, 1, 2].map(() => twinId(w, id, w.addBody({ shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1] }] })));
      assert.deepEqual(ids(a), ids(b));
      a.w.free();
      b.w.free();
    });
  });
}
