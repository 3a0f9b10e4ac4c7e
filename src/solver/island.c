/* Persistent islands and automatic sleep (seed genesis "contact islands and hibernation", PhysX
 * sleeping; islands as Box2D v3 keeps them).
 *
 * Islands: dynamic bodies linked by touching solved contacts and joints (static and kinematic
 * bodies do not link). An island is a list of body slots whose id is the slot of one of them; it
 * persists across steps. Each step's links are compared with the last step's (sorted body-pair
 * keys; a list the same as the last step's, as a settled scene lists it, is not sorted again): a new
 * link between two islands merges them at once (the larger keeps its id), a lost link only marks the
 * island dirty. A dirty island is split (depth-first over the step's links)
 * lazily, as Box2D does: just before it falls asleep, so a sleeping island is always one
 * connected component, and for the PhysX solvers when its bodies request different iteration
 * counts (the island's count is the largest request, so only then does a coarser island change
 * the solve). Everything runs serially in slot and key order: the same islands for any thread
 * count.
 *
 * Sleep (solver.sleep.mode), decided after the solve from the step's motion velocities (the pose
 * change over the step, as PhysX uses its motion velocity):
 *   genesis: a body is ready after `steps` consecutive steps with
 *            max(|v_x|, |v_y|, |v_z|, r·|ω_x|, r·|ω_y|, r·|ω_z|) < velocity_threshold (m/s),
 *            r the body's sweep radius (dof_length: 1 for translation, r for rotation);
 *   physx:   the wake counter (s) runs down by the timestep; while it is below half its reset
 *            value (or below one timestep) the velocities are accumulated and their
 *            mass-normalised kinetic energy E = ½(|Σv|² + Σω_bᵀ I Σω_b / m) (m²/s²) is compared
 *            with c·energy_threshold, c = 1 + the body's shape pairs and joints (PhysX's
 *            cluster factor): E at or above it sets the counter to
 *            min(E / (c·threshold), 2) · ½ · reset + dt·(c − 1) (and clears the sums); ready at zero.
 * An island whose bodies are all ready sleeps at once: velocities zeroed, bounds refreshed at
 * rest, and its records against static, kinematic or sleeping sides kept (flagged) for the
 * contact store. A body touching a moving kinematic body is never ready.
 * Waking (whole island): a touching contact or a joint with an awake dynamic body or a moving
 * kinematic body (found after the narrow phase; collide() then runs its broad and narrow phases
 * again so the woken bodies' pairs are solved in the same step), tb_body_set_pose / _velocity /
 * _mass, a shape added or removed, a touching body removed. */
#include "island.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../collision/shape_bounds.h"
#include "../core/sort.h"

static int auto_sleep(const tb_world* w) { return w->def.solver.sleep.mode != TB_SLEEP_OFF; }

static int dynamic(const tb_bodies* b, int32_t i) { return b->f.body_type[i] == TB_BODY_DYNAMIC; }

/* 1 when pair p touches (an active point) and solves: the pairs that link islands, wake them and
 * keep them awake. With & for &&, so a list can be made of them without a branch. */
static int touching(const tb_pair* p) { return ((p->flags & TB_PAIR_SOLVE) != 0) & (p->active != 0); }

static int moving_kinematic(const tb_bodies* b, int32_t i) {
  if (b->f.body_type[i] != TB_BODY_KINEMATIC) return 0;
  const float* v = b->f.linear_velocity + 3 * i;
  const float* a = b->f.angular_velocity + 3 * i;
  return v[0] != 0.0f || v[1] != 0.0f || v[2] != 0.0f || a[0] != 0.0f || a[1] != 0.0f || a[2] != 0.0f;
}

static uint64_t link_key(int32_t a, int32_t b) {
  uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
  return ((uint64_t)lo << 32) | hi;
}

static int grow_i32(int32_t** p, int32_t* cap, int32_t n) {
  if (n <= *cap) return 1;
  int32_t c = *cap > 0 ? *cap : 64;
  while (c < n) c *= 2;
  if (!tb_grow((void**)p, sizeof(int32_t), *cap, c)) return 0;
  *cap = c;
  return 1;
}

