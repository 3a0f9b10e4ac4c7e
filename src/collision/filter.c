/* Pair filtering per rule: Newton groups and worlds, MuJoCo bitmasks, parent/child and explicit
 * pairs, PhysX filter words and triggers, Genesis adjacency; sleeping bodies act as static. */
#include "filter.h"

/* Newton collision groups: 0 none; positive with the same positive or any negative; negative with
 * everything but the same negative. */
static int newton_groups_collide(int32_t ga, int32_t gb) {
  if (ga == 0 || gb == 0) return 0;
  if (ga > 0) return ga == gb || gb < 0;
  return ga != gb;
}

static int bitmask_compatible(const tb_shape_filter* fa, const tb_shape_filter* fb) {
  return (fa->contype & fb->conaffinity) != 0 || (fb->contype & fa->conaffinity) != 0;
}

static int parent_child(const tb_bodies* b, int32_t ba, int32_t bb) {
  return b->parent[ba] == bb || b->parent[bb] == ba;
}

static int32_t physx_flags(const tb_shape_filter* fa, const tb_shape_filter* fb) {
  const uint32_t* a = fa->filter_data;
  const uint32_t* b = fb->filter_data;
  if (a[0] && a[1] && b[0] && b[1] && !((a[0] & b[1]) && (b[0] & a[1]))) return 0;
  if (fa->trigger && fb->trigger) return 0; /* PhysX has no trigger-trigger pairs */
  if (fa->trigger || fb->trigger) return TB_PAIR_DETECT | TB_PAIR_NOTIFY | TB_PAIR_TRIGGER;
  /* eCONTACT_DEFAULT = detect + solve; reports only where the user asked (word2) */
  int32_t f = TB_PAIR_DETECT | TB_PAIR_SOLVE;
  if ((a[2] & b[0]) || (b[2] & a[0])) f |= TB_PAIR_NOTIFY;
  return f;
}

static int moving(const tb_bodies* b, int32_t i) {
  const float* v = b->f.linear_velocity + 3 * i;
  const float* a = b->f.angular_velocity + 3 * i;
  return v[0] != 0.0f || v[1] != 0.0f || v[2] != 0.0f || a[0] != 0.0f || a[1] != 0.0f || a[2] != 0.0f;
}

TB_INLINE_HOT int32_t tb_filter_pair(const tb_world* w, int32_t a, int32_t b) {
  const tb_shapes* s = &w->shapes;
  const tb_bodies* bd = &w->bodies;
  int32_t ba = s->body[a], bb = s->body[b];
  if (ba == bb) return 0;
  /* bodies joined without collide_connected never collide, in every rule */
  if (w->joint_pairs.count > 0 && tb_pair_keys_find(&w->joint_pairs, tb_slot_pair_key(ba, bb)) >= 0) return 0;
  /* a pair needs one awake dynamic body: sleeping bodies act as static; under automatic sleep a
   * moving kinematic body counts as awake, so its contact can wake a sleeping body */
  const int32_t* type = bd->f.body_type;
  int awake_a = type[ba] == TB_BODY_DYNAMIC && !bd->f.asleep[ba];
  int awake_b = type[bb] == TB_BODY_DYNAMIC && !bd->f.asleep[bb];
  if (!awake_a && !awake_b && w->def.solver.sleep.mode != TB_SLEEP_OFF) {
    int kin_a = type[ba] == TB_BODY_KINEMATIC && moving(bd, ba), kin_b = type[bb] == TB_BODY_KINEMATIC && moving(bd, bb);
    int sleeps_a = type[ba] == TB_BODY_DYNAMIC, sleeps_b = type[bb] == TB_BODY_DYNAMIC;
    awake_a = kin_a && sleeps_b;
    awake_b = kin_b && sleeps_a;
  }
  if (!awake_a && !awake_b) return 0;
  if (s->type[a] == TB_SHAPE_PLANE && s->type[b] == TB_SHAPE_PLANE) return 0;
  const tb_shape_filter* fa = &s->filter[a];
  const tb_shape_filter* fb = &s->filter[b];
  const int32_t all = TB_PAIR_DETECT | TB_PAIR_SOLVE | TB_PAIR_NOTIFY;
  switch (w->def.collision.filter_rule) {
    case TB_FILTER_NEWTON:
      if (fa->world >= 0 && fb->world >= 0 && fa->world != fb->world) return 0;
      if (!newton_groups_collide(fa->collision_group, fb->collision_group)) return 0;
      if (tb_pair_keys_find(&w->shape_exclusions, tb_slot_pair_key(a, b)) >= 0) return 0;
      return all;
    case TB_FILTER_MUJOCO:
      /* an explicit pair bypasses the bitmask, parent/child and body exclusions */
      if (tb_pair_keys_find(&w->contact_pairs, tb_slot_pair_key(a, b)) >= 0) return all | TB_PAIR_EXPLICIT;
      if (parent_child(bd, ba, bb)) return 0;
      if (tb_pair_keys_find(&w->body_exclusions, tb_slot_pair_key(ba, bb)) >= 0) return 0;
      return bitmask_compatible(fa, fb) ? all : 0;
    case TB_FILTER_PHYSX:
      return physx_flags(fa, fb);
    case TB_FILTER_GENESIS:
      if (parent_child(bd, ba, bb)) return 0;
      return bitmask_compatible(fa, fb) ? all : 0;
    default:
      return 0;
  }
}

