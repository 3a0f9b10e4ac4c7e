/**
 * Picking: a click on the canvas casts a ray from the camera through the cursor into the engine
 * (world.rayCast, every shape type) and reports the shape hit and, for a moving body, its net
 * contact force and torque (world.netContactWrench: N, and N·m about its centre of mass, world
 * axes; "not available" when the preset reports no such force).
 * @module tribo/web/picking
 */
import * as THREE from 'three';

/** Ray (world origin, unit direction) from the camera through normalized device coordinates. */
export function cameraRay(camera, ndcX, ndcY) {
  const caster = new THREE.Raycaster();
  caster.setFromCamera(new THREE.Vector2(ndcX, ndcY), camera);
  const o = caster.ray.origin, d = caster.ray.direction;
  return { origin: [o.x, o.y, o.z], direction: [d.x, d.y, d.z] };
}

/**
 * Casts the ray in the (worker) world; resolves with { hit, wrench, note }.
 * @param {object} sim a World or WorkerWorld
 */
export async function pick(sim, ray) {
  const hit = await sim.rayCast(ray.origin, ray.direction);
  if (!hit) return { hit: null, wrench: null, note: 'nothing under the cursor' };
  if (hit.body < 0) return { hit, wrench: null, note: 'a static shape' };
  try {
    const w = await sim.netContactWrench(hit.body);
    return { hit, wrench: w, note: '' };
  } catch (e) {
    return { hit, wrench: null, note: e.message }; /* e.g. not available for this preset */
  }
}

/** One line of text for the detail panel. */
export function describePick(p) {
  if (!p.hit) return `pick: ${p.note}`;
  const h = p.hit;
  const at = h.point.map((v) => v.toFixed(2)).join(', ');
  const head = `pick: shape ${h.shape}${h.body >= 0 ? `, body ${h.body}` : ' (static)'} at (${at}) m, ${h.distance.toFixed(2)} m away`;
  if (!p.wrench) return p.note ? `${head}\n  ${p.note}` : head;
  const f = p.wrench.force, t = p.wrench.torque;
  return `${head}\n  net contact force (${Array.from(f, (v) => v.toFixed(1)).join(', ')}) N, ` +
    `torque about its COM (${Array.from(t, (v) => v.toFixed(2)).join(', ')}) N·m`;
}
