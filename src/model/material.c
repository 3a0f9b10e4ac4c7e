/* Material combine rules, material defaults and checks (the per-shape setters: src/api/material.c)
 * and the compliant-contact spring. */
#include "material.h"


#include <math.h>
#include <string.h>

#include "../core/alloc.h"
#include "../world/check.h"

float tb_combine_scalar(float a, float b, int32_t mode) {
  switch (mode) {
    case TB_COMBINE_MIN: return a < b ? a : b;
    case TB_COMBINE_MULTIPLY: return a * b;
    case TB_COMBINE_MAX: return a > b ? a : b;
    default: return 0.5f * (a + b);
  }
}

static inline int32_t max_mode(int32_t m0, int32_t m1) { return m0 > m1 ? m0 : m1; }

/* PhysX: each side names a mode, the pair uses the larger enum. Static and dynamic friction are
 * combined separately, then μd = max(μd, 0) and μs = max(μs, μd). Disable-friction on either side
 * zeroes both and also disables strong friction. A shape with compliant_stiffness k > 0 has the
 * PhysX restitution -k: with exactly one compliant side restitution combines by MIN (keeping the
 * negative value) and damping by MAX; with both compliant and exactly one an acceleration spring,
 * that side's stiffness and damping win; with both compliant under MULTIPLY the product is negated
 * so it stays a spring. Flags are the union of both sides' flags. */
static void combine_physx(const tb_material* m0, const tb_material* m1, tb_contact_material* out) {
  int32_t flags = m0->flags | m1->flags;
  if (flags & TB_MATERIAL_DISABLE_FRICTION) {
    out->static_friction = out->dynamic_friction = 0.0f;
    out->flags |= TB_CONTACT_MATERIAL_NO_FRICTION | TB_CONTACT_MATERIAL_NO_STRONG_FRICTION;
  } else {
    int32_t mode = max_mode(m0->friction_combine, m1->friction_combine);
    float mud = tb_combine_scalar(m0->dynamic_friction, m1->dynamic_friction, mode);
    float mus = tb_combine_scalar(m0->static_friction, m1->static_friction, mode);
    mud = mud > 0.0f ? mud : 0.0f;
    out->dynamic_friction = mud;
    out->static_friction = mus >= mud ? mus : mud;
    if (flags & TB_MATERIAL_DISABLE_STRONG_FRICTION) out->flags |= TB_CONTACT_MATERIAL_NO_STRONG_FRICTION;
  }
  out->defined |= TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_RESTITUTION;

  int c0 = m0->compliant_stiffness > 0.0f, c1 = m1->compliant_stiffness > 0.0f;
  float r0 = c0 ? -m0->compliant_stiffness : m0->restitution;
  float r1 = c1 ? -m1->compliant_stiffness : m1->restitution;
  float d0 = m0->compliant_damping, d1 = m1->compliant_damping;
  int acc0 = (m0->flags & TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING) != 0;
  int acc1 = (m1->flags & TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING) != 0;
  int one = c0 ^ c1, both = c0 & c1, one_acc = acc0 ^ acc1;
  float r, d;
  if (both && one_acc) {
    r = acc0 ? r0 : r1;
    d = acc0 ? d0 : d1;
  } else {
    int32_t rmode = one ? TB_COMBINE_MIN : max_mode(m0->restitution_combine, m1->restitution_combine);
    r = tb_combine_scalar(r0, r1, rmode);
    if (both && rmode == TB_COMBINE_MULTIPLY) r = -r;
    int32_t dmode = one ? TB_COMBINE_MAX : max_mode(m0->damping_combine, m1->damping_combine);
    d = tb_combine_scalar(d0, d1, dmode);
  }
  if (r < 0.0f) {
    out->flags |= TB_CONTACT_MATERIAL_COMPLIANT;
    if (flags & TB_MATERIAL_COMPLIANT_ACCELERATION_SPRING) out->flags |= TB_CONTACT_MATERIAL_ACCELERATION_SPRING;
    out->restitution = 0.0f;
    out->stiffness = -r;
    out->damping = d;
    out->defined = (out->defined & ~TB_CONTACT_PARAM_RESTITUTION) | TB_CONTACT_PARAM_SPRING;
  } else {
    out->restitution = r;
  }
}

/* MuJoCo (mj_contactParam): different priority -> every parameter from the higher side; equal
 * priority -> condim max, friction elementwise max, solimp mixed by the solmix weight
 * w = s0/(s0 + s1) (both below 1e-15: 1/2; only one below: the other side gets weight 1), solref
 * mixed the same way when both first terms are positive (standard format) else elementwise min,
 * adhesion summed. Friction expands to (slide, slide, spin, roll, roll), each at least 1e-5. */
