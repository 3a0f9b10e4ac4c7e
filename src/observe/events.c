/* Contact events: begin / persist / end from the matched contact sets of two consecutive
 * solve() calls (shape ids with generations and feature ids, never array slots), and force
 * threshold crossings of a pair's total normal force. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "observe.h"

/* js/observe.js reads events as 10 words each */
_Static_assert(sizeof(tb_contact_event) == 40, "tb_contact_event: the JS binding reads 10 words per event");

static uint64_t pair_key(int32_t shape0, int32_t shape1) { return ((uint64_t)(uint32_t)shape0 << 32) | (uint32_t)shape1; }

void tb_observe_events_free(tb_observe* o) {
  tb_free(o->events, (size_t)o->event_capacity * sizeof(tb_contact_event));
  tb_free(o->thresholds, (size_t)o->threshold_capacity * sizeof(tb_pair_threshold));
  for (int i = 0; i < 2; ++i) {
    tb_free(o->contacts[i], (size_t)o->contact_capacity[i] * sizeof(tb_event_contact));
    tb_free(o->pairs[i], (size_t)o->pair_capacity[i] * sizeof(tb_event_pair));
  }
  o->events = NULL; o->thresholds = NULL;
  o->event_capacity = o->threshold_capacity = o->threshold_count = 0;
}

static int grow(void** p, int32_t* cap, int32_t n, size_t elem) {
  if (n <= *cap) return 1;
  int32_t c = *cap ? *cap : 64;
  while (c < n) c *= 2;
  if (!tb_grow(p, elem, *cap, c)) return 0;
  *cap = c;
  return 1;
}

static int contact_cmp(const void* pa, const void* pb) {
  const tb_event_contact* a = (const tb_event_contact*)pa;
  const tb_event_contact* b = (const tb_event_contact*)pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->feature != b->feature) return a->feature < b->feature ? -1 : 1;
  return 0;
}

static int pair_cmp(const void* pa, const void* pb) {
  const tb_event_pair* a = (const tb_event_pair*)pa;
  const tb_event_pair* b = (const tb_event_pair*)pb;
  return a->key < b->key ? -1 : a->key > b->key;
}

static int threshold_cmp(const void* pa, const void* pb) {
  const tb_pair_threshold* a = (const tb_pair_threshold*)pa;
  const tb_pair_threshold* b = (const tb_pair_threshold*)pb;
  if (a->shape0 != b->shape0) return a->shape0 < b->shape0 ? -1 : 1;
  return a->shape1 < b->shape1 ? -1 : a->shape1 > b->shape1;
}

/* Threshold (N) of a pair: its own when set, else the world's; 0 = off. */
static float threshold_of(const tb_observe* o, uint64_t key) {
  int32_t a = (int32_t)(key >> 32), b = (int32_t)(uint32_t)key;
  tb_pair_threshold q = {a < b ? a : b, a < b ? b : a, 0.0f};
  const tb_pair_threshold* t = o->threshold_count
      ? (const tb_pair_threshold*)bsearch(&q, o->thresholds, (size_t)o->threshold_count, sizeof q, threshold_cmp)
      : NULL;
  return t ? t->newtons : o->world_threshold;
}

static void emit(tb_observe* o, int32_t type, uint64_t key, int32_t body0, int32_t body1, uint32_t feature, float force,
                 const float point[3]) {
  o->event_requested++;
  if (o->event_count >= o->event_capacity) return;
  tb_contact_event* e = &o->events[o->event_count++];
  e->type = type;
  e->shape0 = (int32_t)(key >> 32);
  e->shape1 = (int32_t)(uint32_t)key;
  e->body0 = body0;
  e->body1 = body1;
  e->feature_id = feature;
  e->normal_force = force;
  memcpy(e->point, point, sizeof e->point);
}

