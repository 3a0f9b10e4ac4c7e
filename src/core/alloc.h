/* Allocation through one hook, with a live-byte count; per-step scratch arena (internal). */
#ifndef TB_ALLOC_H
#define TB_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "../include/tribo.h"

/* The hooks every allocation goes through (NULL: malloc / free) and the bytes live now
 * (tb_set_allocator, tb_live_bytes). */
void tb_alloc_set_hooks(tb_alloc_fn alloc_fn, tb_free_fn free_fn, void* user);
int64_t tb_alloc_live_bytes(void);

/* 0 when `bytes` more can never be allocated: in wasm, more than the module's maximum memory less
 * the bytes Tribo holds. Checked before any allocation (and before a group of them), because wasm
 * memory never shrinks: growing it on the way to an allocation that fails would keep the grown
 * memory for good. Natively always 1 (the allocator says). */
int tb_alloc_may_fit(size_t bytes);
void* tb_alloc(size_t size);                 /* NULL on failure; never zero-filled */
/* count * elem_size bytes, or NULL when the product overflows size_t (wasm32: 4 GiB) or memory
 * runs out: every array allocation goes through this (or tb_size_mul), never a bare product. */
void* tb_alloc_array(size_t count, size_t elem_size);
/* *out = a * b; 0 (and *out = SIZE_MAX) when the product does not fit in size_t. */
static inline int tb_size_mul(size_t a, size_t b, size_t* out) {
  if (b != 0 && a > SIZE_MAX / b) {
    *out = SIZE_MAX;
    return 0;
  }
  *out = a * b;
  return 1;
}
void* tb_alloc_zero(size_t size);
void tb_free(void* ptr, size_t size);        /* size must be the size given to tb_alloc */
/* Grows *ptr (old_count elements of elem_size) to new_count, copying the old contents. */
int tb_grow(void** ptr, size_t elem_size, int32_t old_count, int32_t new_count);

/* A set of parallel arrays that share one element count (a structure of arrays). */
typedef struct tb_array_ref {
  void** ptr;
  size_t elem_size;
} tb_array_ref;
/* Appends array member `name` of *p (elem_size bytes per element) as refs[count++]: the one way a
 * store's X-list (world/storage.c, core/fields.c) or array list (observe/sensor.c) becomes refs. */
#define TB_ARRAY_REF(refs, count, p, name, elem_size) ((refs)[(count)++] = (tb_array_ref){(void**)&(p)->name, (elem_size)})
/* Grows every array from old_count to new_count elements, keeping the contents, all or nothing:
 * on failure nothing changes and 0 is returned. */
int tb_grow_arrays(const tb_array_ref* arrays, int count, int32_t old_count, int32_t new_count);
void tb_free_arrays(const tb_array_ref* arrays, int count, int32_t element_count);
/* Grows a group of arrays sharing the capacity *cap to at least n elements, doubling from 16
 * (solver scratch, grown at the start of a solve); all or nothing, 0 on out of memory. */
int tb_grow_capacity(const tb_array_ref* arrays, int count, int32_t* cap, int32_t n);

/* A block of at least n elements of elem bytes from a 64-byte boundary (*block its allocation of
 * *cap elements and 63 bytes, *aligned the boundary), doubling from 16, so that no element of a
 * multiple of 64 bytes straddles a cache line; the first `keep` elements copied into a larger
 * block. All or nothing: 0 on out of memory, nothing changed. tb_free_aligned frees the block. */
int tb_reserve_aligned(void** block, void** aligned, int32_t* cap, int32_t n, size_t elem, int32_t keep);
void tb_free_aligned(void* block, int32_t cap, size_t elem);

/* Bump allocator for per-step scratch. Sized between steps (tb_arena_reserve); inside a step
 * tb_arena_push never allocates: it returns NULL when the reservation is too small, which the
 * step treats as a bug (reservations are computed from known counts before the step). */
typedef struct tb_arena {
  uint8_t* data;
  size_t capacity;
  size_t used;
  size_t high_water;
} tb_arena;

int tb_arena_reserve(tb_arena* a, size_t bytes); /* between steps only; keeps nothing */
void* tb_arena_push(tb_arena* a, size_t bytes);  /* 16-byte aligned */
void tb_arena_reset(tb_arena* a);
void tb_arena_pop(tb_arena* a, size_t used); /* gives back what was pushed since a->used was `used` */
void tb_arena_destroy(tb_arena* a);

#endif
