// Writes the list for emcc -sEXPORTED_FUNCTIONS: every function declared with TB_API in the
// public headers, plus the runtime symbols the JS API calls that are not part of the C API.
// Usage: node tools/exports.mjs OUT HEADER... (the Makefile passes src/include/*.h).
// tools/check_api.mjs reads the same declarations through tbApiNames.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

// Not TB_API: js/ allocates and frees its argument buffers in the wasm heap with these.
const RUNTIME = ['_malloc', '_free'];

/** The names of the functions declared with TB_API in one header's text; throws on a
 * declaration without a function name. */
export function tbApiNames(text, file = 'header') {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')  // comments may mention TB_API
    .replace(/\/\/.*$/gm, '')
    .replace(/^\s*#.*$/gm, '');         // the #define TB_API lines
  // A declaration runs from TB_API to its ';'; the function's name is the identifier before the
  // first '(' (return types here are plain types or pointers, never function pointers).
  const names = [];
  for (const m of code.matchAll(/\bTB_API\b([^;]*);/g)) {
    const decl = /([A-Za-z_]\w*)\s*\(/.exec(m[1]);
    if (!decl) throw new Error(`${file}: TB_API declaration without a function name: ${m[0].replace(/\s+/g, ' ').trim()}`);
    names.push(decl[1]);
  }
  return names;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, ...headers] = process.argv.slice(2);
  if (!out || headers.length === 0) {
    console.error('usage: node tools/exports.mjs OUT HEADER...');
    process.exit(2);
  }
  const names = [];
  try {
    for (const file of headers) names.push(...tbApiNames(fs.readFileSync(file, 'utf8'), file).map((n) => `_${n}`));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
  if (names.length === 0) {
    console.error(`no TB_API declarations in ${headers.join(' ')}`);
    process.exit(1);
  }
  const list = [...new Set([...RUNTIME, ...names])];
  fs.writeFileSync(`${out}.tmp`, `${list.join('\n')}\n`);
  fs.renameSync(`${out}.tmp`, out); // parallel makes never see half a file
}
