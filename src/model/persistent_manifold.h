/* Persistent contact manifolds (internal; PhysX PCM, collision.persistent_manifolds): a box–box or
 * capsule–box pair whose relative pose moved less than PhysX's invalidation thresholds since its
 * last full generation refreshes its previous points (kept in the bodies' frames by the matching)
 * instead of running the narrow phase again. */
#ifndef TB_PERSISTENT_MANIFOLD_H
#define TB_PERSISTENT_MANIFOLD_H

#include "../core/simd.h"
#include "../world/world.h"

/* One shape of a pair as the persistent manifold reads it: its geometry, its world pose and its
 * body's frame (tb_shape_body_frame: the world's for a static body), m and unit quaternions. */
typedef struct tb_pcm_side {
  const tb_shape_geom* g;
  tb_transform pose;
  tb_transform frame;
} tb_pcm_side;

_Static_assert(sizeof(tb_pcm_cache) % 16 == 0, "a pair's cache is whole rows of four floats");

/* A pair's cache copied or cleared (zeros: TB_PCM_NONE) with four-float loads and stores, bit for
 * bit: as a struct copy or memset it was wasm's memory.copy / memory.fill, a call into the runtime
 * for each of the thousands of pairs of a step (bench/RESULTS.md "perf25"). */
static inline void tb_pcm_cache_copy(tb_pcm_cache* dst, const tb_pcm_cache* src) {
  for (size_t i = 0; i < sizeof *dst; i += 16)
    tb_f4_store((float*)(void*)((char*)dst + i), tb_f4_load((const float*)(const void*)((const char*)src + i)));
}
static inline void tb_pcm_cache_clear(tb_pcm_cache* dst) {
  /* a zero the optimiser cannot see, or it makes the stores a memset again */
  static const volatile float zero = 0.0f;
  const tb_f4 z = tb_f4_splat(zero);
  for (size_t i = 0; i < sizeof *dst; i += 16) tb_f4_store((float*)(void*)((char*)dst + i), z);
}

/* 1 when pairs of these shape types keep a persistent manifold (box–box, capsule–box); | and & as
 * the pair types of a pile alternate at random. Inline: the narrow stage asks it of every pair. */
static inline int tb_pcm_pair_type(int32_t type_a, int32_t type_b) {
  int box_a = type_a == TB_SHAPE_BOX, box_b = type_b == TB_SHAPE_BOX;
  return (box_a & box_b) | ((type_a == TB_SHAPE_CAPSULE) & box_b) | (box_a & (type_b == TB_SHAPE_CAPSULE));
}

/* Pair i (shapes a, c, their geometry ga, gc) from pair pi of the previous matching frame: when the
 * previous manifold had points (at most collision.max_points_per_pair, and as many when the
 * reduction dropped some), the relative pose stayed within the thresholds and every point, moved
 * with its body, stays within 0.8 · margin tangentially of its partner and at most `detect` (m)
 * apart along the normal, fills m with those points (feature ids kept), writes the cache
 * (TB_PCM_REFRESHED) and returns 1. Returns 0 otherwise (the caller runs the full generation). */
int tb_pcm_refresh(const tb_world* w, const tb_pcm_side* a, const tb_pcm_side* c, const tb_match_frame* prev, int32_t pi,
                   float detect, tb_manifold* m, tb_pcm_cache* out);

/* The cache after a full generation of (a, c) into m: its poses and normal (TB_PCM_GENERATED). */
void tb_pcm_generated(const tb_pcm_side* a, const tb_pcm_side* c, const tb_manifold* m, tb_pcm_cache* out);

#endif
