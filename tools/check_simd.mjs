// Checks the WebAssembly builds: the contact solver's hot loop holds real v128 instructions, and
// the threaded build imports a shared memory and uses atomics. Disassembles with binaryen's
// wasm-dis (installed with Debian's emscripten); function names come from --profiling-funcs.
import { execFileSync } from 'node:child_process';

// the iteration kernel: tb_contact_solve, or the job it is inlined into (binaryen inlines across
// files at -O3); the friction rows may stay in their own function. Kamino's PADMM operator
// (apply_operator, four contacts at a time) is the kamino preset's hot loop, or the linear solve
// it is inlined into.
const HOT = [['tb_contact_solve', 'solve_job'], ['apply_operator', 'solve_linear']];
const MIN_SIMD_OPS = 40;
let failed = false;

function functionBody(text, name) {
  const start = text.indexOf(` (func $${name} `);
  if (start < 0) return null;
  const end = text.indexOf('\n )', start);
  return text.slice(start, end);
}

for (const file of process.argv.slice(2)) {
  const text = execFileSync('wasm-dis', [file], { maxBuffer: 1 << 28 }).toString();
  for (const names of HOT) {
    const name = names.find((n) => functionBody(text, n) !== null) ?? names[0];
    const body = functionBody(text, name);
    const ops = body ? (body.match(/\b(f32x4|i32x4|v128)\.[a-z_]+/g) ?? []).length : 0;
    const ok = ops >= MIN_SIMD_OPS;
    failed ||= !ok;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${file} ${name}: ${ops} v128 instructions (need >= ${MIN_SIMD_OPS})`);
  }
  if (file.includes('_mt')) {
    const shared = /\(import "[^"]*" "[^"]*" \(memory \$\S+ \(shared \d+ \d+\)\)\)/.test(text);
    const atomics = (text.match(/\.atomic\./g) ?? []).length;
    const ok = shared && atomics > 0;
    failed ||= !ok;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${file}: shared memory import ${shared}, ${atomics} atomic instructions`);
  }
}
process.exit(failed ? 1 : 0);
