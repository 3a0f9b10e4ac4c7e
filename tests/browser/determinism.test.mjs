// Determinism across hosts: the cases of tests/shared/determinism.mjs hash the same in Node (simd
// build, one thread: the reference) and in headless Chromium, in both builds (threads when
// cross-origin isolated, simd otherwise), on the page's thread (one thread: a page's main thread may
// not block) and in a Web Worker world with 1, 2 and up to 4 threads. The Node side of the matrix (both builds, 1/2/4 threads, worker_threads) is
// tests/js/determinism.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../js/index.js';
import { CASES, runCase } from '../shared/determinism.mjs';
import { launch, open, MODES, assertClean } from './harness.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

test('determinism: every case hashes bitwise the same in Chromium (both builds, page thread, Web Worker with 1/2/4 threads) as in Node', { timeout: 300_000 }, async () => {
  const node = await init({ build: 'simd' });
  const ref = [];
  for (const c of CASES) ref.push(await runCase(node, c, { threads: 1 }));
  for (const r of ref) assert.ok(r.contacts > 20, `the reference scene is in contact (${r.contacts} contacts)`);
  for (const [mode, key, build] of MODES) {
    const { page, log, close } = await open(env.browser, env.servers[key], 'tests/browser/pages/determinism.html', { global: 'det' });
    try {
      assert.equal(await page.evaluate(() => window.det.build), build, `${mode}: the page runs the ${build} build`);
      const counts = await page.evaluate(() => window.det.threadCounts);
      if (build === 'threads') assert.ok(counts.includes(2), `${mode}: two threads are available (${counts})`);
      for (let k = 0; k < CASES.length; k++) {
        /* a page's main thread steps with one thread (it may not block); threads run in a worker */
        const runs = [{ threads: 1, worker: false }, ...counts.map((threads) => ({ threads, worker: true }))];
        for (const opts of runs) {
          const got = await page.evaluate(([i, o]) => window.det.run(i, o), [k, opts]);
          assert.equal(got.hash, ref[k].hash,
            `${CASES[k].preset}, Chromium ${build} build, ${opts.worker ? 'Web Worker' : 'page thread'}, ${opts.threads} thread(s): hash ${got.hash} (${got.contacts} contacts) against Node's ${ref[k].hash} (${ref[k].contacts})`);
        }
      }
      assertClean(log, `determinism page (${mode})`);
    } finally {
      await close();
    }
  }
});
