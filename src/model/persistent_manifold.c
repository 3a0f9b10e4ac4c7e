/* Persistent contact manifolds: PhysX's PCM refresh and invalidation rules
 * (GuPersistentContactManifold: refreshContactPoints, invalidate_BoxConvex,
 * invalidate_SphereCapsule; GuPCMContactBoxBox.cpp, GuPCMContactCapsuleBox.cpp). */
#include "persistent_manifold.h"

#include <math.h>
#include <string.h>

#include "../core/simd_vec3.h"
#include "contact_match.h"

_Static_assert(TB_MAX_MANIFOLD_POINTS <= TB_LANES, "a manifold's points fit the lanes of one v3w");

/* PhysX: translation threshold as a share of the pair's margin, by the points the manifold holds
 * (box–box: invalidateThresholds, 0..4 points; capsule–box: invalidateThresholds2, 0..2), and the
 * least dot product of the orientation quaternions then and now (invalidateQuatThresholds*). */
static const float k_box_ratio[5] = {0.5f, 0.125f, 0.25f, 0.375f, 0.375f};
static const float k_box_quat[5] = {0.9998f, 0.9999f, 0.9999f, 0.9999f, 0.9999f};
static const float k_capsule_ratio[3] = {0.5f, 0.1f, 0.75f};
static const float k_capsule_quat[3] = {0.9995f, 0.9999f, 0.9997f};
/* PhysX BOX_MARGIN_RATIO: a box's margin is 0.15 of its smallest half extent, at most 0.15 of the
 * tolerance length (PxTolerancesScale::length, 1 m) */
#define TB_PCM_BOX_MARGIN_RATIO 0.15f
#define TB_PCM_TOLERANCE_LENGTH 1.0f /* m */
/* PhysX projectBreakingThreshold: a point drifting tangentially beyond 0.8 · margin is lost */
#define TB_PCM_BREAKING_RATIO 0.8f

/* fminf of two sizes, which shape creation keeps finite and > 0: without fminf's NaN and signed-zero
 * cases (a C library call in both builds) the comparison gives the same answer */
static float min_size(float a, float b) { return b < a ? b : a; }

/* m: PhysX CalculatePCMBoxMargin for a box, the radius for a capsule */
static float shape_margin(const tb_shape_geom* g) {
  if (g->type == TB_SHAPE_CAPSULE) return g->params[0];
  float e = min_size(g->params[0], min_size(g->params[1], g->params[2]));
  return min_size(e * TB_PCM_BOX_MARGIN_RATIO, TB_PCM_TOLERANCE_LENGTH * TB_PCM_BOX_MARGIN_RATIO);
}

