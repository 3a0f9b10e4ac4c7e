// Shared by the checks' tests: a throwaway copy of src/ to plant violations in.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const src = join(repo, 'src');

/** Runs fn(root) on a fresh copy of src/ (root: the copy's src/), removed afterwards. */
export function withCopy(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'tribo-src-'));
  try {
    cpSync(src, join(dir, 'src'), { recursive: true });
    return fn(join(dir, 'src'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
