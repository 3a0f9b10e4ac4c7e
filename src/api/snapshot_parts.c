/* Snapshot pieces of what a world owns beside its stores (internal, for snapshot.c): the geometry
 * of hull, mesh and heightfield shapes (a hull copied as built; a mesh and a heightfield rebuilt
 * from their vertices, indices or heights, which is deterministic) and the observation state
 * (sensors with their rings, events, pair thresholds, the last two contact and pair frames). A
 * reader checks every count and value before it allocates or indexes with it. */
#include <string.h>

#include "../geometry/hull.h"
#include "../geometry/triangle_mesh.h"
#include "../observe/observe.h"
#include "snapshot_parts.h"

void tb_snapshot_put_geometry(tb_serial* s, int32_t type, const void* data) {
  if (type == TB_SHAPE_HULL) {
    size_t n = tb_hull_image((const tb_hull*)data, NULL);
    tb_put_i32(s, (int32_t)n);
    if (s->out && s->pos + n <= s->size) tb_hull_image((const tb_hull*)data, s->out + s->pos);
    s->pos += n;
  } else if (type == TB_SHAPE_MESH) {
    const tb_mesh_data* m = (const tb_mesh_data*)data;
    tb_put_i32(s, m->vertex_count);
    tb_put_i32(s, m->triangle_count);
    tb_put(s, m->vertices, (size_t)m->vertex_count * sizeof(tb_vec3));
    tb_put(s, m->indices, (size_t)m->triangle_count * 3 * sizeof(int32_t));
  } else if (type == TB_SHAPE_HEIGHTFIELD) {
    const tb_heightfield_data* hf = (const tb_heightfield_data*)data;
    tb_put_i32(s, hf->rows);
    tb_put_i32(s, hf->cols);
    tb_put(s, &hf->cell_x, sizeof(float));
    tb_put(s, &hf->cell_z, sizeof(float));
    tb_put(s, hf->heights, (size_t)hf->rows * (size_t)hf->cols * sizeof(float));
  }
}

void tb_snapshot_put_observe(tb_serial* s, tb_observe* o) {
  tb_put_i32(s, o != NULL);
  if (!o) return;
  tb_put_i32(s, o->solve_count);
  tb_sensors* sn = &o->sensors;
  tb_array_ref a[16];
  int na = tb_observe_sensor_arrays(sn, a);
  tb_put_i32(s, sn->count);
  for (int i = 0; i < 6; ++i) tb_put(s, *a[i].ptr, (size_t)sn->count * a[i].elem_size); /* the int arrays */
  for (int32_t i = 0; i < sn->count; ++i) {
    if (sn->body[i] < 0) continue; /* free (-1) or retired (-2) */
    size_t cap = (size_t)sn->capacity[i];
    tb_put(s, sn->history[i], 3 * cap * sizeof(float));
    tb_put(s, sn->valid[i], cap * sizeof(int32_t));
    tb_put(s, sn->steps[i], cap * sizeof(int32_t));
  }
  (void)na;
  const int32_t ints[] = {o->event_capacity, o->event_count, o->event_requested, o->force_available,
                          o->event_step, o->threshold_count, o->current, o->have_previous};
  tb_put(s, ints, sizeof ints);
  tb_put(s, &o->world_threshold, sizeof(float));
  tb_put(s, o->events, (size_t)o->event_count * sizeof(tb_contact_event));
  tb_put(s, o->thresholds, (size_t)o->threshold_count * sizeof(tb_pair_threshold));
  for (int i = 0; i < 2; ++i) {
    tb_put_i32(s, o->contact_count[i]);
    tb_put(s, o->contacts[i], (size_t)o->contact_count[i] * sizeof(tb_event_contact));
    tb_put_i32(s, o->pair_count[i]);
    tb_put(s, o->pairs[i], (size_t)o->pair_count[i] * sizeof(tb_event_pair));
  }
}

void* tb_snapshot_get_geometry(tb_serial* s, int32_t type) {
  if (type == TB_SHAPE_HULL) {
    int32_t n = tb_get_i32(s, 1, INT32_MAX);
    if (s->failed || (size_t)n > s->size - s->pos) return s->failed = 1, NULL;
    tb_hull* h = tb_hull_from_image(s->in + s->pos, (size_t)n);
    s->pos += (size_t)n;
    if (!h) s->failed = 1;
    return h;
  }
  if (type == TB_SHAPE_MESH) {
    int32_t nv = tb_get_i32(s, 3, TB_MESH_MAX_ELEMENTS), nt = tb_get_i32(s, 1, TB_MESH_MAX_ELEMENTS);
    size_t vb = (size_t)nv * sizeof(tb_vec3), ib = (size_t)nt * 3 * sizeof(int32_t);
    if (s->failed || vb + ib > s->size - s->pos) return s->failed = 1, NULL;
    const float* v = (const float*)(const void*)(s->in + s->pos);
    /* the stream may be unaligned: copy out before the build reads it */
    float* vc = (float*)tb_alloc(vb);
    int32_t* ic = (int32_t*)tb_alloc(ib);
    tb_mesh_data* m = NULL;
    int32_t bad;
    if (vc && ic) {
      memcpy(vc, v, vb);
      memcpy(ic, s->in + s->pos + vb, ib);
      if (tb_mesh_data_create(vc, nv, ic, nt, &m, &bad) != TB_MESH_OK) m = NULL;
    }
    tb_free(vc, vb);
    tb_free(ic, ib);
    s->pos += vb + ib;
    if (!m) s->failed = 1;
    return m;
  }
  int32_t rows = tb_get_i32(s, 2, TB_HEIGHTFIELD_MAX_SAMPLES), cols = tb_get_i32(s, 2, TB_HEIGHTFIELD_MAX_SAMPLES);
  float cell[2] = {0, 0};
  tb_get(s, cell, sizeof cell);
  size_t hb = (size_t)rows * (size_t)cols * sizeof(float);
  if (s->failed || !(cell[0] > 0.0f) || !(cell[1] > 0.0f) || !tb_is_finite(cell[0]) || !tb_is_finite(cell[1]) ||
      hb > s->size - s->pos)
    return s->failed = 1, NULL;
  float* hc = (float*)tb_alloc(hb);
  tb_heightfield_data* hf = NULL;
  if (hc) {
    memcpy(hc, s->in + s->pos, hb);
    int finite = 1;
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; ++i) finite = finite && tb_is_finite(hc[i]);
    if (finite) hf = tb_heightfield_data_create(rows, cols, hc, cell[0], cell[1]);
    tb_free(hc, hb);
  }
  s->pos += hb;
  if (!hf) s->failed = 1;
  return hf;
}