/* ---- island lists ---- */

void tb_island_add_body(tb_world* w, int32_t slot) {
  tb_bodies* b = &w->bodies;
  b->island[slot] = dynamic(b, slot) ? slot : -1;
  b->island_next[slot] = -1;
  b->island_size[slot] = 1;
  b->island_dirty[slot] = 0;
  b->sleep_steps[slot] = 0;
  b->wake_counter[slot] = w->def.solver.sleep.wake_counter;
  b->counted_interactions[slot] = 0;
  memset(b->sleep_velocity + 6 * slot, 0, 6 * sizeof(float));
}

/* Island b joins island a (a keeps its id). */
static void merge(tb_bodies* b, int32_t a, int32_t c) {
  int32_t tail = c;
  for (int32_t i = c; i >= 0; i = b->island_next[i]) {
    b->island[i] = a;
    tail = i;
  }
  b->island_next[tail] = b->island_next[a];
  b->island_next[a] = c;
  b->island_size[a] += b->island_size[c];
  b->island_dirty[a] |= b->island_dirty[c];
}

/* Takes slot out of its island's list; the island keeps its id unless slot was it, then the next
 * body becomes the id. The rest is marked dirty (it may have fallen apart). */
static void detach(tb_bodies* b, int32_t slot) {
  int32_t id = b->island[slot];
  if (id < 0) return;
  if (id == slot) {
    int32_t next = b->island_next[slot];
    if (next >= 0) {
      for (int32_t i = next; i >= 0; i = b->island_next[i]) b->island[i] = next;
      b->island_size[next] = b->island_size[slot] - 1;
      b->island_dirty[next] = 1;
    }
  } else {
    int32_t i = id;
    while (b->island_next[i] != slot) i = b->island_next[i];
    b->island_next[i] = b->island_next[slot];
    b->island_size[id] -= 1;
    b->island_dirty[id] = 1;
  }
  b->island[slot] = -1;
  b->island_next[slot] = -1;
  b->island_size[slot] = 1;
  b->island_dirty[slot] = 0;
}

static void log_transition(tb_world* w, int32_t slot, int asleep) {
  if (!grow_i32(&w->sleep_log, &w->sleep_log_capacity, w->sleep_log_count + 1)) return; /* events only */
  int32_t id = tb_make_id(slot, w->bodies.generation[slot]);
  w->sleep_log[w->sleep_log_count++] = asleep ? id : -1 - id;
}

/* ---- kept records of sleeping pairs ---- */

static int32_t body_slot_of_id(int32_t id) { return id < 0 ? -1 : tb_id_slot(id); }

int tb_sleep_contacts_reserve(tb_world* w, int32_t records) {
  tb_contact_store* c = &w->sleep_contacts;
  if (records > c->capacity) {
    int32_t cap = c->capacity > 0 ? c->capacity : 64;
    while (cap < records) cap *= 2;
    if (!tb_contacts_grow(c, cap)) return 0;
  }
  return grow_i32(&w->sleep_contact_flags, &w->sleep_contact_flags_capacity, c->capacity);
}

/* Copies record i of store `from` to record j of store `to` (every contact field). */
static void copy_record(tb_contact_store* to, int32_t j, tb_contact_store* from, int32_t i) {
  tb_array_ref dst[TB_MAX_ARRAYS], src[TB_MAX_ARRAYS];
  int n = tb_contact_field_arrays(&to->f, dst);
  tb_contact_field_arrays(&from->f, src);
  for (int k = 0; k < n; ++k)
    memcpy((char*)*dst[k].ptr + (size_t)j * dst[k].elem_size, (char*)*src[k].ptr + (size_t)i * src[k].elem_size, dst[k].elem_size);
}

/* A side of a kept record that keeps it kept: static (-1), kinematic, or asleep. */
static int side_rests(const tb_bodies* b, int32_t id) {
  int32_t s = body_slot_of_id(id);
  return s < 0 || !tb_body_awake_dynamic(b, s);
}

