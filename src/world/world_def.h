/* The world definition (internal): defaults, presets and the checks of its fields
 * (src/world/world_def.c). */
#ifndef TB_WORLD_DEF_H
#define TB_WORLD_DEF_H

#include "world.h"

/* The defaults (the physx-tgs preset on the common values) and a preset applied to a definition
 * (tb_default_world_def, tb_preset_apply). */
tb_world_def tb_world_def_default(void);
tb_status tb_world_def_apply_preset(tb_preset preset, tb_world_def* def);
tb_newton_params tb_newton_params_default(void);
tb_mujoco_params tb_mujoco_params_default(void);
tb_kamino_params tb_kamino_params_default(void);
tb_sleep_params tb_sleep_params_default(void);
/* Each check fails with TB_ERR_INVALID_ARGUMENT and a message naming fn, the field and the value;
 * w may be NULL (the message goes to the global error). */
tb_status tb_newton_params_check(tb_world* w, const char* fn, const tb_newton_params* p);
tb_status tb_mujoco_params_check(tb_world* w, const char* fn, const tb_mujoco_params* p);
tb_status tb_kamino_params_check(tb_world* w, const char* fn, const tb_kamino_params* p);
tb_status tb_sleep_params_check(tb_world* w, const char* fn, const tb_sleep_params* p);
tb_status tb_solver_params_check(tb_world* w, const char* fn, const tb_solver_params* p);
tb_status tb_collision_params_check(tb_world* w, const char* fn, const tb_collision_params* c);
/* A timestep (s) in [TB_MIN_TIMESTEP, TB_MAX_TIMESTEP]; the error names fn. */
tb_status tb_timestep_check(tb_world* w, const char* fn, float timestep);
tb_status tb_world_def_check(const tb_world_def* def, const char* fn);

/* The definition's field table (TB_FIELDS_WORLD_DEF). */
int32_t tb_world_def_field_count(void);
const tb_field_info* tb_world_def_field_get(int32_t index);

#endif
