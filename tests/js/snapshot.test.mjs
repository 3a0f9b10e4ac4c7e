// Snapshots: continuing after restore() or createWorldFromSnapshot() is bitwise continuing the
// saved world, in every preset, both builds, 1 and 3 threads and a worker world; malformed or
// foreign bytes throw a SnapshotError naming the reason and leave the world as it was.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engine, axisAngle, BUILDS, twinId, CONTACT_ID_FIELDS } from './helpers.mjs';
import { SnapshotError } from '../../js/index.js';
import { engineTables } from '../../js/fields.js';

/* every preset the engine has (tb_preset's names), so a new preset is covered when it lands */
const PRESETS = engineTables((await engine('simd'))._M).enums.preset;

/** A pile, a hull (support field: 80 vertices), a sloped mesh, a heightfield and a sensor. */
function build(tribo, preset, threads) {
  const world = tribo.createWorld({ preset, threads });
  const ground = world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
  const kinds = [{ type: 'sphere', radius: 0.3 }, { type: 'box', halfExtents: [0.3, 0.25, 0.2] }, { type: 'capsule', radius: 0.2, halfHeight: 0.25 }];
  for (let i = 0; i < 40; i++) {
    world.addBody({ position: [(i % 4) * 0.8 - 1.2, 0.5 + Math.floor(i / 16) * 0.8, (Math.floor(i / 4) % 4) * 0.8 - 1.2],
      rotation: axisAngle([0.6, 0.64, 0.48], 0.3 * i), shapes: [{ ...kinds[i % 3], friction: 0.6, density: 500 }] });
  }
  const pts = [];
  for (let i = 0; i < 80; i++) {
    const z = 1 - (2 * (i + 0.5)) / 80, r = Math.sqrt(1 - z * z), a = 2.39996323 * i;
    pts.push(0.3 * r * Math.cos(a), 0.3 * z, 0.3 * r * Math.sin(a));
  }
  const hull = world.addBody({ position: [0.3, 4, 0.2], shapes: [{ type: 'hull', points: pts, density: 400 }] });
  world.addBody({ type: 'static', shapes: [
    { type: 'mesh', vertices: [-3, 0.01, -1, -1, 0.6, -1, -1, 0.6, 1, -3, 0.01, 1], indices: [0, 2, 1, 0, 3, 2] },
    { type: 'heightfield', rows: 4, cols: 4, cellSize: [0.5, 0.5], heights: Array.from({ length: 16 }, (_, i) => 0.04 * (i % 3)) },
  ] });
  /* ground, 40 pile bodies, then the hull body (the world's ids: twinId from the ground) */
  assert.equal(twinId(world, ground, hull), 41);
  world.hull = hull;
  world.sensor = world.addContactSensor(hull, { capacity: 8 });
  world.ground = ground;
  return world;
}

function fnv(h, bytes) {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  return h;
}

/**
 * Hash of n steps: every body and contact view after each step; ids relative to `first` (twinId,
 * default: the world's ground), so worlds built the same way hash the same.
 */
