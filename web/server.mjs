#!/usr/bin/env node
// Tribo demo server: a small static file server (node:http only) for the repository root, so that
// /dist, /js, /web, /demos and /node_modules/three are reachable from the demo page.
//
//   node web/server.mjs                  # http://localhost:8080/demos/, cross-origin isolated
//   PORT=0 node web/server.mjs           # any free port; the URL is printed
//   node web/server.mjs --no-isolation   # or TRIBO_NO_COOP=1: no COOP/COEP/CORP headers
//   node web/server.mjs --port 9000      # same as PORT=9000
//
// Cross-origin isolation (the default) sends on every response
//   Cross-Origin-Opener-Policy: same-origin
//   Cross-Origin-Embedder-Policy: require-corp
//   Cross-Origin-Resource-Policy: same-origin
// so that SharedArrayBuffer is available and tribo picks the pthreads build ('threads').
// Without them the page is not isolated and the single-threaded SIMD build ('simd') is used.
//
// In-process use (tests):
//   import { startServer } from './web/server.mjs';
//   const srv = await startServer({ port: 0, isolation: true });
//   srv.url     -> 'http://localhost:PORT/demos/' (the demo page)
//   srv.origin  -> 'http://localhost:PORT'
//   await srv.close();

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HERE, '..');

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
};

export function mimeType(filePath) {
  return MIME_TYPES[path.extname(filePath).toLowerCase()] || 'application/octet-stream';
}

function isolationHeaders(isolation) {
  return isolation
    ? {
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
        'Cross-Origin-Resource-Policy': 'same-origin',
      }
    : {};
}

/** Resolves a URL path to a file path inside root, or null when it escapes root. */
function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  return full;
}

function createHandler({ root, isolation, log }) {
  const base = isolationHeaders(isolation);
  return async function handle(req, res) {
    const send = (status, headers, body) => {
      res.writeHead(status, { ...base, 'Cache-Control': 'no-cache', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
      if (log) log(`${req.method} ${req.url} ${status}`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(405, { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET, HEAD' }, 'Method not allowed\n');
      return;
    }
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname === '/') {
      send(302, { Location: '/demos/' }, '');
      return;
    }
    let file = resolveInside(root, url.pathname);
    if (!file) {
      send(403, { 'Content-Type': 'text/plain; charset=utf-8' }, 'Forbidden\n');
      return;
    }
    try {
      let st = await fs.promises.stat(file);
      if (st.isDirectory()) {
        if (!url.pathname.endsWith('/')) {
          send(301, { Location: url.pathname + '/' + url.search }, '');
          return;
        }
        file = path.join(file, 'index.html');
        st = await fs.promises.stat(file);
      }
      if (!st.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
      const headers = {
        'Content-Type': mimeType(file),
        'Content-Length': String(st.size),
        'Last-Modified': st.mtime.toUTCString(),
      };
      res.writeHead(200, { ...base, 'Cache-Control': 'no-cache', ...headers });
      if (log) log(`${req.method} ${req.url} 200`);
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const stream = fs.createReadStream(file);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    } catch (err) {
      if (err && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) {
        send(404, { 'Content-Type': 'text/plain; charset=utf-8' }, `Not found: ${url.pathname}\n`);
      } else {
        send(500, { 'Content-Type': 'text/plain; charset=utf-8' }, 'Internal error\n');
      }
    }
  };
}

/**
 * Starts the static server.
 * @param {{ port?: number, isolation?: boolean, host?: string, root?: string, log?: (line: string) => void }} [options]
 *   port: 0 = any free port (default: env PORT or 8080); isolation: send COOP/COEP/CORP (default true);
 *   host: address to bind (default 127.0.0.1, env HOST).
 * @returns {Promise<{ url: string, origin: string, port: number, isolation: boolean, server: http.Server, close: () => Promise<void> }>}
 */
export function startServer(options = {}) {
  const port = options.port ?? (process.env.PORT !== undefined && process.env.PORT !== '' ? Number(process.env.PORT) : 8080);
  const isolation = options.isolation ?? true;
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  const root = path.resolve(options.root ?? REPO_ROOT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return Promise.reject(new Error(`startServer: port must be an integer in [0, 65535], got ${options.port ?? process.env.PORT}`));
  }
  const server = http.createServer(createHandler({ root, isolation, log: options.log }));
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actual = server.address().port;
      const origin = `http://localhost:${actual}`;
      resolve({
        url: `${origin}/demos/`,
        origin,
        port: actual,
        isolation,
        server,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      });
    });
  });
}

/**
 * Opens `url` in the desktop's default browser: xdg-open on Linux with a display, open on macOS,
 * start on Windows. Without a desktop (a server, CI, ssh) it says to open the URL by hand; a
 * failing opener never stops the server.
 */
function openInBrowser(url) {
  const desktop = process.platform !== 'linux' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY;
  const cmd = process.platform === 'darwin' ? ['open', [url]]
    : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]]
    : ['xdg-open', [url]];
  if (!desktop) {
    console.log(`no desktop display here: open ${url} in a browser`);
    return;
  }
  try {
    const child = spawn(cmd[0], cmd[1], { stdio: 'ignore', detached: true });
    child.on('error', () => console.log(`could not start ${cmd[0]}: open ${url} in a browser`));
    child.unref();
  } catch {
    console.log(`could not start ${cmd[0]}: open ${url} in a browser`);
  }
}

function parseArgs(argv) {
  const out = { isolation: !(process.env.TRIBO_NO_COOP && process.env.TRIBO_NO_COOP !== '0'), port: undefined, verbose: false, open: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-isolation' || a === '--no-coop') out.isolation = false;
    else if (a === '--isolation') out.isolation = true;
    else if (a === '--verbose' || a === '-v') out.verbose = true;
    else if (a === '--open') out.open = true;
    else if (a === '--port' || a === '-p') out.port = Number(argv[++i]);
    else if (a.startsWith('--port=')) out.port = Number(a.slice(7));
    else if (a === '--help' || a === '-h') {
      console.log('usage: node web/server.mjs [--port N] [--no-isolation] [--verbose] [--open]\n' +
        '  --open: also open the gallery in the desktop\'s browser (when there is a desktop)\n' +
        '  env PORT (default 8080, 0 = any free port), HOST (default 127.0.0.1), TRIBO_NO_COOP=1');
      process.exit(0);
    } else {
      console.error(`web/server.mjs: unknown argument ${a} (try --help)`);
      process.exit(2);
    }
  }
  return out;
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const args = parseArgs(process.argv.slice(2));
  startServer({ port: args.port, isolation: args.isolation, log: args.verbose ? (l) => console.log(l) : undefined })
    .then((srv) => {
      console.log(`Tribo demo: ${srv.url}`);
      console.log(srv.isolation
        ? 'cross-origin isolated (COOP/COEP): the threaded build is used'
        : 'not isolated (--no-isolation): the single-threaded SIMD build is used');
      if (args.open) openInBrowser(srv.url);
      const stop = () => srv.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    })
    .catch((err) => {
      console.error(`web/server.mjs: ${err.message}`);
      process.exit(1);
    });
}
