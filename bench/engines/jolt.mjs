// jolt-physics: JoltPhysics.js, the single-threaded wasm build (`jolt-physics/wasm`, the same
// build as the default `wasm-compat` entry but with a separate .wasm file, handed over as
// wasmBinary because Emscripten's fetch() of a file path fails in Node). This build has no SIMD
// (the package enables SIMD only in its multithread builds).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DT, GRAVITY } from '../scenes.mjs';

export const id = 'jolt';
export const packageName = 'jolt-physics';

const LAYER_STATIC = 0, LAYER_MOVING = 1, NUM_LAYERS = 2;

export async function load() {
  const require = createRequire(import.meta.url);
  const pkgDir = path.dirname(require.resolve('jolt-physics/package.json'));
  const initJolt = (await import('jolt-physics/wasm')).default;
  const Jolt = await initJolt({ wasmBinary: fs.readFileSync(path.join(pkgDir, 'dist/jolt-physics.wasm.wasm')) });

  function makeShape(s) {
    switch (s.type) {
      case 'box': return new Jolt.BoxShape(new Jolt.Vec3(...s.halfExtents)); // default convex radius 0.05
      case 'sphere': return new Jolt.SphereShape(s.radius);
      case 'capsule': return new Jolt.CapsuleShape(s.halfHeight, s.radius); // axis y
      default: throw new Error(`jolt: unsupported shape ${s.type}`);
    }
  }

  return {
    id,
    version: null,
    notes: 'single-threaded wasm (no SIMD); default 10 velocity / 2 position steps',
    createWorld(scene) {
      const settings = new Jolt.JoltSettings();
      const objectFilter = new Jolt.ObjectLayerPairFilterTable(NUM_LAYERS);
      objectFilter.EnableCollision(LAYER_STATIC, LAYER_MOVING);
      objectFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
      const bpStatic = new Jolt.BroadPhaseLayer(0), bpMoving = new Jolt.BroadPhaseLayer(1);
      const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(NUM_LAYERS, 2);
      bpInterface.MapObjectToBroadPhaseLayer(LAYER_STATIC, bpStatic);
      bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, bpMoving);
      settings.mObjectLayerPairFilter = objectFilter;
      settings.mBroadPhaseLayerInterface = bpInterface;
      settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(
        settings.mBroadPhaseLayerInterface, 2, settings.mObjectLayerPairFilter, NUM_LAYERS);
      const joltInterface = new Jolt.JoltInterface(settings);
      Jolt.destroy(settings);
      const system = joltInterface.GetPhysicsSystem();
      const bi = system.GetBodyInterface();
      const g = new Jolt.Vec3(...GRAVITY);
      system.SetGravity(g);
      Jolt.destroy(g);
      const ps = system.GetPhysicsSettings();
      ps.mAllowSleeping = false;            // sleeping off world-wide (and per body below)
      system.SetPhysicsSettings(ps);
      const ids = [], dyn = [];
      for (const b of scene.bodies) {
        const shape = makeShape(b.shape);
        if (b.type === 'dynamic') shape.SetDensity(b.density);
        const pos = new Jolt.RVec3(...b.position), rot = new Jolt.Quat(...b.rotation);
        const isStatic = b.type === 'static';
        const cs = new Jolt.BodyCreationSettings(shape, pos, rot,
          isStatic ? Jolt.EMotionType_Static : Jolt.EMotionType_Dynamic, isStatic ? LAYER_STATIC : LAYER_MOVING);
        cs.mFriction = b.friction;          // combined as sqrt(f1·f2) = 0.6
        cs.mRestitution = b.restitution;
        cs.mAllowSleeping = false;
        const body = bi.CreateBody(cs);
        bi.AddBody(body.GetID(), isStatic ? Jolt.EActivation_DontActivate : Jolt.EActivation_Activate);
        Jolt.destroy(cs); Jolt.destroy(pos); Jolt.destroy(rot);
        ids.push(body.GetID());
        if (!isStatic) dyn.push(body);
      }
      return {
        step() { joltInterface.Step(DT, 1); },
        readPositions(out) {
          for (let i = 0; i < dyn.length; i++) {
            const p = dyn[i].GetPosition();
            out[3 * i] = p.GetX(); out[3 * i + 1] = p.GetY(); out[3 * i + 2] = p.GetZ();
          }
        },
        mass(i) { return 1 / dyn[i].GetMotionProperties().GetInverseMass(); },
        contactNormalImpulse() {
          return { unavailable: "Jolt's ContactListener callbacks run before the solver and the JS binding exposes no applied contact impulse (no per-contact lambda getter)" };
        },
        free() {
          for (const id of ids) { bi.RemoveBody(id); bi.DestroyBody(id); }
          Jolt.destroy(joltInterface);
        },
      };
    },
  };
}
