#include "fields.h"

#include "../include/tribo.h"
#include "alloc.h"

#define INFO(name, ctype, ftype, comps, unit, doc) {#name, unit, doc, ftype, comps},
static const tb_field_info s_body_info[] = {TB_BODY_FIELDS(INFO)};
static const tb_field_info s_contact_info[] = {TB_CONTACT_FIELDS(INFO)};
#undef INFO

int32_t tb_field_count(tb_field_set set) {
  return set == TB_FIELDS_BODY ? TB_BODY_FIELD_COUNT : (set == TB_FIELDS_CONTACT ? TB_CONTACT_FIELD_COUNT : 0);
}

const tb_field_info* tb_field_get(tb_field_set set, int32_t index) {
  if (index < 0 || index >= tb_field_count(set)) return NULL;
  return set == TB_FIELDS_BODY ? &s_body_info[index] : &s_contact_info[index];
}

#define GROW(name, ctype, ftype, comps, unit, doc) \
  ok = ok && tb_grow((void**)&f->name, sizeof(ctype) * (comps), old_capacity, new_capacity);
#define FREE(name, ctype, ftype, comps, unit, doc) \
  tb_free(f->name, sizeof(ctype) * (comps) * (size_t)capacity); f->name = NULL;

int tb_body_fields_grow(tb_body_fields* f, int32_t old_capacity, int32_t new_capacity) {
  int ok = 1;
  TB_BODY_FIELDS(GROW)
  return ok;
}
void tb_body_fields_free(tb_body_fields* f, int32_t capacity) {
  if (capacity <= 0) return;
  TB_BODY_FIELDS(FREE)
}
int tb_contact_fields_grow(tb_contact_fields* f, int32_t old_capacity, int32_t new_capacity) {
  int ok = 1;
  TB_CONTACT_FIELDS(GROW)
  return ok;
}
void tb_contact_fields_free(tb_contact_fields* f, int32_t capacity) {
  if (capacity <= 0) return;
  TB_CONTACT_FIELDS(FREE)
}

#define CASE_BODY(name, ctype, ftype, comps, unit, doc) case TB_BODY_FIELD_##name: return f->name;
#define CASE_CONTACT(name, ctype, ftype, comps, unit, doc) case TB_CONTACT_FIELD_##name: return f->name;
void* tb_body_field_ptr(tb_body_fields* f, int32_t index) {
  switch (index) { TB_BODY_FIELDS(CASE_BODY) default: return NULL; }
}
void* tb_contact_field_ptr(tb_contact_fields* f, int32_t index) {
  switch (index) { TB_CONTACT_FIELDS(CASE_CONTACT) default: return NULL; }
}