int tb_snapshot_get_observe(tb_serial* s, tb_world* t) {
  if (!tb_get_i32(s, 0, 1)) return !s->failed;
  tb_observe* o = tb_observe_get(t, "restore");
  if (!o) return 0;
  o->solve_count = tb_get_i32(s, INT32_MIN, INT32_MAX);
  tb_sensors* sn = &o->sensors;
  int32_t n = tb_get_i32(s, 0, TB_ID_INDEX_MASK);
  if (s->failed || (size_t)n * 6 * sizeof(int32_t) > s->size - s->pos) return s->failed = 1, 0;
  tb_array_ref a[16];
  int na = tb_observe_sensor_arrays(sn, a);
  if (n > 0) {
    if (!tb_grow_arrays(a, na, 0, n)) return 0;
    sn->slots = n;
    for (int i = 6; i < na; ++i) memset(*a[i].ptr, 0, (size_t)n * a[i].elem_size); /* ring pointers */
  }
  sn->count = n;
  tb_get_arrays(s, a, 6, n, NULL);
  for (int32_t i = 0; i < n && !s->failed; ++i) {
    if (sn->body[i] < 0) continue; /* free (-1) or retired (-2) */
    int32_t cap = sn->capacity[i];
    if (cap < 1 || cap > (1 << 20) || sn->head[i] < 0 || sn->head[i] >= cap || sn->filled[i] < 0 || sn->filled[i] > cap) {
      sn->body[i] = -1; /* nothing allocated for it: the free below skips it */
      return s->failed = 1, 0;
    }
    if (!tb_get_fresh_array(s, (void**)&sn->history[i], NULL, 3 * cap, sizeof(float)) ||
        !tb_get_fresh_array(s, (void**)&sn->valid[i], NULL, cap, sizeof(int32_t)) ||
        !tb_get_fresh_array(s, (void**)&sn->steps[i], NULL, cap, sizeof(int32_t))) {
      /* keep the free of this sensor's ring consistent: what was not allocated is NULL, sized cap */
      return 0;
    }
  }
  int32_t ints[8] = {0};
  tb_get(s, ints, sizeof ints);
  tb_get(s, &o->world_threshold, sizeof(float));
  if (s->failed || ints[0] < 0 || ints[1] < 0 || ints[1] > ints[0] || ints[5] < 0 || ints[6] < 0 || ints[6] > 1)
    return s->failed = 1, 0;
  /* the event buffer holds event_capacity events, event_count of them saved */
  if ((size_t)ints[1] * sizeof(tb_contact_event) > s->size - s->pos) return s->failed = 1, 0;
  if (ints[0] > 0 && !tb_grow((void**)&o->events, sizeof(tb_contact_event), 0, ints[0])) return 0;
  o->event_capacity = ints[0];
  tb_get(s, o->events, (size_t)ints[1] * sizeof(tb_contact_event));
  o->event_count = ints[1];
  o->event_requested = ints[2];
  o->force_available = ints[3];
  o->event_step = ints[4];
  if (!tb_get_fresh_array(s, (void**)&o->thresholds, &o->threshold_capacity, ints[5], sizeof(tb_pair_threshold))) return 0;
  o->threshold_count = ints[5];
  o->current = ints[6];
  o->have_previous = ints[7];
  for (int i = 0; i < 2; ++i) {
    int32_t nc = tb_get_i32(s, 0, INT32_MAX / 64);
    if (!tb_get_fresh_array(s, (void**)&o->contacts[i], &o->contact_capacity[i], nc, sizeof(tb_event_contact))) return 0;
    o->contact_count[i] = nc;
    int32_t np = tb_get_i32(s, 0, INT32_MAX / 64);
    if (!tb_get_fresh_array(s, (void**)&o->pairs[i], &o->pair_capacity[i], np, sizeof(tb_event_pair))) return 0;
    o->pair_count[i] = np;
  }
  return !s->failed;
}
