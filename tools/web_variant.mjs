// Browser variants (.web.mjs) of Emscripten 3.1.6's ES6 output, for bundlers:
//  - its Node branches call require('fs' | 'path' | 'worker_threads' | 'perf_hooks'), which
//    esbuild and webpack try to resolve for the browser: each call becomes a function that throws;
//  - its pthread pool starts `new Worker(new URL('tribo_mt.worker.js', import.meta.url))`, a
//    classic script that Vite bundles (and fails on) or transforms (the dev server adds import
//    statements), and that another origin may not start: the script (3 KB) is embedded instead and
//    each pthread worker starts from a blob URL of it, unless Module.pthreadWorkerURL names one.
// Fails when a pattern is missing, so that an Emscripten upgrade cannot silently change the output.
import fs from 'node:fs';

for (const src of process.argv.slice(2)) {
  let code = fs.readFileSync(src, 'utf8');
  const requires = code.match(/\brequire\("[a-z_]+"\)/g) ?? [];
  if (requires.length === 0) throw new Error(`${src}: no require("…") calls found (Emscripten output changed?)`);
  code = code.replace(/\brequire\("([a-z_]+)"\)/g, '__tbNodeOnly("$1")');
  let prelude = 'function __tbNodeOnly(m) { throw new Error("tribo: the browser build cannot load the Node module " + m); }\n';
  const alloc = /allocateUnusedWorker:function\(\)\{if\(!Module\["locateFile"\]\)\{PThread\.unusedWorkers\.push\(new Worker\(new URL\("([\w.]+\.worker\.js)",import\.meta\.url\)\)\);return\}var pthreadMainJs=locateFile\("[\w.]+"\);PThread\.unusedWorkers\.push\(new Worker\(pthreadMainJs\)\)\}/;
  if (code.includes('.worker.js')) {
    const m = code.match(alloc);
    if (!m) throw new Error(`${src}: the pthread worker allocation was not found (Emscripten output changed?)`);
    const script = fs.readFileSync(src.replace(/[^/]+$/, m[1]), 'utf8');
    prelude += `const __tbWorkerSource = ${JSON.stringify(script)};\nlet __tbWorkerBlob = null;\n`
      + 'function __tbWorkerURL() { return __tbWorkerBlob ??= URL.createObjectURL(new Blob([__tbWorkerSource], { type: "text/javascript" })); }\n';
    code = code.replace(alloc, 'allocateUnusedWorker:function(){PThread.unusedWorkers.push(new Worker(Module["pthreadWorkerURL"]||__tbWorkerURL()))}');
  }
  fs.writeFileSync(src.replace(/\.mjs$/, '.web.mjs'), prelude + code);
}
