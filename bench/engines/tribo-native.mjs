// Tribo's native build: bench/native_bench.c (tribo.h API only) compiled with gcc against src/,
// run as a child process once per round; it prints one JSON object with per-scene results.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const id = 'tribo-native';
export const packageName = null;
export const external = true;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'bench/native_bench.c');
const BIN = path.join(ROOT, 'build/native_bench');

function listFiles(dir, pred, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listFiles(p, pred, out);
    else if (pred(e.name)) out.push(p);
  }
  return out;
}

export class Unavailable extends Error {}

/** Compiles build/native_bench when it is missing or older than its sources. */
export function ensureBinary(log = () => {}) {
  const cFiles = listFiles(path.join(ROOT, 'src'), (n) => n.endsWith('.c')).sort();
  const deps = [SRC, ...listFiles(path.join(ROOT, 'src'), (n) => /\.[ch]$/.test(n))];
  const newest = Math.max(...deps.map((f) => fs.statSync(f).mtimeMs));
  if (fs.existsSync(BIN) && fs.statSync(BIN).mtimeMs >= newest) return BIN;
  if (cFiles.length === 0) throw new Unavailable('src/ has no .c files yet (C engine not written)');
  fs.mkdirSync(path.dirname(BIN), { recursive: true });
  const args = ['-O2', '-std=c11', '-ffp-contract=off', '-msse2', '-Isrc',
    path.relative(ROOT, SRC), ...cFiles.map((f) => path.relative(ROOT, f)), '-lm', '-lpthread', '-o', path.relative(ROOT, BIN)];
  log(`compiling: gcc ${args.join(' ')}`);
  const r = spawnSync('gcc', args, { cwd: ROOT, encoding: 'utf8' });
  if (r.error) throw new Unavailable(`gcc could not run: ${r.error.message}`);
  if (r.status !== 0) {
    const msg = (r.stderr || '').split('\n').filter((l) => /error|undefined reference/.test(l)).slice(0, 4).join(' | ');
    throw new Unavailable(`the C engine does not compile/link yet: ${msg || `gcc exit ${r.status}`}`);
  }
  return BIN;
}

export function compilerVersion() {
  try { return execFileSync('gcc', ['-dumpfullversion'], { encoding: 'utf8' }).trim(); } catch { return null; }
}

/** Runs one round of the given scenes (the pile with `side` columns per side); returns the parsed JSON. */
export function runRound({ steps, scenes, side = 10 }) {
  const r = spawnSync(BIN, ['--steps', String(steps), '--scenes', scenes.join(','), '--side', String(side)],
    { cwd: ROOT, encoding: 'utf8', timeout: 20 * 60 * 1000 });
  if (r.error) throw new Unavailable(`native_bench failed to run: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Unavailable(`native_bench exited with ${r.status ?? r.signal}: ${(r.stderr || r.stdout || '').trim().slice(0, 300)}`);
  }
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Unavailable(`native_bench printed no JSON: ${r.stdout.slice(0, 200)}`);
  }
}
