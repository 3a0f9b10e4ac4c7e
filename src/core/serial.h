/* Byte streams of snapshots (internal): a writer that counts when it has no buffer, and a reader
 * that fails, never reads past its end. Values are copied as they lie in memory (the snapshot
 * header's layout hash says which build wrote them). */
#ifndef TB_SERIAL_H
#define TB_SERIAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"

typedef struct tb_serial {
  uint8_t* out;        /* writer: NULL = count only */
  const uint8_t* in;   /* reader */
  size_t size;         /* writer: capacity of out; reader: bytes in `in` */
  size_t pos;          /* bytes written (or counted) / read */
  int failed;          /* reader: 1 after a read past the end or a rejected value */
} tb_serial;

static inline void tb_put(tb_serial* s, const void* p, size_t n) {
  if (s->out && s->pos + n <= s->size && n) memcpy(s->out + s->pos, p, n);
  s->pos += n;
}
static inline void tb_put_i32(tb_serial* s, int32_t v) { tb_put(s, &v, sizeof v); }

/* Copies n bytes into p; 0 (and failed) past the end. */
static inline int tb_get(tb_serial* s, void* p, size_t n) {
  if (s->failed || n > s->size - s->pos) { s->failed = 1; return 0; }
  if (n) memcpy(p, s->in + s->pos, n);
  s->pos += n;
  return 1;
}
/* An int32 in [lo, hi], else failed (and lo returned). */
static inline int32_t tb_get_i32(tb_serial* s, int32_t lo, int32_t hi) {
  int32_t v = lo;
  if (!tb_get(s, &v, sizeof v) || v < lo || v > hi) { s->failed = 1; return lo; }
  return v;
}

/* The first `count` elements of each of the n arrays (the one at `skip`, an array of pointers, is
 * left out): a store written through the array list its growth uses. */
static inline void tb_put_arrays(tb_serial* s, const tb_array_ref* a, int n, int32_t count, void** skip) {
  for (int i = 0; i < n; ++i)
    if (a[i].ptr != skip) tb_put(s, *a[i].ptr, (size_t)count * a[i].elem_size);
}
static inline void tb_get_arrays(tb_serial* s, const tb_array_ref* a, int n, int32_t count, void** skip) {
  for (int i = 0; i < n; ++i)
    if (a[i].ptr != skip) tb_get(s, *a[i].ptr, (size_t)count * a[i].elem_size);
}
/* count elements of elem bytes into a fresh array *p (capacity *cap = count when cap is given);
 * refused before allocating when the stream cannot hold them. */
static inline int tb_get_fresh_array(tb_serial* s, void** p, int32_t* cap, int32_t count, size_t elem) {
  if (s->failed || count < 0 || (size_t)count * elem > s->size - s->pos) return s->failed = 1, 0;
  if (count > 0 && !tb_grow(p, elem, 0, count)) return 0;
  if (cap) *cap = count;
  return tb_get(s, *p, (size_t)count * elem);
}

/* FNV-1a, 32 bits, continued from h (start with 2166136261). */
static inline uint32_t tb_fnv1a(uint32_t h, const void* p, size_t n) {
  const uint8_t* b = (const uint8_t*)p;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 16777619u;
  return h;
}

#endif
