// @babylonjs/havok: Havok's wasm build behind its flat C-style HP_* API. Emscripten loader:
// its default fetch() of the .wasm fails in Node, so the bytes are handed over as wasmBinary.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { DT, GRAVITY } from '../scenes.mjs';

export const id = 'havok';
export const packageName = '@babylonjs/havok';

export async function load() {
  const require = createRequire(import.meta.url);
  const wasmPath = require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm');
  const HavokPhysics = (await import('@babylonjs/havok')).default;
  const hk = await HavokPhysics({ wasmBinary: fs.readFileSync(wasmPath) });
  const ok = (r) => {
    const res = Array.isArray(r) ? r[0] : r;
    if (res !== hk.Result.RESULT_OK) throw new Error(`havok call failed: ${res?.value ?? res}`);
    return Array.isArray(r) ? r[1] : undefined;
  };
  const ZERO = [0, 0, 0], IDQ = [0, 0, 0, 1];

  function makeShape(s) {
    switch (s.type) {
      case 'box': return ok(hk.HP_Shape_CreateBox(ZERO, IDQ, s.halfExtents.map((h) => 2 * h))); // full extents
      case 'sphere': return ok(hk.HP_Shape_CreateSphere(ZERO, s.radius));
      case 'capsule': return ok(hk.HP_Shape_CreateCapsule([0, -s.halfHeight, 0], [0, s.halfHeight, 0], s.radius));
      default: throw new Error(`havok: unsupported shape ${s.type}`);
    }
  }

  return {
    id,
    version: null,
    notes: 'single-threaded wasm; solver defaults (not exposed by the HP_* API)',
    createWorld(scene) {
      const world = ok(hk.HP_World_Create());
      ok(hk.HP_World_SetGravity(world, GRAVITY));
      ok(hk.HP_World_SetIdealStepTime(world, DT));
      const bodies = [], shapes = [], dyn = [];
      let events = null;
      const eventMask = hk.EventType.COLLISION_STARTED.value | hk.EventType.COLLISION_CONTINUED.value;
      for (const b of scene.bodies) {
        const shape = makeShape(b.shape);
        ok(hk.HP_Shape_SetMaterial(shape, [b.friction, b.friction, b.restitution,
          hk.MaterialCombine.MINIMUM, hk.MaterialCombine.MAXIMUM]));
        const body = ok(hk.HP_Body_Create());
        ok(hk.HP_Body_SetShape(body, shape));
        if (b.type === 'static') {
          ok(hk.HP_Body_SetMotionType(body, hk.MotionType.STATIC));
        } else {
          ok(hk.HP_Body_SetMotionType(body, hk.MotionType.DYNAMIC));
          ok(hk.HP_Shape_SetDensity(shape, b.density));
          ok(hk.HP_Body_SetMassProperties(body, ok(hk.HP_Shape_BuildMassProperties(shape))));
          ok(hk.HP_Body_SetActivationControl(body, hk.ActivationControl.ALWAYS_ACTIVE)); // no sleeping
          if (scene.name === 'readback') ok(hk.HP_Body_SetEventMask(body, eventMask));
          dyn.push(body);
        }
        ok(hk.HP_Body_SetQTransform(body, [b.position, b.rotation]));
        ok(hk.HP_World_AddBody(world, body, false));
        bodies.push(body); shapes.push(shape);
      }
      return {
        step() { ok(hk.HP_World_Step(world, DT)); events = null; },
        readPositions(out) {
          for (let i = 0; i < dyn.length; i++) {
            const p = ok(hk.HP_Body_GetQTransform(dyn[i]))[0];
            out[3 * i] = p[0]; out[3 * i + 1] = p[1]; out[3 * i + 2] = p[2];
          }
        },
        mass(i) { return ok(hk.HP_Body_GetMassProperties(dyn[i]))[1]; },
        /** Havok reports one "impulse applied" per collision event (one event per body pair and step). */
        contactNormalImpulse(i) {
          // Events are read from the wasm heap at the offsets Babylon.js's CollisionEvent.readToRef
          // uses (HP_Event_AsCollision fails in this build): int32[0] type, int32[2] body A,
          // int32[18] body B, float32[34] impulse applied.
          const target = Number(dyn[i][0] & 0xffffffffn);
          // The event list is drained by the first read after a step (a second read returns
          // RESULT_FAIL and address 0), so the events of the last step are cached.
          if (!events) {
            events = [];
            let ev = hk.HP_World_GetCollisionEvents(world)[1];
            while (ev) {
              const ints = new Int32Array(hk.HEAPU8.buffer, ev, 36);
              const floats = new Float32Array(hk.HEAPU8.buffer, ev, 36);
              events.push({ a: ints[2] >>> 0, b: ints[18] >>> 0, impulse: floats[34] });
              ev = hk.HP_World_GetNextCollisionEvent(Number(world[0]), ev);
            }
          }
          let sum = 0, count = 0;
          for (const e of events) if (e.a === target || e.b === target) { sum += e.impulse; count++; }
          return { impulse: sum, points: count, source: 'collision event (COLLISION_CONTINUED) "impulse applied", one per body pair' };
        },
        free() {
          for (const b of bodies) { hk.HP_World_RemoveBody?.(world, b); hk.HP_Body_Release(b); }
          for (const s of shapes) hk.HP_Shape_Release(s);
          hk.HP_World_Release(world);
        },
      };
    },
  };
}