#define TB_MJ_MINVAL 1e-15f
#define TB_MJ_MINMU 1e-5f
static void combine_mujoco(const tb_material* m0, const tb_material* m1, tb_contact_material* out) {
  float fr[3];
  if (m0->priority != m1->priority) {
    const tb_material* m = m0->priority > m1->priority ? m0 : m1;
    out->condim = m->condim;
    fr[0] = m->dynamic_friction; fr[1] = m->torsional_friction; fr[2] = m->rolling_friction;
    memcpy(out->solref, m->solref, sizeof out->solref);
    memcpy(out->solimp, m->solimp, sizeof out->solimp);
    out->adhesion = m->adhesion;
  } else {
    out->condim = m0->condim > m1->condim ? m0->condim : m1->condim;
    fr[0] = fmaxf(m0->dynamic_friction, m1->dynamic_friction);
    fr[1] = fmaxf(m0->torsional_friction, m1->torsional_friction);
    fr[2] = fmaxf(m0->rolling_friction, m1->rolling_friction);
    float s0 = m0->solmix, s1 = m1->solmix, mix;
    if (s0 >= TB_MJ_MINVAL && s1 >= TB_MJ_MINVAL) mix = s0 / (s0 + s1);
    else if (s0 < TB_MJ_MINVAL && s1 < TB_MJ_MINVAL) mix = 0.5f;
    else mix = s0 < TB_MJ_MINVAL ? 0.0f : 1.0f;
    int standard = m0->solref[0] > 0.0f && m1->solref[0] > 0.0f;
    for (int i = 0; i < 2; ++i)
      out->solref[i] = standard ? mix * m0->solref[i] + (1.0f - mix) * m1->solref[i] : fminf(m0->solref[i], m1->solref[i]);
    for (int i = 0; i < 5; ++i) out->solimp[i] = mix * m0->solimp[i] + (1.0f - mix) * m1->solimp[i];
    out->adhesion = m0->adhesion + m1->adhesion;
  }
  out->static_friction = out->dynamic_friction = fmaxf(fr[0], TB_MJ_MINMU);
  out->torsional_friction = fmaxf(fr[1], TB_MJ_MINMU);
  out->rolling_friction = fmaxf(fr[2], TB_MJ_MINMU);
  const float five[5] = {out->dynamic_friction, out->dynamic_friction, out->torsional_friction, out->rolling_friction,
                         out->rolling_friction};
  memcpy(out->friction, five, sizeof five);
  out->solref_friction[0] = out->solref_friction[1] = 0.0f; /* geoms have none: 0 = unset (solref applies) */
  out->defined = TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_SPIN | TB_CONTACT_PARAM_MUJOCO;
}

int32_t tb_combine_rule_params(int32_t rule) {
  switch (rule) {
    case TB_COMBINE_RULE_PHYSX: /* a compliant pair: a spring instead of restitution */
      return TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_RESTITUTION | TB_CONTACT_PARAM_SPRING;
    case TB_COMBINE_RULE_VBD: return TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_SPRING;
    case TB_COMBINE_RULE_MUJOCO: return TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_SPIN | TB_CONTACT_PARAM_MUJOCO;
    case TB_COMBINE_RULE_KAMINO: return TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_RESTITUTION;
    default:
      return TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_RESTITUTION | TB_CONTACT_PARAM_SPRING |
             TB_CONTACT_PARAM_SPIN | TB_CONTACT_PARAM_PENALTY;
  }
}

