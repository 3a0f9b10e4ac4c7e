// The course pages under test and each one's physical check of its headline numbers.
import assert from 'node:assert/strict';
import { closedForm as inclineA } from '../../web/pages/incline.js';
import { default as bounceSpec } from '../../web/pages/bounce.js';
import { runLane, G } from '../../web/course_model.js';
import { init } from '../../js/index.js';

const tribo = await init({ build: 'simd' });
/** The XPBD preset's substeps per step (its default), read from the JS API. */
const XPBD_SUBSTEPS = (() => { const w = tribo.createWorld({ preset: 'newton-xpbd' }); const n = w.options.xpbdSubsteps; w.free(); return n; })();

export const PAGES = [
  {
    id: 'incline', steps: 72,
    moves: { theta: 10 },
    /* PhysX and XPBD on a sliding box (θ 30°, μ 0.3): a = g(sin θ − μ cos θ) within 1 % */
    physics(head, p, label) {
      const a = inclineA(p.theta, p.mu);
      for (const preset of ['physx-pgs', 'physx-tgs', 'newton-xpbd']) {
        assert.ok(Math.abs(head[preset] - a) <= 0.01 * a, `${label}/${preset}: a ${head[preset]} vs g(sinθ−μcosθ) ${a}`);
      }
    },
  },
];

PAGES.push({
  id: 'bounce', steps: 45,
  moves: { threshold: 0 },
  /* e = 0.6 above the 2 m/s threshold: PhysX measures e ±1 % at 4 m/s. XPBD's restitution pass acts
   * in the substep of the impact: the same drops at one substep of h/n, read at every substep,
   * measure e ±1 %; the page's step-end reading is then the closed form of a bounce in substep k of
   * its step, (e(v₀ + k·g·h_s) − (n − k)·g·h_s) / (v₀ + g·h) (v₀ the speed at the step's start),
   * ±1 % (float32 free fall over 250 substeps) */
  physics(head, p, label) {
    for (const preset of ['physx-pgs', 'physx-tgs']) {
      assert.ok(Math.abs(head[preset] - p.e) <= 0.01 * p.e, `${label}/${preset}: e measured ${head[preset]} vs ${p.e}`);
    }
    const h = 1 / 60, n = XPBD_SUBSTEPS, hs = h / n, ghs = G * hs;
    const fine = runLane(tribo, bounceSpec, { name: 'newton-xpbd', preset: 'newton-xpbd', options: { timestep: hs, xpbdSubsteps: 1 } }, p, 45 * n);
    const eFine = fine.headline(), impact = fine.scene.balls.at(-1).impact;
    fine.free();
    assert.ok(Math.abs(eFine - p.e) <= 0.01 * p.e, `${label}/newton-xpbd at one substep of h/${n}: e measured ${eFine} vs ${p.e}`);
    /* from rest, the speed after j substeps is j·g·h_s: the bounce is in substep J = impact/(g·h_s) */
    const J = Math.round(impact / ghs), k = J - n * (Math.ceil(J / n) - 1), v0 = (J - k) * ghs;
    const want = (eFine * (v0 + k * ghs) - (n - k) * ghs) / (v0 + G * h);
    assert.ok(Math.abs(head['newton-xpbd'] - want) <= 0.01 * want, `${label}/newton-xpbd: step-end e ${head['newton-xpbd']} vs ${want} (bounce in substep ${k} of ${n})`);
  },
});

PAGES.push({
  id: 'margins', steps: 36, abs: 1e-3,
  /* the PhysX rule rests the sphere at its rest offset: gap = margin ±0.1 mm */
  physics(head, p, label) {
    assert.ok(Math.abs(head['physx-tgs'] - p.margin) <= 0.1, `${label}/physx-tgs: rests at ${head['physx-tgs']} mm, margin ${p.margin} mm`);
  },
});