function run(world, n, first = world.ground) {
  let h = 0x811c9dc5;
  for (let s = 0; s < n; s++) {
    world.step();
    for (const views of [world.bodies, world.contacts]) {
      for (const [k, v] of Object.entries(views)) {
        if (views === world.contacts && CONTACT_ID_FIELDS.has(k)) h = fnv(h, new Uint8Array(Int32Array.from(v, (id) => twinId(world, first, id)).buffer));
        else if (ArrayBuffer.isView(v)) h = fnv(h, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      }
      h = fnv(h, new Uint8Array(new Float64Array([views.count ?? views.slotCount]).buffer));
    }
  }
  return h;
}

for (const buildName of BUILDS) {
  describe(`snapshot (${buildName} build)`, () => {
    for (const preset of PRESETS) {
      it(`${preset}: restore and createWorldFromSnapshot continue bitwise`, async () => {
        const tribo = await engine(buildName);
        const threads = buildName === 'threads' ? [1, 3] : [1];
        for (const t of threads) {
          const a = build(tribo, preset, t);
          run(a, 30);
          const bytes = a.snapshot();
          assert.ok(bytes instanceof Uint8Array && bytes.length > 1000);
          const history = a.contactSensorHistory(a.sensor);
          const expected = run(a, 30);
          const other = threads[threads.length - 1 - threads.indexOf(t)];
          const twin = build(tribo, preset, other);
          twin.restore(bytes);
          assert.equal(run(twin, 30, a.ground), expected, `twin with ${other} threads restored from a ${t}-thread world`);
          const made = tribo.createWorldFromSnapshot(bytes, { threads: other });
          assert.equal(made.preset, preset);
          /* a world made from the bytes hands out the saved world's ids */
          assert.deepEqual(made.shapeIds(a.hull), a.shapeIds(a.hull), 'shape ids of the hull body');
          assert.deepEqual(made.hullInfo(a.hull), a.hullInfo(a.hull), 'hull as built, support field included');
          assert.deepEqual(made.contactSensorHistory(a.sensor), history, 'sensor history as saved');
          assert.equal(run(made, 30, a.ground), expected, 'a world created from the bytes');
          a.restore(bytes);
          assert.equal(run(a, 30), expected, 'the same world rewound');
          for (const w of [a, twin, made]) w.free();
        }
      });
    }

    it('refuses malformed and foreign bytes by name; the world is unchanged', async () => {
      const tribo = await engine(buildName);
      const src = build(tribo, 'physx-tgs', 1);
      run(src, 5);
      const bytes = src.snapshot();
      const target = build(tribo, 'newton-xpbd', 1);
      run(target, 3);
      const before = target.snapshot();
      const flip = (at, x) => { const b = bytes.slice(); b[at] ^= x; return b; };
      const cases = [
        ['truncated', bytes.slice(0, bytes.length - 1)],
        ['truncated', bytes.slice(0, 20)],
        ['trailing-bytes', Uint8Array.from([...bytes, 0])],
        ['bad-magic', flip(0, 0x20)],
        ['bad-version', flip(8, 2)],
        ['foreign', flip(20, 1)],
        ['bad-checksum', flip(200, 0x10)],
        ['bad-checksum', flip(bytes.length - 1, 0x80)], // the World state trailer's checksum
      ];
      for (const [reason, bad] of cases) {
        for (const attempt of [() => target.restore(bad), () => tribo.createWorldFromSnapshot(bad)]) {
          assert.throws(attempt, (e) => e instanceof SnapshotError && e.reason === reason && e.message.includes(reason),
            `${reason} is refused by name`);
        }
        assert.deepEqual(target.snapshot(), before, `${reason}: the world is unchanged`);
      }
      assert.throws(() => target.restore([1, 2, 3]), (e) => e instanceof TypeError && /restore: bytes must be a Uint8Array/.test(e.message));
      const twin = build(tribo, 'newton-xpbd', 1);
      run(twin, 3);
      assert.equal(run(target, 10), run(twin, 10), 'a world that refused every snapshot steps like its twin');
      for (const w of [src, target, twin]) w.free();
    });

    it('a worker world saves and restores like an in-process one', async () => {
      const tribo = await engine(buildName);
      const local = build(tribo, 'physx-pgs', 1);
      run(local, 20);
      const bytes = local.snapshot();
      const expected = run(local, 20);
      const sim = await tribo.createWorkerWorldFromSnapshot(bytes);
      await sim.step(20);
      const fromWorker = await sim.snapshot();
      const check = tribo.createWorldFromSnapshot(fromWorker);
      local.restore(bytes);
      run(local, 20);
      assert.deepEqual(Array.from(check.bodies.transform), Array.from(local.bodies.transform), 'the worker stepped the same 20 steps');
      await sim.restore(bytes);
      const again = tribo.createWorldFromSnapshot(await sim.snapshot());
      assert.equal(run(again, 20, local.ground), expected, 'restored in the worker, continued in process');
      await assert.rejects(sim.restore(bytes.slice(0, 100)), (e) => e instanceof SnapshotError && e.reason === 'truncated');
      await sim.free();
      for (const w of [local, check, again]) w.free();
    });
  });
}
