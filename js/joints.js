/**
 * Joints: addJoint (a descriptor into tb_joint_def through the engine's layout table), removal,
 * the joints of a body and of the world, state and reaction readback. Types are the engine's
 * names (tb_joint_type). Units: m, rad, N, N·m, N/m, N·s/m; frames as in docs/joints.md.
 * @module tribo/joints
 */
import { errorFor } from './errors.js';
import { checkKeys, finiteVec, real, objectAt, boolAt } from './check.js';
import { bodyOrNone } from './ids.js';
import { engineTables, heapBuffer, member, readStruct, readValues } from './fields.js';

const JOINT_OPTIONS = new Set(['type', 'body0', 'body1', 'anchor', 'axis', 'anchor0', 'anchor1', 'axis0', 'axis1',
  'rotation0', 'rotation1', 'collideConnected', 'limit', 'motor', 'length', 'spring', 'breakForce', 'breakTorque']);
const LIMIT_OPTIONS = new Set(['lower', 'upper', 'cone']);
const MOTOR_OPTIONS = new Set(['speed', 'maxForce']);
const SPRING_OPTIONS = new Set(['stiffness', 'damping']);
/* scratch layout (bytes): the definition at 0, the state at 512, ids from 1024 */
const STATE_AT = 512;
const IDS_AT = 1024;
const IDS_MAX = 768; /* ids that fit in the scratch after IDS_AT; more go through malloc */

const show = (v) => JSON.stringify(v);

/** Rotation (x, y, z, w) taking the x axis to unit a, the shortest arc; x to −x turns about z. */
function frameFromAxis(a) {
  const w = 1 + a[0];
  if (w < 1e-6) return [0, 0, 1, 0];
  const q = [0, -a[2], a[1], w];
  const l = Math.hypot(...q);
  return q.map((c) => c / l);
}

function unitAxis(fn, field, v) {
  const a = finiteVec(fn, field, v, 3);
  const l = Math.hypot(a[0], a[1], a[2]);
  if (!(l > 1e-9) || !Number.isFinite(l)) throw new RangeError(`${fn}: ${field} must have a nonzero finite length (got ${show(Array.from(a))})`);
  return [a[0] / l, a[1] / l, a[2] / l];
}

const qmulv = (q, v) => { /* rotate v by unit q */
  const [x, y, z, w] = q;
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]), v[2] + w * t[2] + (x * t[1] - y * t[0])];
};
const conj = (q) => [-q[0], -q[1], -q[2], q[3]];

/** Body-frame point and axis of a world anchor and axis at the body's current pose (the world: as given). */
function toBody(world, fn, field, body, anchor, axis) {
  if (body === -1) return { anchor, axis };
  const M = world._M;
  const st = M._tb_body_get_state(world._id, body, world._t._scratch);
  if (st !== 0) throw errorFor(st, `${fn}: ${field}: body ${body} does not exist (never created or removed)`);
  const s = new Float32Array(heapBuffer(M), world._t._scratch, 7);
  const inv = conj([s[3], s[4], s[5], s[6]]);
  return { anchor: qmulv(inv, [anchor[0] - s[0], anchor[1] - s[1], anchor[2] - s[2]]), axis: axis && qmulv(inv, axis) };
}

/** A side: undefined or 'world' for the world (-1), else a live body id or -1 (ids.js). */
function bodyArg(world, fn, field, v) {
  return v === undefined || v === 'world' ? -1 : bodyOrNone(world, fn, field, v);
}

/** Frame rotation of one side: `rotationN`, else from `axisN` (or `axis`), else identity. */
function rotationOf(fn, k, desc, axis) {
  const r = desc[`rotation${k}`];
  if (r !== undefined) {
    if (desc[`axis${k}`] !== undefined) throw new RangeError(`${fn}: give rotation${k} or axis${k}, not both`);
    return finiteVec(fn, `rotation${k}`, r, 4);
  }
  return axis ? frameFromAxis(axis) : [0, 0, 0, 1];
}

