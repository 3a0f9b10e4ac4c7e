// Shared set-up of the browser tests: one Chromium per test file, the demo server in both modes
// (cross-origin isolated: 'threads' build; --no-isolation: 'simd' build), page error collection,
// canvas ink counts and screenshots in build/screenshots/ (not tracked).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.TRIBO_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic', '--enable-unsafe-swiftshader'];
export const SHOTS = process.env.TRIBO_TEST_SHOTS || path.join(ROOT, 'build/screenshots');
/* the machine may be loaded: waits are generous, simulated times short */
export const READY_TIMEOUT = 45_000;

/** Launches Chromium and both servers; returns { browser, servers: { isolated, plain }, close }. */
export async function launch() {
  assert.ok(fs.existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (set TRIBO_CHROMIUM)`);
  for (const f of ['dist/tribo_simd.wasm', 'dist/tribo_mt.wasm']) assert.ok(fs.existsSync(path.join(ROOT, f)), `${f} missing: run make`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 30_000 });
  const isolated = await startServer({ port: 0, isolation: true });
  const plain = await startServer({ port: 0, isolation: false });
  return {
    browser, servers: { isolated, plain },
    close: async () => { await browser.close(); await isolated.close(); await plain.close(); },
  };
}

/** The two builds a page must run in: [name, server key, expected build]. */
export const MODES = [['isolated', 'isolated', 'threads'], ['no-isolation', 'plain', 'simd']];

/**
 * Opens `pagePath` (relative to the origin, e.g. 'demos/incline.html?paused=1') and waits for
 * window[global].ready (or .error). Collects page errors, console errors and failed requests.
 */
export async function open(browser, server, pagePath, { global = 'course', viewport = { width: 1200, height: 860 } } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const log = [];
  page.on('pageerror', (e) => log.push(`pageerror: ${e.stack || e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') log.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) log.push(`HTTP ${r.status()} ${r.url()}`); });
  page.setDefaultTimeout(READY_TIMEOUT);
  await page.goto(`${server.origin}/${pagePath}`, { waitUntil: 'load', timeout: READY_TIMEOUT });
  await page.waitForFunction((g) => window[g] && (window[g].ready || window[g].error), global, { timeout: READY_TIMEOUT, polling: 100 });
  const error = await page.evaluate((g) => window[g].error, global);
  assert.equal(error, null, `${pagePath}: the page reported ${error}\n${log.join('\n')}`);
  return { page, log, close: () => context.close() };
}

/* Reads canvases back (copied to a 2D canvas: WebGL ones too) and reduces each one's pixels: 'ink'
 * counts pixels whose colour differs from the top-left pixel (the background); 'hash' is an FNV-1a
 * hash of each canvas, to see that a change of a slider changed the drawing. */
const readCanvases = (page, selector, mode) => page.evaluate(([sel, m]) => [...document.querySelectorAll(sel)].map((c) => {
  const tmp = document.createElement('canvas');
  tmp.width = c.width; tmp.height = c.height;
  const ctx = tmp.getContext('2d');
  ctx.drawImage(c, 0, 0);
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  let n = m === 'hash' ? 2166136261 : 0;
  if (m === 'hash') for (let i = 0; i < d.length; i++) n = Math.imul(n ^ d[i], 16777619) >>> 0;
  else for (let i = 0; i < d.length; i += 4) n += Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) + Math.abs(d[i + 3] - d[3]) > 24;
  return n;
}), [selector, mode]);

/** Inked pixels of each canvas matching `selector`. */
export const inked = (page, selector) => readCanvases(page, selector, 'ink');
/** A hash of the pixels of the first canvas matching `selector` (or the k-th; -1: the last). */
export const canvasHash = async (page, selector, k = 0) => (await readCanvases(page, selector, 'hash')).at(k);

/** Saves a screenshot as build/screenshots/<name>.png. */
export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, timeout: 20_000 }).catch(() => {});
}

/** Fails with the page's log when it holds errors. */
export function assertClean(log, label) {
  assert.deepEqual(log, [], `${label}: page errors\n${log.join('\n')}`);
}