/* Drops the kept records naming a body that is now awake or gone. */
static void drop_awake_records(tb_world* w) {
  tb_contact_store* c = &w->sleep_contacts;
  const tb_bodies* b = &w->bodies;
  int32_t u = 0;
  for (int32_t i = 0; i < c->count; ++i) {
    int32_t s0 = body_slot_of_id(c->f.body0[i]), s1 = body_slot_of_id(c->f.body1[i]);
    int alive0 = s0 < 0 || (b->f.body_type[s0] >= 0 && tb_make_id(s0, b->generation[s0]) == c->f.body0[i]);
    int alive1 = s1 < 0 || (b->f.body_type[s1] >= 0 && tb_make_id(s1, b->generation[s1]) == c->f.body1[i]);
    if (!alive0 || !alive1 || !side_rests(b, c->f.body0[i]) || !side_rests(b, c->f.body1[i])) continue;
    if (u != i) {
      copy_record(c, u, c, i);
      w->sleep_contact_flags[u] = w->sleep_contact_flags[i];
    }
    ++u;
  }
  c->count = u;
}

/* The store's records of every pair with a side in island `id` whose other side rests: kept (the
 * store owes nothing here: tb_islands_sleep's caller wrote it). */
static void keep_records(tb_world* w, int32_t id) {
  const tb_bodies* b = &w->bodies;
  const tb_shapes* sh = &w->shapes;
  int32_t need = w->sleep_contacts.count;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    int32_t b0 = sh->body[w->pairs[m].shape0], b1 = sh->body[w->pairs[m].shape1];
    if (w->manifold_contact[m] >= 0 && (b->island[b0] == id || b->island[b1] == id)) need += w->manifolds[m].point_count;
  }
  if (!tb_sleep_contacts_reserve(w, need)) return; /* out of memory: the records are recomputed instead */
  tb_contact_store* c = &w->sleep_contacts;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    int32_t base = w->manifold_contact[m];
    int32_t b0 = sh->body[w->pairs[m].shape0], b1 = sh->body[w->pairs[m].shape1];
    if (base < 0 || (b->island[b0] != id && b->island[b1] != id)) continue;
    if (tb_body_awake_dynamic(b, b0) || tb_body_awake_dynamic(b, b1)) continue;
    for (int32_t j = 0; j < w->manifolds[m].point_count && base + j < w->fresh_contacts; ++j) {
      copy_record(c, c->count, &w->contacts, base + j);
      c->f.sleeping[c->count] = 1;
      w->sleep_contact_flags[c->count] = w->pairs[m].flags;
      c->count++;
    }
  }
}

void tb_sleep_contacts_append(tb_world* w) {
  tb_contact_store* c = &w->sleep_contacts;
  int32_t i = 0;
  for (; i < c->count && w->fresh_contacts + i < w->contacts.capacity; ++i)
    copy_record(&w->contacts, w->fresh_contacts + i, c, i);
  tb_contacts_dirty(&w->contacts, TB_STORE_ALL_GROUPS, w->fresh_contacts, w->fresh_contacts + i);
}

/* ---- sleep and wake ---- */

static void wake_island(tb_world* w, int32_t id) {
  tb_bodies* b = &w->bodies;
  for (int32_t i = id; i >= 0; i = b->island_next[i]) {
    if (!b->f.asleep[i]) continue;
    b->f.asleep[i] = 0;
    log_transition(w, i, 0);
  }
  for (int32_t i = id; i >= 0; i = b->island_next[i]) {
    b->sleep_steps[i] = 0;
    b->wake_counter[i] = w->def.solver.sleep.wake_counter;
    memset(b->sleep_velocity + 6 * i, 0, 6 * sizeof(float));
  }
  drop_awake_records(w);
}

/* dt (s): the step's timestep, for the resting bounds. */
static void sleep_island(tb_world* w, int32_t id, float dt) {
  tb_bodies* b = &w->bodies;
  for (int32_t i = id; i >= 0; i = b->island_next[i]) {
    b->f.asleep[i] = 1;
    memset(b->f.linear_velocity + 3 * i, 0, 3 * sizeof(float));
    memset(b->f.angular_velocity + 3 * i, 0, 3 * sizeof(float));
    tb_update_body_bounds(w, i, dt); /* at rest: what every later update would compute */
    log_transition(w, i, 1);
  }
  keep_records(w, id);
}