void tb_combine_material_pair(int32_t rule, const tb_combine_params* params, const tb_material* m0,
                              const tb_material* m1, tb_contact_material* out) {
  memset(out, 0, sizeof *out);
  switch (rule) {
    case TB_COMBINE_RULE_PHYSX:
      combine_physx(m0, m1, out);
      break;
    case TB_COMBINE_RULE_VBD: {
      /* Newton VBD rigid: ke, kd arithmetic means; μ = sqrt(μ0·μ1) */
      float mu = sqrtf(m0->dynamic_friction * m1->dynamic_friction);
      out->static_friction = out->dynamic_friction = mu;
      out->ke = out->stiffness = 0.5f * (m0->ke + m1->ke);
      out->kd = out->damping = 0.5f * (m0->kd + m1->kd);
      out->defined = TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_SPRING;
      break;
    }
    case TB_COMBINE_RULE_MUJOCO:
      combine_mujoco(m0, m1, out);
      break;
    case TB_COMBINE_RULE_KAMINO: {
      /* Kamino through Newton contacts: μ and restitution, each with its configured mode */
      float mu = tb_combine_scalar(m0->dynamic_friction, m1->dynamic_friction, params->kamino_friction);
      out->static_friction = out->dynamic_friction = mu;
      out->restitution = tb_combine_scalar(m0->restitution, m1->restitution, params->kamino_restitution);
      out->defined = TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_RESTITUTION;
      break;
    }
    default: {
      /* Newton XPBD / penalty: arithmetic means of μ, torsional, rolling, restitution, ke, kd, kf, ka */
      float mu = 0.5f * (m0->dynamic_friction + m1->dynamic_friction);
      out->static_friction = out->dynamic_friction = mu;
      out->restitution = 0.5f * (m0->restitution + m1->restitution);
      out->torsional_friction = 0.5f * (m0->torsional_friction + m1->torsional_friction);
      out->rolling_friction = 0.5f * (m0->rolling_friction + m1->rolling_friction);
      out->ke = out->stiffness = 0.5f * (m0->ke + m1->ke);
      out->kd = out->damping = 0.5f * (m0->kd + m1->kd);
      out->kf = 0.5f * (m0->kf + m1->kf);
      out->ka = 0.5f * (m0->ka + m1->ka);
      out->defined = TB_CONTACT_PARAM_FRICTION | TB_CONTACT_PARAM_RESTITUTION | TB_CONTACT_PARAM_SPRING |
                     TB_CONTACT_PARAM_SPIN | TB_CONTACT_PARAM_PENALTY;
      break;
    }
  }
}

/* Two shape materials under the world's rule with the world's Newton penalty parameters where
 * both leave them unset (ke = 0): everything of a contact's material but a MuJoCo explicit pair's. */
static void combine_shapes(const tb_world* w, const tb_material* m0, const tb_material* m1, tb_contact_material* out) {
  int32_t rule = w->def.solver.combine_rule;
  tb_combine_material_pair(rule, &w->def.solver.combine, m0, m1, out);
  if ((rule == TB_COMBINE_RULE_MEAN || rule == TB_COMBINE_RULE_VBD) && out->ke == 0.0f) {
    const tb_newton_params* np = &w->def.solver.newton;
    out->ke = np->ke;
    out->kd = np->kd;
    out->kf = np->kf;
    out->ka = np->ka;
    if (out->defined & TB_CONTACT_PARAM_SPRING) { out->stiffness = np->ke; out->damping = np->kd; }
  }
}

void tb_combine_materials(const tb_world* w, int32_t s0, int32_t s1, tb_contact_material* out) {
  const tb_shapes* s = &w->shapes;
  combine_shapes(w, &s->material[s0], &s->material[s1], out);
  /* a MuJoCo explicit `pair` carries its own parameters (mujoco §5), which replace the geoms'
   * combination: five friction numbers, condim, solref, solreffriction, solimp, adhesion */
  if (w->def.solver.combine_rule == TB_COMBINE_RULE_MUJOCO) {
    const tb_contact_pair_params* cp = tb_filter_contact_pair(w, s0, s1);
    if (cp) {
      memcpy(out->friction, cp->friction, sizeof out->friction);
      out->static_friction = out->dynamic_friction = cp->friction[0];
      out->torsional_friction = cp->friction[2];
      out->rolling_friction = cp->friction[3];
      out->condim = cp->condim;
      memcpy(out->solref, cp->solref, sizeof out->solref);
      memcpy(out->solref_friction, cp->solreffriction, sizeof out->solref_friction);
      memcpy(out->solimp, cp->solimp, sizeof out->solimp);
      out->adhesion = cp->adhesion;
    }
  }
}

/* ---- the material memo ---- */

static tb_material_memo_inputs memo_inputs(const tb_world* w) {
  tb_material_memo_inputs in;
  memset(&in, 0, sizeof in); /* the padding too: compared bytewise */
  in.valid = 1;
  in.rule = w->def.solver.combine_rule;
  memcpy(&in.combine, &w->def.solver.combine, sizeof in.combine);
  const tb_newton_params* np = &w->def.solver.newton;
  const float penalty[4] = {np->ke, np->kd, np->kf, np->ka};
  memcpy(in.penalty, penalty, sizeof penalty);
  in.explicit_pairs = in.rule == TB_COMBINE_RULE_MUJOCO && w->contact_pairs.count > 0;
  return in;
}

void tb_material_memo_release(tb_world* w) {
  tb_material_memo* mm = &w->material_memo;
  if (mm->count > 0)
    for (int32_t i = 0; i < w->pair_count; ++i) w->manifold_material[i] = *tb_pair_material(w, i);
  mm->count = 0;
  mm->built.valid = 0;
}