void tb_observe_events_update(tb_world* w, tb_observe* o, int available, float dt) {
  o->event_count = 0;
  o->event_requested = 0;
  o->event_step = o->solve_count;
  o->force_available = available;
  if (o->event_capacity == 0) {
    o->have_previous = 0;
    return;
  }
  const tb_contact_fields* f = &w->contacts.f;
  int cur = o->current ^ 1, prev = o->current;
  /* grow the current sets to the counts of this solve() (only when counts grow) */
  if (!grow((void**)&o->contacts[cur], &o->contact_capacity[cur], w->contacts.count, sizeof(tb_event_contact)) ||
      !grow((void**)&o->pairs[cur], &o->pair_capacity[cur], w->pair_count + (w->contacts.count - w->fresh_contacts), sizeof(tb_event_pair))) {
    tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "events: out of memory for %d contacts; events of this step are lost", w->contacts.count);
    o->have_previous = 0;
    o->force_available = 0;
    return;
  }
  float inv_h = 1.0f / dt; /* 1/s: impulses over the step to forces */
  tb_event_contact* c = o->contacts[cur];
  tb_event_pair* p = o->pairs[cur];
  int32_t nc = 0, np = 0;
  /* the manifolds of this collide(), then the kept records of sleeping pairs (consecutive per
   * pair, with their pair's flags): a pair that fell asleep persists, it does not end */
  int32_t kept = w->contacts.count - w->fresh_contacts;
  for (int32_t m = 0, kept_at = w->fresh_contacts; m < w->pair_count + kept; ++m) {
    int32_t base, points;
    if (m < w->pair_count) {
      base = w->manifold_contact[m];
      if (base < 0 || !(w->pairs[m].flags & TB_PAIR_NOTIFY)) continue;
      points = w->pairs[m].points;
    } else {
      if (kept_at >= w->contacts.count) break;
      base = kept_at;
      points = 1;
      while (base + points < w->contacts.count && f->shape0[base + points] == f->shape0[base] && f->shape1[base + points] == f->shape1[base]) ++points;
      kept_at += points;
      if (!(w->sleep_contact_flags[base - w->fresh_contacts] & TB_PAIR_NOTIFY)) continue;
    }
    if (base + points > w->contacts.count) points = w->contacts.count - base; /* overflow cut */
    if (points <= 0) continue;
    uint64_t key = pair_key(f->shape0[base], f->shape1[base]);
    tb_event_pair* pp = &p[np++];
    pp->key = key;
    pp->body0 = f->body0[base];
    pp->body1 = f->body1[base];
    pp->normal_force = 0.0f;
    memcpy(pp->point, f->point + 3 * base, sizeof pp->point);
    for (int32_t j = 0; j < points; ++j) {
      int32_t k = base + j;
      float fn = available ? f->normal_impulse[k] * inv_h : NAN;
      pp->normal_force += fn;
      tb_event_contact* e = &c[nc++];
      e->key = key;
      e->feature = f->feature_id[k];
      e->body0 = f->body0[k];
      e->body1 = f->body1[k];
      e->normal_force = fn;
      memcpy(e->point, f->point + 3 * k, sizeof e->point);
    }
  }
  if (nc > 1) qsort(c, (size_t)nc, sizeof *c, contact_cmp);
  if (np > 1) qsort(p, (size_t)np, sizeof *p, pair_cmp);
  /* two points of one manifold with the same feature are one contact: merge them */
  int32_t u = 0;
  for (int32_t i = 0; i < nc; ++i) {
    if (u > 0 && contact_cmp(&c[u - 1], &c[i]) == 0) {
      c[u - 1].normal_force += c[i].normal_force;
      continue;
    }
    c[u++] = c[i];
  }
  nc = u;
  o->contact_count[cur] = nc;
  o->pair_count[cur] = np;

  const tb_event_contact* pc = o->have_previous ? o->contacts[prev] : NULL;
  int32_t npc = o->have_previous ? o->contact_count[prev] : 0;
  for (int32_t i = 0, j = 0; i < nc || j < npc;) {
    int d = i >= nc ? 1 : j >= npc ? -1 : contact_cmp(&c[i], &pc[j]);
    if (d < 0) {
      emit(o, TB_EVENT_BEGIN, c[i].key, c[i].body0, c[i].body1, c[i].feature, c[i].normal_force, c[i].point);
      ++i;
    } else if (d > 0) {
      emit(o, TB_EVENT_END, pc[j].key, pc[j].body0, pc[j].body1, pc[j].feature, pc[j].normal_force, pc[j].point);
      ++j;
    } else {
      emit(o, TB_EVENT_PERSIST, c[i].key, c[i].body0, c[i].body1, c[i].feature, c[i].normal_force, c[i].point);
      ++i, ++j;
    }
  }

  const tb_event_pair* pp = o->have_previous ? o->pairs[prev] : NULL;
  int32_t npp = o->have_previous ? o->pair_count[prev] : 0;
  for (int32_t i = 0, j = 0; i < np || j < npp;) {
    int d = i >= np ? 1 : j >= npp ? -1 : pair_cmp(&p[i], &pp[j]);
    const tb_event_pair* e = d > 0 ? &pp[j] : &p[i];
    float now = d > 0 ? 0.0f : p[i].normal_force;  /* a vanished pair has no force */
    float before = d < 0 ? 0.0f : pp[j].normal_force;
    if (d <= 0) ++i;
    if (d >= 0) ++j;
    float t = threshold_of(o, e->key);
    if (!(t > 0.0f) || isnan(now) || isnan(before)) continue;
    if (before < t && now >= t) emit(o, TB_EVENT_FORCE_ABOVE, e->key, e->body0, e->body1, 0, now, e->point);
    else if (before >= t && now < t) emit(o, TB_EVENT_FORCE_BELOW, e->key, e->body0, e->body1, 0, now, e->point);
  }
  /* bodies that fell asleep or woke since the last events, in that order */
  static const float origin[3] = {0, 0, 0};
  for (int32_t i = 0; i < w->sleep_log_count; ++i) {
    int32_t e = w->sleep_log[i];
    emit(o, e >= 0 ? TB_EVENT_SLEEP : TB_EVENT_WAKE, UINT64_MAX, e >= 0 ? e : -1 - e, -1, 0, 0.0f, origin);
  }
  o->current = cur;
  o->have_previous = 1;
}

