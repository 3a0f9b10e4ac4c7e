// Shared adapter code for the two Rapier compat packages (scalar and SIMD builds).
import { DT, GRAVITY } from '../scenes.mjs';

export function makeRapierEngine(RAPIER, { id, notes }) {
  function colliderDesc(shape) {
    switch (shape.type) {
      case 'box': return RAPIER.ColliderDesc.cuboid(...shape.halfExtents);
      case 'sphere': return RAPIER.ColliderDesc.ball(shape.radius);
      case 'capsule': return RAPIER.ColliderDesc.capsule(shape.halfHeight, shape.radius); // axis y
      default: throw new Error(`${id}: unsupported shape ${shape.type}`);
    }
  }

  return {
    id,
    version: RAPIER.version(),
    notes,
    createWorld(scene) {
      const world = new RAPIER.World({ x: GRAVITY[0], y: GRAVITY[1], z: GRAVITY[2] });
      world.timestep = DT; // default solver iterations (4) untouched
      const dyn = [];      // { body, collider }
      for (const b of scene.bodies) {
        const rbDesc = b.type === 'static' ? RAPIER.RigidBodyDesc.fixed() : RAPIER.RigidBodyDesc.dynamic();
        rbDesc.setTranslation(...b.position)
          .setRotation({ x: b.rotation[0], y: b.rotation[1], z: b.rotation[2], w: b.rotation[3] });
        if (b.type === 'dynamic') rbDesc.setCanSleep(false);
        const body = world.createRigidBody(rbDesc);
        const cd = colliderDesc(b.shape).setFriction(b.friction).setRestitution(b.restitution)
          .setFrictionCombineRule(RAPIER.CoefficientCombineRule.Average)
          .setRestitutionCombineRule(RAPIER.CoefficientCombineRule.Average);
        if (b.type === 'dynamic') cd.setDensity(b.density);
        const collider = world.createCollider(cd, body);
        if (b.type === 'dynamic') dyn.push({ body, collider });
      }
      const statics = [];
      world.forEachCollider((c) => { if (c.parent()?.isFixed()) statics.push(c); });
      return {
        step() { world.step(); },
        readPositions(out) {
          for (let i = 0; i < dyn.length; i++) {
            const t = dyn[i].body.translation();
            out[3 * i] = t.x; out[3 * i + 1] = t.y; out[3 * i + 2] = t.z;
          }
        },
        mass(i) { return dyn[i].body.mass(); },
        /** Sum of the normal impulses (N·s) of the contacts between dynamic body i and the static bodies. */
        contactNormalImpulse(i) {
          let sum = 0, points = 0;
          const c1 = dyn[i].collider;
          world.contactPairsWith(c1, (c2) => {
            world.contactPair(c1, c2, (manifold) => {
              for (let k = 0; k < manifold.numContacts(); k++) { sum += manifold.contactImpulse(k); points++; }
            });
          });
          return { impulse: sum, points, source: 'world.contactPair → manifold.contactImpulse(i)' };
        },
        free() { world.free(); },
      };
    },
  };
}