void tb_island_touch_body(tb_world* w, int32_t slot) {
  tb_bodies* b = &w->bodies;
  if (!auto_sleep(w) || b->island[slot] < 0 || !b->f.asleep[slot]) return;
  wake_island(w, b->island[slot]);
}

void tb_island_set_sleeping(tb_world* w, int32_t slot, int asleep, float dt) {
  tb_bodies* b = &w->bodies;
  if (!auto_sleep(w) || b->island[slot] < 0) {
    /* the body alone: out of its island while asleep, its own island again when woken */
    if (asleep) detach(b, slot);
    else if (dynamic(b, slot) && b->island[slot] < 0) tb_island_add_body(w, slot);
    b->f.asleep[slot] = asleep;
    if (asleep) {
      memset(b->f.linear_velocity + 3 * slot, 0, 3 * sizeof(float));
      memset(b->f.angular_velocity + 3 * slot, 0, 3 * sizeof(float));
      tb_update_body_views(w, slot); /* kept while it sleeps: the narrow stage reads its velocity there */
    }
    return;
  }
  int32_t id = b->island[slot];
  if (asleep && !b->f.asleep[id]) sleep_island(w, id, dt);
  else if (!asleep && b->f.asleep[id]) wake_island(w, id);
}

void tb_island_remove_shape(tb_world* w, int32_t shape) {
  if (!auto_sleep(w)) return;
  tb_bodies* b = &w->bodies;
  const tb_shapes* sh = &w->shapes;
  int32_t id = tb_make_id(shape, sh->generation[shape]);
  tb_contact_store* c = &w->sleep_contacts;
  for (int32_t i = 0; i < c->count; ++i) {
    if (c->f.shape0[i] != id && c->f.shape1[i] != id) continue;
    /* the sleeping body on the other side (static records name no body: go through the shape) */
    int32_t other = sh->body[tb_id_slot(c->f.shape0[i] == id ? c->f.shape1[i] : c->f.shape0[i])];
    int32_t mine = sh->body[shape];
    int32_t sleeper = dynamic(b, other) && b->f.asleep[other] ? other : dynamic(b, mine) && b->f.asleep[mine] ? mine : -1;
    if (sleeper < 0 || b->island[sleeper] < 0) continue;
    wake_island(w, b->island[sleeper]);
    i = -1; /* the kept list changed */
  }
}

void tb_island_remove_body(tb_world* w, int32_t slot) {
  tb_bodies* b = &w->bodies;
  if (auto_sleep(w)) {
    if (b->island[slot] >= 0 && b->f.asleep[slot]) wake_island(w, b->island[slot]);
    /* sleeping islands resting on it (kept records name its shapes) wake */
    for (int32_t s = b->first_shape[slot]; s >= 0; s = w->shapes.next[s]) tb_island_remove_shape(w, s);
  }
  detach(b, slot);
  b->f.asleep[slot] = 0;
  drop_awake_records(w); /* none may name the removed body */
}

int32_t tb_islands_wake_touched(tb_world* w) {
  if (!auto_sleep(w)) return 0;
  tb_bodies* b = &w->bodies;
  const tb_shapes* sh = &w->shapes;
  int32_t woken = 0;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    if (!touching(&w->pairs[m])) continue;
    int32_t b0 = sh->body[w->pairs[m].shape0], b1 = sh->body[w->pairs[m].shape1];
    int a0 = tb_body_awake_dynamic(b, b0) || moving_kinematic(b, b0), a1 = tb_body_awake_dynamic(b, b1) || moving_kinematic(b, b1);
    int32_t sleeper = a0 && dynamic(b, b1) && b->f.asleep[b1] ? b1 : a1 && dynamic(b, b0) && b->f.asleep[b0] ? b0 : -1;
    if (sleeper < 0 || b->island[sleeper] < 0) continue;
    wake_island(w, b->island[sleeper]);
    ++woken;
  }
  const tb_joints* jt = &w->joints;
  for (int32_t j = 0; j < jt->count; ++j) {
    int32_t s0 = jt->slot0[j], s1 = jt->slot1[j];
    if (jt->def[j].type < 0 || jt->state[j].broken || s0 < 0 || s1 < 0) continue;
    int32_t sleeper = tb_body_awake_dynamic(b, s0) && dynamic(b, s1) && b->f.asleep[s1] ? s1
                      : tb_body_awake_dynamic(b, s1) && dynamic(b, s0) && b->f.asleep[s0] ? s0 : -1;
    if (sleeper < 0 || b->island[sleeper] < 0) continue;
    wake_island(w, b->island[sleeper]);
    ++woken;
  }
  return woken;
}