/* Each live shape's key is its material's first appearance in slot order among the distinct ones
 * (compared bytewise, as set): a function of the shapes alone, so a restored world rebuilds the
 * same keys. Free slots and every slot while the memo is off hold -1. */
void tb_material_memo_update(tb_world* w) {
  tb_material_memo* mm = &w->material_memo;
  tb_material_memo_inputs in = memo_inputs(w);
  if (memcmp(&in, &mm->built, sizeof in) == 0) return;
  mm->built = in;
  mm->count = 0;
  tb_shapes* s = &w->shapes;
  if (!mm->distinct) { /* both or neither */
    tb_material* distinct = (tb_material*)tb_alloc_array(TB_MATERIAL_MEMO_MAX, sizeof *distinct);
    tb_contact_material* combined =
        (tb_contact_material*)tb_alloc_array(TB_MATERIAL_MEMO_MAX * TB_MATERIAL_MEMO_MAX, sizeof *combined);
    if (distinct && combined) {
      mm->distinct = distinct;
      mm->combined = combined;
    } else {
      if (distinct) tb_free(distinct, TB_MATERIAL_MEMO_MAX * sizeof *distinct);
      if (combined) tb_free(combined, TB_MATERIAL_MEMO_MAX * TB_MATERIAL_MEMO_MAX * sizeof *combined);
    }
  }
  if (!mm->distinct) mm->built.valid = 0; /* off now, and allocation tried again at the next collide */
  int32_t count = 0;
  int on = mm->distinct && !in.explicit_pairs;
  for (int32_t id = 0; on && id < s->count; ++id) {
    if (s->type[id] < 0) {
      s->material_key[id] = -1;
      continue;
    }
    int32_t k = 0;
    while (k < count && memcmp(&mm->distinct[k], &s->material[id], sizeof(tb_material)) != 0) ++k;
    if (k == count) {
      if (count == TB_MATERIAL_MEMO_MAX) { on = 0; break; } /* too many to tabulate: each contact combines */
      mm->distinct[count++] = s->material[id];
    }
    s->material_key[id] = k;
  }
  if (!on) {
    for (int32_t id = 0; id < s->count; ++id) s->material_key[id] = -1;
    return;
  }
  for (int32_t i = 0; i < count; ++i)
    for (int32_t j = 0; j < count; ++j) combine_shapes(w, &mm->distinct[i], &mm->distinct[j], &mm->combined[i * count + j]);
  mm->count = count;
}

void tb_material_memo_destroy(tb_world* w) {
  tb_material_memo* mm = &w->material_memo;
  if (mm->distinct) tb_free(mm->distinct, TB_MATERIAL_MEMO_MAX * sizeof *mm->distinct);
  if (mm->combined) tb_free(mm->combined, TB_MATERIAL_MEMO_MAX * TB_MATERIAL_MEMO_MAX * sizeof *mm->combined);
  memset(mm, 0, sizeof *mm);
}

/* ---- compliant contact spring ---- */

tb_compliant_row tb_compliant_coefficients(float stiffness, float damping, int acceleration_spring, float h,
                                           float unit_response, float separation, float normal_velocity) {
  tb_compliant_row r = {0.0f, 0.0f, 0.0f, 0.0f};
  if (!(unit_response > 0.0f)) return r;
  int closing = separation < 0.0f || separation + h * normal_velocity < 0.0f;
  float d = closing ? damping : 0.0f;
  float mass = acceleration_spring ? 1.0f / unit_response : 1.0f; /* m_eff or 1 */
  float resp = acceleration_spring ? 1.0f : unit_response;
  r.a = h * (d + h * stiffness);
  float x = 1.0f / (1.0f + r.a * resp);
  r.velocity_multiplier = r.a * x * mass;
  r.bias_impulse = -x * h * stiffness * separation * mass;
  r.impulse_multiplier = 1.0f - x;
  return r;
}

/* ---- per-shape materials (public API) ---- */

/* Bindings address tb_material as 26 four-byte words (js/world.js MAT). */
_Static_assert(sizeof(tb_material) == 26 * 4, "tb_material layout changed: update js/world.js MAT");

