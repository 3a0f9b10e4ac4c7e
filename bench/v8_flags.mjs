// The bench scripts time each engine's steady state: the code V8's optimising compiler
// (TurboFan) made of its wasm, not its baseline code (Liftoff). By default V8 starts every wasm
// function in Liftoff and recompiles the hot ones in the background; a large module is still
// partly in Liftoff hundreds of steps in (at steps 300–600 of the pyramid, Rapier-simd ran
// 0.551 ms/step with V8's tiering and 0.496 ms/step with `--no-liftoff`, bench/RESULTS.md
// "perf19"), which made the timing window favour the engine that tiered up first. So the bench
// scripts run under `node --no-liftoff` (every function compiled by TurboFan before the first
// step); BENCH_TIERING=1 keeps V8's default tiering.
import { spawnSync } from 'node:child_process';

export const TIERING = process.env.BENCH_TIERING === '1';

/** Description of the V8 setting for a results file. */
export const compilerNote = () => TIERING
  ? "V8's default tiering (BENCH_TIERING=1: wasm starts in Liftoff, hot functions recompiled by TurboFan in the background)"
  : 'node --no-liftoff (every wasm function compiled by TurboFan before the first step: the steady state of each engine)';

/**
 * Runs this script again under `node --no-liftoff` unless it already runs so (or BENCH_TIERING=1),
 * then exits with the re-run's status. Child processes started with process.execArgv inherit it.
 */
export function ensureOptimizingCompiler() {
  if (TIERING || process.execArgv.includes('--no-liftoff')) return;
  const r = spawnSync(process.execPath, ['--no-liftoff', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