/* ---- links, merges and splits ---- */

/* Effective iteration requests of a body (PhysX: -1 = the world's). */
static int32_t requests(const tb_world* w, int32_t i) {
  int32_t p = w->bodies.position_iterations[i], v = w->bodies.velocity_iterations[i];
  if (p < 0) p = w->def.solver.position_iterations;
  if (v < 0) v = w->def.solver.velocity_iterations;
  return p * 65 + v;
}

/* Splits island `id` into its connected components over this step's links (adjacency built
 * once per step in island_scratch). */
typedef struct split_graph {
  int32_t* start; /* per body slot + 1: first neighbour in adj */
  int32_t* adj;   /* neighbour slots */
  int32_t* stack;
  int built;
} split_graph;

static int build_graph(tb_world* w, split_graph* g) {
  if (g->built) return 1;
  int32_t nb = w->bodies.count, nl = w->link_count;
  if (!grow_i32(&w->island_scratch, &w->island_scratch_capacity, 2 * nb + 1 + 2 * nl)) return 0;
  g->start = w->island_scratch;
  g->stack = w->island_scratch + nb + 1;
  g->adj = w->island_scratch + 2 * nb + 1;
  memset(g->start, 0, (size_t)(nb + 1) * sizeof(int32_t));
  for (int32_t l = 0; l < nl; ++l) {
    g->start[(int32_t)(w->links[l] >> 32) + 1]++;
    g->start[(int32_t)(uint32_t)w->links[l] + 1]++;
  }
  for (int32_t i = 0; i < nb; ++i) g->start[i + 1] += g->start[i];
  /* fill with stack as the cursor per slot */
  for (int32_t i = 0; i < nb; ++i) g->stack[i] = g->start[i];
  for (int32_t l = 0; l < nl; ++l) {
    int32_t a = (int32_t)(w->links[l] >> 32), c = (int32_t)(uint32_t)w->links[l];
    g->adj[g->stack[a]++] = c;
    g->adj[g->stack[c]++] = a;
  }
  g->built = 1;
  return 1;
}

static void split(tb_world* w, split_graph* g, int32_t id) {
  tb_bodies* b = &w->bodies;
  if (!build_graph(w, g)) return; /* out of memory: the island stays whole (coarser, still correct) */
  int32_t members = 0;
  int32_t* list = g->stack; /* the members first, then the search stack after them */
  for (int32_t i = id; i >= 0; i = b->island_next[i]) list[members++] = i;
  for (int32_t k = 0; k < members; ++k) b->island[list[k]] = -2; /* unvisited */
  int32_t* stack = list + members;
  for (int32_t k = 0; k < members; ++k) {
    int32_t seed = list[k];
    if (b->island[seed] != -2) continue;
    /* depth-first from seed, the component's first member in island order: the component that
     * holds `id` keeps it (id heads the list), each other one is named after its seed */
    int32_t top = 0, head = seed, size = 0, tail = -1;
    stack[top++] = seed;
    b->island[seed] = seed;
    while (top > 0) {
      int32_t i = stack[--top];
      if (tail >= 0) b->island_next[tail] = i;
      tail = i;
      ++size;
      for (int32_t e = g->start[i]; e < g->start[i + 1]; ++e) {
        int32_t n = g->adj[e];
        if (b->island[n] != -2) continue;
        b->island[n] = seed;
        stack[top++] = n;
      }
    }
    b->island_next[tail] = -1;
    b->island_size[head] = size;
    b->island_dirty[head] = 0;
  }
}