import { combined, combinedOthers, slideDistance } from '../../web/pages/combine.js';
PAGES.push({
  id: 'combine', steps: 120,
  moves: { modeA: 'min' },
  /* each rule's μ gives the distance of the discrete slide, h·Σ(v₀ − kμgh) over the solver's steps h until it
   * stops (≈ v₀²/(2μg) − v₀h/2): PhysX ±1.5 %; the XPBD lanes ±5 % (their friction is bounded by the
   * normal correction, which is still small in the first steps) */
  physics(head, p, label) {
    const rules = { 'physx-tgs': 'physx', 'newton-xpbd (mean)': 'mean', 'vbd rule (√)': 'vbd', 'mujoco rule (max)': 'mujoco' };
    for (const [lane, rule] of Object.entries(rules)) {
      /* the slide is discrete in the solver's own step: PhysX's 1/60 s, XPBD's substep 1/60 s / n */
      const h = rule === 'physx' ? 1 / 60 : 1 / 60 / XPBD_SUBSTEPS;
      const a = combined(rule, p.muA, p.muB, p.modeA, p.modeB) * 9.81 * h, n = Math.floor(2 / a);
      const want = h * (n * 2 - (a * n * (n + 1)) / 2), tol = rule === 'physx' ? 0.015 : 0.05;
      assert.ok(Math.abs(head[lane] - want) <= tol * want, `${label}/${lane}: slid ${head[lane]} m vs ${want} m (closed form ${slideDistance(a / 9.81 / h)})`);
    }
  },
  /* the other combined parameters the contacts carry equal each rule's formula (the table's cells) */
  async check(page) {
    const rows = await page.locator('#others tr').allTextContents();
    const cells = Object.fromEntries(rows.slice(1).map((r) => [r.split(/\d|\(|—/)[0].trim(), r]));
    const find = (lane) => rows.find((r) => r.startsWith(lane));
    assert.match(find('physx-tgs'), /^physx-tgs0\.300 \(rule 0\.300\)/, 'PhysX restitution: average of 0.1 and 0.5');
    assert.match(find('newton-xpbd (mean)'), /0\.300 \(rule 0\.300\)30\.000 \(rule 30\.000\)/, 'Newton: e and kd means');
    assert.match(find('kamino rule'), /0\.100 \(rule 0\.100\)/, 'Kamino: e min');
    /* solmix 3 against 1: w = 0.75, timeconst 0.75·0.05 + 0.25·0.02 = 0.0425 s */
    assert.match(find('mujoco rule'), /\(0\.043, 1\.000\) \(rule \(0\.043, 1\.000\)\)/, `MuJoCo solref mixed by solmix: ${find('mujoco rule')}`);
    await page.evaluate(() => { window.course.set('priorityA', 1); window.course.step(10); });
    assert.match((await page.locator('#others tr').allTextContents()).find((r) => r.startsWith('mujoco rule')), /\(0\.050, 1\.000\) \(rule \(0\.050, 1\.000\)\)/, 'a higher priority gives its whole solref');
    await page.evaluate(() => window.course.set('priorityA', 0));
    void cells; void combinedOthers;
  },
});

PAGES.push({
  id: 'iterations', steps: 90, moves: { hz: 120 },
  /* 8 boxes, 4 iterations at 60 Hz: the PhysX solvers' ground force carries the stack's weight ±1 % */
  physics(head, p, label) {
    for (const preset of ['physx-pgs', 'physx-tgs']) assert.ok(Math.abs(head[preset] - 1) <= 0.01, `${label}/${preset}: ground force / weight ${head[preset]}`);
  },
});

PAGES.push({
  id: 'penalty', steps: 90, moves: { mass: 2, kf: 10 },
  /* the explicit friction limit is shown, not hidden: kf 1000 N·s/m at 4 substeps is refused by name
   * (h_s·kf/m = 4.17 > 2) in the sliding lane, which says so; 32 substeps run it */
  async check(page) {
    const row = async () => (await page.locator('#headline tr').allTextContents()).find((r) => r.startsWith('newton-semi, sliding'));
    await page.evaluate(() => { window.course.set('kf', 1000); window.course.step(10); });
    assert.match(await row(), /penalty friction unstable for body \d+: .*= 4\.17 > 2.*the step was not taken/, await row());
    await page.evaluate(() => { window.course.set('substeps', 32); window.course.step(10); });
    assert.doesNotMatch(await row(), /unstable/, 'at 32 substeps the same kf runs');
    assert.match(await row(), /Huber law/);
    await page.evaluate(() => { window.course.set('substeps', 4); window.course.set('kf', 100); window.course.step(20); });
    /* sliding at about 2 m/s: the step's average friction force is the Huber law's, bounded regime (±3 %) */
    const m = /slip ([\d.]+) m\/s: friction ([\d.]+) N; Huber law ([\d.]+) N, bounded/.exec(await row());
    assert.ok(m && Number(m[1]) > 1 && Math.abs(Number(m[2]) - Number(m[3])) <= 0.03 * Number(m[3]), `friction against the Huber law: ${await row()}`);
  },
  /* the penalty spring carries the weight at δ = m·g/ke ±1 % */
  physics(head, p, label) {
    const want = ((p.mass * 9.81) / p.ke) * 1000;
    assert.ok(Math.abs(head['newton-semi'] - want) <= 0.01 * want, `${label}: penetration ${head['newton-semi']} mm vs m·g/ke ${want} mm`);
  },
});

PAGES.push({
  id: 'relaxation', steps: 120,
  /* three boxes: without weighting (and in PhysX) the ground contacts carry 3·m·g ±1 %; with
   * weighting the readback splits the bottom box's load, reading clearly less (≤ 0.9) */
  physics(head, p, label) {
    for (const lane of ['xpbd, not weighted', 'physx-tgs']) assert.ok(Math.abs(head[lane] - 1) <= 0.01, `${label}/${lane}: ${head[lane]}`);
    assert.ok(head['xpbd, weighted'] < 0.9, `${label}/weighted: ${head['xpbd, weighted']}`);
  },
});

PAGES.push({
  id: 'pipeline', steps: 90, moves: { capacity: 8 },
  /* the pile has pairs, far fewer than all n(n−1)/2 + n; a store of 8 overflows and the page says so */
  physics(head, p, label) {
    const all = (p.count * (p.count - 1)) / 2 + p.count;
    for (const preset of ['physx-tgs', 'newton-xpbd']) assert.ok(head[preset] >= 5 && head[preset] < 0.25 * all, `${label}/${preset}: ${head[preset]} pairs of ${all}`);
  },
  async check(page) {
    await page.evaluate(() => { window.course.set('capacity', 8); window.course.step(90); });
    const text = await page.locator('#headline').textContent();
    assert.match(text, /GREW/, 'a store of 8 contacts grows on the pile (stores grow, never drop), and the page says so');
    await page.evaluate(() => window.course.set('capacity', 256));
  },
});

PAGES.push({
  id: 'observation', steps: 60, moves: { hz: 120 },
  /* the top box's average net contact force is its weight in PhysX (±1 %, whatever h); XPBD's
   * count-weighted readback gives 2·N_A/(N_A + N_B) = 2·4/12 of it (±2 %) */
  physics(head, p, label) {
    for (const preset of ['physx-tgs', 'physx-pgs']) assert.ok(Math.abs(head[preset] - 1) <= 0.01, `${label}/${preset}: ${head[preset]}`);
    assert.ok(Math.abs(head['newton-xpbd'] - 2 / 3) <= 0.02 * (2 / 3), `${label}/newton-xpbd: ${head['newton-xpbd']}`);
  },
  async check(page) {
    /* the reaction about the bottom box's centre is −(m g)·offset about z, not the sign-flipped (≈ 0) torque */
    const text = await page.locator('#headline').textContent();
    assert.match(text, /torque \(-?0\.00, -?0\.00, -1\.96\) N·m, a sign flip would say \(-?0\.00, -?0\.00, -?0\.00\)/, text);
    /* dropped from 0.2 m: the four corners' begin events come after the fall (solve step > 10 at 60 Hz),
     * and the contact sensor carries the weight m·g = 19.62 N (PhysX, ±1 %) once it rests */
    const head = await page.evaluate(() => { window.course.set('drop', 0.2); window.course.set('plotted', 'sensor'); return window.course.step(60); });
    for (const lane of ['physx-tgs', 'physx-pgs']) assert.ok(Math.abs(head[lane] - 19.62) <= 0.01 * 19.62, `sensor ${lane}: ${head[lane]} N`);
    const row = (await page.locator('#events tr').allTextContents()).find((r) => r.startsWith('physx-tgs'));
    const begins = [...row.matchAll(/begin @(\d+)/g)].map((m) => Number(m[1]));
    assert.ok(begins.length === 4 && begins.every((k) => k > 10), `touch-down events after the fall: ${row}`);
    await page.evaluate(() => { window.course.set('drop', 0); window.course.set('plotted', 'net'); });
  },
});

PAGES.push({
  id: 'manifolds', steps: 90, moves: { maxPoints: 2 },
  /* a resting face keeps exactly maxPointsPerPair (4) points in every lane; the octagonal hull says reduced */
  physics(head, p, label) {
    for (const [lane, n] of Object.entries(head)) assert.equal(n, p.maxPoints, `${label}/${lane}: ${n} points`);
  },
  async check(page) {
    const rows = await page.locator('#headline tr').allTextContents();
    assert.ok(rows.some((r) => /hull on plane.*reduced: points/.test(r)), `the hull's reduction is stated: ${rows}`);
    assert.ok(rows.some((r) => /box on plane.*not reduced/.test(r)), `the box on a plane is not reduced: ${rows}`);
  },
});

import { sphereDistance } from '../../web/pages/distance.js';
/** Distance (m) in the x–y plane from the pentagon (radius 0.3, a vertex up) to the ellipse of radii
 * 0.35, 0.18 centred at (x, y) turned by `angle`°, by sampling the ellipse: an independent answer for
 * the hull–ellipsoid pair while they are apart (both are symmetric about z = 0). */
function pentagonEllipse(x, y, angle) {
  const P = Array.from({ length: 5 }, (_, k) => [0.3 * Math.cos((2 * Math.PI * k) / 5 + Math.PI / 2), 0.3 * Math.sin((2 * Math.PI * k) / 5 + Math.PI / 2)]);
  const seg = (q, a, b) => {
    const t = Math.max(0, Math.min(1, ((q[0] - a[0]) * (b[0] - a[0]) + (q[1] - a[1]) * (b[1] - a[1])) / ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2)));
    return Math.hypot(q[0] - a[0] - t * (b[0] - a[0]), q[1] - a[1] - t * (b[1] - a[1]));
  };
  const th = (angle * Math.PI) / 180;
  let d = Infinity;
  for (let k = 0; k < 7200; k++) {
    const a = (2 * Math.PI * k) / 7200, ex = 0.35 * Math.cos(a), ey = 0.18 * Math.sin(a);
    const q = [x + ex * Math.cos(th) - ey * Math.sin(th), y + ex * Math.sin(th) + ey * Math.cos(th)];
    for (let i = 0; i < 5; i++) d = Math.min(d, seg(q, P[i], P[(i + 1) % 5]));
  }
  return d;
}
PAGES.push({
  id: 'distance', steps: 2, abs: 1e-6,
  moves: { res: 8 },
  /* apart: the sphere pair meets its closed form to 1e-5 m; the hull–ellipsoid pair (GJK) the sampled
   * distance to 1 mm */
  physics(head, p, label) {
    assert.ok(Math.abs(head['sphere – sphere (analytic)'] - sphereDistance(p)) <= 1e-5, `${label}: spheres ${head['sphere – sphere (analytic)']} vs ${sphereDistance(p)}`);
    const want = pentagonEllipse(p.x, p.y, p.angle);
    assert.ok(Math.abs(head['hull – ellipsoid (GJK / MPR / EPA)'] - want) <= 1e-3, `${label}: hull–ellipsoid ${head['hull – ellipsoid (GJK / MPR / EPA)']} vs sampled ${want}`);
    /* a coarse field misses the exact support a little (> 0), by at most 2·R·(cell angle) */
    const e = head['support field: mean lookup error (mm)'];
    assert.ok(e > 0 && e <= 2 * 400 * ((2 * Math.PI) / p.res), `${label}: mean lookup error ${e} mm at res ${p.res}`);
  },
  async check(page) {
    const rowOf = async (lane) => (await page.locator('#headline tr').allTextContents()).find((r) => r.includes(lane));
    const hull = 'hull – ellipsoid (GJK / MPR / EPA)';
    assert.match(await rowOf(hull), /answered by GJK/, 'apart: GJK answered');
    assert.match(await rowOf('sphere – sphere'), /answered by ANALYTIC/, 'spheres: the exact routine answered');
    /* drag B onto A on the hull lane's canvas: the pair overlaps and MPR or EPA answers */
    const box = await page.locator('.lane canvas').first().boundingBox();
    const at = (x, y) => [box.x + box.width * (0.5 + (x - 0.2) / 2.6), box.y + box.height * 0.5 - (y * box.width) / 2.6];
    await page.mouse.move(...at(0.7, 0.15));
    await page.mouse.down();
    await page.mouse.move(...at(0.45, 0.05), { steps: 4 });
    await page.mouse.up();
    const p = await page.evaluate(() => window.course.params);
    assert.ok(Math.abs(p.x - 0.45) < 0.03 && Math.abs(p.y - 0.05) < 0.03, `dragged B to (${p.x}, ${p.y})`);
    assert.match(await rowOf(hull), /answered by (MPR|EPA).*overlapping/, await rowOf(hull));
    await page.evaluate(() => { window.course.set('x', 0.7); window.course.set('y', 0.15); });
  },
});

