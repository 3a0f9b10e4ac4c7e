/* Byte streams of snapshots (internal): a writer that counts when it has no buffer, and a reader
 * that fails, never reads past its end. Values are copied as they lie in memory (the snapshot
 * header's layout hash says which build wrote them). */
#ifndef TB_SERIAL_H
#define TB_SERIAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* FNV-1a, 32 bits, continued from h (start with 2166136261). */
static inline uint32_t tb_fnv1a(uint32_t h, const void* p, size_t n) {
  const uint8_t* b = (const uint8_t*)p;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 16777619u;
  return h;
}

#endif
