// `npm pack` / `npm publish` run this first: it builds dist/ when Emscripten is available, and
// refuses to pack (exit 1, naming the missing files) when dist/ is incomplete.
// TRIBO_DIST=dir checks another directory (used by tests); TRIBO_PREPACK_NO_BUILD=1 skips the build.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const FILES = ['tribo_simd.web.mjs', 'tribo_simd.node.mjs', 'tribo_simd.wasm', 'tribo_mt.web.mjs', 'tribo_mt.node.mjs',
  'tribo_mt.wasm', 'tribo_mt.worker.js', 'tribo_compat.mjs', 'tribo_compat.mjs.map'];
const dist = process.env.TRIBO_DIST ?? 'dist';
if (!process.env.TRIBO_DIST && !process.env.TRIBO_PREPACK_NO_BUILD) {
  try {
    execFileSync('make', ['wasm'], { stdio: 'inherit' });
  } catch (e) {
    console.error(`prepack: \`make wasm\` failed (${e.message}); checking the existing dist/`);
  }
}
const missing = FILES.filter((f) => !fs.existsSync(path.join(dist, f)));
if (missing.length) {
  console.error(`prepack: refusing to pack: ${dist}/ lacks ${missing.join(', ')} (run \`make wasm\` with Emscripten installed)`);
  process.exit(1);
}
