// cannon-es: pure JavaScript. Sleeping off (World default allowSleep = false), default GSSolver
// (10 iterations). SAPBroadphase instead of the default NaiveBroadphase (O(n²) pair test), as
// cannon-es recommends for many bodies. No capsule shape: a capsule is a compound of an
// 8-segment Cylinder (a convex polyhedron) and two spheres, with the capsule's mass.
import * as CANNON from 'cannon-es';
import { DT, GRAVITY, shapeVolume } from '../scenes.mjs';

export const id = 'cannon';
export const packageName = 'cannon-es';

export async function load() {
  return {
    id,
    version: null,
    notes: 'pure JS; GSSolver 10 iterations; SAPBroadphase; capsule = cylinder + 2 spheres',
    createWorld(scene) {
      const world = new CANNON.World({ gravity: new CANNON.Vec3(...GRAVITY), allowSleep: false });
      world.broadphase = new CANNON.SAPBroadphase(world);
      const f = scene.bodies[0].friction, e = scene.bodies[0].restitution;
      world.defaultContactMaterial.friction = f;
      world.defaultContactMaterial.restitution = e;
      const dyn = [];
      for (const b of scene.bodies) {
        const isStatic = b.type === 'static';
        const body = new CANNON.Body({
          mass: isStatic ? 0 : b.density * shapeVolume(b.shape),
          type: isStatic ? CANNON.Body.STATIC : CANNON.Body.DYNAMIC,
          position: new CANNON.Vec3(...b.position),
          quaternion: new CANNON.Quaternion(...b.rotation),
          allowSleep: false,
        });
        const s = b.shape;
        switch (s.type) {
          case 'box': body.addShape(new CANNON.Box(new CANNON.Vec3(...s.halfExtents))); break;
          case 'sphere': body.addShape(new CANNON.Sphere(s.radius)); break;
          case 'capsule':
            body.addShape(new CANNON.Cylinder(s.radius, s.radius, 2 * s.halfHeight, 8)); // axis y
            body.addShape(new CANNON.Sphere(s.radius), new CANNON.Vec3(0, s.halfHeight, 0));
            body.addShape(new CANNON.Sphere(s.radius), new CANNON.Vec3(0, -s.halfHeight, 0));
            break;
          default: throw new Error(`cannon: unsupported shape ${s.type}`);
        }
        world.addBody(body);
        if (!isStatic) dyn.push(body);
      }
      return {
        step() { world.step(DT); }, // one fixed internal step, no interpolation
        readPositions(out) {
          for (let i = 0; i < dyn.length; i++) {
            const p = dyn[i].position;
            out[3 * i] = p.x; out[3 * i + 1] = p.y; out[3 * i + 2] = p.z;
          }
        },
        mass(i) { return dyn[i].mass; },
        /** ContactEquation.multiplier = solver lambda / dt (a force, N); impulse = multiplier · dt. */
        contactNormalImpulse(i) {
          const body = dyn[i];
          let sum = 0, points = 0;
          for (const c of world.contacts) {
            if (c.bi === body || c.bj === body) { sum += c.multiplier * DT; points++; }
          }
          return { impulse: sum, points, source: 'world.contacts[k].multiplier (λ/dt) · dt' };
        },
        free() { for (const b of [...world.bodies]) world.removeBody(b); },
      };
    },
  };
}
