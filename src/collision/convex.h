/* Support-mapped convex shapes and the general convex algorithms: GJK (distance and closest
 * points when separated), EPA (depth and normal when overlapping), MPR (penetration, the default
 * for general convex pairs, refined by GJK/EPA when it does not converge) (internal).
 * Geometry only: no force is computed here. */
#ifndef TB_CONVEX_H
#define TB_CONVEX_H

#include "narrow_phase.h"

#define TB_CONVEX_TRIANGLE 100 /* a triangle of a mesh or heightfield; vertices in tri[] */

/* A posed convex shape as the general algorithms see it. */
typedef struct tb_convex {
  int32_t type;          /* tb_shape_type of a convex shape, or TB_CONVEX_TRIANGLE */
  float params[4];       /* as documented at tb_shape_type */
  const void* data;      /* hull geometry for TB_SHAPE_HULL */
  tb_vec3 tri[3];        /* triangle vertices in the pose's frame (TB_CONVEX_TRIANGLE) */
  tb_transform pose;     /* shape to world */
} tb_convex;

/* The farthest point of c in world direction dir (not necessarily unit), world frame (m). */
tb_vec3 tb_convex_support(const tb_convex* c, tb_vec3 dir);

/* Contact manifold of two convex shapes (a is shape0; normal from a towards b; neither a plane:
 * planes go through tb_collide), up to
 * max_separation (m) apart, by the analytic routine when one exists, else MPR (+ GJK/EPA
 * refinement) for the first point and the multi-point rule for the rest. Returns point_count. */
int tb_collide_convex(const tb_convex* a, const tb_convex* b, float max_separation, tb_manifold* out);

/* ---- the general algorithms (exposed for tests and for other narrow-phase parts) ---- */

/* A vertex of the Minkowski difference B − A: w = b − a, with the support points a, b (world). */
typedef struct tb_mink_vertex { tb_vec3 w, a, b; } tb_mink_vertex;

/* Core shape and radius: spheres and capsules act as a point / segment swept by a radius, so
 * that the algorithms below are exact for them. Other shapes: the shape itself and 0. */
tb_vec3 tb_convex_core_support(const tb_convex* c, tb_vec3 dir);
float tb_convex_radius(const tb_convex* c);
/* Support of the core difference B − A along world d: w = core_b(d) − core_a(−d). */
void tb_mink_support(const tb_convex* a, const tb_convex* b, tb_vec3 d, tb_mink_vertex* v);
/* An interior point of the shape, world (m). */
tb_vec3 tb_convex_center(const tb_convex* c);

/* Result of a penetration or distance query between the cores of a and b. */
typedef struct tb_convex_result {
  int32_t overlap;    /* 1: the cores overlap */
  int32_t converged;  /* 1: the iteration met its tolerance */
  float distance;     /* m: core distance (>= 0) when separated, penetration depth (>= 0) when overlapping */
  tb_vec3 normal;     /* world unit vector from a towards b */
  tb_vec3 point_a;    /* witness on a's core, world (m) */
  tb_vec3 point_b;    /* witness on b's core, world (m) */
  tb_mink_vertex simplex[4];
  int32_t simplex_count;
  int32_t iterations;
} tb_convex_result;

/* GJK: distance and closest points of the cores; on overlap fills simplex for EPA. */
void tb_gjk(const tb_convex* a, const tb_convex* b, tb_convex_result* r);
/* EPA: depth and normal of overlapping cores, from the GJK simplex in r (r updated). */
void tb_epa(const tb_convex* a, const tb_convex* b, tb_convex_result* r);
/* MPR (XenoCollide): penetration of the cores along the portal normal; r->overlap = 0 when the
 * cores do not overlap, r->converged = 0 when the iteration cap was reached. */
void tb_mpr(const tb_convex* a, const tb_convex* b, tb_convex_result* r);

typedef enum tb_penetration_method {
  TB_PENETRATION_MPR = 0, /* default (Genesis): MPR, then GJK/EPA when MPR did not converge */
  TB_PENETRATION_EPA = 1  /* GJK + EPA always */
} tb_penetration_method;

typedef enum tb_multi_contact {
  TB_MULTI_CLIP = 0,    /* default: face clipping for polytope pairs (box, hull, triangle),
                           Genesis pose perturbation for the others */
  TB_MULTI_PERTURB = 1, /* Genesis pose perturbation for every pair */
  TB_MULTI_SINGLE = 2   /* the first point only */
} tb_multi_contact;

typedef struct tb_convex_options {
  int32_t penetration;   /* tb_penetration_method */
  int32_t multi_contact; /* tb_multi_contact */
  int32_t analytic;      /* 1: sphere/capsule/box pairs use the analytic routines (default) */
} tb_convex_options;

tb_convex_options tb_convex_default_options(void);
/* tb_collide_convex with explicit options. Both run in a canonical order of the two shapes
 * (lower type first, then position), so swapping a and b mirrors the result exactly. */
int tb_collide_convex_ex(const tb_convex* a, const tb_convex* b, float max_separation,
                         const tb_convex_options* opt, tb_manifold* out);

/* The query behind tb_world_shape_distance: the deepest (or closest) point pair of a and b up to
 * max_separation (m) apart, seen from a (normal from a towards b, point0 on a), found as the
 * narrow phase finds its first point (canonical order, MPR with GJK/EPA refinement, the analytic
 * routine for sphere/capsule/box pairs); *method = tb_pair_method that answered, *refined = 1
 * when the shallow/touching step re-found the normal or points by GJK. Returns 0 when farther. */
int tb_convex_query(const tb_convex* a, const tb_convex* b, float max_separation, tb_manifold_point* pt,
                    tb_vec3* normal, int32_t* method, int32_t* refined);

/* Posed convex of a shape geometry (hull data from g->data). */
tb_convex tb_convex_from_geom(const tb_shape_geom* g, tb_transform t);

/* Narrow-phase routines for the dispatcher (signature of tb_collide_fn). */
int tb_collide_plane_convex(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                            tb_transform tb, float max_separation, tb_manifold* out);
int tb_collide_general_convex(const tb_shape_geom* a, tb_transform ta, const tb_shape_geom* b,
                              tb_transform tb, float max_separation, tb_manifold* out);

#endif
