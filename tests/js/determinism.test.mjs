// Determinism in Node: the cases of tests/shared/determinism.mjs (also run in Chromium by
// tests/browser/determinism.test.mjs) hash bitwise the same in both builds, with 1, 2 and 4
// threads, in process and in a worker_threads worker world.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engine, BUILDS } from './helpers.mjs';
import { CASES, runCase, threadCounts } from '../shared/determinism.mjs';

describe('determinism across builds, thread counts and worker worlds (Node)', () => {
  for (const c of CASES) {
    it(`${c.preset}: ${c.bodies}-body pile, ${c.steps} steps`, async () => {
      const ref = await runCase(await engine('simd'), c, { threads: 1 });
      assert.ok(ref.contacts > 20, `the scene is in contact (${ref.contacts} contacts)`);
      for (const build of BUILDS) {
        const tribo = await engine(build);
        for (const threads of threadCounts(tribo)) {
          const r = await runCase(tribo, c, { threads });
          assert.equal(r.hash, ref.hash, `${build} build, ${threads} thread(s), in process`);
        }
        const wk = await runCase(tribo, c, { threads: tribo.maxThreads, worker: true });
        assert.equal(wk.hash, ref.hash, `${build} build, worker world with ${tribo.maxThreads} thread(s)`);
      }
    });
  }
});
