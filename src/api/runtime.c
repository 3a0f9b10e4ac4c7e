/* Public API of the process-wide calls: the allocator hooks and live bytes, the thread limit, the
 * enum names and the constants bindings read at init (core/alloc.c, core/jobs.c, core/enums.c). */
#include "../core/alloc.h"
#include "../core/enums.h"
#include "../core/jobs.h"

void tb_set_allocator(tb_alloc_fn alloc_fn, tb_free_fn free_fn, void* user) { tb_alloc_set_hooks(alloc_fn, free_fn, user); }

int64_t tb_live_bytes(void) { return tb_alloc_live_bytes(); }

int32_t tb_max_threads(void) { return tb_jobs_max_threads(); }

int32_t tb_enum_list_count(void) { return tb_enum_list_total(); }

const char* tb_enum_list_name(tb_enum e) { return tb_enum_list_label(e); }

int32_t tb_enum_count(tb_enum e) { return tb_enum_value_count(e); }

const char* tb_enum_name(tb_enum e, int32_t value) { return tb_enum_label(e, value); }

/* The constants of TB_CONSTANTS (tribo.h), by index. */
#define CNAME(name, value) #name,
#define CVALUE(name, value) (int32_t)(value),
static const char* const s_constant_names[] = {TB_CONSTANTS(CNAME)};
static const int32_t s_constant_values[] = {TB_CONSTANTS(CVALUE)};
#undef CNAME
#undef CVALUE

int32_t tb_constant_count(void) { return (int32_t)(sizeof s_constant_values / sizeof s_constant_values[0]); }

const char* tb_constant_name(int32_t index) {
  return index >= 0 && index < tb_constant_count() ? s_constant_names[index] : NULL;
}

int32_t tb_constant_value(int32_t index) {
  return index >= 0 && index < tb_constant_count() ? s_constant_values[index] : 0;
}
