/* Names of the enums of tribo.h from their X-lists (internal, src/core/enums.c): the one table
 * C messages and the public tb_enum_* calls read. */
#ifndef TB_ENUMS_H
#define TB_ENUMS_H

#include "../include/tribo.h"

/* The lists: TB_ENUM_COUNT, the name of list e (NULL out of range). */
int32_t tb_enum_list_total(void);
const char* tb_enum_list_label(tb_enum e);
/* Values of list e (0 out of range) and the name of one ("unknown" out of range, NULL for a bad e). */
int32_t tb_enum_value_count(tb_enum e);
const char* tb_enum_label(tb_enum e, int32_t value);

#endif
