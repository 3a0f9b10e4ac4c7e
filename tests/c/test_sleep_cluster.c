/* The PhysX sleep check's cluster factor (docs/sleeping.md, Dy::updateWakeCounter): the energy
 * threshold is scaled by c = 1 + the body's counted interactions (its shape pairs of the broad
 * phase, touching or not, and its joints). A sphere drifting at constant speed in zero gravity
 * sums its step velocities while its wake counter is below half its reset value; that sum's
 * energy ½(k·v)² after k steps crosses c·threshold at k = ceil(sqrt(2·c·threshold)/v). With the
 * counter's ~12 summing steps (0.2 s at 1/60 s) a speed whose crossing is at k = 10 for c = 1
 * and k = 14 for c = 2 keeps a lone sphere awake and lets a sphere with one counted pair sleep. */
#include <math.h>
#include <stdio.h>

#include "include/tribo.h"
#include "test_util.h"
#include "test_scene.h"

#define H (1.0f / 60.0f)

/* Steps the counter sums before it reaches zero from its reset value: wc ← max(wc − dt, 0) in
 * float, summing while wc < reset/2 or wc < dt (the rule as it runs). */
static int summing_steps(float reset, float dt) {
  float wc = reset;
  int n = 0;
  while (wc > 0.0f) {
    if (wc < 0.5f * reset || wc < dt) n++;
    wc = fmaxf(wc - dt, 0.0f);
  }
  return n;
}

/* Steps until a drifting sphere sleeps (-1: awake after `steps`); `neighbour` adds a static box
 * whose bounds overlap the sphere's without touching it (one counted pair). The engine's cluster
 * factor of the last check (tb_body_sleep_state) must be 1 + neighbour. */
static int sleeps_after(float v, int neighbour, int steps) {
  tb_world_id w = make_world(TB_PRESET_PHYSX_TGS, -1, 1);
  CHECK(tb_world_set_gravity(w, ZERO) == TB_OK);
  CHECK(tb_world_set_timestep(w, H) == TB_OK);
  tb_body_id b = add_sphere(w, 0, 0, 0, 0.5f, 1000.0f);
  if (neighbour) {
    /* a long thin static box 0.52 m below the sphere's centre: 2 cm of gap, inside the bounds'
     * contact offset, so the pair exists all along the drift but the sphere never touches */
    float q[3] = {0, -0.62f, 0}, box[4] = {20.0f, 0.1f, 1.0f, 0};
    tb_body_id s = tb_body_create(w, TB_BODY_STATIC, q, ID_Q);
    CHECK(tb_shape_create(w, s, TB_SHAPE_BOX, box, ZERO, ID_Q, 0.5f, 0.0f, 1000.0f) >= 0);
  }
  float vel[3] = {v, 0, 0};
  CHECK(tb_body_set_velocity(w, b, vel, ZERO) == TB_OK);
  int slept = -1;
  for (int n = 1; n <= steps && slept < 0; ++n) {
    CHECK(tb_world_step(w) == TB_OK);
    if (tb_body_is_sleeping(w, b) == 1) slept = n;
  }
  tb_sleep_state st;
  CHECK(tb_body_sleep_state(w, b, &st) == TB_OK);
  CHECK(st.rule == TB_SLEEP_PHYSX && st.cluster_factor == (float)(1 + neighbour));
  CHECK(st.steps_below == -1); /* the Genesis count is not computed under the PhysX rule */
  tb_world_destroy(w);
  return slept;
}

int main(void) {
  tb_world_def def = tb_default_world_def();
  CHECK(tb_preset_apply(TB_PRESET_PHYSX_TGS, &def) == TB_OK);
  float thr = def.solver.sleep.energy_threshold, reset = def.solver.sleep.wake_counter;
  int n = summing_steps(reset, H);
  /* v with the energy crossing c = 1 at k1 = n − 2 steps and c = 2 past n */
  float v = sqrtf(2.0f * thr) / (float)(n - 2) * 0.999f;
  int k1 = (int)ceilf(sqrtf(2.0f * thr) / v), k2 = (int)ceilf(sqrtf(4.0f * thr) / v);
  CHECK(k1 <= n && k2 > n); /* the two cases straddle the summing window */
  int alone = sleeps_after(v, 0, 240), paired = sleeps_after(v, 1, 240);
  printf("  summing steps %d, v %.5f m/s: energy crossing c=1 at step %d, c=2 at %d; lone sphere %s, "
         "with a counted pair asleep at step %d\n", n, (double)v, k1, k2, alone < 0 ? "awake" : "asleep", paired);
  CHECK(alone < 0);
  /* c = 2: never reset, so the counter runs from its reset value to zero: 0.4 s */
  int full = 0;
  for (float wc = reset; wc > 0.0f; wc = fmaxf(wc - H, 0.0f)) full++;
  CHECK(paired == full);
  /* slower than the c = 1 crossing: a lone sphere sleeps after the same count */
  CHECK(sleeps_after(v * 0.5f, 0, 240) == full);
  return tb_test_report("test_sleep_cluster");
}
