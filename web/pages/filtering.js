/**
 * Course page 4, filtering rules: the same scene — ball A dropped on a table, ball B on A — under
 * the Newton, MuJoCo, PhysX and Genesis filter rules, with A's filter fields chosen in the panel;
 * each lane's truth table of which pairs collide, and where A ends.
 * @module tribo/web/pages/filtering
 */
import { sphereDensity, boxDensity } from '../course_model.js';

const R = 0.12; /* m */
const TABLE = [0.5, 0.1, 0.5]; /* m half extents */
const TOP = 2 * TABLE[1]; /* m, the table's top */
const ALL = 0xffffffff;

/** The shape filter fields of ball A under the panel's choices (every rule's fields; each rule reads its own). */
const filterA = (p) => ({ collisionGroup: p.groupA, contype: p.contypeA, conaffinity: p.conaffinityA, filterData: [1, p.maskA, ALL, 0], trigger: p.triggerA === 1 });
/** Ball B's filter fields under the table's choices. */
const filterB = (p) => ({ collisionGroup: p.groupB, contype: p.contypeB, conaffinity: p.conaffinityB, filterData: [1, p.maskB, ALL, 0] });
const OTHER = { collisionGroup: 1, contype: 1, conaffinity: 1, filterData: [1, ALL, ALL, 0] };
const PAIRS = [['A', 'table'], ['B', 'A'], ['B', 'table'], ['A', 'ground']];

/** The fields each rule reads, of a scene shape by name. */
function fieldsOf(name, p) {
  if (name === 'A') return { ...filterA(p), parent: p.parentA === 1 ? 'table' : null };
  if (name === 'B') return { ...filterB(p), trigger: false, parent: null };
  return { ...OTHER, trigger: false, parent: null };
}

/** What `rule` says of the pair (x, y): true may collide, false filtered, 'trigger' reported without response. */
export function mayCollide(rule, x, y, p) {
  const a = fieldsOf(x, p), b = fieldsOf(y, p);
  const adjacent = a.parent === y || b.parent === x;
  const bits = ((a.contype & b.conaffinity) | (b.contype & a.conaffinity)) !== 0;
  if (rule === 'newton') {
    const g = a.collisionGroup, h = b.collisionGroup;
    if (g === 0 || h === 0) return false;
    if (g > 0 && h > 0) return g === h;
    return !(g < 0 && h < 0 && g === h);
  }
  if (rule === 'mujoco' || rule === 'genesis') return bits && !adjacent;
  /* physx: (w0_A & w1_B) and (w0_B & w1_A) */
  const pass = ((a.filterData[0] & b.filterData[1]) >>> 0) !== 0 && ((b.filterData[0] & a.filterData[1]) >>> 0) !== 0;
  return pass && (a.trigger || b.trigger) ? 'trigger' : pass;
}

