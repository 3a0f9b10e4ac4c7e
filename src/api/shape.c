/* Public API of shapes: primitives, heightfields, meshes and convex hulls, removal, distances. */
#include <string.h>

#include "../collision/narrow_phase.h"
#include "../geometry/hull.h"
#include "../geometry/mass.h"
#include "../geometry/support_field.h"
#include "../geometry/triangle_mesh.h"
#include "../solver/island.h"
#include "../model/material.h"
#include "api.h"

void tb_shape_slot_clear(tb_world* w, int32_t s) {
  tb_shapes* sh = &w->shapes;
  tb_pair_lists_forget_shape(w, s); /* filtering: the slot leaves the pair lists */
  tb_shape_data_free(sh->type[s], sh->data[s]);
  sh->data[s] = NULL;
  sh->type[s] = -1;
  sh->next[s] = -1;
  tb_material_memo_release(w); /* the last collide's pairs may name the slot */
  sh->material_key[s] = -1;     /* as the memo's next build would write it */
}

void tb_shape_slot_free(tb_world* w, int32_t s) {
  tb_shapes* sh = &w->shapes;
  tb_shape_slot_clear(w, s);
  if (tb_slot_release(&sh->generation[s], w->id_salt)) {
    sh->next[s] = sh->free_head;
    sh->free_head = s;
  }
  tb_undo_forget(w);
}

/* ---- shapes ---- */

/* The params a heightfield, mesh or hull shape carries of its geometry (informative; restore
 * compares them): heightfield cell sizes and sample counts, mesh vertex and triangle counts, hull
 * bounding radius about the vertex centroid and vertex and face counts. */
static void geometry_params(int32_t type, const void* data, float out[4]) {
  memset(out, 0, 4 * sizeof(float));
  if (type == TB_SHAPE_HEIGHTFIELD) {
    const tb_heightfield_data* h = (const tb_heightfield_data*)data;
    out[0] = h->cell_x, out[1] = h->cell_z, out[2] = (float)h->rows, out[3] = (float)h->cols;
  } else if (type == TB_SHAPE_MESH) {
    const tb_mesh_data* m = (const tb_mesh_data*)data;
    out[0] = (float)m->vertex_count, out[1] = (float)m->triangle_count;
  } else if (type == TB_SHAPE_HULL) {
    const tb_hull* h = (const tb_hull*)data;
    out[0] = h->radius, out[1] = (float)h->vertex_count, out[2] = (float)h->face_count;
  }
}

/* Friction >= 0, restitution in [0, 1] and density > 0 of a shape of type name tn (static
 * heightfields and meshes are stored with density 1). */
