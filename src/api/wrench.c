/* Public API of contact wrenches: a body's contacts and net contact wrench, every body's, one
 * contact's wrench, the contact store in other engines' conventions, and the pure wrench tools
 * (observe/body_forces.c, observe/wrench.c). */
#include "../observe/observe.h"
#include "api.h"

int32_t tb_body_contacts(tb_world_id world, tb_body_id body, tb_body_id with, int32_t flags, int32_t* out, int32_t max) {
  const char* fn = "bodyContacts";
  GET_WORLD_NEG(fn);
  return tb_observe_body_contacts(w, fn, body, with, flags, out, max);
}

tb_status tb_body_contact_wrench(tb_world_id world, tb_body_id body, tb_body_id with, int32_t flags, tb_wrench* out,
                                 tb_readback_info* info) {
  const char* fn = "bodyContactWrench";
  GET_WORLD(fn);
  return tb_observe_body_contact_wrench(w, fn, body, with, flags, out, info);
}

tb_status tb_world_body_contact_wrenches(tb_world_id world, int32_t flags, float* out, int32_t slots, tb_readback_info* info) {
  const char* fn = "netContactWrenches";
  GET_WORLD(fn);
  return tb_observe_body_contact_wrenches(w, fn, flags, out, slots, info);
}

tb_status tb_contact_wrench(tb_world_id world, int32_t contact, int32_t side, const float point[3], tb_wrench* out,
                            tb_readback_info* info) {
  const char* fn = "contactWrench";
  GET_WORLD(fn);
  return tb_observe_contact_wrench(w, fn, contact, side, point, out, info);
}

tb_status tb_contacts_convert(tb_world_id world, tb_contact_convention convention, int32_t first, int32_t count, float* out,
                              tb_readback_info* info) {
  const char* fn = "convertContacts";
  GET_WORLD(fn);
  return tb_observe_contacts_convert(w, fn, convention, first, count, out, info);
}

tb_status tb_wrench_shift(const tb_wrench* in, const float to[3], tb_wrench* out) {
  return tb_observe_wrench_shift(in, to, out);
}

tb_status tb_wrench_reaction(const tb_wrench* on0, const float c1[3], tb_wrench* out) {
  return tb_observe_wrench_reaction(on0, c1, out);
}

tb_status tb_wrench_average(const tb_wrench* samples, const float* h, int32_t count, const float point[3], tb_wrench* out) {
  return tb_observe_wrench_average(samples, h, count, point, out);
}

int32_t tb_contact_convention_stride(tb_contact_convention convention) { return tb_observe_convention_stride(convention); }
