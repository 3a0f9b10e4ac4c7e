#!/usr/bin/env node
// The cost per body of a small and a large pile of one engine, both in one Node process stepping in
// turns: both sizes see the same state of a shared, noisy machine, turn by turn, which the scaling
// table's separate processes do not give (bench/RESULTS.md "perf41": a host that changes state
// within a run moves one size's rounds and not the other's).
//
//   node bench/scaling_ab.mjs [small side] [large side] [pairs]
//   ENGINE=tribo:threads node bench/scaling_ab.mjs 5 40       # 250 against 16 000 bodies
//   ENGINE=rapier-simd node bench/scaling_ab.mjs 5 40         # a peer engine (bench/engines/<name>.mjs)
//
// Sides are the pile's columns per side (bench/scenes.mjs: 5 = 250 bodies, 40 = 16 000), defaults
// 5 and 40; pairs of turns, default 20. ENGINE names a Tribo entry as bench/run.mjs does (default
// tribo:simd) or a peer's adapter. Each pile first steps WARM steps alone (settled, as the scaling
// table times it); then in each pair of turns the large pile steps LARGE_TURN steps and the small
// one as many steps as take about as long (a short turn after the large one's would start from
// caches the large pile emptied), in an order that alternates. Prints each size's median µs per
// body and step, and the median over the pairs of large / small cost per body (1 = flat) with its
// 95 % bootstrap interval and min–max, and the cross-core round trip before and after.
// Runs under `node --no-liftoff` (bench/v8_flags.mjs). SCALING_AB_JSON=1: one JSON line instead
// (bench/run.mjs's scaling table: its "flat in one process" column).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pile } from './scenes.mjs';
import { loadFrom } from './engines/tribo.mjs';
import { parseEngineName } from './engine_name.mjs';
import { median, medianInterval } from './turn_stats.mjs';
import { crossCoreRoundTripNs } from './core_latency.mjs';
import { ensureOptimizingCompiler } from './v8_flags.mjs';

ensureOptimizingCompiler();

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WARM = 300, LARGE_TURN = 10;
const PEERS = fs.readdirSync(path.join(HERE, 'engines')).map((f) => f.replace(/\.mjs$/, ''))
  .filter((name) => !name.startsWith('tribo') && name !== 'rapier-common');
const [smallArg = '5', largeArg = '40', pairsArg = '20'] = process.argv.slice(2);
const sides = [Number(smallArg), Number(largeArg)], pairs = Number(pairsArg);
const engineName = process.env.ENGINE ?? 'tribo:simd';
const entry = parseEngineName(engineName);
if (!Number.isInteger(sides[0]) || !(sides[0] >= 1) || !Number.isInteger(sides[1]) || !(sides[1] > sides[0]) || !Number.isInteger(pairs) || pairs < 3 ||
    !(entry.module === 'tribo' || PEERS.includes(engineName))) {
  console.error(`usage: [ENGINE=tribo:…|${PEERS.join('|')}] node bench/scaling_ab.mjs [small side >= 1] [large side > small] [pairs >= 3] ` +
    `(got ${JSON.stringify([smallArg, largeArg, pairsArg])}, ENGINE=${JSON.stringify(engineName)})`);
  process.exit(1);
}

/** A fresh instance of the engine (each size its own module, as in a process of its own). */
async function load() {
  if (entry.module === 'tribo') return loadFrom(path.resolve(HERE, '..'), entry.params);
  return (await import(`./engines/${engineName}.mjs`)).load();
}

const scenes = sides.map((side) => pile({ side }));
const bodies = scenes.map((s) => s.bodies.filter((b) => b.type === 'dynamic').length);
const worlds = [];
for (const scene of scenes) worlds.push((await load()).createWorld(scene));

/** Steps world k n times; returns the ms they took. */
function run(k, n) {
  const t0 = performance.now();
  for (let i = 0; i < n; ++i) worlds[k].step();
  return performance.now() - t0;
}

const roundTrip = [await crossCoreRoundTripNs()];
/* settle each pile alone, then time single steps of each for the small turn's length */
for (let k = 0; k < 2; ++k) run(k, WARM);
const probe = [0, 1].map((k) => median(Array.from({ length: 9 }, () => run(k, 1))));
const smallTurn = Math.max(LARGE_TURN, Math.min(4000, Math.round(LARGE_TURN * probe[1] / probe[0])));
const steps = [smallTurn, LARGE_TURN];
const perBody = [[], []], ratios = [];
for (let p = 0; p < pairs; ++p) {
  const us = [0, 0];
  for (const k of p % 2 ? [1, 0] : [0, 1]) us[k] = 1000 * run(k, steps[k]) / (steps[k] * bodies[k]);
  perBody[0].push(us[0]);
  perBody[1].push(us[1]);
  ratios.push(us[1] / us[0]);
}
roundTrip.push(await crossCoreRoundTripNs());
for (const w of worlds) w.free?.();

const [lo, hi] = medianInterval(ratios);
if (process.env.SCALING_AB_JSON === '1') { // bench/run.mjs's scaling table reads this line
  console.log(JSON.stringify({ engine: engineName, bodies, steps, perBodyUs: perBody.map(median), ratio: median(ratios), lo, hi,
    min: Math.min(...ratios), max: Math.max(...ratios), pairs: ratios.length, roundTrip }));
} else {
  console.log(`${engineName}, piles of ${bodies[0]} and ${bodies[1]} bodies in turns of ${steps[0]} and ${steps[1]} steps: ` +
    `${median(perBody[0]).toFixed(3)} and ${median(perBody[1]).toFixed(3)} µs per body·step; cost per body ` +
    `large / small median ${median(ratios).toFixed(3)} (95 % interval ${lo.toFixed(3)}–${hi.toFixed(3)}; pairs ` +
    `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}, ${ratios.length} pairs); ` +
    `cross-core round trip ${roundTrip.map((t) => t.toFixed(0)).join(' then ')} ns`);
}