static tb_status check_surface(tb_world* w, const char* fn, const char* tn, float friction, float restitution, float density) {
  if (!tb_is_finite(friction) || friction < 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s friction must be finite and >= 0 (got %g)", fn, tn, (double)friction);
  if (!tb_is_finite(restitution) || restitution < 0.0f || restitution > 1.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s restitution must be in [0, 1] (got %g)", fn, tn, (double)restitution);
  if (!tb_is_finite(density) || density <= 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s density must be finite and > 0 (got %g)", fn, tn, (double)density);
  return TB_OK;
}

/* The params of a shape of this type on a body of body_type, as creation checks them; a shape
 * with geometry (data) must carry its geometry's params. */
static tb_status check_params(tb_world* w, const char* fn, int32_t type, int32_t body_type, const float params[4],
                              const void* data) {
  const char* tn = tb_shape_type_name(type);
  if (!tb_check_finite(w, fn, "params", params, 4)) return TB_ERR_INVALID_ARGUMENT;
  if ((type == TB_SHAPE_PLANE || type == TB_SHAPE_HEIGHTFIELD || type == TB_SHAPE_MESH) && body_type != TB_BODY_STATIC)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: a %s may only belong to a static body", fn, tn);
  switch (type) {
    case TB_SHAPE_PLANE: {
      float l = sqrtf(params[0] * params[0] + params[1] * params[1] + params[2] * params[2]);
      if (fabsf(l - 1.0f) > 1e-3f)
        return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: plane normal must be a unit vector (got length %g)", fn, (double)l);
      break;
    }
    case TB_SHAPE_SPHERE:
      if (params[0] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: sphere radius must be > 0 (got %g)", fn, (double)params[0]);
      break;
    case TB_SHAPE_CAPSULE:
      if (params[0] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capsule radius must be > 0 (got %g)", fn, (double)params[0]);
      if (params[1] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: capsule halfHeight must be > 0 (got %g)", fn, (double)params[1]);
      break;
    case TB_SHAPE_BOX:
      for (int i = 0; i < 3; ++i)
        if (params[i] <= 0.0f)
          return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: box halfExtents[%d] must be > 0 (got %g)", fn, i, (double)params[i]);
      break;
    /* -- create section: cylinder, ellipsoid -- */
    case TB_SHAPE_CYLINDER:
      if (params[0] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: cylinder radius must be > 0 (got %g)", fn, (double)params[0]);
      if (params[1] <= 0.0f) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: cylinder halfHeight must be > 0 (got %g)", fn, (double)params[1]);
      break;
    case TB_SHAPE_ELLIPSOID:
      for (int i = 0; i < 3; ++i)
        if (params[i] <= 0.0f)
          return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: ellipsoid radii[%d] must be > 0 (got %g)", fn, i, (double)params[i]);
      break;
    default: {
      float own[4];
      geometry_params(type, data, own);
      if (memcmp(own, params, sizeof own) != 0)
        return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s params (%g, %g, %g, %g) must be its geometry's (%g, %g, %g, %g)", fn,
                             tn, (double)params[0], (double)params[1], (double)params[2], (double)params[3], (double)own[0],
                             (double)own[1], (double)own[2], (double)own[3]);
    }
  }
  return TB_OK;
}

/* Stores a validated shape on body slot bslot; takes ownership of data (freed on failure). */
static tb_shape_id insert_shape(tb_world* w, int32_t bslot, tb_shape_type type, const float params[4], void* data,
                                const float local_position[3], const float local_rotation[4], float friction,
                                float restitution, float density) {
  const char* fn = type == TB_SHAPE_HULL ? "addHull" : "addShape";
  tb_shapes* sh = &w->shapes;
  tb_transform local = {tb_v3(local_position[0], local_position[1], local_position[2]),
                        tb_quat_normalize((tb_quat){local_rotation[0], local_rotation[1], local_rotation[2], local_rotation[3]})};
  tb_status st = tb_body_check_new_shape(w, bslot, type, params, data, density, local, fn);
  if (st != TB_OK) return tb_shape_data_free(type, data), -st;
  int32_t s;
  if (sh->free_head >= 0) {
    s = sh->free_head;
    sh->free_head = sh->next[s];
  } else {
    if (sh->count >= TB_MAX_BODIES)
      return tb_shape_data_free(type, data), -tb_world_fail(w, TB_ERR_CAPACITY, "%s: at most %d shape slots (each retired after 2048 ids)", fn, TB_MAX_BODIES);
    if (sh->count == sh->capacity && !tb_shapes_grow(sh, sh->capacity * 2))
      return tb_shape_data_free(type, data), -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d shapes", fn, sh->capacity * 2);
    s = sh->count++;
    sh->generation[s] = w->id_salt;
  }
  if (w->undo_body != bslot) tb_undo_forget(w); /* a shape on another body: no discard */
  sh->body[s] = bslot;
  sh->type[s] = type;
  memcpy(sh->params + 4 * s, params, 4 * sizeof(float));
  sh->local[s] = local;
  sh->friction[s] = friction;
  sh->restitution[s] = restitution;
  sh->density[s] = density;
  sh->data[s] = data;
  /* -- insert section: per-shape defaults (filtering, distances, materials) -- */
  tb_default_shape_filter(&sh->filter[s]);
  sh->margin[s] = sh->gap[s] = sh->contact_offset[s] = sh->rest_offset[s] = 0.0f;
  tb_material_defaults(friction, restitution, &sh->material[s]);
  sh->material[s].solref[0] = w->def.solver.mujoco.default_timeconst; /* per preset: MuJoCo 0.02 s, Genesis 0.01 s */
  tb_material_memo_release(w); /* the memo is rebuilt with this shape's material */
  sh->material_key[s] = -1;
  /* append, so shapes keep their creation order within a body */
  sh->next[s] = -1;
  int32_t* link = &w->bodies.first_shape[bslot];
  while (*link >= 0) link = &sh->next[*link];
  *link = s;
  tb_body_update_mass(w, bslot);
  tb_island_touch_body(w, bslot); /* a sleeping body wakes with its island */
  tb_world_static_bounds_stale(w);
  w->collided = 0;
  return tb_make_id(s, sh->generation[s]);
}

tb_shape_id tb_shape_create(tb_world_id world, tb_body_id body, tb_shape_type type, const float params[4],
                            const float local_position[3], const float local_rotation[4], float friction,
                            float restitution, float density) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "addShape: world %d does not exist", world);
  const char* fn = "addShape";
  int32_t bslot = tb_body_slot_checked(w, body, fn);
  if (bslot < 0) return -TB_ERR_NOT_FOUND;
  if ((int)type < 0 || type >= TB_SHAPE_TYPE_COUNT)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: type must be a known shape type 0..%d (got %d)", fn, TB_SHAPE_TYPE_COUNT - 1, (int)type);
  const char* tn = tb_shape_type_name(type);
  if (tb_shape_has_geometry(type))
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: shape type %s is not available through addShape", fn, tn);
  if (!tb_check_finite(w, fn, "position", local_position, 3) || !tb_check_quat(w, fn, "rotation", local_rotation))
    return -TB_ERR_INVALID_ARGUMENT;
  if (type == TB_SHAPE_PLANE && w->bodies.f.body_type[bslot] != TB_BODY_STATIC)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: a plane may only belong to a static body (body %d is not static)", fn, body);
  tb_status st = check_params(w, fn, type, w->bodies.f.body_type[bslot], params, NULL);
  if (st == TB_OK) st = check_surface(w, fn, tn, friction, restitution, density);
  if (st != TB_OK) return -st;
  return insert_shape(w, bslot, type, params, NULL, local_position, local_rotation, friction, restitution, density);
}

/* ---- heightfield and mesh shapes (static bodies; geometry owned by the shape) ---- */

/* Checks shared by heightfield and mesh creation; returns the body slot or -status. */
static int32_t static_geometry_checks(tb_world* w, tb_body_id body, const char* fn, const char* tn,
                                      const float local_position[3], const float local_rotation[4],
                                      float friction, float restitution) {
  int32_t bslot = tb_body_slot_checked(w, body, fn);
  if (bslot < 0) return -TB_ERR_NOT_FOUND;
  if (w->bodies.f.body_type[bslot] != TB_BODY_STATIC)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: a %s may only belong to a static body (body %d is not static)", fn, tn, body);
  if (!local_position || !local_rotation)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s position and rotation must not be NULL", fn, tn);
  if (!tb_check_finite(w, fn, "position", local_position, 3) || !tb_check_quat(w, fn, "rotation", local_rotation))
    return -TB_ERR_INVALID_ARGUMENT;
  tb_status st = check_surface(w, fn, tn, friction, restitution, 1.0f);
  return st == TB_OK ? bslot : -(int32_t)st;
}

tb_shape_id tb_shape_create_heightfield(tb_world_id world, tb_body_id body, int32_t rows, int32_t cols,
                                        const float* heights, float cell_x, float cell_z,
                                        const float local_position[3], const float local_rotation[4],
                                        float friction, float restitution) {
  tb_world* w = tb_world_get(world);
  const char* fn = "addShape", *tn = "heightfield";
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world);
  int32_t bslot = static_geometry_checks(w, body, fn, tn, local_position, local_rotation, friction, restitution);
  if (bslot < 0) return bslot;
  if (rows < 2 || rows > TB_HEIGHTFIELD_MAX_SAMPLES)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield rows must be in [2, %d] (got %d)", fn, TB_HEIGHTFIELD_MAX_SAMPLES, rows);
  if (cols < 2 || cols > TB_HEIGHTFIELD_MAX_SAMPLES)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield cols must be in [2, %d] (got %d)", fn, TB_HEIGHTFIELD_MAX_SAMPLES, cols);
  if (!tb_is_finite(cell_x) || cell_x <= 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield cellSize[0] must be finite and > 0 (got %g)", fn, (double)cell_x);
  if (!tb_is_finite(cell_z) || cell_z <= 0.0f)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield cellSize[1] must be finite and > 0 (got %g)", fn, (double)cell_z);
  if (!heights) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: heightfield heights must not be NULL", fn);
  if (!tb_check_finite(w, fn, "heightfield heights", heights, rows * cols)) return -TB_ERR_INVALID_ARGUMENT;
  tb_heightfield_data* data = tb_heightfield_data_create(rows, cols, heights, cell_x, cell_z);
  if (!data) return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for a %d x %d heightfield", fn, rows, cols);
  float params[4];
  geometry_params(TB_SHAPE_HEIGHTFIELD, data, params);
  /* density is unused: static shapes have no mass */
  return insert_shape(w, bslot, TB_SHAPE_HEIGHTFIELD, params, data, local_position, local_rotation, friction, restitution, 1.0f);
}

tb_shape_id tb_shape_create_mesh(tb_world_id world, tb_body_id body, const float* vertices, int32_t vertex_count,
                                 const int32_t* indices, int32_t triangle_count, const float local_position[3],
                                 const float local_rotation[4], float friction, float restitution) {
  tb_world* w = tb_world_get(world);
  const char* fn = "addShape", *tn = "mesh";
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "%s: world %d does not exist", fn, world);
  int32_t bslot = static_geometry_checks(w, body, fn, tn, local_position, local_rotation, friction, restitution);
  if (bslot < 0) return bslot;
  if (vertex_count < 3 || vertex_count > TB_MESH_MAX_ELEMENTS)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh vertex count must be in [3, %d] (got %d)", fn, TB_MESH_MAX_ELEMENTS, vertex_count);
  if (triangle_count < 1 || triangle_count > TB_MESH_MAX_ELEMENTS)
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh triangle count must be in [1, %d] (got %d)", fn, TB_MESH_MAX_ELEMENTS, triangle_count);
  if (!vertices || !indices) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh vertices and indices must not be NULL", fn);
  tb_mesh_data* data;
  int32_t bad;
  int r = tb_mesh_data_create(vertices, vertex_count, indices, triangle_count, &data, &bad);
  switch (r) {
    case TB_MESH_OK: break;
    case TB_MESH_NONFINITE_VERTEX: {
      const float* v = vertices + 3 * bad;
      return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh vertices[%d] must be finite (got %g, %g, %g)", fn, bad, (double)v[0], (double)v[1], (double)v[2]);
    }
    case TB_MESH_INDEX_RANGE:
      return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh indices[%d] must be in [0, %d) (got %d)", fn, bad, vertex_count, indices[bad]);
    case TB_MESH_DEGENERATE:
      return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: mesh triangle %d (indices %d, %d, %d) is degenerate (zero area)", fn, bad,
                            indices[3 * bad], indices[3 * bad + 1], indices[3 * bad + 2]);
    default:
      return -tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for a mesh of %d triangles", fn, triangle_count);
  }
  float params[4];
  geometry_params(TB_SHAPE_MESH, data, params);
  return insert_shape(w, bslot, TB_SHAPE_MESH, params, data, local_position, local_rotation, friction, restitution, 1.0f);
}

/* ---- convex hull shapes ---- */

tb_shape_id tb_shape_create_hull_ex(tb_world_id world, tb_body_id body, const float* points, int32_t point_count,
                                    int32_t support_field_resolution, const float local_position[3],
                                    const float local_rotation[4], float friction, float restitution, float density) {
  tb_world* w = tb_world_get(world);
  if (!w) return -tb_world_fail(NULL, TB_ERR_NOT_FOUND, "addHull: world %d does not exist", world);
  const char* fn = "addHull";
  int32_t bslot = tb_body_slot_checked(w, body, fn);
  if (bslot < 0) return -TB_ERR_NOT_FOUND;
  if (!points) return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: points must not be NULL", fn);
  if (!tb_check_finite(w, fn, "position", local_position, 3) || !tb_check_quat(w, fn, "rotation", local_rotation))
    return -TB_ERR_INVALID_ARGUMENT;
  if (support_field_resolution != -1 && support_field_resolution != 0 &&
      (support_field_resolution < 8 || support_field_resolution > 1024))
    return -tb_world_fail(w, TB_ERR_INVALID_ARGUMENT,
                          "%s: supportField.resolution must be -1 (default), 0 (none) or in [8, 1024] (got %d)", fn,
                          support_field_resolution);
  tb_status st = check_surface(w, fn, "hull", friction, restitution, density);
  if (st != TB_OK) return -st;
  tb_hull_error err;
  tb_hull* h = tb_hull_build(points, point_count, support_field_resolution, &err);
  if (!h) {
    st = err.code == 3 ? TB_ERR_OUT_OF_MEMORY : (err.code == 4 ? TB_ERR_CAPACITY : TB_ERR_INVALID_ARGUMENT);
    return -tb_world_fail(w, st, "%s: %s", fn, err.message);
  }
  float params[4];
  geometry_params(TB_SHAPE_HULL, h, params);
  return insert_shape(w, bslot, TB_SHAPE_HULL, params, h, local_position, local_rotation, friction, restitution, density);
}

tb_shape_id tb_shape_create_hull(tb_world_id world, tb_body_id body, const float* points, int32_t point_count,
                                 const float local_position[3], const float local_rotation[4], float friction,
                                 float restitution, float density) {
  return tb_shape_create_hull_ex(world, body, points, point_count, -1, local_position, local_rotation, friction,
                                 restitution, density);
}

tb_status tb_shape_get_hull(tb_world_id world, tb_shape_id shape, tb_hull_info* out) {
  GET_WORLD("getHull");
  int32_t s = tb_shape_slot_checked(w, shape, "getHull");
  if (s < 0) return TB_ERR_NOT_FOUND;
  tb_shapes* sh = &w->shapes;
  if (sh->type[s] != TB_SHAPE_HULL)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getHull: shape %d is a %s, not a hull", shape, tb_shape_type_name(sh->type[s]));
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "getHull: out must not be NULL");
  const tb_hull* h = (const tb_hull*)sh->data[s];
  out->vertex_count = h->vertex_count;
  out->face_count = h->face_count;
  out->edge_count = h->edge_count;
  out->support_field_resolution = h->field ? h->field->res : 0;
  out->support_field_bytes = h->field ? (int64_t)h->field->bytes : 0;
  out->total_bytes = (int64_t)h->bytes;
  out->radius = h->radius;
  return TB_OK;
}

tb_status tb_shape_destroy(tb_world_id world, tb_shape_id shape) {
  GET_WORLD("removeShape");
  int32_t s = tb_shape_slot_checked(w, shape, "removeShape");
  if (s < 0) return TB_ERR_NOT_FOUND;
  tb_shapes* sh = &w->shapes;
  int32_t bslot = sh->body[s];
  int32_t* link = &w->bodies.first_shape[bslot];
  while (*link != s) link = &sh->next[*link];
  tb_island_remove_shape(w, s); /* islands resting on it wake, its body's too */
  *link = sh->next[s];
  tb_shape_slot_free(w, s);
  tb_body_update_mass(w, bslot);
  tb_island_touch_body(w, bslot);
  w->collided = 0;
  return TB_OK;
}

/* ---- distances and matching ---- */

static tb_status check_distances(tb_world* w, const char* fn, float margin, float gap, float contact_offset, float rest_offset) {
  const struct { const char* name; float v; } f[] = {{"margin", margin}, {"gap", gap}, {"contactOffset", contact_offset}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
    if (!tb_is_finite(f[i].v) || f[i].v < 0.0f)
      return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: %s must be finite and >= 0 (got %g)", fn, f[i].name, (double)f[i].v);
  if (!tb_is_finite(rest_offset) || rest_offset > contact_offset)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: restOffset must be finite and <= contactOffset %g (got %g)", fn,
                         (double)contact_offset, (double)rest_offset);
  return TB_OK;
}

tb_status tb_shape_set_distances(tb_world_id world, tb_shape_id shape, float margin, float gap, float contact_offset,
                                 float rest_offset) {
  const char* fn = "setShapeDistances";
  GET_WORLD(fn);
  int32_t s = tb_shape_slot_checked(w, shape, fn);
  if (s < 0) return TB_ERR_NOT_FOUND;
  tb_shapes* sh = &w->shapes;
  tb_status st = check_distances(w, fn, margin, gap, contact_offset, rest_offset);
  if (st != TB_OK) return st;
  sh->margin[s] = margin;
  sh->gap[s] = gap;
  sh->contact_offset[s] = contact_offset;
  sh->rest_offset[s] = rest_offset;
  tb_world_static_bounds_stale(w);
  w->collided = 0;
  return TB_OK;
}

tb_status tb_shape_get_distances(tb_world_id world, tb_shape_id shape, float out[4]) {
  const char* fn = "getShapeDistances";
  GET_WORLD(fn);
  int32_t s = tb_shape_slot_checked(w, shape, fn);
  if (s < 0) return TB_ERR_NOT_FOUND;
  const tb_shapes* sh = &w->shapes;
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  out[0] = sh->margin[s];
  out[1] = sh->gap[s];
  out[2] = sh->contact_offset[s];
  out[3] = sh->rest_offset[s];
  return TB_OK;
}

/* ---- a stored shape, checked as its creation and setters check their inputs (restore) ---- */

tb_status tb_shape_check_slot(tb_world* w, const char* fn, int32_t s) {
  const tb_shapes* sh = &w->shapes;
  int32_t type = sh->type[s];
  const tb_transform* l = &sh->local[s];
  const float position[3] = {l->p.x, l->p.y, l->p.z}, rotation[4] = {l->q.x, l->q.y, l->q.z, l->q.w};
  if (!tb_check_finite(w, fn, "position", position, 3) || !tb_check_quat(w, fn, "rotation", rotation)) return TB_ERR_INVALID_ARGUMENT;
  tb_status st = check_params(w, fn, type, w->bodies.f.body_type[sh->body[s]], sh->params + 4 * s, sh->data[s]);
  if (st == TB_OK) st = check_surface(w, fn, tb_shape_type_name(type), sh->friction[s], sh->restitution[s], sh->density[s]);
  if (st == TB_OK) st = check_distances(w, fn, sh->margin[s], sh->gap[s], sh->contact_offset[s], sh->rest_offset[s]);
  if (st == TB_OK) st = tb_material_check(w, fn, &sh->material[s]);
  return st;
}
