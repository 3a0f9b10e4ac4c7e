/* Per-preset distance rules (newton-e3 §2, mujoco §1-3, physx-e3 §2). */
#include "distance.h"

#include <math.h>

#include "../world/world.h"

TB_INLINE_HOT tb_distance_pair tb_distance_pair_from(const tb_world* w, int32_t s0, int32_t s1, const float d0[2], const float d1[2],
                                                     float motion) {
  const tb_collision_params* cp = &w->def.collision;
  tb_distance_pair p;
  p.rule = w->def.collision.distance_rule;
  p.speculative = 0.0f;
  switch (p.rule) {
    case TB_DISTANCE_PHYSX: /* d: rest offsets, contact offsets */
      p.margin = d0[0] + d1[0];
      p.gap = d0[1] + d1[1];
      p.detect = p.gap + w->def.solver.speculative_distance + motion;
      break;
    case TB_DISTANCE_NEWTON:
      /* margins on both sides, then the gaps (newton-e3 §2: kept when d <= gap0 + gap1); the
       * optional speculative widening by the relative motion of one step, capped, and the
       * optional constant distance */
      p.margin = d0[0] + d1[0];
      p.gap = d0[1] + d1[1];
      p.speculative = cp->constant_gap +
                      (cp->speculative_widening ? fminf(motion, cp->max_speculative_extension) : 0.0f);
      p.detect = p.margin + p.gap + p.speculative;
      break;
    default: { /* mujoco: margins on both sides, then the gaps, exactly */
      /* filtering: an explicit pair's own margin and gap replace the sums */
      const tb_contact_pair_params* pair = tb_filter_contact_pair(w, s0, s1);
      p.margin = pair ? pair->margin : d0[0] + d1[0];
      p.gap = pair ? pair->gap : d0[1] + d1[1];
      p.detect = p.margin + p.gap;
      break;
    }
  }
  return p;
}

tb_distance_pair tb_distance_pair_of(const tb_world* w, int32_t s0, int32_t s1, float motion) {
  float d0[2], d1[2];
  tb_distance_of_shape(w, s0, d0);
  tb_distance_of_shape(w, s1, d1);
  return tb_distance_pair_from(w, s0, s1, d0, d1, motion);
}

tb_distance_point tb_distance_classify(const tb_distance_pair* p, float separation) {
  tb_distance_point r;
  r.distance = separation - p->margin;
  r.excluded = 0;
  switch (p->rule) {
    case TB_DISTANCE_NEWTON:
      /* d = n^T(p1 - p0) - (m0 + m1); the writer keeps d <= gap0 + gap1; XPBD returns when d >= 0 */
      r.kept = r.distance <= p->gap + p->speculative;
      r.active = r.distance < 0.0f;
      break;
    case TB_DISTANCE_MUJOCO:
      /* detected when dist < m + g; a force row when dist < m; gap-only contacts excluded */
      r.kept = separation < p->margin + p->gap;
      r.active = separation < p->margin;
      r.excluded = r.kept && !r.active;
      break;
    default:
      /* PhysX: generated within the contact offsets (+ speculative); g = s - r for the solver */
      r.kept = separation <= p->detect;
      r.active = 1;
      break;
  }
  if (!r.kept) r.active = r.excluded = 0;
  return r;
}

void tb_distance_apply(const tb_distance_pair* p, int solve, tb_manifold* m) {
  int32_t n = 0;
  for (int32_t j = 0; j < m->point_count; ++j) {
    tb_manifold_point* pt = &m->points[j];
    tb_distance_point c = tb_distance_classify(p, pt->separation);
    if (!c.kept) continue;
    pt->separation = c.distance;
    /* Newton: the record gets a row whenever the pair responds; the XPBD kernel re-evaluates d at
     * its current poses and returns when d >= 0 (the record's `active` reports d < 0 at collide) */
    pt->active = (p->rule == TB_DISTANCE_NEWTON ? 1 : c.active) && solve;
    pt->excluded = c.excluded;
    if (n < j) m->points[n] = *pt; /* kept points close up (most pairs drop none) */
    ++n;
  }
  m->points_found -= m->point_count - n;
  m->point_count = n;
}