export default {
  id: 'filtering',
  title: 'Filtering rules: which pairs may collide',
  params: [
    { key: 'groupA', label: 'A collisionGroup (Newton)', options: [{ value: 1, label: '1 (as the others)' }, { value: 2, label: '2' }, { value: 0, label: '0 (none)' }, { value: -1, label: '−1 (all)' }], value: 1 },
    { key: 'contypeA', label: 'A contype (MuJoCo, Genesis)', options: [1, 0, 2], value: 1 },
    { key: 'conaffinityA', label: 'A conaffinity (MuJoCo, Genesis)', options: [1, 0, 2], value: 1 },
    { key: 'parentA', label: 'A\'s parent (MuJoCo, Genesis)', options: [{ value: 0, label: 'none' }, { value: 1, label: 'the table' }], value: 0 },
    { key: 'maskA', label: 'A filterData word1 (PhysX)', options: [{ value: ALL, label: 'every group' }, { value: 2, label: 'not group 1' }], value: ALL },
    { key: 'triggerA', label: 'A is a trigger (PhysX)', options: [{ value: 0, label: 'no' }, { value: 1, label: 'yes' }], value: 0 },
    { key: 'groupB', label: 'B collisionGroup (Newton)', options: [{ value: 1, label: '1 (as the others)' }, { value: 2, label: '2' }, { value: 0, label: '0 (none)' }, { value: -1, label: '−1 (all)' }], value: 1 },
    { key: 'contypeB', label: 'B contype (MuJoCo, Genesis)', options: [1, 0, 2], value: 1 },
    { key: 'conaffinityB', label: 'B conaffinity (MuJoCo, Genesis)', options: [1, 0, 2], value: 1 },
    { key: 'maskB', label: 'B filterData word1 (PhysX)', options: [{ value: ALL, label: 'every group' }, { value: 2, label: 'not group 1' }], value: ALL },
  ],
  presets: [
    { name: 'newton', preset: 'newton-xpbd', options: { filterRule: 'newton' }, color: '#f472b6' },
    { name: 'mujoco', preset: 'newton-xpbd', options: { filterRule: 'mujoco' }, color: '#a78bfa' },
    { name: 'physx', preset: 'physx-tgs', options: { filterRule: 'physx' }, color: '#34d399' },
    { name: 'genesis', preset: 'newton-xpbd', options: { filterRule: 'genesis' }, color: '#fbbf24' },
  ],
  duration: 1.5,
  view: { center: [0, 0.45], metersAcross: 1.8 },
  newtonsPerMeter: 80,
  build(world, p) {
    world.addBody({ type: 'static', shapes: [{ type: 'plane', normal: [0, 1, 0], offset: 0, ...OTHER }] });
    const table = { type: 'box', halfExtents: TABLE, density: boxDensity(20, TABLE), ...OTHER };
    const ball = { type: 'sphere', radius: R, density: sphereDensity(1, R) };
    const t = world.addBody({ position: [0, TABLE[1], 0], shapes: [table] });
    const a = world.addBody({ position: [0, TOP + R + 0.2, 0], shapes: [{ ...ball, ...filterA(p) }] });
    /* B falls 0.3 m onto A: the lanes see a pair only in the contacts listed at a step's end, and
     * at XPBD's 10 substeps a 0.45 m drop met A and left it again within 4 substeps of one step
     * (B bounced 3 cm clear for 13 steps), so B–A was never listed; from 0.3 m B is still on A at
     * the end of its impact step in every lane */
    const b = world.addBody({ position: [0.03, TOP + 3 * R + 0.3, 0], shapes: [{ ...ball, ...filterB(p) }] });
    if (p.parentA === 1) world.setParent(a, t);
    const ids = { ground: -1, table: t, A: a, B: b };
    return {
      bodies: [{ id: t, shape: table }, { id: a, shape: ball }, { id: b, shape: ball }], planes: [{ normal: [0, 1, 0], offset: 0 }],
      ids, seen: Object.fromEntries(PAIRS.map(([x, y]) => [`${x}–${y}`, false])), pos: new Float32Array(3),
    };
  },
  /** Height of A's centre (m); records which pairs had touching contacts. */
  sample(world, s) {
    const c = world.contacts;
    for (let i = 0; i < c.count; i++) {
      if (c.separation[i] > 0.005) continue;
      for (const [x, y] of PAIRS) {
        const u = s.ids[x], v = s.ids[y];
        if ((c.body0[i] === u && c.body1[i] === v) || (c.body0[i] === v && c.body1[i] === u)) s.seen[`${x}–${y}`] = true;
      }
    }
    return world.getPosition(s.ids.A, s.pos)[1];
  },
  /** The editable truth table: A's and B's fields (each cell sets the scene's param), and per rule
   * whether each pair may collide by the rule's formula against whether it touched in the lane. */
  table(p) {
    const keys = { A: ['groupA', 'contypeA', 'conaffinityA', 'maskA', 'triggerA', 'parentA'], B: ['groupB', 'contypeB', 'conaffinityB', 'maskB', null, null] };
    const cell = (k) => {
      if (!k) return '<td>—</td>';
      const def = this.params.find((x) => x.key === k);
      const opts = def.options.map((o) => { const v = o?.value ?? o, l = o?.label ?? String(o); return `<option value="${v}"${String(v) === String(p[k]) ? ' selected' : ''}>${l}</option>`; }).join('');
      return `<td><select id="table-${k}" data-key="${k}">${opts}</select></td>`;
    };
    const fields = ['A', 'B'].map((n) => `<tr><th>${n}</th>${keys[n].map(cell).join('')}</tr>`).join('');
    const rules = this.presets.map((l) => `<th>${l.name}</th>`).join('');
    const pairs = PAIRS.map(([x, y]) => `<tr><th>${x}–${y}</th>${this.presets.map((l) => `<td id="truth-${l.name}-${x}-${y}"></td>`).join('')}</tr>`).join('');
    return `<h2>Truth table (edit the fields: the scene follows)</h2>
<table class="truth"><tr><th></th><th>collisionGroup<br>(Newton)</th><th>contype<br>(MuJoCo, Genesis)</th><th>conaffinity<br>(MuJoCo, Genesis)</th><th>filterData word1<br>(PhysX)</th><th>trigger<br>(PhysX)</th><th>parent<br>(MuJoCo, Genesis)</th></tr>${fields}
<tr><th>table, ground</th><td>1</td><td>1</td><td>1</td><td>every group</td><td>no</td><td>none</td></tr></table>
<table class="truth"><tr><th>pair</th>${rules}</tr>${pairs}</table>
<p>Each cell: what the rule's formula says (<b>may collide</b> ✓ / <b>filtered</b> ✗ / <b>trigger</b>: reported, no response), then what the lane saw (touched ✓ / never ✗).</p>`;
  },
  tableDraw(root, lanes, p) {
    for (const lane of lanes) {
      if (!lane.scene) continue;
      for (const [x, y] of PAIRS) {
        const td = root.querySelector(`[id="truth-${lane.preset}-${x}-${y}"]`);
        if (!td) continue;
        const says = mayCollide(lane.preset, x, y, p);
        td.textContent = `${says === 'trigger' ? 'trigger' : says ? '✓ may collide' : '✗ filtered'} · saw ${lane.scene.seen[`${x}–${y}`] ? '✓' : '✗'}`;
      }
    }
  },
  reference: () => TOP + R,
  headline: (lane) => lane.samples.at(-1)?.[1] ?? null,
  headlineReference: () => TOP + R,
  headlineLabel: 'A ends at height (m)',
  headlineReferenceLabel: 'A resting on the table',
  formula: 'below it: A passed through the table',
  note(lane) {
    const s = lane.scene;
    return Object.entries(s.seen).map(([k, v]) => `${k} ${v ? '✓' : '✗'}`).join(' · ');
  },
  plot: { title: 'height of ball A over time under each filter rule; resting on the table (dashed)', x: 't (s)', y: 'A height (m)', reference: 'on the table' },
  explanation: `
<p>Before any geometry, every candidate pair passes a <em>filter</em>: a cheap rule over per-shape fields
that says whether the two may collide at all. The four engines use different rules, so the same fields
mean different things. The lanes run one scene — ball A dropped on a table, ball B on A — and each
lane's line is its truth table: ✓ the pair had a touching contact (a trigger's are reported without
any response), ✗ it never did. A lane sees the contacts listed at the end of each step: under XPBD's
10 substeps per step, a touch that begins and ends inside one step is not listed (and not seen).</p>
<p><b>Newton</b>: <code>collisionGroup</code> 0 collides with nothing; a positive group with the same group
or any negative one; a negative group with everything but itself (and shapes in different
<code>world</code>s never meet). <b>MuJoCo</b>: two shapes collide when
<span class="formula">(contype₁ &amp; conaffinity₂) ∨ (contype₂ &amp; conaffinity₁)</span>, except a body and its
parent; explicit pairs bypass both. <b>Genesis</b>: the same bitmask, plus no contacts between adjacent
(parent–child) links. <b>PhysX</b>: filter data words — the pair is dropped unless
<span class="formula">(w0_A &amp; w1_B) ∧ (w0_B &amp; w1_A)</span> when all are set; a <em>trigger</em> shape
reports its contacts but never responds, so A falls through the table while its pairs are reported.</p>
<p>Edit A's or B's fields in the truth table (or the panel) and see which lanes care: a collisionGroup of 0 sends A through the table and
the ground under Newton only; a conaffinity and contype of 0 do it under MuJoCo and Genesis only.</p>`,
};
