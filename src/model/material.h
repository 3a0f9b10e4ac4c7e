/* Contact model: how two shapes' materials combine into the parameters one contact uses
 * (internal). The rule is the world's solver.combine_rule (tb_combine_rule). */
#ifndef TB_MATERIAL_H
#define TB_MATERIAL_H

#include "../include/tribo.h"

struct tb_world;

/* Flags of a combined contact material. */
enum {
  TB_CONTACT_MATERIAL_NO_FRICTION = 1,        /* PhysX disable-friction on either shape */
  TB_CONTACT_MATERIAL_NO_STRONG_FRICTION = 2, /* PhysX: no friction memory across frames */
  TB_CONTACT_MATERIAL_COMPLIANT = 4           /* PhysX negative restitution: a spring contact */
};

/* Parameters one contact uses after the combine rule (units in each comment). */
typedef struct tb_contact_material {
  float static_friction;   /* 1: Coulomb μ for sticking (PhysX); = dynamic for other rules */
  float dynamic_friction;  /* 1: Coulomb μ while sliding; the μ of every other rule */
  float restitution;       /* 1, in [0, 1]; when COMPLIANT: 0 */
  float stiffness;         /* COMPLIANT: spring stiffness (N/m, or 1/s² for acceleration springs) */
  float damping;           /* COMPLIANT: damping (N·s/m, or 1/s) */
  float torsional_friction;/* m: Newton torsional coefficient (μ_t · length) */
  float rolling_friction;  /* m: Newton rolling coefficient */
  float ke, kd, kf, ka;    /* Newton penalty: N/m, N·s/m, N·s/m, m (adhesion range) */
  int32_t flags;           /* TB_CONTACT_MATERIAL_* */
} tb_contact_material;

/* The combined material of the contact between shape slots s0 and s1. */
void tb_combine_materials(const struct tb_world* w, int32_t s0, int32_t s1, tb_contact_material* out);

#endif
