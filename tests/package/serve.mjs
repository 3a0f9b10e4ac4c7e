// Static file server for the package tests: optional COOP/COEP (cross-origin isolation) and CORS
// (Access-Control-Allow-Origin: * and Cross-Origin-Resource-Policy: cross-origin, so that another
// origin's page may import and embed the files).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { mimeType } from '../../web/server.mjs';

/**
 * delay(pathname): ms to hold a response back (default none), to order the page's loads.
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export function serve(root, { isolation = false, cors = false, delay = () => 0 } = {}) {
  const headers = {
    'Cache-Control': 'no-cache',
    ...(isolation ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {}),
    ...(cors ? { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' } : {}),
  };
  const server = http.createServer((req, res) => {
    if (req.url === '/favicon.ico') { res.writeHead(204, headers).end(); return; }
    const pathname = new URL(req.url, 'http://x').pathname;
    let file = path.join(root, decodeURIComponent(pathname));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    setTimeout(() => fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404, headers).end(`not found: ${req.url}`); return; }
      res.writeHead(200, { ...headers, 'Content-Type': mimeType(file) }).end(body);
    }), delay(pathname));
  });
  const sockets = new Set();
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((done) => { server.close(() => done()); for (const s of sockets) s.destroy(); }),
  })));
}