PAGES.push({
  id: 'filtering', steps: 90,
  moves: { groupA: 0, contypeA: 0, conaffinityA: 0, parentA: 1, maskA: 2, triggerA: 1 },
  /* defaults: A rests on the table (top 0.2 m + r 0.12 m) in every lane (XPBD sinks up to 2 cm under B) */
  physics(head, p, label) {
    for (const [lane, y] of Object.entries(head)) assert.ok(y > 0.3 && y < 0.321, `${label}/${lane}: A at ${y} m`);
  },
  /* each field matters to its own rules only: A falls through (ends below 0) exactly in those lanes;
   * contype 0 alone is not enough under MuJoCo and Genesis (A's conaffinity still matches) */
  async check(page) {
    const falls = { groupA: [0, ['newton']], contypeA: [0, []], maskA: [2, ['physx']], triggerA: [1, ['physx']] };
    for (const [key, [v, lanes]] of Object.entries(falls)) {
      const head = await page.evaluate(([k, x]) => { window.course.set(k, x); return window.course.step(90); }, [key, v]);
      const fell = Object.keys(head).filter((l) => head[l] < 0).sort();
      assert.deepEqual(fell, lanes, `${key} = ${v}: A falls through in ${fell}`);
      await page.evaluate(([k, d]) => window.course.set(k, d), [key, { groupA: 1, contypeA: 1, maskA: 0xffffffff, triggerA: 0 }[key]]);
    }
    /* the truth table is editable and drives the scene: B's collisionGroup 0 in the table's cell
     * filters B–A under Newton only, and the lanes see it */
    await page.selectOption('#table-groupB', '0');
    assert.equal(await page.evaluate(() => window.course.params.groupB), 0, 'the table cell set the param');
    await page.evaluate(() => window.course.step(90));
    const cell = (rule, pair) => page.locator(`[id="truth-${rule}-${pair}"]`).textContent();
    assert.equal(await cell('newton', 'B-A'), '✗ filtered · saw ✗');
    assert.equal(await cell('mujoco', 'B-A'), '✓ may collide · saw ✓');
    assert.equal(await cell('physx', 'B-A'), '✓ may collide · saw ✓');
    await page.selectOption('#table-groupB', '1');
  },
});

