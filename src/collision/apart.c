/* Pairs that stay apart: distance bounds and motion bounds (see apart.h). */
#include "apart.h"

#include <math.h>

#include "../include/tribo.h"
#include "collide_internal.h"

/* Rounding allowance of a decision, as a share of the magnitudes in it (m per m): the routines and
 * the bounds each round a few dozen times by at most 6e-8 of those magnitudes, so 3e-5 holds their
 * sum many times over; a pair within it of the detection distance is tested. */
#define TB_APART_SLACK 3e-5f

/* 1 for the pairs of shape types this bound serves. */
static int apart_pair_type(int32_t type_a, int32_t type_b) {
  int a = type_a == TB_SHAPE_SPHERE || type_a == TB_SHAPE_CAPSULE || type_a == TB_SHAPE_BOX;
  int b = type_b == TB_SHAPE_SPHERE || type_b == TB_SHAPE_CAPSULE || type_b == TB_SHAPE_BOX;
  return a && b;
}

static int box_box(const tb_shape_geom* a, const tb_shape_geom* b) { return a->type == TB_SHAPE_BOX && b->type == TB_SHAPE_BOX; }

/* m: the radius around the core that rotation leaves in place (sphere, capsule), 0 for a box. */
static float rim(const tb_shape_geom* g) { return g->type == TB_SHAPE_BOX ? 0.0f : g->params[0]; }

/* m: at least the core's farthest point from the centre: 0 for a sphere, the half segment of a
 * capsule, the sum of a box's half extents (not below its half diagonal; no square root). */
static float reach(const tb_shape_geom* g) {
  if (g->type == TB_SHAPE_CAPSULE) return g->params[1];
  if (g->type == TB_SHAPE_BOX) return g->params[0] + g->params[1] + g->params[2];
  return 0.0f;
}

/* A capsule's segment ends, world. */
static void segment(const tb_shape_geom* g, tb_transform t, tb_vec3* e0, tb_vec3* e1) {
  tb_vec3 ax = tb_rotate(t.q, tb_v3(0.0f, g->params[1], 0.0f));
  *e0 = tb_sub(t.p, ax);
  *e1 = tb_add(t.p, ax);
}

/* Squared gap between intervals [lo0, hi0] and [lo1, hi1] on each axis, summed (0: they overlap on
 * every axis). */
static float box_gap_sq(tb_vec3 lo0, tb_vec3 hi0, tb_vec3 lo1, tb_vec3 hi1) {
  float g = 0.0f;
  for (int k = 0; k < 3; ++k) {
    float d = fmaxf(fmaxf(tb_comp(lo1, k) - tb_comp(hi0, k), tb_comp(lo0, k) - tb_comp(hi1, k)), 0.0f);
    g += d * d;
  }
  return g;
}

/* a has the lower type (sphere < capsule < box). */
static float distance_ordered(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb) {
  float ra = rim(a), rb = rim(b);
  if (a->type == TB_SHAPE_SPHERE && b->type == TB_SHAPE_SPHERE) return tb_length(tb_sub(tb.p, ta.p)) - ra - rb;
  if (a->type == TB_SHAPE_SPHERE && b->type == TB_SHAPE_CAPSULE) {
    /* the centre against the closest point of the segment, as tb_collide_sphere_capsule finds it */
    tb_vec3 ax = tb_rotate(tb.q, tb_v3(0.0f, b->params[1], 0.0f));
    return tb_length(tb_sub(tb_np_segment_closest(tb_sub(tb.p, ax), tb_scale(ax, 2.0f), ta.p), ta.p)) - ra - rb;
  }
  if (box_box(a, b)) {
    /* the largest separation along the six face normals, as tb_collide_box_box computes each */
    tb_np_box_pair bp;
    tb_np_box_pair_of(a, ta, b, tb, &bp);
    float best = -INFINITY;
    for (int i = 0; i < 3; ++i) {
      float sa = tb_np_box_face_sep_a(&bp, i), sb = tb_np_box_face_sep_b(&bp, i);
      best = sa > best ? sa : best;
      best = sb > best ? sb : best;
    }
    return best;
  }
  if (b->type == TB_SHAPE_BOX) {
    tb_vec3 h = tb_v3(b->params[0], b->params[1], b->params[2]), nh = tb_neg(h);
    tb_vec3 lo, hi;
    if (a->type == TB_SHAPE_SPHERE) {
      lo = hi = tb_inv_transform_point(tb, ta.p);
    } else {
      tb_vec3 e0, e1;
      segment(a, ta, &e0, &e1);
      e0 = tb_inv_transform_point(tb, e0);
      e1 = tb_inv_transform_point(tb, e1);
      lo = tb_vmin(e0, e1);
      hi = tb_vmax(e0, e1);
    }
    /* a sphere's centre: its distance to the box exactly (the clamp of tb_collide_sphere_box) */
    float g2 = box_gap_sq(lo, hi, nh, h);
    return g2 > 0.0f ? sqrtf(g2) - ra : -INFINITY; /* inside or on the box: no bound */
  }
  if (a->type == TB_SHAPE_CAPSULE && b->type == TB_SHAPE_CAPSULE) {
    tb_vec3 a0, a1, b0, b1;
    segment(a, ta, &a0, &a1);
    segment(b, tb, &b0, &b1);
    return sqrtf(box_gap_sq(tb_vmin(a0, a1), tb_vmax(a0, a1), tb_vmin(b0, b1), tb_vmax(b0, b1))) - ra - rb;
  }
  return -INFINITY;
}

