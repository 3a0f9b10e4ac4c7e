// The getters that return a public struct of the engine give each member as js/generated.d.ts's
// `...Struct` types say (js/fields.js readValues): a 0/1 flag as a boolean, a -1/0/1 flag as null
// or a boolean, an enum as one of its names, a "| null" member as null or a number (never NaN or a
// -1 count), several components as an array of that length.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engineTables, memberEnum, optionalMember } from '../../js/fields.js';
import { BUILDS, engine } from './helpers.mjs';

const CUBE = [];
for (const x of [-0.5, 0.5]) for (const y of [-0.5, 0.5]) for (const z of [-0.5, 0.5]) CUBE.push(x, y, z);

function kindProblems(enums, layout, value, what) {
  const out = [];
  for (const f of Object.values(layout.fields)) {
    const v = value[f.name];
    let ok;
    if (f.unit === '0/1') ok = typeof v === 'boolean';
    else if (f.unit === '-1/0/1') ok = v === null || typeof v === 'boolean';
    else if (f.unit === 'enum') ok = enums[memberEnum(enums, f)].includes(v);
    else if (optionalMember(f)) ok = v === null || (typeof v === 'number' && !Number.isNaN(v) && !(f.type !== 'f32' && v < 0));
    else if (f.components > 1) ok = Array.isArray(v) && v.length === f.components && v.every((x) => typeof x === 'number');
    else ok = typeof v === 'number';
    if (!ok) out.push(`${what}.${f.name} (unit ${f.unit}, ${f.components} components): ${JSON.stringify(v)}`);
  }
  return out;
}

for (const build of BUILDS) {
  describe(`struct values (${build} build)`, () => {
    it('every enum member of every layout names an engine enum', async () => {
      const tribo = await engine(build);
      const w = tribo.createWorld();
      const { enums, layouts } = engineTables(w._M);
      // the world definition's table is read by path (js/options.js), not as a returned struct
      const members = Object.entries(layouts).filter(([set]) => set !== 'worldDef')
        .flatMap(([, l]) => Object.values(l.fields)).filter((f) => f.unit === 'enum');
      assert.ok(members.length >= 8, `${members.length} enum members`);
      for (const f of members) assert.ok(memberEnum(enums, f), `${f.cName}: ${f.doc}`);
      w.free();
    });

    it('ray hit, distance, support, hull, step and solver status, contacts and events follow the units', async () => {
      const tribo = await engine(build);
      const w = tribo.createWorld({ preset: 'physx-tgs' });
      const { enums, layouts } = engineTables(w._M);
      w.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }] });
      const cube = w.addBody({ position: [0, 0.5, 0], shapes: [{ type: 'hull', points: CUBE }] });
      const ball = w.addBody({ position: [3, 0.3, 0], shapes: [{ type: 'sphere', radius: 0.3 }] });
      w.setEventCapacity(64);
      for (let i = 0; i < 10; i++) w.step();
      const [hull] = w.shapesOf(cube), [sphere] = w.shapesOf(ball);
      const hit = w.rayCast([3, 5, 0], [0, -1, 0]);
      // the ball rests on the plane: its top at 0.6 m, 4.4 m below the origin
      assert.ok(Math.abs(hit.distance - 4.4) < 2e-3 && hit.normal[1] > 0.999, JSON.stringify(hit));
      const d = w.shapeDistance(hull, sphere);
      assert.ok(Math.abs(d.distance - 2.2) < 2e-3, `cube face at 0.5 m, ball surface at 2.7 m: ${d.distance}`);
      const status = w.solverStatus;
      assert.equal(status.converged, null, 'TGS has no tolerance');
      assert.equal(status.convergenceDefined, false);
      assert.equal(status.solver, 'tgs');
      const ev = w.events;
      // resting since the first step: the cube's 4 corner points and the ball's one persist
      assert.ok(ev.count === 5 && ev.list.every((e) => e.type === 'persist'), JSON.stringify(ev).slice(0, 300));
      const cases = [
        ['rayHit', hit], ['pairDistance', d], ['supportQuery', w.shapeSupport(hull, [0, 1, 0])],
        ['hullInfo', w.hullInfo(cube, 0)], ['stepStats', w.stepStats], ['solverStatus', status],
        ['contactStatus', w.contacts], ['eventStatus', ev], ['contactEvent', ev.list[0]],
        ['shapeFilter', w.getShapeFilter(sphere)], ['sleepState', w.sleepState(cube)],
      ];
      const problems = cases.flatMap(([set, v]) => kindProblems(enums, layouts[set], v, set));
      assert.deepEqual(problems, []);
      w.free();
    });
  });
}
