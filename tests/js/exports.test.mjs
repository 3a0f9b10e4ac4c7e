// The wasm export list is generated from the TB_API declarations of the public headers
// (tools/exports.mjs, build/exports.txt): every declared function reaches JS, nothing else does
// except the runtime symbols the script names.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = path.join(ROOT, 'tools/exports.mjs');

function generate(headerText) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribo-exports-'));
  try {
    const h = path.join(dir, 'api.h'), out = path.join(dir, 'exports.txt');
    fs.writeFileSync(h, headerText);
    execFileSync(process.execPath, [SCRIPT, out, h], { stdio: ['ignore', 'ignore', 'pipe'] });
    return fs.readFileSync(out, 'utf8').split('\n').filter(Boolean);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('exports generated from TB_API', () => {
  it('reads multi-line declarations and pointer returns, skips comments and the #define', () => {
    const list = generate([
      '#define TB_API EMSCRIPTEN_KEEPALIVE',
      '/* TB_API in a comment: not_a_function(void); */',
      'TB_API const char* tb_name(int id);',
      'TB_API tb_status tb_many_args(int world,',
      '                              const float position[3]);',
      'int tb_private(void); // TB_API mentioned after a plain declaration',
      'TB_API tb_status tb_many_args(int world, const float position[3]); /* twice: listed once */',
    ].join('\n'));
    assert.deepEqual(list, ['_malloc', '_free', '_tb_name', '_tb_many_args']);
  });

  it('a TB_API declaration without a function name stops the build', () => {
    assert.throws(() => generate('TB_API int tb_counter;\n'), /without a function name/);
  });

  it('the simd build exports every TB_API function of tribo.h as Module._name', async () => {
    const listed = fs.readFileSync(path.join(ROOT, 'build/exports.txt'), 'utf8').split('\n').filter(Boolean);
    const header = fs.readFileSync(path.join(ROOT, 'src/include/tribo.h'), 'utf8');
    const declared = [...header.matchAll(/^TB_API\b[^(]*?\b(tb_\w+)\s*\(/gm)].map((m) => `_${m[1]}`);
    assert.ok(declared.length > 50, `tribo.h declares ${declared.length} TB_API functions`);
    assert.deepEqual(declared.filter((n) => !listed.includes(n)), [], 'declared but not in build/exports.txt');

    const dist = path.join(ROOT, 'dist');
    const { default: create } = await import(pathToFileURL(path.join(dist, 'tribo_simd.node.mjs')).href);
    const M = await create({ wasmBinary: fs.readFileSync(path.join(dist, 'tribo_simd.wasm')) });
    assert.deepEqual(listed.filter((n) => typeof M[n] !== 'function'), [], 'listed but not exported by the build');
  });
});
