/* Contact types every layer reads (internal): a shape's geometry as the narrow phase sees it, the
 * manifold of a pair, the distance rule's values of a pair, the matching frames and the combined
 * material of a pair. Types only:
 * the functions that fill them live in collision/ (narrow phase) and model/ (distance, matching,
 * materials). */
#ifndef TB_CONTACT_TYPES_H
#define TB_CONTACT_TYPES_H

#include "../core/math.h"
#include "../include/tribo.h"

#define TB_MAX_MANIFOLD_POINTS TB_MAX_POINTS_PER_PAIR

/* A shape's geometry as the narrow phase sees it; params as documented at tb_shape_type. */
typedef struct tb_shape_geom {
  int32_t type;      /* tb_shape_type */
  float params[4];
  const void* data;  /* hull / heightfield / mesh geometry (owned by the shape), else NULL */
} tb_shape_geom;

typedef struct tb_manifold_point {
  tb_vec3 point0;      /* on the surface of shape0, world (m) */
  tb_vec3 point1;      /* on the surface of shape1, world (m) */
  /* m: from the narrow phase, dot(point1 - point0, normal), negative = penetration; collide()'s
   * distance stage (src/model/distance.h) then replaces it by the rule's distance that the solver
   * drives to >= 0: separation - summed margins (Newton, MuJoCo) or rest offsets (PhysX). */
  float separation;
  uint32_t feature_id; /* same value across frames for the same pair of features */
  int32_t active;      /* 1: the solver gives it a row; 0: detected only (gap, trigger, no-solve) */
  int32_t excluded;    /* 1: MuJoCo gap-only contact (detected, no row); set by the distance stage */
} tb_manifold_point;

typedef struct tb_manifold {
  tb_vec3 normal;      /* world unit vector from shape0 towards shape1 */
  int32_t point_count; /* 0..TB_MAX_MANIFOLD_POINTS */
  int32_t points_found;/* points before reduction; > point_count when reduction dropped some */
  tb_manifold_point points[TB_MAX_MANIFOLD_POINTS];
} tb_manifold;

/* The same contact seen from the other shape: normal negated, the two points of each of the first
 * n points exchanged. */
static inline void tb_manifold_mirror(tb_manifold* m, int n) {
  m->normal = tb_neg(m->normal);
  for (int i = 0; i < n; ++i) {
    tb_vec3 t = m->points[i].point0;
    m->points[i].point0 = m->points[i].point1;
    m->points[i].point1 = t;
  }
}

/* A shape pair's summed distances under the world's rule (all m). */
typedef struct tb_distance_pair {
  int32_t rule;     /* tb_distance_rule */
  float margin;     /* newton m0 + m1, mujoco m1 + m2, physx rest offsets r0 + r1 */
  float gap;        /* newton / mujoco gaps g0 + g1, physx contact offsets co0 + co1 */
  float detect;     /* surface separation up to which points are kept (see tb_distance_keep) */
  float speculative;/* newton: the distance (m) added to gap0 + gap1: collision.constant_gap plus, with
                       collision.speculative_widening, min(relative motion of one step,
                       collision.max_speculative_extension); 0 for the other rules */
} tb_distance_pair;

/* A pair's cache from one collide() to the next: its persistent manifold (PhysX PCM,
 * collision.persistent_manifolds), the poses of the last full contact generation against which the
 * next collide() decides to refresh or regenerate; or, in every preset, for a pair that was apart
 * (TB_PCM_APART), a lower bound of its distance and the poses it held then, so that the next
 * collide() leaves it without a test while its shapes have not moved by that much
 * (src/collision/apart.h). */
typedef struct tb_pcm_cache {
  union {
    struct {                 /* TB_PCM_GENERATED, TB_PCM_REFRESHED */
      tb_transform relative; /* shape1's pose in shape0's frame at the last full generation (m, unit quat) */
      tb_quat q0, q1;        /* the two shapes' world orientations then (box–box rule) */
      tb_vec3 normal;        /* manifold normal (shape0 towards shape1) in the frame of body `normal_body` */
      int32_t normal_body;   /* 0 / 1: the body whose frame holds the normal (world for a static body):
                                the box's of a capsule–box pair (its face defines the normal; PhysX keeps
                                it in the box's frame), else body 0 */
    };
    struct {                 /* TB_PCM_APART */
      tb_transform pose0, pose1; /* the shapes' world poses at the last test (m, unit quat) */
      float distance;        /* m: tb_apart_distance then, above the detection distance then */
    } apart;
  };
  int32_t state;             /* TB_PCM_* of this frame */
} tb_pcm_cache;

enum {
  TB_PCM_NONE = 0,        /* no persistent manifold: off, another pair type */
  TB_PCM_GENERATED = 1,   /* full generation this frame (the cache holds its poses) */
  TB_PCM_REFRESHED = 2,   /* the previous points refreshed (the cache is the last generation's) */
  TB_PCM_APART = 3        /* no points, apart by at least apart.distance at apart.pose0 / pose1 (the
                             last test's: kept while the pair is left without one) */
};

/* One frame's manifold points, per pair (i) and per point (first[i] + j: pair then point order, the
 * order of the contact records the frame's points became). */
