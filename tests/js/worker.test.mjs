// The worker World (Node worker_threads) with shared frames (threads build) and transferred
// frames (simd build).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engine, sphereDensity, near } from './helpers.mjs';

for (const build of ['simd', 'threads']) {
  describe(`worker world (${build} build)`, () => {
    it('steps in a worker, returns frames and reports m·g for a resting sphere', async () => {
      const tribo = await engine(build);
      const sim = await tribo.createWorkerWorld({ timestep: 1 / 60 });
      assert.equal(sim.build, build);
      assert.equal(sim.shared, build === 'threads', 'shared frames exactly when the build has shared memory');
      await sim.addBody({ type: 'static', shapes: [{ type: 'plane' }] });
      const r = 0.25;
      const id = await sim.addBody({ position: [0, r, 0], shapes: [{ type: 'sphere', radius: r, density: sphereDensity(3, r) }] });
      const frame = await sim.step(60);
      assert.equal(frame.step, 60);
      assert.equal(frame.contacts.count, 1);
      near(assert, frame.contacts.force[1], 3 * 9.81, 0.005 * 3 * 9.81, 'contact force y (N)');
      near(assert, frame.bodies.transform[7 * (await sim.bodySlot(id)) + 1], r, 0.01, 'sphere centre height (m)');
      if (sim.shared) assert.ok(frame.bodies.transform.buffer instanceof SharedArrayBuffer);
      else assert.ok(frame.bodies.transform.buffer instanceof ArrayBuffer);

      // a held frame is not overwritten by the next step
      await sim.setVelocity(id, [1, 0, 0]);
      const held = await sim.step(1);
      const copy = Float32Array.from(held.bodies.transform);
      const next = await sim.step(1);
      assert.deepEqual(Array.from(held.bodies.transform), Array.from(copy), 'the previous frame is intact after one more step');
      assert.notDeepEqual(Array.from(next.bodies.transform), Array.from(copy), 'the new frame moved');

      // errors cross the worker boundary with their type and message; the world keeps working
      await assert.rejects(sim.addBody({ shapes: [{ type: 'box', halfExtents: [1, -1, 1] }] }),
        (e) => e instanceof RangeError && /shapes\[0\]: halfExtents\[1\] must be finite and in \[1e-6, 1e6\] \(got -1\)/.test(e.message));
      const after = await sim.step(1);
      assert.equal(after.step, 63);
      // the stages alone, as in-process
      const collided = await sim.collide();
      assert.equal(collided.contacts.readbackValid, false);
      const solved = await sim.solve();
      assert.equal(solved.contacts.readbackValid, true);
      assert.equal(solved.step, 64);
      const p = await sim.getPosition(id);
      near(assert, p[1], r, 0.01, 'getPosition y (m)');
      const live = await sim.free();
      assert.equal(live, 0, 'the worker engine holds no memory after free');
      await assert.rejects(sim.step(), /this world was freed/);
    });
  });
}

describe('worker world: the whole World API', () => {
  it('forwards World methods and getters without a dedicated member (setOptions, options, setPreset)', async () => {
    const { createWorkerWorld } = await import('../../js/index.js');
    const w = await createWorkerWorld({ build: 'simd', broadPhase: 'all-pairs' });
    try {
      assert.equal((await w.options).broadPhase, 'all-pairs');
      await w.setOptions({ matching: 'sticky' });
      assert.equal((await w.options).matching, 'sticky');
      await assert.rejects(w.setOptions({ matching: 'glue' }), { name: 'RangeError', message: /setOptions: matching must be one of "latest", "sticky" \(got "glue"\)/ });
      await w.setPreset('physx-tgs');
      assert.equal((await w.options).matching, 'latest');
    } finally {
      await w.free();
    }
  });
});

describe('worker world: the engine constants on a thread without an engine', () => {
  it('a worker world reports the id layout, so a page that only renders can map an id to its slot', async () => {
    /* a fresh process: no engine is loaded on its thread, only the worker's */
    const script = `
      import { createWorkerWorld } from ${JSON.stringify(new URL('../../js/index.js', import.meta.url).href)};
      import { knownConstants } from ${JSON.stringify(new URL('../../js/fields.js', import.meta.url).href)};
      let before = 'known';
      try { knownConstants(); } catch (e) { before = e.message; }
      const w = await createWorkerWorld({ build: 'simd' });
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await w.addBody({ shapes: [{ type: 'sphere', radius: 0.5 }] }));
      await w.removeBody(ids[1]);
      ids.push(await w.addBody({ shapes: [{ type: 'sphere', radius: 0.5 }] }));
      const slots = [];
      for (const id of ids) slots.push([id & knownConstants().idIndexMask, await w.bodySlot(id)]);
      await w.free();
      console.log(JSON.stringify({ before, slots }));`;
    const dir = mkdtempSync(join(tmpdir(), 'tribo-page-'));
    let out;
    try {
      writeFileSync(join(dir, 'page.mjs'), script);
      out = execFileSync(process.execPath, [join(dir, 'page.mjs')], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const { before, slots } = JSON.parse(out.trim().split('\n').pop());
    assert.match(before, /constants are known once an engine is loaded/);
    assert.equal(slots.length, 4);
    /* the reused slot's id carries a new generation: the mask must strip it */
    for (const [mine, engine] of slots) assert.equal(mine, engine);
    assert.equal(slots[3][1], slots[1][1], 'the removed body\'s slot is reused');
  });
});
