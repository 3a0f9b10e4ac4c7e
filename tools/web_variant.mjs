// Browser variants (.web.mjs) of Emscripten 3.1.6's ES6 output, for bundlers:
//  - its Node branches call require('fs' | 'path' | 'worker_threads' | 'perf_hooks'), which
//    esbuild and webpack try to resolve for the browser: each call becomes a function that throws;
//  - its pthread pool starts `new Worker(new URL('tribo_mt.worker.js', import.meta.url))`, which
//    Vite bundles as a classic worker and fails on; js/loader.js always passes locateFile, so that
//    literal is replaced by the locateFile() call the other branch already makes.
// Fails when a pattern is missing, so that an Emscripten upgrade cannot silently change the output.
import fs from 'node:fs';

for (const src of process.argv.slice(2)) {
  let code = fs.readFileSync(src, 'utf8');
  const requires = code.match(/\brequire\("[a-z_]+"\)/g) ?? [];
  if (requires.length === 0) throw new Error(`${src}: no require("…") calls found (Emscripten output changed?)`);
  code = code.replace(/\brequire\("([a-z_]+)"\)/g, '__tbNodeOnly("$1")');
  const worker = /new Worker\(new URL\("([\w.]+\.worker\.js)",import\.meta\.url\)\)/g;
  if (code.includes('.worker.js')) {
    if (!worker.test(code)) throw new Error(`${src}: the pthread worker literal was not found (Emscripten output changed?)`);
    code = code.replace(worker, 'new Worker(locateFile("$1"))');
  }
  const prelude = 'function __tbNodeOnly(m) { throw new Error("tribo: the browser build cannot load the Node module " + m); }\n';
  fs.writeFileSync(src.replace(/\.mjs$/, '.web.mjs'), prelude + code);
}