int tb_islands_update(tb_world* w) {
  tb_bodies* b = &w->bodies;
  const tb_shapes* sh = &w->shapes;
  const tb_joints* jt = &w->joints;
  int32_t cap = w->pair_count + jt->count + w->link_count;
  if (cap > w->link_capacity) {
    int32_t c = w->link_capacity > 0 ? w->link_capacity : 64;
    while (c < cap) c *= 2;
    const tb_array_ref a[] = {{(void**)&w->links, sizeof(uint64_t)}, {(void**)&w->links_next, sizeof(uint64_t)}};
    if (!tb_grow_arrays(a, 2, w->link_capacity, c)) return 0; /* all or nothing */
    w->link_capacity = c;
  }
  if (cap > w->links_listed_capacity) {
    if (!tb_grow((void**)&w->links_listed, sizeof(uint64_t), w->links_listed_capacity, w->link_capacity)) return 0;
    w->links_listed_capacity = w->link_capacity;
  }
  /* the touching pairs that solve, listed first (their indices in links_next) without a branch on
   * the test: about half of a pile's candidate pairs touch, in no order a predictor learns */
  int32_t n = 0;
  for (int32_t m = 0; m < w->pair_count; ++m) {
    w->links_next[n] = (uint64_t)m;
    n += touching(&w->pairs[m]);
  }
  int32_t listed = n;
  n = 0;
  for (int32_t k = 0; k < listed; ++k) {
    int32_t m = (int32_t)w->links_next[k];
    int32_t b0 = sh->body[w->pairs[m].shape0], b1 = sh->body[w->pairs[m].shape1];
    if (tb_body_awake_dynamic(b, b0) && tb_body_awake_dynamic(b, b1) && b->island[b0] >= 0 && b->island[b1] >= 0) w->links_next[n++] = link_key(b0, b1);
  }
  for (int32_t j = 0; j < jt->count; ++j) {
    int32_t s0 = jt->slot0[j], s1 = jt->slot1[j];
    if (jt->def[j].type < 0 || jt->state[j].broken || s0 < 0 || s1 < 0) continue;
    if (tb_body_awake_dynamic(b, s0) && tb_body_awake_dynamic(b, s1) && b->island[s0] >= 0 && b->island[s1] >= 0) w->links_next[n++] = link_key(s0, s1);
  }
  /* links inside sleeping islands are not collided: kept as they were */
  for (int32_t l = 0; l < w->link_count; ++l) {
    int32_t a = (int32_t)(w->links[l] >> 32), c = (int32_t)(uint32_t)w->links[l];
    if (a < b->count && c < b->count && dynamic(b, a) && dynamic(b, c) && b->f.asleep[a] && b->f.asleep[c] &&
        b->island[a] >= 0 && b->island[a] == b->island[c])
      w->links_next[n++] = w->links[l];
  }
  /* the same list as the last update's (a settled scene, step after step) sorts to the links as
   * they are: no sort, no link lost; the merges still run (a change between steps may have moved a
   * body to its own island) */
  const int same = w->links_listed_valid && n == w->links_listed_count &&
                   (n == 0 || memcmp(w->links_next, w->links_listed, (size_t)n * sizeof(uint64_t)) == 0);
  if (!same) {
    if (n > w->links_sort_capacity) {
      int32_t c = w->links_sort_capacity > 0 ? w->links_sort_capacity : 64;
      while (c < n) c *= 2;
      if (!tb_grow((void**)&w->links_sort_tmp, sizeof(uint64_t), w->links_sort_capacity, c)) return 0;
      w->links_sort_capacity = c;
    }
    if (!grow_i32(&w->island_scratch, &w->island_scratch_capacity, b->count + 1)) return 0;
    if (n > 0) memcpy(w->links_listed, w->links_next, (size_t)n * sizeof(uint64_t)); /* both NULL before any link */
    w->links_listed_count = n;
    w->links_listed_valid = 1;
    /* the one ascending order of the keys (both halves are body slots below b->count) */
    tb_sort_slot_pairs(w->links_next, w->links_sort_tmp, n, b->count, w->island_scratch);
    int32_t u = 0;
    for (int32_t i = 0; i < n; ++i)
      if (u == 0 || w->links_next[u - 1] != w->links_next[i]) w->links_next[u++] = w->links_next[i];
    n = u;
  }
  const uint64_t* links = same ? w->links : w->links_next;
  if (same) n = w->link_count;
  /* merges, in key order */
  for (int32_t l = 0; l < n; ++l) {
    int32_t a = b->island[(int32_t)(links[l] >> 32)], c = b->island[(int32_t)(uint32_t)links[l]];
    if (a == c) continue;
    /* the larger island keeps its id (equal sizes: the lower id) */
    if (b->island_size[c] > b->island_size[a] || (b->island_size[c] == b->island_size[a] && c < a)) {
      int32_t t = a; a = c; c = t;
    }
    merge(b, a, c);
  }
  if (!same) {
    /* lost links mark their islands dirty */
    for (int32_t i = 0, j = 0; i < w->link_count; ++i) {
      while (j < n && w->links_next[j] < w->links[i]) ++j;
      if (j < n && w->links_next[j] == w->links[i]) continue;
      int32_t a = (int32_t)(w->links[i] >> 32), c = (int32_t)(uint32_t)w->links[i];
      if (a < b->count && dynamic(b, a) && b->island[a] >= 0) b->island_dirty[b->island[a]] = 1;
      if (c < b->count && dynamic(b, c) && b->island[c] >= 0) b->island_dirty[b->island[c]] = 1;
    }
    uint64_t* t = w->links; w->links = w->links_next; w->links_next = t;
    w->link_count = n;
  }
  /* PhysX: an island runs its bodies' largest iteration request; a dirty island whose bodies ask
   * for different counts is split now, so each component runs its own */
  int32_t solver = w->def.solver.solver;
  if (solver == TB_SOLVER_PGS || solver == TB_SOLVER_TGS) {
    split_graph g = {0};
    for (int32_t i = 0; i < b->count; ++i) {
      if (!dynamic(b, i) || b->island[i] != i || !b->island_dirty[i] || b->f.asleep[i]) continue;
      int32_t r = requests(w, i), mixed = 0;
      for (int32_t k = b->island_next[i]; k >= 0 && !mixed; k = b->island_next[k]) mixed = requests(w, k) != r;
      if (mixed) split(w, &g, i);
    }
  }
  return 1;
}

