// The public API lives in one folder: every function declared TB_API in src/include/tribo.h (every
// entry point that takes a tb_world_id, and the process-wide ones) must be defined in a file
// under src/api/; the layers below keep internal names (tb_world_def_default, tb_enum_label, ...).
// Usage: node tools/check_api.mjs [root]   (root defaults to src/)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tbApiNames } from './exports.mjs';

const API_DIR = 'api';
const HEADER = join('include', 'tribo.h');

function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (name.endsWith('.c')) out.push(p);
  }
  return out;
}

/** Blanks comments, string and character literals and preprocessor lines (continued lines
 * included), keeping newlines so offsets still give line numbers. */
function codeOnly(text) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  return text
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, blank)
    .replace(/^[ \t]*#(?:[^\n]*\\\n)*[^\n]*/gm, blank);
}

/** The functions defined at file scope of one C source: [{name, line}]. A definition is a
 * top-level `name(...)` followed by `{`; initialisers (`= {`) and struct bodies are not. */
export function definitions(text) {
  const code = codeOnly(text);
  const out = [];
  let depth = 0, head = 0;
  for (let i = 0; i < code.length; ++i) {
    const c = code[i];
    if (c === '{') {
      if (depth === 0) {
        const m = /([A-Za-z_]\w*)\s*\(([^()]|\([^()]*\))*\)\s*$/.exec(code.slice(head, i));
        if (m && !/=\s*$/.test(code.slice(head, i))) {
          const at = head + m.index;
          out.push({ name: m[1], line: code.slice(0, at).split('\n').length });
        }
      }
      ++depth;
    } else if (c === '}') {
      if (--depth === 0) head = i + 1;
    } else if (c === ';' && depth === 0) {
      head = i + 1;
    }
  }
  return out;
}

/** Problems under root, as messages: a TB_API function defined outside src/api/, or nowhere. */
export function checkApi(root) {
  const names = tbApiNames(readFileSync(join(root, HEADER), 'utf8'), HEADER);
  const where = new Map(names.map((n) => [n, []]));
  for (const file of sources(root))
    for (const d of definitions(readFileSync(file, 'utf8')))
      if (where.has(d.name)) where.get(d.name).push(`${relative(root, file)}:${d.line}`);
  const problems = [];
  for (const [name, places] of where) {
    if (places.length === 0) problems.push(`${name}: declared TB_API in ${HEADER}, defined nowhere under src/`);
    for (const p of places)
      if (p.split(sep)[0] !== API_DIR) problems.push(`${p}: ${name} is TB_API (${HEADER}) but defined outside ${API_DIR}/`);
  }
  return { names, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'src'));
  const { names, problems } = checkApi(root);
  for (const p of problems) console.error(`public API: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`every TB_API function (${names.length}) is defined in ${API_DIR}/`);
}
