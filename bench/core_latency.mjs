#!/usr/bin/env node
// Cross-core round trip: two threads of this process hand a counter back and forth through a
// SharedArrayBuffer (each spins on Atomics.load until it sees the other's value), so one round
// trip moves the counter's cache line from one core to the other and back. The threads build
// depends on it: its two threads share the bodies' data at every colour of the solver. One 2-core
// machine here gave 550 ns with this script, and with the same loop in C 100 ns at one time and
// 440–530 ns at another (the hypervisor had placed the two cores differently); the threaded pile
// ran about 1.6× and 1.1× as fast as one thread then (bench/RESULTS.md "perf14").
//
//   node bench/core_latency.mjs        # prints the median of 5 runs of 100 000 round trips, ns
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const WORKER = `
const { workerData } = require('node:worker_threads');
const a = new Int32Array(workerData);
Atomics.store(a, 1, 1); /* ready */
for (;;) {
  let v;
  while (((v = Atomics.load(a, 0)) & 1) === 0 && v !== -1) {}
  if (v === -1) break;
  Atomics.store(a, 0, v + 1);
}`;

/** Median cross-core round trip in ns over `runs` runs of `trips` round trips each. */
export async function crossCoreRoundTripNs(trips = 100000, runs = 5) {
  const sab = new SharedArrayBuffer(8);
  const a = new Int32Array(sab);
  const worker = new Worker(WORKER, { eval: true, workerData: sab });
  while (Atomics.load(a, 1) !== 1) await new Promise((r) => setTimeout(r, 1));
  const times = [];
  let v = 0;
  for (let r = 0; r < runs + 1; ++r) { /* the first run warms up (JIT, caches) and is not counted */
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < trips; ++k) {
      Atomics.store(a, 0, v + 1);
      while (Atomics.load(a, 0) !== v + 2) {}
      v += 2;
      if (v > 0x3ffffff0) { v = 0; Atomics.store(a, 0, 0); }
    }
    if (r > 0) times.push(Number(process.hrtime.bigint() - t0) / trips);
  }
  Atomics.store(a, 0, -1);
  await worker.terminate();
  times.sort((x, y) => x - y);
  return times[times.length >> 1];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`cross-core round trip: ${(await crossCoreRoundTripNs()).toFixed(0)} ns`);
}
