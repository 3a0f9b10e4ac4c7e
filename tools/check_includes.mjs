// Layer walls: reads every `#include "..."` under src/ and fails on an edge the table below does
// not allow. Usage: node tools/check_includes.mjs [root]   (root defaults to this checkout's src/)
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The one table: the folders each src/ folder may include (its own folder is always allowed).
// Order of the layers: core < geometry < collision < model < solver < observe; world/ holds the
// types every layer may use; only step/ and api/ reach across. model/ does not call collision/
// (the step hands it the manifolds), and observe/ reads the contact store and the published
// per-body totals in world/, never solver internals.
const BASE = ['include', 'core', 'world'];
export const ALLOWED = {
  include: ['include'],
  core: ['include'],
  world: ['include', 'core'],
  geometry: [...BASE],
  collision: [...BASE, 'geometry'],
  model: [...BASE, 'geometry'],
  solver: [...BASE, 'geometry', 'collision', 'model'],
  observe: [...BASE, 'geometry', 'model'],
  step: [...BASE, 'geometry', 'collision', 'model', 'solver', 'observe'],
  api: [...BASE, 'geometry', 'collision', 'model', 'solver', 'observe', 'step'],
};

function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.[ch]$/.test(name)) out.push(p);
  }
  return out;
}

/** The forbidden edges under root, as messages "file:line: from -> to (header)". */
export function checkIncludes(root) {
  const problems = [];
  for (const file of sources(root)) {
    const from = relative(root, file).split(sep)[0];
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const m = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
      if (!m) return;
      const where = `${relative(root, file)}:${i + 1}`;
      // relative to the including file first, then to src/ (the build's -Isrc)
      const target = [resolve(dirname(file), m[1]), resolve(root, m[1])].find((p) => existsSync(p));
      if (!target || relative(root, target).startsWith('..')) {
        problems.push(`${where}: ${m[1]} does not resolve inside src/`);
        return;
      }
      const to = relative(root, target).split(sep)[0];
      if (to === from) return;
      const allowed = ALLOWED[from];
      if (!allowed) problems.push(`${where}: folder ${from}/ is not in the layer table`);
      else if (!allowed.includes(to)) problems.push(`${where}: ${from}/ may not include ${to}/ (${m[1]})`);
    });
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'src'));
  const problems = checkIncludes(root);
  for (const p of problems) console.error(`forbidden include: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`include walls hold (${sources(root).length} files under ${relative(process.cwd(), root) || '.'})`);
}
