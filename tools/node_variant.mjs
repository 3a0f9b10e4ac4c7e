// Emscripten 3.1.6's ES6 output refers to `require` and `__dirname` when it runs in Node, which an
// ES module does not have. Node variants get both from a small prelude; browsers load the
// unmodified files.
import fs from 'node:fs';

for (const src of process.argv.slice(2)) {
  const out = src.replace(/\.mjs$/, '.node.mjs');
  const prelude =
    "import { createRequire as __tbCreateRequire } from 'node:module';\n" +
    "import { fileURLToPath as __tbFileURLToPath } from 'node:url';\n" +
    "import { dirname as __tbDirname } from 'node:path';\n" +
    'const require = __tbCreateRequire(import.meta.url);\n' +
    'const __dirname = __tbDirname(__tbFileURLToPath(import.meta.url));\n';
  fs.writeFileSync(out, prelude + fs.readFileSync(src, 'utf8'));
}
