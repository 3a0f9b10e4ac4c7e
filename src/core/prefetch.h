/* A hint that a line will be read soon, so that the misses of a stage that reads at random (by
 * pair, body or wide index) overlap the work before them instead of stalling it one by one.
 * Natively the compiler's prefetch; in WebAssembly, which has no prefetch, a load whose value is
 * dropped (a load may trap, so the engine keeps it): the core issues it out of order, but it
 * retires only when its line is in, and its address costs instructions, so it pays in large scenes
 * only (bench/RESULTS.md "perf40"). Neither changes a result. A function holding only prefetches
 * must be inlined (TB_INLINE_HOT): gcc finds it without effect and drops the call. */
#ifndef TB_PREFETCH_H
#define TB_PREFETCH_H

#if defined(__wasm__)
#define tb_prefetch(p) ((void)*(const volatile unsigned char*)(const void*)(p))
#else
#define tb_prefetch(p) __builtin_prefetch((const void*)(p))
#endif

#endif
