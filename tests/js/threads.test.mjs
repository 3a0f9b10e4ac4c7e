// Determinism across builds and thread counts, and the threaded build really using threads.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engine, buildPile } from './helpers.mjs';

function runPile(tribo, threads, steps, adaptiveThreads = false) {
  const w = tribo.createWorld({ threads, adaptiveThreads });
  buildPile(w, 300);
  let maxThreadsUsed = 0;
  for (let s = 0; s < steps; s++) {
    w.step();
    maxThreadsUsed = Math.max(maxThreadsUsed, w.stepStats.threadsUsed);
  }
  const transforms = new Float32Array(w.bodies.transform);
  const contacts = w.contacts.count;
  const stats = w.stepStats;
  const mode = w.threadMode;
  w.free();
  return { transforms, maxThreadsUsed, contacts, stats, mode };
}

describe('determinism and threads', () => {
  it('single-threaded and threaded builds give bitwise-identical transforms after 300 steps of a 300-body pile', async () => {
    const simd = await engine('simd');
    const mt = await engine('threads');
    const ref = runPile(simd, 1, 300);
    assert.ok(ref.contacts > 300, `the pile is in contact (${ref.contacts} contacts)`);
    const threadCounts = [1, 2, mt.maxThreads];
    for (const threads of threadCounts) {
      const r = runPile(mt, threads, 300);
      const a = new Uint32Array(ref.transforms.buffer), b = new Uint32Array(r.transforms.buffer);
      assert.equal(a.length, b.length);
      let firstDiff = -1;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) { firstDiff = i; break; }
      assert.equal(firstDiff, -1, `threads build with ${threads} thread(s) differs from the simd build at float ${firstDiff}`);
      if (threads > 1) {
        assert.ok(r.maxThreadsUsed > 1, `a step with ${threads} threads ran jobs on ${r.maxThreadsUsed} thread(s)`);
      }
    }
    // the pile actually exercises the graph colouring and SIMD lanes
    assert.ok(ref.stats.colorCount >= 4, `constraint colours used: ${ref.stats.colorCount}`);
  });

  it('adaptive threads (the default) change who runs a step, never its result: the same bits as fixed threads', async () => {
    const mt = await engine('threads');
    const fixed = runPile(mt, 2, 300, false);
    const adaptive = runPile(mt, 2, 300, true);
    assert.deepEqual(new Uint32Array(adaptive.transforms.buffer), new Uint32Array(fixed.transforms.buffer));
    assert.equal(fixed.mode.adaptive, false);
    assert.equal(adaptive.mode.adaptive, true);
    assert.equal(fixed.mode.serial, false, 'a fixed world never runs serially');
    assert.equal(fixed.mode.switches, 0);
    assert.equal(typeof adaptive.mode.serial, 'boolean');
    assert.ok(Number.isInteger(adaptive.mode.switches) && adaptive.mode.switches >= 0);
    const w = mt.createWorld({ threads: 2 });
    assert.equal(w.adaptiveThreads, true, 'adaptive by default');
    assert.equal(w.options.adaptiveThreads, true);
    w.free();
    // the setting is the world's: a restore keeps it, a world made from a snapshot takes its option
    const f = mt.createWorld({ threads: 2, adaptiveThreads: false });
    f.step(3);
    const bytes = f.snapshot();
    f.restore(bytes);
    assert.equal(f.threadMode.adaptive, false, 'restore keeps adaptiveThreads: false');
    const g = mt.createWorldFromSnapshot(bytes, { threads: 2, adaptiveThreads: false });
    assert.equal(g.threadMode.adaptive, false);
    f.free();
    g.free();
    assert.throws(() => mt.createWorld({ adaptiveThreads: 1 }), (e) => e instanceof TypeError && /^createWorld: adaptiveThreads/.test(e.message));
  });

  it('a worker world reports its thread mode as the in-process world does', async () => {
    const mt = await engine('threads');
    for (const adaptiveThreads of [true, false]) {
      const ww = await mt.createWorkerWorld({ threads: 2, adaptiveThreads });
      try {
        await ww.step(3);
        const mode = await ww.threadMode;
        assert.equal(mode.adaptive, adaptiveThreads);
        assert.equal(await ww.adaptiveThreads, adaptiveThreads);
        assert.equal(typeof mode.serial, 'boolean');
        if (!adaptiveThreads) assert.deepEqual([mode.serial, mode.switches], [false, 0], 'a fixed world never runs serially');
      } finally {
        await ww.free();
      }
    }
  });
});
