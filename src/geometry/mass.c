#include "mass.h"

#include "../include/tribo.h"
#include "hull.h"

tb_mass_props tb_shape_mass(int32_t type, const float params[4], float density, tb_transform local) {
  tb_mass_props m = {0.0f, local.p, tb_mat3_zero()};
  tb_vec3 d = {0.0f, 0.0f, 0.0f}; /* principal inertia in the shape axes */
  switch (type) {
    case TB_SHAPE_SPHERE: {
      float r = params[0];
      m.mass = density * (4.0f / 3.0f) * TB_PI * r * r * r;
      float i = 0.4f * m.mass * r * r;
      d = tb_v3(i, i, i);
      break;
    }
    case TB_SHAPE_BOX: {
      float x = params[0], y = params[1], z = params[2];
      m.mass = density * 8.0f * x * y * z;
      float k = m.mass / 3.0f;
      d = tb_v3(k * (y * y + z * z), k * (x * x + z * z), k * (x * x + y * y));
      break;
    }
    case TB_SHAPE_CAPSULE: {
      /* Cylinder of length 2h plus two hemispheres; axis = local y. Each hemisphere's centre of
       * mass sits 3r/8 from its flat face. */
      float r = params[0], h = params[1];
      float mc = density * TB_PI * r * r * 2.0f * h;
      float ms = density * (4.0f / 3.0f) * TB_PI * r * r * r;
      m.mass = mc + ms;
      float iy = mc * r * r * 0.5f + ms * 0.4f * r * r;
      float ix = mc * (3.0f * r * r + 4.0f * h * h) / 12.0f + ms * (0.4f * r * r + h * h + 0.75f * h * r);
      d = tb_v3(ix, iy, ix);
      break;
    }
    case TB_SHAPE_CYLINDER: {
      /* axis = local y, length 2h */
      float r = params[0], h = params[1];
      m.mass = density * TB_PI * r * r * 2.0f * h;
      float ix = m.mass * (3.0f * r * r + 4.0f * h * h) / 12.0f;
      d = tb_v3(ix, 0.5f * m.mass * r * r, ix);
      break;
    }
    case TB_SHAPE_ELLIPSOID: {
      float a = params[0], b = params[1], c = params[2];
      m.mass = density * (4.0f / 3.0f) * TB_PI * a * b * c;
      float k = m.mass / 5.0f;
      d = tb_v3(k * (b * b + c * c), k * (a * a + c * c), k * (a * a + b * b));
      break;
    }
    default:
      return m; /* planes: no mass */
  }
  m.inertia = tb_mat3_rotate_diag(local.q, d);
  return m;
}

/* Inertia of a point mass at offset r: m (|r|² I − r rᵀ). */
static tb_mat3 point_inertia(float mass, tb_vec3 r) {
  float rr = tb_dot(r, r);
  tb_mat3 out;
  out.cx = tb_v3(mass * (rr - r.x * r.x), -mass * r.y * r.x, -mass * r.z * r.x);
  out.cy = tb_v3(-mass * r.x * r.y, mass * (rr - r.y * r.y), -mass * r.z * r.y);
  out.cz = tb_v3(-mass * r.x * r.z, -mass * r.y * r.z, mass * (rr - r.z * r.z));
  return out;
}

tb_mass_props tb_mass_combine(tb_mass_props a, tb_mass_props b) {
  if (a.mass <= 0.0f) return b;
  if (b.mass <= 0.0f) return a;
  tb_mass_props c;
  c.mass = a.mass + b.mass;
  c.center = tb_scale(tb_add(tb_scale(a.center, a.mass), tb_scale(b.center, b.mass)), 1.0f / c.mass);
  c.inertia = tb_mat3_add(tb_mat3_add(a.inertia, point_inertia(a.mass, tb_sub(a.center, c.center))),
                          tb_mat3_add(b.inertia, point_inertia(b.mass, tb_sub(b.center, c.center))));
  return c;
}

tb_mass_props tb_shape_mass_data(int32_t type, const float params[4], const void* data, float density,
                                 tb_transform local) {
  if (type != TB_SHAPE_HULL || !data) return tb_shape_mass(type, params, density, local);
  float vol;
  tb_vec3 c;
  tb_mat3 inertia;
  tb_hull_mass((const tb_hull*)data, &vol, &c, &inertia);
  tb_mass_props m;
  m.mass = density * vol;
  m.center = tb_transform_point(local, c);
  /* R I Rᵀ: the hull's inertia in the body axes */
  tb_mat3 r = tb_mat3_from_quat(local.q);
  m.inertia = tb_mat3_scale(tb_mat3_mul(tb_mat3_mul(r, inertia), tb_mat3_transpose(r)), density);
  return m;
}