static float quat_dot(tb_quat a, tb_quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

/* shape c's position and orientation in shape a's frame (the box–box rule reads the position only) */
static tb_vec3 relative_position(tb_transform ta, tb_transform tc) { return tb_inv_rotate(ta.q, tb_sub(tc.p, ta.p)); }
static tb_quat relative_rotation(tb_transform ta, tb_transform tc) { return tb_quat_mul(tb_quat_conj(ta.q), tc.q); }

/* m: arc a point at `radius` (m) travels when the orientation turns from q to the cached one
 * (PhysX: acos of the quaternion dot, i.e. half the angle, times the radius) */
static float travel(float dq, float radius) { return dq < 1.0f ? acosf(dq) * radius : 0.0f; }

/* travel(dq, radius) > thr, without the acosf while the turn is far below the threshold: for
 * t = 1 - dq in [0, 0.1], acos(1 - t) = sqrt(2t)(1 + t/12 + 3t²/160 + …) < sqrt(2t)(1 + t/10), so
 * a bound 0.1 % under thr decides as the acosf would (same result bit for bit) */
static int travel_beyond(float dq, float radius, float thr) {
  float t = 1.0f - dq;
  if (t >= 0.0f && t <= 0.1f && sqrtf(2.0f * t) * (1.0f + 0.1f * t) * radius <= 0.999f * thr) return 0;
  return travel(dq, radius) > thr;
}

/* 1 when the pose moved beyond PhysX's thresholds for a manifold of n points */
static int invalidated(const tb_shape_geom* ga, const tb_shape_geom* gc, tb_transform ta, tb_transform tc,
                       const tb_pcm_cache* cache, int32_t n, float margin) {
  tb_vec3 d = tb_sub(relative_position(ta, tc), cache->relative.p);
  float dp = fmaxf(fabsf(d.x), fmaxf(fabsf(d.y), fabsf(d.z))); /* m, in shape a's frame */
  if (ga->type == TB_SHAPE_BOX && gc->type == TB_SHAPE_BOX) {
    /* invalidate_BoxConvex: each box's own world orientation, and the arc of its corners */
    float thr = margin * k_box_ratio[n], thq = k_box_quat[n];
    float dqa = quat_dot(ta.q, cache->q0), dqc = quat_dot(tc.q, cache->q1);
    if (dp > thr || dqa < thq || dqc < thq) return 1;
    float ra = sqrtf(ga->params[0] * ga->params[0] + ga->params[1] * ga->params[1] + ga->params[2] * ga->params[2]);
    float rc = sqrtf(gc->params[0] * gc->params[0] + gc->params[1] * gc->params[1] + gc->params[2] * gc->params[2]);
    return travel_beyond(dqa, ra, thr) || travel_beyond(dqc, rc, thr);
  }
  /* invalidate_SphereCapsule: the relative orientation */
  int32_t k = n < 2 ? n : 2;
  return dp > margin * k_capsule_ratio[k] || quat_dot(relative_rotation(ta, tc), cache->relative.q) < k_capsule_quat[k];
}

int tb_pcm_refresh(const tb_world* w, const tb_pcm_side* a, const tb_pcm_side* c, const tb_match_frame* prev, int32_t pi,
                   float detect, tb_manifold* m, tb_pcm_cache* out) {
  const tb_shape_geom *ga = a->g, *gc = c->g;
  const tb_pcm_cache* cache = &prev->pcm[pi];
  int32_t n = prev->count[pi];
  /* a changed collision.max_points_per_pair takes effect at once: more points than it allows, or
   * fewer after the reduction dropped some, regenerate */
  int32_t bound = w->def.collision.max_points_per_pair;
  if (cache->state == TB_PCM_NONE || n <= 0 || n > bound || (prev->reduced[pi] && n < bound)) return 0;
  float margin = min_size(shape_margin(ga), shape_margin(gc)); /* m: PhysX minMargin */
  if (invalidated(ga, gc, a->pose, c->pose, cache, n, margin)) return 0;
  /* refreshContactPoints: each point with its body, the separation along the normal (with body 0),
   * lost when the two points slid apart beyond the breaking distance; PhysX regenerates when a
   * point was lost, and so does this (also when one left the detection distance) */
  tb_transform x0 = a->frame, x1 = c->frame;
  tb_vec3 normal = tb_rotate(cache->normal_body ? x1.q : x0.q, cache->normal);
  float brk = TB_PCM_BREAKING_RATIO * margin;
  /* from three points on, the points four at a time (each lane the one-point operations in their
   * order, so the same bits as one at a time, where gathering them into lanes would cost more than
   * it saves); a lane beyond n is zeros and left out of the test */
  int32_t first = prev->first[pi];
  float w0[3][TB_LANES], w1[3][TB_LANES], sepw[TB_LANES];
  if (n >= 3) {
    v3w p0 = v3w_transform_point(x0, v3w_gather(&prev->local0[first], sizeof(tb_vec3), n));
    v3w p1 = v3w_transform_point(x1, v3w_gather(&prev->local1[first], sizeof(tb_vec3), n));
    v3w d = v3w_sub(p1, p0), nw = v3w_splat(normal);
    tb_f4 sep = v3w_dot(d, nw);
    v3w slide = v3w_sub(d, v3w_scale(nw, sep));
    tb_f4 lost = tb_f4_or(tb_f4_gt(v3w_dot(slide, slide), tb_f4_splat(brk * brk)), tb_f4_gt(sep, tb_f4_splat(detect)));
    if (tb_f4_bitmask(lost) & ((1 << n) - 1)) return 0;
    v3w_store(w0, p0);
    v3w_store(w1, p1);
    tb_f4_store(sepw, sep);
  } else {
    for (int32_t j = 0; j < n; ++j) {
      tb_vec3 p0 = tb_transform_point(x0, prev->local0[first + j]), p1 = tb_transform_point(x1, prev->local1[first + j]);
      tb_vec3 d = tb_sub(p1, p0);
      float sep = tb_dot(d, normal);
      tb_vec3 slide = tb_sub(d, tb_scale(normal, sep));
      if (tb_length_sq(slide) > brk * brk || sep > detect) return 0;
      w0[0][j] = p0.x, w0[1][j] = p0.y, w0[2][j] = p0.z;
      w1[0][j] = p1.x, w1[1][j] = p1.y, w1[2][j] = p1.z;
      sepw[j] = sep;
    }
  }
  for (int32_t j = 0; j < n; ++j) {
    tb_manifold_point* p = &m->points[j];
    p->point0 = v3w_rows_lane(w0, j);
    p->point1 = v3w_rows_lane(w1, j);
    p->separation = sepw[j];
    p->feature_id = prev->feature[first + j];
    p->active = 1;
    p->excluded = 0;
  }
  m->normal = normal;
  m->point_count = m->points_found = n;
  tb_pcm_cache_copy(out, cache);
  out->state = TB_PCM_REFRESHED;
  return 1;
}

void tb_pcm_generated(const tb_pcm_side* a, const tb_pcm_side* c, const tb_manifold* m, tb_pcm_cache* out) {
  /* no points: the next frame's refresh stops at the pair's count of 0 before reading the cache,
   * so only the state is kept (most candidate pairs of a pile) */
  if (m->point_count == 0) {
    tb_pcm_cache_clear(out);
    out->state = TB_PCM_GENERATED;
    return;
  }
  tb_transform ta = a->pose, tc = c->pose;
  out->relative.p = relative_position(ta, tc);
  out->relative.q = relative_rotation(ta, tc);
  out->q0 = ta.q;
  out->q1 = tc.q;
  /* a capsule–box normal is the box's face normal or the closest-feature direction: it turns with
   * the box, not with a rolling capsule */
  out->normal_body = a->g->type == TB_SHAPE_CAPSULE;
  out->normal = tb_inv_rotate((out->normal_body ? c : a)->frame.q, m->normal);
  out->state = TB_PCM_GENERATED;
}