import { softODE, restingDepth } from '../../web/pages/soft.js';
PAGES.push({
  id: 'soft', steps: 300, abs: 1e-4,
  moves: { quantity: 'force', condim: 1 },
  /* the sphere's single row follows the soft-constraint equation: its penetration after 0.6 s equals
   * the equation's (±1 %) and the resting depth g(1 − I)/(I²K) = −r (±1 %) */
  physics(head, p, label) {
    const lane = 'sphere, condim 1', want = softODE(p)[p.quantity][300];
    assert.ok(Math.abs(head[lane] - want) <= 0.01 * Math.abs(want), `${label}: sphere ${head[lane]} vs equation ${want}`);
    if (p.quantity === 'depth') assert.ok(Math.abs(head[lane] - restingDepth(p)) <= 0.01 * restingDepth(p), `${label}: resting depth`);
  },
  async check(page) {
    /* condim 1 removes friction: the box slides at g sin θ in both cones, and the page says so */
    await page.evaluate(() => { window.course.set('condim', 1); window.course.step(300); });
    const rows = await page.locator('#headline tr').allTextContents();
    for (const cone of ['pyramidal', 'elliptic']) {
      const row = rows.find((r) => r.includes(`slope, ${cone}`));
      const a = Number(/slides, a = ([\d.]+)/.exec(row)?.[1]);
      const want = 9.81 * Math.sin((28 * Math.PI) / 180);
      assert.ok(Math.abs(a - want) <= 0.02 * want, `${cone}, condim 1: a ${a} vs g sin θ ${want} (${row})`);
    }
    await page.evaluate(() => window.course.set('condim', 3));
  },
});

