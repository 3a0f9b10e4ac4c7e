/* Contact model: how two shapes' materials combine into the parameters one contact uses
 * (internal). The rule is the world's solver.combine_rule (tb_combine_rule). */
#ifndef TB_MATERIAL_H
#define TB_MATERIAL_H

#include "../include/tribo.h"
#include "../world/contact_types.h"
#include "../world/world.h"

/* Checks MuJoCo condim (1, 3, 4, 6), solref (finite) and solimp (dmin, dmax in (0, 1), width >= 0,
 * midpoint in [0, 1], power >= 1); an error names `prefix` + the field and its value. */
tb_status tb_mujoco_contact_params_check(tb_world* w, const char* fn, const char* prefix, int32_t condim,
                                 const float solref[2], const float solimp[5]);

/* The default material of a shape of friction μ and restitution e (tb_material_default_into). */
void tb_material_defaults(float friction, float restitution, tb_material* out);

/* Checks every field of a material in declaration order; the first bad one is named with its
 * value, in an error naming fn. */
tb_status tb_material_check(tb_world* w, const char* fn, const tb_material* m);

/* The combined material of the contact between shape slots s0 and s1 (rule of the world), for a
 * pair with points while the material memo is off. */
void tb_combine_materials(const tb_world* w, int32_t s0, int32_t s1, tb_contact_material* out);

/* The combined material of pair i of the last collide (the solvers and the store fill read it):
 * while the material memo is on, its entry for the two shapes' materials; else the one the narrow
 * stage combined for the pair. */
static inline const tb_contact_material* tb_pair_material(const tb_world* w, int32_t i) {
  const tb_material_memo* mm = &w->material_memo;
  if (mm->count > 0) {
    const int32_t* key = w->shapes.material_key;
    return &mm->combined[key[w->pairs[i].shape0] * mm->count + key[w->pairs[i].shape1]];
  }
  return &w->manifold_material[i];
}

/* The material memo (tb_material_memo in world.h). Update, before the narrow stage: rebuilt when
 * it is off, or the world's combine rule, its parameters or the Newton penalty fallback changed
 * since it was built. Release: every pair of the last collide gets its combined material in
 * manifold_material, and the memo is off until the next update; before a shape's material or key
 * changes (the last collide's pairs keep the materials they were found with) and before a
 * snapshot saves the pairs. Off when its table cannot be allocated: the contacts combine their own. */
void tb_material_memo_update(tb_world* w);
void tb_material_memo_release(tb_world* w);
void tb_material_memo_destroy(tb_world* w);

/* The same for two materials directly (one function serves collide() and the tests). */
void tb_combine_material_pair(int32_t rule, const tb_combine_params* params, const tb_material* m0,
                              const tb_material* m1, tb_contact_material* out);

/* TB_CONTACT_PARAM_* bits the combined material of any pair may define under a combine rule (the
 * union of what tb_combine_material_pair and tb_combine_materials set). */
int32_t tb_combine_rule_params(int32_t rule);

/* C(a, b) of one tb_combine_mode. */
float tb_combine_scalar(float a, float b, int32_t mode);

/* Implicit spring of a compliant contact (PhysX negative restitution) over one step h, for one
 * normal row with unit response w = 1/m_eff (1/kg). The 1-D model (fixed effective mass, no friction)
 *   f_n = -k·g⁺ - d·v_n⁺,  v_n⁺ = v_n + w·p_n,  g⁺ = g + h·v_n⁺,  p_n = h·f_n
 * solved for p_n gives p_n = -(h·k·g + a·v_n) / (1 + a·w) with a = h·(d + h·k). An acceleration
 * spring (k in 1/s², d in 1/s) is the same with the denominator 1 + a and p_n = m_eff·Δv.
 * Sign conventions: g = separation minus the rest distance (PhysX restOffset sum; m, < 0 =
 * penetration); v_n = normal velocity of body1 relative
 * to body0 along the normal (m/s, < 0 = closing); p_n >= 0 pushes the bodies apart (N·s).
 * The damper is off (d = 0) when the contact is separated and not expected to close this step
 * (g >= 0 and g + h·v_n >= 0): a damper would otherwise repel before contact. */
typedef struct tb_compliant_row {
  float a;                  /* h·(d + h·k): kg (force form) or 1 (acceleration form); 0 when w <= 0 */
  float velocity_multiplier;/* N·s per m/s: a·x (force) or a·x·m_eff (acceleration) */
  float bias_impulse;       /* N·s: -x·h·k·g (force) or -x·h·k·g·m_eff (acceleration); > 0 in penetration */
  float impulse_multiplier; /* 1: 1 - x, weight of the accumulated impulse in the iteration */
} tb_compliant_row;
/* x = 1/(1 + a·w) (force) or 1/(1 + a) (acceleration). w <= 0 (no response) gives a zero row. */
tb_compliant_row tb_compliant_coefficients(float stiffness, float damping, int acceleration_spring, float h,
                                           float unit_response, float separation, float normal_velocity);
/* One iteration on the row: the new accumulated impulse (N·s, >= 0) from the accumulated impulse p
 * and the current normal velocity v_n (which already contains w·p). Its fixed point is the closed
 * form p_n above; starting from p = 0 with the pre-contact velocity it reaches it in one update. */
static inline float tb_compliant_update(const tb_compliant_row* r, float p, float normal_velocity) {
  float pn = r->impulse_multiplier * p + r->bias_impulse - r->velocity_multiplier * normal_velocity;
  return pn > 0.0f ? pn : 0.0f;
}

#endif
