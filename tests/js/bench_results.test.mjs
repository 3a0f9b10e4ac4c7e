// bench/RESULTS.md layout: bench/run.mjs rewrites only its own part and keeps the collision
// sections that other make targets wrote after it (no benchmark runs here).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BEGIN_MARK, END_MARK, SCALING_MARK, mergeResults } from '../../bench/results_file.mjs';
import { speedRatioCell, sceneFailure } from '../../bench/speed_ratio.mjs';
import { roundOrder } from '../../bench/round_order.mjs';

/** A run of the scenes only: its main tables, no scaling table. */
const main = (text) => ({ main: text, scaling: null });

const COLLISION = [
  '## Collision: broad phase', '', '| bodies | ms |', '| ---: | ---: |', '| 1000 | 0.42 |', '',
  '## Collision: meshes and heightfields', '', 'pairs/s 1.5e6', '',
  '## Collision', '', '| pair | tests/s |', '| --- | ---: |', '| box-box | 2.1e6 |',
].join('\n') + '\n';

describe('bench RESULTS.md merge', () => {
  it('a file without markers keeps everything from its first "## Collision" heading, byte for byte', () => {
    const old = '# Bench results\n\nold date\n## Median ms/step\n\n| old | 1 |\n\n' + COLLISION;
    const out = mergeResults(old, main('# Bench results\n\nnew date\n## Median ms/step\n\n| new | 2 |\n'));
    assert.ok(out.startsWith(`${BEGIN_MARK}\n# Bench results\n\nnew date`));
    assert.ok(out.endsWith(`${END_MARK}\n\n${COLLISION}`), 'collision sections follow the END marker unchanged');
    assert.equal(out.includes('| old | 1 |'), false, 'the old generated table is replaced');
    assert.equal(out.split('## Collision').length - 1, 3, 'each collision heading once');
  });

  it('a second run replaces the generated part and keeps the tail (stable over repeated runs)', () => {
    const first = mergeResults('# x\n' + COLLISION, main('run A\n'));
    const second = mergeResults(first, main('run B\n'));
    const third = mergeResults(second, main('run B\n'));
    assert.equal(second, `${BEGIN_MARK}\nrun B\n\n${END_MARK}\n\n${COLLISION}`);
    assert.equal(third, second, 'same generated text: same file');
  });

  it('a section appended after the END marker (make bench-collision) survives the next run', () => {
    const withTail = mergeResults('', main('run A\n')) + '\n## Collision\n\nappended later\n';
    const out = mergeResults(withTail, main('run B\n'));
    assert.ok(out.endsWith('## Collision\n\nappended later\n'));
    assert.equal(out.includes('run A'), false);
  });

  it('the scaling table is its own part: a scaling-only run keeps the main tables, a main run keeps the scaling table', () => {
    const full = mergeResults('# x\n' + COLLISION, { main: 'main A\n', scaling: null });
    assert.equal(full, `${BEGIN_MARK}\nmain A\n\n${END_MARK}\n\n${COLLISION}`, 'no scaling run yet: no scaling part');
    const scaled = mergeResults(full, { main: null, scaling: '## Scaling\n\nS1\n' });
    assert.equal(scaled, `${BEGIN_MARK}\nmain A\n\n${SCALING_MARK}\n\n## Scaling\n\nS1\n\n${END_MARK}\n\n${COLLISION}`);
    const next = mergeResults(scaled, { main: 'main B\n', scaling: null });
    assert.ok(next.includes('main B') && !next.includes('main A'), 'the main tables replaced');
    assert.ok(next.includes('## Scaling\n\nS1'), 'the scaling table kept');
    const both = mergeResults(next, { main: 'main C', scaling: 'S2' });
    assert.equal(both, `${BEGIN_MARK}\nmain C\n\n${SCALING_MARK}\n\nS2\n\n${END_MARK}\n\n${COLLISION}`);
    assert.equal(mergeResults(both, { main: null, scaling: null }), both, 'nothing ran: the same file');
  });

  it('no old file: only the generated part between the markers', () => {
    assert.equal(mergeResults('', main('only\n\n\n')), `${BEGIN_MARK}\nonly\n\n${END_MARK}\n`);
  });
});

