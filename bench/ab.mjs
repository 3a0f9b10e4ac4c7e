#!/usr/bin/env node
// Two engines in one Node process, the same scene stepping in turns: both see the same load, turn
// by turn, which a shared, noisy machine does not give two separate runs.
//
//   node bench/ab.mjs BASE [scene] [side] [steps]
//
// BASE is either another checkout with its wasm built (e.g. `git worktree add /tmp/base <commit>`,
// then `make wasm` there): a change's effect on Tribo's wasm time; or a peer engine's bench name
// (an adapter bench/engines/<name>.mjs: rapier-simd, rapier, havok, jolt, cannon): Tribo against it;
// or another Tribo entry of this checkout (e.g. `ENGINE=tribo:threads node bench/ab.mjs tribo:simd`:
// the threads build against the simd build under the same load). "new" is this checkout's ENGINE.
// HOG=1 keeps a busy child process beside both (the threads build's "also under load" check).
// scene: pile (default), pyramid, tray or level (bench/scenes.mjs); side: the pile's columns per side
// (10 = 1000 bodies), the tray's rows of bodies (20 = 400 bodies) or the level's tiles per side (100
// = 10 000 static tiles under 1 000 spheres); steps: default 900. ENGINE names the Tribo entry (default
// tribo:simd; e.g. tribo:preset=newton-xpbd), built as bench/run.mjs builds it. Both worlds step
// in turns of 20 steps, in pairs of turns whose order alternates; steps from 300 on are timed.
// Prints each side's median ms/step and the median of new / base turn time over the pairs (below 1:
// this checkout is faster) with its 95 % bootstrap interval and the min–max over the pairs, and the
// cross-core round trip (bench/core_latency.mjs) before and after the turns. Runs under
// `node --no-liftoff` (re-started so; BENCH_TIERING=1: V8's default tiering), bench/v8_flags.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { level, pile, pyramid, tray } from './scenes.mjs';
import { loadFrom } from './engines/tribo.mjs';
import { parseEngineName } from './engine_name.mjs';
import { startHog } from './hog.mjs';
import { median, medianInterval } from './turn_stats.mjs';
import { crossCoreRoundTripNs } from './core_latency.mjs';
import { ensureOptimizingCompiler } from './v8_flags.mjs';

ensureOptimizingCompiler(); // both sides timed in TurboFan's code (bench/v8_flags.mjs)

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TURN = 20, WARM = 300;
// the peers: every adapter in engines/ but Tribo's own and the shared Rapier module
const PEERS = fs.readdirSync(path.join(HERE, 'engines')).map((f) => f.replace(/\.mjs$/, ''))
  .filter((name) => !name.startsWith('tribo') && name !== 'rapier-common');
const [base, sceneName = 'pile', sideArg = '10', stepsArg = '900'] = process.argv.slice(2);
const side = Number(sideArg), steps = Number(stepsArg);
const basePeer = PEERS.includes(base), baseEntry = base?.startsWith('tribo:') ? parseEngineName(base) : null;
if (!base || !(basePeer || baseEntry || fs.statSync(base, { throwIfNoEntry: false })?.isDirectory()) ||
    !['pile', 'pyramid', 'tray', 'level'].includes(sceneName) || !(Number.isInteger(side) && side >= 1) || !(Number.isInteger(steps) && steps > WARM)) {
  console.error(`usage: node bench/ab.mjs BASE [pile|pyramid|tray|level] [side >= 1] [steps > ${WARM}]; BASE = a checkout's ` +
    `directory, a Tribo entry (tribo:simd, tribo:threads…) or one of ${PEERS.join(', ')} (got ${JSON.stringify(process.argv.slice(2))})`);
  process.exit(1);
}

const engine = parseEngineName(process.env.ENGINE ?? 'tribo:simd');
if (engine.module !== 'tribo') {
  console.error(`bench/ab.mjs: ENGINE must be a tribo entry such as tribo:simd or tribo:preset=mujoco (got ${process.env.ENGINE})`);
  process.exit(1);
}
const scene = sceneName === 'pyramid' ? pyramid() : sceneName === 'tray' ? tray({ side })
  : sceneName === 'level' ? level({ tiles: side }) : pile({ side });
const baseEngine = basePeer ? await (await import(`./engines/${base}.mjs`)).load()
  : baseEntry ? await loadFrom(path.resolve(HERE, '..'), baseEntry.params) : await loadFrom(path.resolve(base), engine.params);
const worlds = [baseEngine.createWorld(scene), (await loadFrom(path.resolve(HERE, '..'), engine.params)).createWorld(scene)];
const names = [basePeer || baseEntry ? base : 'base', 'new'];
/* the threads build's speed follows how far apart the machine put its cores (bench/RESULTS.md
 * "perf14"): the round trip before the turns (before the busy process starts) and after them
 * (without one) goes with the result */
const roundTrip = [await crossCoreRoundTripNs()];
const hog = process.env.HOG === '1' ? startHog() : null;
hog?.unref(); /* it does not keep this process alive, */
process.on('exit', () => hog?.kill('SIGKILL')); /* and dies with it, also when a step throws */

const times = [[], []], turns = [[], []];
for (let start = 0, pair = 0; start < steps; start += TURN, ++pair) {
  /* base first in even pairs, new first in odd ones: a drift of the machine within a pair (a
   * neighbour's load rising, caches warming) does not favour one side */
  for (const k of pair % 2 ? [1, 0] : [0, 1]) {
    let sum = 0;
    for (let i = start; i < start + TURN; ++i) {
      const t0 = performance.now();
      worlds[k].step();
      const dt = performance.now() - t0;
      if (i >= WARM) { times[k].push(dt); sum += dt; }
    }
    if (start >= WARM) turns[k].push(sum);
  }
}
if (!hog) roundTrip.push(await crossCoreRoundTripNs());
const ratios = turns[1].map((x, i) => x / turns[0][i]);
const [lo, hi] = medianInterval(ratios);
console.log(`${sceneName}${sceneName === 'pile' ? ` (${scene.bodies.filter((b) => b.type === 'dynamic').length} bodies)` : ''}: ${names[0]} ${median(times[0]).toFixed(3)} ms/step, ` +
  `new ${median(times[1]).toFixed(3)} ms/step; new/${names[0]} per turn median ${median(ratios).toFixed(3)} ` +
  `(95 % interval ${lo.toFixed(3)}–${hi.toFixed(3)}; turns ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}, ` +
  `${ratios.length} turns)` +
  `${baseEntry ? `; new = ${process.env.ENGINE ?? 'tribo:simd'}` : ''}${hog ? '; beside a busy process' : ''}` +
  `; cross-core round trip ${roundTrip.map((t) => t.toFixed(0)).join(' then ')} ns`);