typedef struct tb_match_frame {
  uint64_t* key;        /* per pair: tb_pair_match_key, ascending (written by the narrow stage) */
  int32_t* count;       /* per pair: points */
  int32_t* first;       /* per pair: its first point's index (the points of the pairs before it) */
  int32_t* reduced;     /* per pair: 1 when reduction dropped points */
  tb_distance_pair* dist; /* per pair: the distance rule's summed values */
  uint32_t* feature;    /* per point */
  uint32_t* id;         /* per point: persistent match key */
  int32_t* age;         /* per point: frames matched */
  int32_t* previous;    /* per point: contact store index of the match in the previous frame (its
                           point index there), -1 */
  tb_vec3* local0;      /* per point: point0 in shape0's body frame (m) */
  tb_vec3* local1;      /* per point: point1 in shape1's body frame (m) */
  tb_pcm_cache* pcm;    /* per pair: persistent manifold (state TB_PCM_NONE when off) */
  int32_t pair_count;
  int32_t point_count;
  int32_t stored;       /* 1: the frame's points are the contact records 0 .. point_count - 1 (the store
                           fill ran for it) */
} tb_match_frame;

typedef struct tb_match_data {
  tb_match_frame frame[2];
  int32_t current;      /* frame[current] is the last collide()'s */
  int32_t capacity;     /* pairs each frame holds */
  int32_t point_capacity; /* points each frame holds */
  uint32_t next_id;     /* next persistent key */
  int32_t matched;      /* pairs [0, matched) of the frame the running collide() fills were matched in
                           the narrow stage's pass (tb_match_leading), the rest by the matching stage */
  int32_t* prev_pair;   /* per pair of the frame the running collide() fills (capacity): its entry in
                           the current frame, -1 for a new pair; the narrow stage finds it by key, the
                           matching reads it (not part of a frame: never kept or saved) */
} tb_match_data;

/* Flags of a combined contact material. */
enum {
  TB_CONTACT_MATERIAL_NO_FRICTION = 1,        /* PhysX disable-friction on either shape */
  TB_CONTACT_MATERIAL_NO_STRONG_FRICTION = 2, /* PhysX: no friction memory across frames */
  TB_CONTACT_MATERIAL_COMPLIANT = 4,          /* PhysX negative restitution: a spring contact */
  TB_CONTACT_MATERIAL_ACCELERATION_SPRING = 8 /* COMPLIANT with stiffness 1/s², damping 1/s */
};

/* Parameters a combine rule defines (tb_contact_material.defined). A parameter outside the mask
 * holds 0 in the struct (safe for arithmetic) and is reported as NaN in the contact store. */
enum {
  TB_CONTACT_PARAM_FRICTION = 1,     /* static_friction, dynamic_friction */
  TB_CONTACT_PARAM_RESTITUTION = 2,  /* restitution */
  TB_CONTACT_PARAM_SPRING = 4,       /* stiffness, damping */
  TB_CONTACT_PARAM_SPIN = 8,         /* torsional_friction, rolling_friction */
  TB_CONTACT_PARAM_PENALTY = 16,     /* ke, kd, kf, ka */
  TB_CONTACT_PARAM_MUJOCO = 32       /* condim, solref, solimp, adhesion */
};

/* Parameters one contact uses after the combine rule (units in each comment). */
typedef struct tb_contact_material {
  float static_friction;   /* 1: Coulomb μ for sticking (PhysX); = dynamic for other rules */
  float dynamic_friction;  /* 1: Coulomb μ while sliding; the μ of every other rule */
  float restitution;       /* 1, in [0, 1]; when COMPLIANT: 0 */
  float stiffness;         /* COMPLIANT: spring stiffness (N/m, or 1/s² for acceleration springs);
                              MEAN / VBD rules: = ke */
  float damping;           /* COMPLIANT: damping (N·s/m, or 1/s); MEAN / VBD rules: = kd */
  float torsional_friction;/* m: Newton torsional coefficient (μ_t · length) */
  float rolling_friction;  /* m: Newton rolling coefficient */
  float ke, kd, kf, ka;    /* Newton penalty: N/m, N·s/m, N·s/m, m (adhesion range) */
  int32_t condim;          /* MuJoCo: 1, 3, 4 or 6 */
  float friction[5];       /* MuJoCo: slide along tangent0, tangent1 (1), torsional (m), rolling about
                              tangent0, tangent1 (m); geoms: (slide, slide, spin, roll, roll), each
                              >= 1e-5; an explicit pair: its own five */
  float solref_friction[2];/* MuJoCo: solreffriction of an explicit pair; (0, 0) = unset (solref) */
  float solref[2];         /* MuJoCo: (timeconst s, dampratio) or direct (-stiffness, -damping) */
  float solimp[5];         /* MuJoCo: dmin, dmax, width (m), midpoint, power */
  float adhesion;          /* MuJoCo: N */
  int32_t flags;           /* TB_CONTACT_MATERIAL_* */
  int32_t defined;         /* TB_CONTACT_PARAM_* bits the rule defines */
} tb_contact_material;

#endif
