// The demos' timeline (web/timeline.js, no DOM): the snapshot ring's bound drops the oldest, a seek
// restores the newest snapshot at or before the chosen step and steps forward from it, and
// continuing from a step shown back in time discards the recorded future. The host here is a
// counter world whose state is its step count, so every check is exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SnapshotRing, Timeline } from '../../web/timeline.js';

/* a world whose whole state is its step; it logs the host calls */
function counterHost() {
  const host = { step: 0, calls: [], truncated: [] };
  host.restore = (data, step) => { assert.equal(data.step, step); host.step = data.step; host.calls.push(`restore ${step}`); };
  host.advance = async (n) => { await null; host.step += n; host.calls.push(`advance ${n}`); };
  host.truncate = (step) => host.truncated.push(step);
  return host;
}
/* runs the live simulation to `to`, recording as a page does */
function run(timeline, host, to) {
  while (host.step < to) { host.step++; timeline.stepped(host.step, () => ({ data: { step: host.step }, bytes: 100 })); }
}

test('snapshot ring: past maxCount or maxBytes the oldest are dropped, the newest kept', () => {
  const ring = new SnapshotRing({ maxCount: 3, maxBytes: 1000 });
  for (const s of [0, 10, 20, 30]) ring.record(s, s, 100);
  assert.deepEqual(ring.entries.map((e) => e.step), [10, 20, 30]);
  assert.equal(ring.bytes, 300);
  ring.record(40, 40, 850); /* 1150 bytes with 20 and 30: 20 goes too (950 left) */
  assert.deepEqual(ring.entries.map((e) => e.step), [30, 40]);
  assert.equal(ring.bytes, 950);
  ring.record(50, 50, 5000); /* larger than the bound alone: kept, the older one dropped */
  assert.deepEqual(ring.entries.map((e) => e.step), [50]);
  assert.equal(ring.bytes, 5000);
  assert.equal(ring.at(49), null);
  assert.equal(ring.at(51).step, 50);
});

test('timeline: a seek restores the snapshot at or before the step and steps forward; forward from the shown step when on the way', async () => {
  const host = counterHost();
  const tl = new Timeline(host, { every: 10, maxCount: 100, maxBytes: 1e6 });
  tl.start(0, { step: 0 }, 100);
  run(tl, host, 60);
  assert.deepEqual(tl.range, { first: 1, last: 60 });
  assert.equal(tl.ring.count, 7);
  assert.equal(await tl.seek(47), 47);
  assert.equal(host.step, 47);
  assert.deepEqual(host.calls, ['restore 40', 'advance 7']);
  host.calls = [];
  await tl.seek(49); /* on the way from 47: no restore */
  assert.deepEqual(host.calls, ['advance 2']);
  host.calls = [];
  await tl.seek(20); /* a recorded step: restored, shown without stepping */
  assert.deepEqual(host.calls, ['restore 20', 'advance 0']);
  assert.equal(await tl.seek(1e9), 60, 'clamped to the range');
  assert.equal(host.step, 60);
});

test('timeline: continuing from a step shown back in time discards the recorded future', async () => {
  const host = counterHost();
  const tl = new Timeline(host, { every: 10, maxCount: 100, maxBytes: 1e6 });
  tl.start(0, { step: 0 }, 100);
  run(tl, host, 60);
  await tl.seek(33);
  run(tl, host, 35); /* a live step from 33 */
  assert.deepEqual(host.truncated, [33]);
  assert.deepEqual(tl.range, { first: 1, last: 35 });
  assert.deepEqual(tl.ring.entries.map((e) => e.step), [0, 10, 20, 30]);
  run(tl, host, 41);
  assert.deepEqual(tl.ring.entries.map((e) => e.step), [0, 10, 20, 30, 40]);
});

test('timeline: the range starts at the oldest snapshot kept; seeks retarget a running seek', async () => {
  const host = counterHost();
  const tl = new Timeline(host, { every: 10, maxCount: 3, maxBytes: 1e6 });
  tl.start(0, { step: 0 }, 100);
  run(tl, host, 45);
  assert.deepEqual(tl.range, { first: 20, last: 45 }, 'steps 20, 30, 40 kept');
  const first = tl.seek(5); /* clamped to 20 */
  const second = tl.seek(38);
  assert.equal(await first, 38);
  assert.equal(await second, 38);
  assert.equal(host.step, 38);
});