/* ---- joints of sleeping islands ---- */

static int joint_rests(const tb_world* w, int32_t j) {
  const tb_bodies* b = &w->bodies;
  int32_t s0 = w->joints.slot0[j], s1 = w->joints.slot1[j];
  int rest0 = s0 < 0 || !tb_body_awake_dynamic(b, s0), rest1 = s1 < 0 || !tb_body_awake_dynamic(b, s1);
  int asleep = (s0 >= 0 && dynamic(b, s0) && b->f.asleep[s0]) || (s1 >= 0 && dynamic(b, s1) && b->f.asleep[s1]);
  return rest0 && rest1 && asleep;
}

void tb_islands_keep_joints(tb_world* w, int after) {
  tb_joints* jt = &w->joints;
  for (int32_t j = 0; j < jt->count; ++j) {
    if (jt->def[j].type < 0) continue;
    tb_joint_state* st = &jt->state[j];
    if (!after) {
      jt->kept[j] = st->valid && !st->broken && joint_rests(w, j);
      jt->kept_motor_force[j] = st->motor_force;
    } else if (jt->kept[j]) {
      /* the solvers skip it (no awake side) and leave its wrench: valid again, flagged */
      st->valid = 1;
      st->motor_force = jt->kept_motor_force[j];
      st->sleeping = 1;
    } else {
      st->sleeping = 0;
    }
  }
}