/** World.addJoint: returns the id; on any error nothing is added. */
export function addJoint(world, desc) {
  const fn = 'addJoint';
  world._alive(fn);
  checkKeys(fn, '', desc, JOINT_OPTIONS);
  const M = world._M;
  const { enums, layouts } = engineTables(M);
  const type = enums.jointType.indexOf(desc.type ?? 'revolute');
  if (type < 0) throw new RangeError(`${fn}: type must be one of ${enums.jointType.map(show).join(', ')} (got ${show(desc.type)})`);
  const body0 = bodyArg(world, fn, 'body0', desc.body0), body1 = bodyArg(world, fn, 'body1', desc.body1);
  /* frames first (a world anchor reads the bodies' poses through the scratch area): world
   * anchor/axis at the current poses, or body-frame anchorN/axisN */
  let a0 = finiteVec(fn, 'anchor0', desc.anchor0, 3, [0, 0, 0]), a1 = finiteVec(fn, 'anchor1', desc.anchor1, 3, [0, 0, 0]);
  let x0 = desc.axis0 !== undefined ? unitAxis(fn, 'axis0', desc.axis0) : null;
  let x1 = desc.axis1 !== undefined ? unitAxis(fn, 'axis1', desc.axis1) : null;
  if (desc.anchor !== undefined || desc.axis !== undefined) {
    if (desc.anchor0 !== undefined || desc.anchor1 !== undefined || x0 || x1) {
      throw new RangeError(`${fn}: give anchor/axis (world) or anchor0/anchor1/axis0/axis1 (body frames), not both`);
    }
    const anchor = finiteVec(fn, 'anchor', desc.anchor, 3, [0, 0, 0]);
    const axis = desc.axis !== undefined ? unitAxis(fn, 'axis', desc.axis) : null;
    ({ anchor: a0, axis: x0 } = toBody(world, fn, 'body0', body0, anchor, axis));
    ({ anchor: a1, axis: x1 } = toBody(world, fn, 'body1', body1, anchor, axis));
  }
  const r0 = rotationOf(fn, 0, desc, x0), r1 = rotationOf(fn, 1, desc, x1);
  const p = world._t._scratch;
  M._tb_joint_default_def_into(p);
  const set = (name, v) => { const m = member(M, layouts.jointDef, p, name); if (typeof v === 'number') m[0] = v; else m.set(v); };
  set('type', type);
  set('body0', body0);
  set('body1', body1);
  set('position0', a0);
  set('position1', a1);
  set('rotation0', r0);
  set('rotation1', r1);
  if (desc.collideConnected !== undefined) set('collideConnected', boolAt(fn, 'collideConnected', desc.collideConnected) ? 1 : 0);
  if (desc.limit !== undefined) {
    const l = objectAt(`${fn}: limit`, desc.limit);
    checkKeys(`${fn}: limit`, '', l, LIMIT_OPTIONS);
    set('enableLimit', 1);
    if (l.lower !== undefined) set('lower', real(fn, 'limit.lower', l.lower));
    if (l.upper !== undefined) set('upper', real(fn, 'limit.upper', l.upper));
    if (l.cone !== undefined) set('coneAngle', real(fn, 'limit.cone', l.cone, { min: 0, max: Math.PI, above: true }));
  }
  if (desc.motor !== undefined) {
    const m = objectAt(`${fn}: motor`, desc.motor);
    checkKeys(`${fn}: motor`, '', m, MOTOR_OPTIONS);
    set('enableMotor', 1);
    set('motorSpeed', real(fn, 'motor.speed', m.speed, { fallback: 0 }));
    set('maxMotorForce', real(fn, 'motor.maxForce', m.maxForce, { min: 0, infinite: true }));
  }
  if (desc.length !== undefined) set('length', real(fn, 'length', desc.length, { min: 0 }));
  if (desc.spring !== undefined) {
    const s = objectAt(`${fn}: spring`, desc.spring);
    checkKeys(`${fn}: spring`, '', s, SPRING_OPTIONS);
    set('stiffness', real(fn, 'spring.stiffness', s.stiffness, { min: 0 }));
    set('damping', real(fn, 'spring.damping', s.damping, { fallback: 0, min: 0 }));
  }
  if (desc.breakForce !== undefined) set('breakForce', real(fn, 'breakForce', desc.breakForce, { min: 0, above: true, infinite: true }));
  if (desc.breakTorque !== undefined) set('breakTorque', real(fn, 'breakTorque', desc.breakTorque, { min: 0, above: true, infinite: true }));
  const jid = M._tb_joint_create(world._id, p);
  if (jid < 0) throw errorFor(-jid, jsNames(M.UTF8ToString(M._tb_last_error(world._id))));
  world._version++;
  return jid;
}