PAGES.push({
  id: 'sleeping', steps: 300, moves: { dropOn: 2 },
  /* every stack settles and sleeps before the drop (at 2.5 s, step 151) */
  physics(head, p, label) {
    for (const lane of ['genesis', 'physx-tgs']) assert.ok(head[lane] > 10, `${label}/${lane}: last island asleep at step ${head[lane]}`);
  },
  async check(page) {
    const rows = await page.locator('#headline tr').allTextContents();
    for (const lane of ['genesis', 'physx-tgs']) {
      /* at the step the last island fell asleep, the engine's counters of its bodies are where the
       * rule lets them sleep (World.sleepState): Genesis 10 quiet steps under 2e-3 m/s, PhysX a wake
       * counter run down to 0 s, with a cluster factor of at least 2 (each box has a pair below it) */
      const row = rows.find((r) => r.startsWith(lane));
      const m = lane === 'genesis'
        ? /^genesis(\d+)counters then: (\d+) quiet steps/.exec(row)
        : /^physx-tgs(\d+)counters then: wake counter ([\d.]+) s \(cluster factor (\d+)/.exec(row);
      assert.ok(m, `${lane}: counters shown at the sleep step: ${row}`);
      if (lane === 'genesis') assert.ok(Number(m[2]) >= 10, `${lane}: ${m[2]} quiet steps at sleep (sleepSteps 10)`);
      else assert.ok(Number(m[2]) === 0 && Number(m[3]) >= 2, `${lane}: wake counter ${m[2]} s, cluster factor ${m[3]} at sleep`);
      /* the sphere dropped on stack 1 at step 151 wakes that island alone, when it lands (a fall of
       * 0.5 m: about 19 steps), and the other stacks sleep on, their kept ground force their weight */
      const cells = async (k) => (await page.locator(`[id="isl-${lane}-${k}"] td`).allTextContents());
      const [, , , slept1, woke1] = await cells(1);
      assert.ok(Number(slept1.split(' ')[0]) < 151, `${lane}: stack 1 asleep before the drop (${slept1})`);
      const woke = Number(woke1.split(' ')[0]);
      assert.ok(woke > 151 && woke < 151 + 30, `${lane}: stack 1 woke when the sphere landed (step ${woke1})`);
      for (const k of [2, 3]) {
        const [, , asleep, slept, wake, force] = await cells(k);
        assert.deepEqual([asleep, wake], ['yes', '—'], `${lane}: stack ${k} sleeps on`);
        assert.ok(Number(slept) < 151, `${lane}: stack ${k} fell asleep at ${slept}`);
        assert.ok(Math.abs(Number(force) - 3 * 9.81) <= 0.01 * 3 * 9.81, `${lane}: stack ${k}'s kept ground force ${force} N, its weight`);
      }
    }
  },
});