/* ---- the calls of src/api/event.c ---- */

tb_status tb_observe_set_event_capacity(tb_world* w, const char* fn, int32_t capacity) {
  if (capacity < 0 || capacity > TB_MAX_CAPACITY)
    return tb_world_fail(w, capacity < 0 ? TB_ERR_INVALID_ARGUMENT : TB_ERR_CAPACITY, "%s: capacity must be in [0, %d] (got %d)", fn,
                         TB_MAX_CAPACITY, capacity);
  tb_observe* o = tb_observe_get(w, fn);
  if (!o) return TB_ERR_OUT_OF_MEMORY;
  if (capacity == o->event_capacity) return TB_OK;
  tb_contact_event* e = capacity ? (tb_contact_event*)tb_alloc_array((size_t)capacity, sizeof *e) : NULL;
  if (capacity && !e) return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d events", fn, capacity);
  int32_t keep = o->event_count < capacity ? o->event_count : capacity;
  if (keep) memcpy(e, o->events, (size_t)keep * sizeof *e);
  tb_free(o->events, (size_t)o->event_capacity * sizeof *e);
  o->events = e;
  o->event_capacity = capacity;
  o->event_count = keep;
  return TB_OK;
}

tb_status tb_observe_set_force_threshold(tb_world* w, const char* fn, float newtons) {
  if (!tb_is_finite(newtons) || newtons < 0.0f)
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: newtons must be finite and >= 0 (0 = off) (got %g)", fn, (double)newtons);
  tb_observe* o = tb_observe_get(w, fn);
  if (!o) return TB_ERR_OUT_OF_MEMORY;
  o->world_threshold = newtons;
  return TB_OK;
}

static int shape_alive(const tb_world* w, tb_shape_id id) { return tb_shape_slot_of(w, id) >= 0; }

tb_status tb_observe_set_pair_force_threshold(tb_world* w, const char* fn, tb_shape_id shape0, tb_shape_id shape1, float newtons) {
  if (!shape_alive(w, shape0)) return tb_id_fail(w, tb_shape_id_state(w, shape0), fn, "shape0", shape0);
  if (!shape_alive(w, shape1)) return tb_id_fail(w, tb_shape_id_state(w, shape1), fn, "shape1", shape1);
  if (shape0 == shape1) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: shape0 and shape1 must differ (got %d twice)", fn, shape0);
  if (!tb_is_finite(newtons) || (newtons < 0.0f && newtons != -1.0f))
    return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: newtons must be finite and >= 0, or -1 to remove (got %g)", fn, (double)newtons);
  tb_observe* o = tb_observe_get(w, fn);
  if (!o) return TB_ERR_OUT_OF_MEMORY;
  tb_pair_threshold q = {shape0 < shape1 ? shape0 : shape1, shape0 < shape1 ? shape1 : shape0, newtons};
  tb_pair_threshold* t = o->threshold_count
      ? (tb_pair_threshold*)bsearch(&q, o->thresholds, (size_t)o->threshold_count, sizeof q, threshold_cmp)
      : NULL;
  if (t) {
    if (newtons >= 0.0f) { t->newtons = newtons; return TB_OK; }
    int32_t i = (int32_t)(t - o->thresholds);
    memmove(t, t + 1, (size_t)(o->threshold_count - i - 1) * sizeof q);
    o->threshold_count--;
    return TB_OK;
  }
  if (newtons < 0.0f) return TB_OK; /* nothing to remove */
  if (!grow((void**)&o->thresholds, &o->threshold_capacity, o->threshold_count + 1, sizeof q))
    return tb_world_fail(w, TB_ERR_OUT_OF_MEMORY, "%s: out of memory for %d thresholds", fn, o->threshold_count + 1);
  int32_t i = o->threshold_count;
  while (i > 0 && threshold_cmp(&o->thresholds[i - 1], &q) > 0) { o->thresholds[i] = o->thresholds[i - 1]; --i; }
  o->thresholds[i] = q;
  o->threshold_count++;
  return TB_OK;
}

tb_status tb_observe_event_status(tb_world* w, const char* fn, tb_event_status* out) {
  if (!out) return tb_world_fail(w, TB_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", fn);
  const tb_observe* o = w->observe;
  memset(out, 0, sizeof *out);
  if (!o) return TB_OK;
  out->count = o->event_count;
  out->capacity = o->event_capacity;
  out->requested = o->event_requested;
  out->overflowed = o->event_requested > o->event_capacity;
  out->force_available = o->force_available;
  out->step = o->event_step;
  return TB_OK;
}
