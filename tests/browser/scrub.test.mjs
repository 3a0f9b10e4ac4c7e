// Browser test of the time slider (web/scrub.js, web/timeline.js) on the main demo
// (demos/pyramid.html: a worker world, both builds) and the preset comparison (demos/presets.html:
// one in-process world per lane). A first run steps to S and keeps each step's body-transform
// hash; scrubbing back to s1 (a recorded step) and to s2 (between two recordings) must show those
// steps bitwise, the slider dragged by its input event shows the step it names, and resuming from
// s2 must reach the first run's hash at S again (restore continues bitwise).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, MODES, shot, assertClean } from './harness.mjs';

const S = 60, S1 = 20, S2 = 47; /* steps; the timeline records every 10 */
let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

/* the main demo's shown step: body transforms' hash, contact count, and a hash of the contact
 * forces the overlay draws (FNV-1a of their bytes) */
const shownStep = () => {
  const t = window.tribo, f = t.lastFrame().contacts.force;
  let h = 0x811c9dc5;
  for (const b of new Uint8Array(f.buffer, f.byteOffset, 12 * t.contactCount)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return { frame: t.frame, hash: t.transformHash(), contacts: t.contactCount, forces: h, markers: t.drawnContactMarkers, paused: t.paused };
};

/* steps the main demo to each of `stops` (increasing), keeping what it shows there */
async function firstRun(page, stops) {
  const run = {};
  for (const s of stops) {
    await page.evaluate((n) => window.tribo.step(n - window.tribo.frame), s);
    const at = await page.evaluate(shownStep);
    run[at.frame] = at;
  }
  return run;
}

/* drags the slider element to `step` (its input event) and waits for the page to show it */
async function drag(page, step, shown) {
  await page.locator('#scrub-slider').fill(String(step));
  await page.waitForFunction(([s, f]) => window.tribo[f] === s && window.tribo.timeline().step === s, [step, shown]);
  return page.locator('#scrub-step').textContent();
}

for (const [name, serverKey, build] of MODES) {
  test(`main demo (${name}, ${build}): the time slider shows recorded steps bitwise and resumes from them deterministically`, { timeout: 240_000 }, async () => {
    /* a small view: the software renderer draws every shown frame */
    const { page, log, close } = await open(env.browser, env.servers[serverKey], 'demos/pyramid.html?paused=1', { global: 'tribo', viewport: { width: 800, height: 560 } });
    try {
      assert.equal(await page.evaluate(() => window.tribo.build), build);
      /* the body at the view's centre (the pyramid) is picked: its force plot gets a sample per frame shown */
      const picked = await page.evaluate(() => window.tribo.pick(0, 0));
      assert.ok(picked?.hit?.body >= 0, 'a pyramid body picked');
      const stops = [S1, S1 + 2, S1 + 3, S2, S];
      const run = await firstRun(page, stops);
      assert.deepEqual(Object.keys(run).map(Number), stops, 'the first run stopped at each step asked');
      const range = await page.evaluate(() => window.tribo.timeline());
      assert.equal(range.every, 10);
      assert.ok(range.first <= 1 && range.last === S, `recorded range covers steps 1…${S}: ${JSON.stringify(range)}`);
      assert.equal(range.snapshots, S / range.every + 1, 'a snapshot every 10 steps and the built world');
      const hashes = new Set(Object.values(run).map((r) => r.hash));
      assert.equal(hashes.size, stops.length, 'the scene moves: every step asked is a different state');

      for (const s of [S1, S2]) {
        await page.evaluate((n) => window.tribo.scrubTo(n), s);
        const at = await page.evaluate(shownStep);
        assert.equal(at.frame, s, `scrubbed to step ${s}`);
        assert.equal(at.paused, true, 'scrubbing pauses');
        assert.equal(at.hash, run[s].hash, `step ${s} after scrubbing is bitwise the first run's`);
        assert.equal(at.contacts, run[s].contacts, `step ${s}: the contacts of that step`);
        assert.equal(at.forces, run[s].forces, `step ${s}: the contact forces of that step, bitwise`);
        assert.equal(at.markers, at.contacts, `step ${s}: the overlay draws that step's contacts`);
        const ts = (await page.evaluate(() => window.tribo.forceCsv())).trim().split('\n').slice(1).map((r) => Number(r.split(',')[0]));
        assert.ok(ts.length >= 1 && Math.abs(ts.at(-1) - s / 60) < 1e-9, `step ${s}: the force plot ends at t = ${s / 60} s (shows ${ts})`);
      }
      /* the slider element itself, then the arrow keys while paused */
      const label = await drag(page, S1 + 3, 'frame');
      assert.match(label, new RegExp(`^step ${S1 + 3} · t = ${((S1 + 3) / 60).toFixed(2)} s$`));
      assert.equal(await page.evaluate(() => window.tribo.transformHash()), run[S1 + 3].hash, 'the dragged-to step bitwise');
      await page.locator('#scrub-slider').blur();
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction((s) => window.tribo.frame === s, S1 + 2);
      assert.equal(await page.evaluate(() => window.tribo.transformHash()), run[S1 + 2].hash, 'ArrowLeft: one step back, bitwise');
      assert.match(await page.locator('#scrub-note').textContent(), /a snapshot every 10 steps, at most 600 snapshots or 64 MB \(the oldest are dropped\)/);

      /* resume from s2: the recorded future is discarded, the run continues to the first run's S bitwise */
      const resumed = await page.evaluate(async (n) => {
        const t = window.tribo;
        await t.scrubTo(n);
        await t.resume();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const paused = await t.pause();
        return { frame: paused.frame, range: t.timeline() };
      }, S2);
      assert.ok(resumed.frame >= S2 && resumed.frame < S, `ran on a few steps from ${S2} (at ${resumed.frame})`);
      assert.equal(resumed.range.last, resumed.frame, 'the recorded future after the resumed step was discarded');
      const end = await page.evaluate(async (n) => { await window.tribo.step(n - window.tribo.frame); return { frame: window.tribo.frame, hash: window.tribo.transformHash() }; }, S);
      assert.equal(end.frame, S);
      assert.equal(end.hash, run[S].hash, `step ${S} after resuming from a restored step equals the first run's bitwise`);
      /* the last sample lands after its frame (one more round trip to the worker) */
      await page.waitForFunction((n) => Math.abs(Number(window.tribo.forceCsv().trim().split('\n').at(-1).split(',')[0]) - n / 60) < 1e-9, S);
      const ts = (await page.evaluate(() => window.tribo.forceCsv())).trim().split('\n').slice(1).map((r) => Number(r.split(',')[0]));
      assert.ok(ts.every((t, k) => k === 0 || t > ts[k - 1]) && Math.abs(ts.at(-1) - S / 60) < 1e-9,
        `after resuming, the force plot runs on in increasing time to t = ${S / 60} s (${ts})`);
      await shot(page, `scrub-demo-${name}`);
      assertClean(log, `demo ${name}`);
    } finally {
      await close();
    }
  });
}

test('preset comparison: every lane scrubs to the same step bitwise (scene state included) and resumes deterministically', { timeout: 120_000 }, async () => {
  const { page, log, close } = await open(env.browser, env.servers.plain, 'demos/presets.html?paused=1&scene=pendulum', { global: 'tribo' });
  try {
    /* the pendulum: its lanes keep samples of the swing in the scene's own state (the bottom passage) */
    const run = await page.evaluate((n) => {
      const t = window.tribo, out = {};
      for (let s = 1; s <= n; s++) {
        t.step();
        out[s] = { hash: t.transformHash(), values: { ...t.values }, notes: { ...t.notes } };
      }
      return out;
    }, S);
    assert.notEqual(run[S1].hash, run[S].hash, 'the pendulums swing');
    assert.equal(await page.evaluate(() => window.tribo.timeline().last), S);
    for (const s of [S1, S2]) {
      const at = await page.evaluate(async (n) => {
        const t = window.tribo;
        await t.scrubTo(n);
        return { step: t.timeline().step, steps: t.steps, hash: t.transformHash(), values: { ...t.values }, notes: { ...t.notes },
          rows: t.csv().trim().split('\n').length - 1 };
      }, s);
      assert.equal(at.step, s);
      assert.equal(at.steps, s);
      assert.equal(at.hash, run[s].hash, `every lane at step ${s} bitwise`);
      assert.deepEqual(at.values, run[s].values, `step ${s}: the readouts of that step`);
      assert.deepEqual(at.notes, run[s].notes, `step ${s}: the notes (scene state restored)`);
      assert.equal(at.rows, s, `step ${s}: the plot shows the samples up to that step`);
    }
    const label = await drag(page, S2 - 5, 'steps');
    assert.match(label, new RegExp(`^step ${S2 - 5} · t = ${((S2 - 5) / 60).toFixed(2)} s$`));
    assert.equal(await page.evaluate(() => window.tribo.transformHash()), run[S2 - 5].hash, 'the dragged-to step bitwise');

    const end = await page.evaluate(async ([s2, n]) => {
      const t = window.tribo;
      await t.scrubTo(s2);
      t.resume();
      t.pause();
      const last = t.timeline().last;
      t.step(n - s2);
      return { last, steps: t.steps, hash: t.transformHash(), values: { ...t.values }, rows: t.csv().trim().split('\n').length - 1 };
    }, [S2, S]);
    assert.equal(end.last, S2, 'resuming discards the recorded future');
    assert.equal(end.steps, S);
    assert.equal(end.hash, run[S].hash, `step ${S} after resuming from a restored step equals the first run's bitwise`);
    assert.deepEqual(end.values, run[S].values);
    assert.equal(end.rows, S, 'the plot has one sample per step, none repeated');
    await shot(page, 'scrub-presets');
    assertClean(log, 'presets');
  } finally {
    await close();
  }
});