/* Whether i is the root of an awake island, dirty (it may have come apart) or not, whose bodies
 * are all ready by the sleep rule. */
static int island_ready(const tb_world* w, int32_t i, int dirty) {
  const tb_bodies* b = &w->bodies;
  if (!tb_body_awake_dynamic(b, i) || b->island[i] != i || b->island_dirty[i] != dirty) return 0;
  int genesis = w->def.solver.sleep.mode == TB_SLEEP_GENESIS;
  int32_t need = w->def.solver.sleep.steps;
  int ready = 1;
  for (int32_t k = i; k >= 0 && ready; k = b->island_next[k])
    ready = genesis ? b->sleep_steps[k] >= need : b->wake_counter[k] <= 0.0f;
  return ready;
}

int32_t tb_islands_sleep_rule(tb_world* w, const tb_step_context* step) {
  if (!auto_sleep(w)) return 0;
  tb_bodies* b = &w->bodies;
  const tb_shapes* sh = &w->shapes;
  int genesis = w->def.solver.sleep.mode == TB_SLEEP_GENESIS;
  float dt = step->dt;
  if (!genesis) tb_sleep_rule_count_interactions(w);
  for (int32_t i = 0; i < b->count; ++i)
    if (tb_body_awake_dynamic(b, i)) tb_sleep_rule_body(w, i, dt);
  /* touching a moving kinematic body keeps a body awake */
  for (int32_t m = 0; m < w->pair_count; ++m) {
    if (!touching(&w->pairs[m])) continue;
    int32_t b0 = sh->body[w->pairs[m].shape0], b1 = sh->body[w->pairs[m].shape1];
    int32_t body = moving_kinematic(b, b0) ? b1 : moving_kinematic(b, b1) ? b0 : -1;
    if (body < 0 || !tb_body_awake_dynamic(b, body)) continue;
    b->sleep_steps[body] = 0;
    b->wake_counter[body] = w->def.solver.sleep.wake_counter;
    memset(b->sleep_velocity + 6 * body, 0, 6 * sizeof(float));
  }
  /* a ready island that may have come apart is split first, so each component sleeps on its own
   * (every one is ready) */
  split_graph g = {0};
  for (int32_t i = 0; i < b->count; ++i)
    if (island_ready(w, i, 1)) split(w, &g, i);
  int32_t ready = 0;
  for (int32_t i = 0; i < b->count; ++i) ready += island_ready(w, i, 0);
  return ready;
}

void tb_islands_sleep(tb_world* w, const tb_step_context* step) {
  if (!auto_sleep(w)) return;
  /* every awake island whose bodies are all ready sleeps */
  for (int32_t i = 0; i < w->bodies.count; ++i)
    if (island_ready(w, i, 0)) sleep_island(w, i, step->dt);
}

void tb_islands_stats(tb_world* w) {
  const tb_bodies* b = &w->bodies;
  tb_step_stats* s = &w->stats;
  s->island_count = s->sleeping_islands = s->sleeping_bodies = s->skipped_shapes = 0;
  for (int32_t i = 0; i < b->count; ++i) {
    if (!dynamic(b, i)) continue;
    if (b->island[i] == i) {
      s->island_count++;
      s->sleeping_islands += b->f.asleep[i] != 0;
    } else if (b->island[i] < 0) {
      s->island_count++; /* asleep by itself (tb_body_set_sleeping without automatic sleep) */
      s->sleeping_islands += b->f.asleep[i] != 0;
    }
    if (!b->f.asleep[i]) continue;
    s->sleeping_bodies++;
    if (auto_sleep(w))
      for (int32_t k = b->first_shape[i]; k >= 0; k = w->shapes.next[k]) s->skipped_shapes++;
  }
  const tb_contact_store* c = &w->sleep_contacts;
  s->sleeping_contacts = c->count;
  s->sleeping_pairs = 0;
  for (int32_t i = 0; i < c->count; ++i)
    s->sleeping_pairs += i == 0 || c->f.shape0[i] != c->f.shape0[i - 1] || c->f.shape1[i] != c->f.shape1[i - 1];
}
