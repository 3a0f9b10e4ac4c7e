// The CPU hog of the threads build's "also under load" checks (run.mjs BENCH_HOG, ab.mjs HOG).
import { spawn } from 'node:child_process';

/** A busy child process that keeps one core loaded until killed. */
export function startHog() {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}