describe('bench entries', () => {
  it("bench/engines/tribo.mjs lists every preset of the engine's preset table, in its order", async () => {
    const { PRESETS } = await import('../../bench/engines/tribo.mjs');
    const { engine } = await import('./helpers.mjs');
    const { engineTables } = await import('../../js/fields.js');
    assert.deepEqual(PRESETS, engineTables((await engine('simd'))._M).enums.preset);
  });
  it('tribo:threads:one is the threads build on the caller alone; one and fixed need that build and exclude each other', async () => {
    const { engineId } = await import('../../bench/engines/tribo.mjs');
    assert.equal(engineId({ threads: true, one: true }), 'tribo-threads-one');
    assert.equal(engineId({ threads: true, one: true, preset: 'physx-pgs' }), 'tribo-threads-one-physx-pgs');
    assert.throws(() => engineId({ simd: true, one: true }), (e) => e instanceof RangeError && /one applies to the threads build/.test(e.message));
    assert.throws(() => engineId({ threads: true, one: true, fixed: true }), (e) => e instanceof RangeError && /exclude each other/.test(e.message));
  });
});

describe('bench speed-up cells', () => {
  it('a run that did the scene gets peer ms / Tribo ms', () => {
    assert.equal(speedRatioCell('pyramid', { ms: 0.44, stands: true }, { ms: 0.352, stands: true }), '1.25×');
    assert.equal(speedRatioCell('pile', { ms: 2.53, escaped: 0 }, { ms: 1.81, escaped: 0 }), '1.40×');
  });
  it('a Tribo entry whose pyramid fell, whose pile lost bodies or went NaN gets no ratio', () => {
    assert.equal(speedRatioCell('pyramid', { ms: 0.44, stands: true }, { ms: 0.392, stands: false }), 'n/a (fell)');
    assert.equal(speedRatioCell('pile', { ms: 2.53, escaped: 0 }, { ms: 1.0, escaped: 12 }), 'n/a (12 escaped)');
    assert.equal(speedRatioCell('pile', { ms: 2.53, escaped: 0 }, { ms: 1.0, escaped: 0, nonFinite: true }), 'n/a (NaN state)');
  });
  it('a peer that fell gives no ratio either', () => {
    assert.equal(speedRatioCell('pyramid', { ms: 8.3, stands: false }, { ms: 0.352, stands: true }), 'n/a (peer: fell)');
  });
  it('a missing result is a dash, not a number', () => {
    assert.equal(speedRatioCell('pile', undefined, { ms: 1.8, escaped: 0 }), '–');
    assert.equal(sceneFailure('readback', { stands: false }), '');
  });
});

describe('bench order of the engines in a round', () => {
  const places = (n, rounds) => {
    const list = Array.from({ length: n }, (_, i) => `e${i}`);
    const seen = new Map(list.map((e) => [e, []]));
    for (let r = 0; r < rounds; r++) {
      const order = roundOrder(list, r, rounds);
      assert.deepEqual([...order].sort(), [...list].sort(), `round ${r} runs every engine once`);
      order.forEach((e, place) => seen.get(e).push(place));
    }
    return seen;
  };

  it('three engines over three rounds: each engine first, second and third once', () => {
    for (const [e, p] of places(3, 3)) assert.deepEqual([...p].sort(), [0, 1, 2], e);
  });

  it('nineteen engines over three rounds start at the first, eighth and fifteenth (shift ⌈19 / 3⌉ = 7)', () => {
    const list = Array.from({ length: 19 }, (_, i) => i);
    assert.deepEqual([0, 1, 2].map((r) => roundOrder(list, r, 3)[0]), [0, 7, 14]);
    for (const [e, p] of places(19, 3)) assert.equal(new Set(p).size, 3, `${e} holds three different places`);
  });

  it('five rounds of nineteen: no engine holds one place in two rounds', () => {
    for (const [e, p] of places(19, 5)) assert.equal(new Set(p).size, 5, `${e}: places ${p}`);
  });

  it('one round keeps the listed order', () => {
    assert.deepEqual(roundOrder(['a', 'b', 'c'], 0, 1), ['a', 'b', 'c']);
  });
});
