/* Enum name tables: generated from the X-lists of tribo.h, so C messages (tb_enum_label) and
 * bindings (tb_enum_name, from which they build their option tables at init) spell every enum
 * value the same way. */
#include "enums.h"

#define NAME(c, name) name,
#define LIST(c, name, list) static const char* const s_##c[] = {list(NAME)};
TB_ENUM_LISTS(LIST)
#undef LIST

typedef struct enum_list {
  const char* name;
  const char* const* values;
  int32_t count;
} enum_list;

#define ENTRY(c, name, list) {name, s_##c, (int32_t)(sizeof s_##c / sizeof s_##c[0])},
static const enum_list s_lists[] = {TB_ENUM_LISTS(ENTRY)};
#undef ENTRY
#undef NAME

/* The value counts of the lists must be the enums' own COUNT constants. */
_Static_assert(sizeof s_TB_ENUM_SHAPE_TYPE / sizeof(char*) == TB_SHAPE_TYPE_COUNT, "shape type names");
_Static_assert(sizeof s_TB_ENUM_FIELD_SET / sizeof(char*) == TB_FIELD_SET_COUNT, "field set names");

int32_t tb_enum_list_total(void) { return TB_ENUM_COUNT; }

const char* tb_enum_list_label(tb_enum e) { return e >= 0 && e < TB_ENUM_COUNT ? s_lists[e].name : NULL; }

int32_t tb_enum_value_count(tb_enum e) { return e >= 0 && e < TB_ENUM_COUNT ? s_lists[e].count : 0; }

const char* tb_enum_label(tb_enum e, int32_t value) {
  if (e < 0 || e >= TB_ENUM_COUNT) return NULL;
  return value >= 0 && value < s_lists[e].count ? s_lists[e].values[value] : "unknown";
}
