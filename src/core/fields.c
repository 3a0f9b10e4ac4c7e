#include "fields.h"

#include "../include/tribo.h"
#include "alloc.h"

#define INFO(name, ctype, ftype, comps, unit, doc) {#name, unit, doc, ftype, comps, -1},
static const tb_field_info s_body_info[] = {TB_BODY_FIELDS(INFO)};
static const tb_field_info s_contact_info[] = {TB_CONTACT_FIELDS(INFO)};
#undef INFO

int32_t tb_store_field_count(tb_field_set set) {
  return set == TB_FIELDS_BODY ? TB_BODY_FIELD_COUNT : (set == TB_FIELDS_CONTACT ? TB_CONTACT_FIELD_COUNT : 0);
}

const tb_field_info* tb_store_field_get(tb_field_set set, int32_t index) {
  if (index < 0 || index >= tb_store_field_count(set)) return NULL;
  return set == TB_FIELDS_BODY ? &s_body_info[index] : &s_contact_info[index];
}

#define REF(name, ctype, ftype, comps, unit, doc) TB_ARRAY_REF(out, n, f, name, sizeof(ctype) * (comps));
int tb_body_field_arrays(tb_body_fields* f, tb_array_ref* out) {
  int n = 0;
  TB_BODY_FIELDS(REF)
  return n;
}
int tb_contact_field_arrays(tb_contact_fields* f, tb_array_ref* out) {
  int n = 0;
  TB_CONTACT_FIELDS(REF)
  return n;
}
#undef REF

#define CASE_BODY(name, ctype, ftype, comps, unit, doc) case TB_BODY_FIELD_##name: return f->name;
#define CASE_CONTACT(name, ctype, ftype, comps, unit, doc) case TB_CONTACT_FIELD_##name: return f->name;
void* tb_body_field_ptr(tb_body_fields* f, int32_t index) {
  switch (index) { TB_BODY_FIELDS(CASE_BODY) default: return NULL; }
}
void* tb_contact_field_ptr(tb_contact_fields* f, int32_t index) {
  switch (index) { TB_CONTACT_FIELDS(CASE_CONTACT) default: return NULL; }
}