static float max_abs(tb_vec3 v) {
  float x = fabsf(v.x), y = fabsf(v.y), z = fabsf(v.z);
  float m = x > y ? x : y;
  return m > z ? m : z;
}

float tb_apart_distance(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b, tb_transform tb) {
  if (!apart_pair_type(a->type, b->type)) return -INFINITY;
  float d = a->type <= b->type ? distance_ordered(a, ta, b, tb) : distance_ordered(b, tb, a, ta);
  /* the allowance for the magnitudes now, and (they are at most these plus the motion) later */
  float scale = max_abs(ta.p) + max_abs(tb.p) + reach(a) + reach(b) + rim(a) + rim(b) + fabsf(d) + 1.0f;
  return d - 2.0f * TB_APART_SLACK * scale;
}

static float sum_abs(tb_vec3 v) { return fabsf(v.x) + fabsf(v.y) + fabsf(v.z); }

/* At least the chord sin(θ/2) of the turn θ from q to q' (1): the nearer of |q − q'|, |q + q'| is
 * 2·sin(θ/4) ≥ sin(θ/2). Sums of absolute components stand for the lengths (never below them; no
 * square root in a test most pairs take each step). */
static float turn(tb_quat p, tb_quat q) {
  float d = fabsf(p.x - q.x) + fabsf(p.y - q.y) + fabsf(p.z - q.z) + fabsf(p.w - q.w);
  float e = fabsf(p.x + q.x) + fabsf(p.y + q.y) + fabsf(p.z + q.z) + fabsf(p.w + q.w);
  return d < e ? d : e;
}

/* m: at least how far any point of the shape moved from pose `then` to `now`: the centre's
 * displacement plus the chord 2·reach·sin(θ/2) of the core's farthest point. */
static float motion(const tb_transform* then, const tb_transform* now, float reach, float turned) {
  return sum_abs(tb_sub(now->p, then->p)) + 2.0f * turned * reach;
}

int tb_apart_holds(float distance, const tb_shape_geom* a, const tb_transform* then_a, const tb_transform* now_a,
                   const tb_shape_geom* b, const tb_transform* then_b, const tb_transform* now_b, float detect) {
  float reach_a = reach(a), reach_b = reach(b);
  float turn_a = reach_a > 0.0f ? turn(now_a->q, then_a->q) : 0.0f, turn_b = reach_b > 0.0f ? turn(now_b->q, then_b->q) : 0.0f;
  float moved = motion(then_a, now_a, reach_a, turn_a) + motion(then_b, now_b, reach_b, turn_b);
  /* the rounding allowance of the magnitudes now beyond those tb_apart_distance allowed for:
   * positions farther out by at most the motion, and the detection distance */
  float d = distance - moved - TB_APART_SLACK * (moved + fabsf(detect));
  if (box_box(a, b)) {
    /* a face normal turns with its box: the separation along it changes by at most the turn's
     * chord times the farthest two points of the boxes can be apart */
    float span = sum_abs(tb_sub(then_b->p, then_a->p)) + reach_a + reach_b;
    d -= 2.0f * (turn_a > turn_b ? turn_a : turn_b) * span;
    return d > detect;
  }
  /* the cores stay apart too (a segment or centre that reaches into a box is decided otherwise) */
  return d > detect && d + rim(a) + rim(b) > 0.0f;
}