void tb_material_defaults(float friction, float restitution, tb_material* out) {
  memset(out, 0, sizeof *out);
  out->static_friction = friction;
  out->dynamic_friction = friction;
  out->restitution = restitution;
  out->friction_combine = TB_COMBINE_AVERAGE;
  out->restitution_combine = TB_COMBINE_AVERAGE;
  out->damping_combine = TB_COMBINE_AVERAGE;
  /* Newton ShapeConfig defaults; ke = kd = kf = ka = 0: unset, the world's Newton parameters
   * (tb_newton_params ke, kd, kf, ka, Newton's ShapeConfig defaults) apply */
  out->torsional_friction = 0.005f;
  out->rolling_friction = 0.0001f;
  out->ke = 0.0f;
  out->kd = 0.0f;
  out->kf = 0.0f;
  out->ka = 0.0f;
  /* MuJoCo geom defaults */
  out->priority = 0;
  out->condim = 3;
  out->solmix = 1.0f;
  out->solref[0] = 0.02f;
  out->solref[1] = 1.0f;
  const float imp[5] = {0.9f, 0.95f, 0.001f, 0.5f, 2.0f};
  memcpy(out->solimp, imp, sizeof imp);
  out->adhesion = 0.0f;
}

tb_status tb_mujoco_contact_params_check(tb_world* w, const char* fn, const char* prefix, int32_t condim, const float solref[2],
                                 const float solimp[5]) {
  if (condim != 1 && condim != 3 && condim != 4 && condim != 6)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %scondim must be 1, 3, 4 or 6 (got %d)", fn, prefix, condim);
  for (int i = 0; i < 2; ++i)
    if (!tb_is_finite(solref[i]))
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %ssolref[%d] must be finite (got %g)", fn, prefix, i, (double)solref[i]);
  /* solimp: dmin, dmax in (0, 1), width >= 0, midpoint in [0, 1], power >= 1 */
  const float lo[5] = {0.0f, 0.0f, 0.0f, 0.0f, 1.0f}, hi[5] = {1.0f, 1.0f, INFINITY, 1.0f, INFINITY};
  const int open_lo[5] = {1, 1, 0, 0, 0}, open_hi[5] = {1, 1, 0, 0, 0};
  const char* range[5] = {"in (0, 1)", "in (0, 1)", "finite and >= 0", "in [0, 1]", "finite and >= 1"};
  for (int i = 0; i < 5; ++i) {
    float v = solimp[i];
    if (!tb_is_finite(v) || v < lo[i] || v > hi[i] || (open_lo[i] && v == lo[i]) || (open_hi[i] && v == hi[i]))
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %ssolimp[%d] must be %s (got %g)", fn, prefix, i, range[i], (double)v);
  }
  return TB_OK;
}

tb_status tb_material_check(tb_world* w, const char* fn, const tb_material* m) {
  const tb_float_field f[] = {
      {"static_friction", m->static_friction, TB_FLOAT_NONNEG},
      {"dynamic_friction", m->dynamic_friction, TB_FLOAT_NONNEG},
      {"restitution", m->restitution, TB_FLOAT_UNIT},
      {"compliant_stiffness", m->compliant_stiffness, TB_FLOAT_NONNEG},
      {"compliant_damping", m->compliant_damping, TB_FLOAT_NONNEG},
      {"torsional_friction", m->torsional_friction, TB_FLOAT_NONNEG},
      {"rolling_friction", m->rolling_friction, TB_FLOAT_NONNEG},
      {"ke", m->ke, TB_FLOAT_NONNEG},
      {"kd", m->kd, TB_FLOAT_NONNEG},
      {"kf", m->kf, TB_FLOAT_NONNEG},
      {"ka", m->ka, TB_FLOAT_NONNEG},
      {"solmix", m->solmix, TB_FLOAT_NONNEG},
      {"adhesion", m->adhesion, TB_FLOAT_NONNEG},
  };
  tb_status st = tb_check_floats(w, fn, "", TB_FIELDS_OF(f));
  if (st != TB_OK) return st;
  const struct { const char* name; int32_t v; } e[] = {
      {"friction_combine", m->friction_combine},
      {"restitution_combine", m->restitution_combine},
      {"damping_combine", m->damping_combine},
  };
  for (size_t i = 0; i < sizeof e / sizeof e[0]; ++i)
    if (e[i].v < 0 || e[i].v >= TB_COMBINE_MODE_COUNT)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT,
                           "%s: %s must be 0 (average), 1 (min), 2 (multiply) or 3 (max) (got %d)", fn, e[i].name, e[i].v);
  st = tb_mujoco_contact_params_check(w, fn, "", m->condim, m->solref, m->solimp);
  if (st != TB_OK) return st;
  if (m->flags & ~TB_MATERIAL_FLAGS_ALL)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: flags has unknown bits 0x%x (known: 0x%x)", fn,
                         (unsigned)(m->flags & ~TB_MATERIAL_FLAGS_ALL), (unsigned)TB_MATERIAL_FLAGS_ALL);
  return TB_OK;
}
