// World.shapeDistance and World.shapeSupport: the signed distance of a convex pair with the routine
// that answered, and a hull's support field against the exact scan, in both builds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILDS, engine } from './helpers.mjs';

const CUBE = [];
for (const x of [-0.5, 0.5]) for (const y of [-0.5, 0.5]) for (const z of [-0.5, 0.5]) CUBE.push(x, y, z);
/** n points of the unit sphere (Fibonacci), flat. */
const spherePoints = (n) => Array.from({ length: n }, (_, i) => {
  const z = 1 - (2 * i + 1) / n, r = Math.sqrt(1 - z * z), t = 2.399963229728653 * i;
  return [r * Math.cos(t), r * Math.sin(t), z];
}).flat();

for (const build of BUILDS) {
  describe(`shape queries (${build} build)`, () => {
    it('shapeDistance: GJK apart, MPR/EPA overlapping, analytic for spheres, with closed-form values', async () => {
      const tribo = await engine(build);
      const w = tribo.createWorld({ gravity: [0, 0, 0] });
      const [hull] = w.shapesOf(w.addBody({ shapes: [{ type: 'hull', points: CUBE }] }));
      const ell = w.addBody({ position: [2, 0, 0], shapes: [{ type: 'ellipsoid', radii: [0.3, 0.3, 0.3] }] });
      const [e] = w.shapesOf(ell);
      let r = w.shapeDistance(hull, e);
      assert.equal(r.method, 'gjk');
      assert.ok(Math.abs(r.distance - 1.2) < 1e-4, `apart: ${r.distance} vs 2 − 0.5 − 0.3`);
      assert.ok(Math.abs(r.pointA[0] - 0.5) < 1e-4 && Math.abs(r.pointB[0] - 1.7) < 1e-4, `${r.pointA} ${r.pointB}`);
      assert.equal(w.shapeDistance(hull, e, { maxDistance: 1 }), null);
      w.setPose(ell, [0.6, 0.05, 0]);
      r = w.shapeDistance(hull, e);
      assert.ok(r.method === 'mpr' || r.method === 'epa', r.method);
      assert.ok(Math.abs(r.distance + 0.2) < 2e-3 && r.normal[0] > 0.99, `overlap: ${r.distance} ${r.normal}`);
      const m = w.shapeDistance(e, hull);
      assert.equal(m.method, r.method);
      assert.ok(m.normal.every((v, i) => Math.abs(v + r.normal[i]) < 1e-6), 'swapped: the normal is negated');
      const [sa] = w.shapesOf(w.addBody({ position: [0, 5, 0], shapes: [{ type: 'sphere', radius: 0.3 }] }));
      const [sb] = w.shapesOf(w.addBody({ position: [0.6, 5.8, 0], shapes: [{ type: 'sphere', radius: 0.2 }] }));
      r = w.shapeDistance(sa, sb);
      assert.equal(r.method, 'analytic');
      assert.ok(Math.abs(r.distance - 0.5) < 1e-6, `spheres: ${r.distance} vs 1 − 0.3 − 0.2`);
      const [plane] = w.shapesOf(w.addBody({ type: 'static', shapes: [{ type: 'plane' }] }));
      assert.throws(() => w.shapeDistance(plane, sa), (err) => err instanceof RangeError && /shapeDistance: shape a is a plane/.test(err.message));
      assert.throws(() => w.shapeDistance(sa, sa), /shapeDistance: a and b are the same shape/);
      w.free();
    });

    it('shapeSupport: the field lookup misses the scan by less as the resolution grows; no field is the scan', async () => {
      const tribo = await engine(build);
      const w = tribo.createWorld({ gravity: [0, 0, 0] });
      const points = spherePoints(300);
      const stats = (res) => {
        const [s] = w.shapesOf(w.addBody({ shapes: [{ type: 'hull', points, supportField: { resolution: res } }] }));
        let sum = 0, worst = 0;
        const dirs = spherePoints(400);
        for (let k = 0; k < 400; k++) {
          const d = [dirs[3 * k] + 1e-3, dirs[3 * k + 1], dirs[3 * k + 2]];
          const q = w.shapeSupport(s, d);
          const len = Math.hypot(...d);
          const e = Math.max(0, q.scanPoint.reduce((a, v, i) => a + (v - q.fieldPoint[i]) * d[i], 0) / len);
          assert.ok(Math.abs(e - q.error) < 1e-5, `error is the reach difference: ${e} vs ${q.error}`);
          sum += q.error; worst = Math.max(worst, q.error);
        }
        return { mean: sum / 400, worst };
      };
      const coarse = stats(8), fine = stats(128), none = stats(0);
      assert.ok(coarse.mean > 0 && coarse.worst <= 2 * (2 * Math.PI / 8), `res 8: ${JSON.stringify(coarse)}`);
      assert.ok(fine.mean < 0.25 * coarse.mean, `res 128 ${fine.mean} vs res 8 ${coarse.mean}`);
      assert.equal(none.worst, 0);
      const [box] = w.shapesOf(w.addBody({ shapes: [{ type: 'box', halfExtents: [1, 1, 1] }] }));
      assert.throws(() => w.shapeSupport(box, [1, 0, 0]), (err) => err instanceof RangeError && /not a hull/.test(err.message));
      w.free();
    });
  });
}
