/* Mass properties of shapes from density (internal). */
#ifndef TB_MASS_H
#define TB_MASS_H

#include "../core/math.h"

typedef struct tb_mass_props {
  float mass;          /* kg */
  tb_vec3 center;      /* centre of mass in the body frame, m */
  tb_mat3 inertia;     /* about the centre of mass, body axes, kg·m² */
} tb_mass_props;

/* Mass properties of one shape (params per tb_shape_type) of uniform density (kg/m³), placed at
 * local pose `local` in the body frame. Planes have no mass. */
tb_mass_props tb_shape_mass(int32_t type, const float params[4], float density, tb_transform local);
/* Same, with the shape's owned geometry (hull: exact polyhedral integration of its faces). */
tb_mass_props tb_shape_mass_data(int32_t type, const float params[4], const void* data, float density,
                                 tb_transform local);
/* Sum of two sets of mass properties about their common centre of mass. */
tb_mass_props tb_mass_combine(tb_mass_props a, tb_mass_props b);

#endif
