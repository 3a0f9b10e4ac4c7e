#include "alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../include/tribo.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten/heap.h>
#endif

static void* default_alloc(size_t size, void* user) { (void)user; return malloc(size); }
static void default_free(void* ptr, size_t size, void* user) { (void)size; (void)user; free(ptr); }

static tb_alloc_fn s_alloc = default_alloc;
static tb_free_fn s_free = default_free;
static void* s_user = NULL;
static _Atomic int64_t s_live_bytes = 0;

void tb_alloc_set_hooks(tb_alloc_fn alloc_fn, tb_free_fn free_fn, void* user) {
  s_alloc = alloc_fn ? alloc_fn : default_alloc;
  s_free = free_fn ? free_fn : default_free;
  s_user = user;
}

int64_t tb_alloc_live_bytes(void) { return atomic_load(&s_live_bytes); }

int tb_alloc_may_fit(size_t bytes) {
#if defined(__EMSCRIPTEN__)
  /* everything Tribo holds is inside the module's memory, so no more than its maximum less that
   * can ever be had (the rest of the module's allocations only make the room smaller) */
  size_t max = emscripten_get_heap_max(), live = (size_t)atomic_load(&s_live_bytes);
  return live <= max && bytes <= max - live;
#else
  (void)bytes;
  return 1;
#endif
}

void* tb_alloc(size_t size) {
  if (size == 0) size = 1;
  if (!tb_alloc_may_fit(size)) return NULL;
  void* p = s_alloc(size, s_user);
  if (p) atomic_fetch_add(&s_live_bytes, (int64_t)size);
  return p;
}

void* tb_alloc_array(size_t count, size_t elem_size) {
  size_t bytes;
  return tb_size_mul(count, elem_size, &bytes) ? tb_alloc(bytes) : NULL;
}

void* tb_alloc_zero(size_t size) {
  void* p = tb_alloc(size);
  if (p) memset(p, 0, size);
  return p;
}

void tb_free(void* ptr, size_t size) {
  if (!ptr) return;
  if (size == 0) size = 1;
  s_free(ptr, size, s_user);
  atomic_fetch_sub(&s_live_bytes, (int64_t)size);
}

int tb_grow_arrays(const tb_array_ref* arrays, int count, int32_t old_count, int32_t new_count) {
  if (new_count <= old_count) return 1;
  if (old_count < 0 || count > 64) return 0;
  void* fresh[64];
  /* every product is checked before anything is allocated; the smaller old sizes then fit too */
  size_t bytes[64], total = 0;
  for (int i = 0; i < count; ++i) {
    if (!tb_size_mul(arrays[i].elem_size, (size_t)new_count, &bytes[i]) || bytes[i] > SIZE_MAX - total) return 0;
    total += bytes[i];
  }
  /* all of them or none: refused before the first allocation can grow the module's memory */
  if (!tb_alloc_may_fit(total)) return 0;
  for (int i = 0; i < count; ++i) {
    fresh[i] = tb_alloc_zero(bytes[i]);
    if (!fresh[i]) {
      for (int k = 0; k < i; ++k) tb_free(fresh[k], bytes[k]);
      return 0;
    }
  }
  for (int i = 0; i < count; ++i) {
    void** p = arrays[i].ptr;
    if (*p && old_count > 0) {
      memcpy(fresh[i], *p, arrays[i].elem_size * (size_t)old_count);
      tb_free(*p, arrays[i].elem_size * (size_t)old_count);
    }
    *p = fresh[i];
  }
  return 1;
}

void tb_free_arrays(const tb_array_ref* arrays, int count, int32_t element_count) {
  if (element_count <= 0) return;
  for (int i = 0; i < count; ++i) {
    tb_free(*arrays[i].ptr, arrays[i].elem_size * (size_t)element_count);
    *arrays[i].ptr = NULL;
  }
}

int tb_grow_capacity(const tb_array_ref* arrays, int count, int32_t* cap, int32_t n) {
  if (n <= *cap) return 1;
  int32_t c = *cap > 0 ? *cap : 16;
  while (c < n) c *= 2;
  if (!tb_grow_arrays(arrays, count, *cap, c)) return 0;
  *cap = c;
  return 1;
}

int tb_grow(void** ptr, size_t elem_size, int32_t old_count, int32_t new_count) {
  tb_array_ref a = {ptr, elem_size};
  return tb_grow_arrays(&a, 1, old_count, new_count);
}

int tb_reserve_aligned(void** block, void** aligned, int32_t* cap, int32_t n, size_t elem, int32_t keep) {
  if (n <= *cap) return 1;
  int32_t c = *cap > 0 ? *cap : 16;
  while (c < n) c *= 2;
  size_t bytes;
  if (!tb_size_mul((size_t)c, elem, &bytes) || bytes > SIZE_MAX - 63) return 0;
  void* b = tb_alloc(bytes + 63);
  if (!b) return 0;
  void* a = (void*)(((uintptr_t)b + 63) & ~(uintptr_t)63);
  if (keep > 0) memcpy(a, *aligned, (size_t)keep * elem);
  tb_free_aligned(*block, *cap, elem);
  *block = b;
  *aligned = a;
  *cap = c;
  return 1;
}

void tb_free_aligned(void* block, int32_t cap, size_t elem) {
  if (block) tb_free(block, (size_t)cap * elem + 63);
}

int tb_arena_reserve(tb_arena* a, size_t bytes) {
  a->used = 0;
  if (bytes <= a->capacity) return 1;
  size_t cap = a->capacity ? a->capacity : 4096;
  while (cap < bytes) {
    if (cap > SIZE_MAX / 2) return 0; /* no doubling reaches it: out of address space */
    cap *= 2;
  }
  uint8_t* d = (uint8_t*)tb_alloc(cap);
  if (!d) return 0;
  if (a->data) tb_free(a->data, a->capacity);
  a->data = d;
  a->capacity = cap;
  return 1;
}

void* tb_arena_push(tb_arena* a, size_t bytes) {
  size_t start = (a->used + 15u) & ~(size_t)15u;
  if (start > a->capacity || bytes > a->capacity - start) return NULL;
  a->used = start + bytes;
  if (a->used > a->high_water) a->high_water = a->used;
  return a->data + start;
}

void tb_arena_reset(tb_arena* a) { a->used = 0; }

void tb_arena_pop(tb_arena* a, size_t used) {
  if (used < a->used) a->used = used;
}

void tb_arena_destroy(tb_arena* a) {
  if (a->data) tb_free(a->data, a->capacity);
  a->data = NULL;
  a->capacity = a->used = 0;
}