/* the engine names the C fields; the descriptor's names for those that differ */
function jsNames(msg) {
  return msg.replace(/\bposition([01])/g, 'anchor$1').replace(/\bconeAngle\b/, 'limit.cone')
    .replace(/\blower\b/g, 'limit.lower').replace(/\bupper\b/g, 'limit.upper').replace(/\bmaxMotorForce\b/, 'motor.maxForce')
    .replace(/\bstiffness\b/, 'spring.stiffness').replace(/\bdamping\b/, 'spring.damping');
}

export function removeJoint(world, jointId) {
  world._alive('removeJoint');
  world._check(world._M._tb_joint_destroy(world._id, jointId));
  world._version++;
}

/** Ids from a counting call `f(out, capacity)` (count or −status). */
function idList(world, f) {
  const M = world._M;
  const n = f(0, 0);
  if (n < 0) world._check(-n);
  if (n === 0) return [];
  const big = n > IDS_MAX;
  const p = big ? M._malloc(4 * n) : world._t._scratch + IDS_AT;
  try {
    const got = f(p, n);
    if (got < 0) world._check(-got);
    return Array.from(new Int32Array(heapBuffer(M), p, got));
  } finally {
    if (big) M._free(p);
  }
}

export function jointsOf(world, body) {
  world._alive('jointsOf');
  return idList(world, (p, n) => world._M._tb_body_get_joints(world._id, body, p, n));
}

export function joints(world) {
  world._alive('joints');
  return idList(world, (p, n) => world._M._tb_world_joints(world._id, p, n));
}

/**
 * World.removeBody: `remove` removes the body (bodies.js); returns the ids of the joints the
 * engine removed with it (an unknown id fails in `remove` with its message).
 */
export function removeBody(world, body, remove) {
  const M = world._M;
  const n = Number.isInteger(body) ? M._tb_body_get_joints(world._id, body, 0, 0) : -1;
  const removed = n > 0 ? jointsOf(world, body) : [];
  remove();
  return removed;
}

const wrenchOf = (v) => ({ force: v.slice(0, 3), torque: v.slice(3, 6), point: v.slice(6, 9) });

/** State after the last solve(): { type, convention, valid, broken, position, speed, motorForce, wrench }. */
export function jointState(world, jointId) {
  const fn = 'jointState';
  world._alive(fn);
  const M = world._M;
  const { layouts, enums } = engineTables(M);
  const p = world._t._scratch + STATE_AT;
  world._check(M._tb_joint_get_state(world._id, jointId, p));
  const s = readStruct(M, layouts.jointState, p);
  return {
    type: enums.jointType[s.type], convention: enums.readback[s.convention], valid: s.valid !== 0, broken: s.broken !== 0,
    position: s.position, speed: s.speed, motorForce: s.motorForce, wrench: wrenchOf(s.wrench),
  };
}

/** The joint's reaction on side 0 (body0) or 1 (body1) about `point` (default: that body's centre of mass). */
export function jointWrench(world, jointId, side, point) {
  const fn = 'jointWrench';
  world._alive(fn);
  const M = world._M, s = world._t._scratch;
  if (side !== 0 && side !== 1) throw new RangeError(`${fn}: side must be 0 (body0) or 1 (body1) (got ${show(side)})`);
  const at = point === undefined ? 0 : world._put(32, finiteVec(fn, 'point', point, 3));
  world._check(M._tb_joint_wrench(world._id, jointId, side, at, s));
  return readValues(M, engineTables(M).layouts.wrench, s);
}

/** The definition as created, in descriptor form with body-frame anchors and rotations. */
export function getJoint(world, jointId) {
  const fn = 'getJoint';
  world._alive(fn);
  const M = world._M;
  const { layouts, enums } = engineTables(M);
  const p = world._t._scratch;
  world._check(M._tb_joint_get_def(world._id, jointId, p));
  const d = readStruct(M, layouts.jointDef, p);
  const out = {
    type: enums.jointType[d.type], body0: d.body0, body1: d.body1, anchor0: d.position0, anchor1: d.position1,
    rotation0: d.rotation0, rotation1: d.rotation1, axis0: qmulv(d.rotation0, [1, 0, 0]), axis1: qmulv(d.rotation1, [1, 0, 0]),
    collideConnected: d.collideConnected !== 0, length: d.length, breakForce: d.breakForce, breakTorque: d.breakTorque,
  };
  if (d.enableLimit) out.limit = { lower: d.lower, upper: d.upper, cone: d.coneAngle };
  if (d.enableMotor) out.motor = { speed: d.motorSpeed, maxForce: d.maxMotorForce };
  if (d.stiffness > 0) out.spring = { stiffness: d.stiffness, damping: d.damping };
  return out;
}
