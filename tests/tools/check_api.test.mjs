// The public-API check holds on the real tree and fails on a planted TB_API definition outside
// src/api/ and on a declaration without a definition.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { checkApi, definitions } from '../../tools/check_api.mjs';
import { repo, src, withCopy } from './src_copy.mjs';

const script = join(repo, 'tools', 'check_api.mjs');

const append = (root, file, text) => writeFileSync(join(root, file), `${readFileSync(join(root, file), 'utf8')}${text}`);
const edit = (root, file, from, to) => {
  const p = join(root, file), s = readFileSync(p, 'utf8');
  assert.ok(s.includes(from), `${file} holds ${from}`);
  writeFileSync(p, s.replace(from, to));
};

test('the real tree: every TB_API function is defined in src/api/ (exit 0)', () => {
  const { names, problems } = checkApi(src);
  assert.deepEqual(problems, []);
  assert.ok(names.length >= 100 && names.includes('tb_world_step') && names.includes('tb_set_allocator'), `${names.length} names`);
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('a new world entry point defined in the solver fails, naming file, line and function', () => {
  withCopy((root) => {
    edit(root, 'include/tribo.h', 'TB_API tb_status tb_world_step(tb_world_id world);',
      'TB_API tb_status tb_world_step(tb_world_id world);\nTB_API int32_t tb_world_island_total(tb_world_id world);');
    const lines = readFileSync(join(root, 'solver/island.c'), 'utf8').split('\n').length;
    append(root, 'solver/island.c', 'int32_t tb_world_island_total(tb_world_id world) {\n  return world;\n}\n');
    const r = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`solver/island\\.c:${lines}: tb_world_island_total is TB_API \\(include/tribo\\.h\\) but defined outside api/`));
    assert.equal(checkApi(root).problems.length, 1);
  });
});

test('an existing entry point moved down a layer fails; one with no definition fails', () => {
  withCopy((root) => {
    edit(root, 'api/world.c', 'const char* tb_last_error(tb_world_id world) {', 'const char* tb_last_error_moved(tb_world_id world) {');
    append(root, 'world/registry.c', '\nconst char* tb_last_error(tb_world_id world) { return tb_world_error_text(tb_world_get(world)); }\n');
    edit(root, 'api/runtime.c', 'int32_t tb_max_threads(void) {', 'static int32_t max_threads_gone(void) {');
    const { problems } = checkApi(root);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.ok(problems.some((p) => /^world\/registry\.c:\d+: tb_last_error is TB_API/.test(p)), problems.join('\n'));
    assert.ok(problems.some((p) => p === 'tb_max_threads: declared TB_API in include/tribo.h, defined nowhere under src/'), problems.join('\n'));
  });
});

test('prototypes, calls, comments, strings, macros and initialisers are not definitions', () => {
  const text = [
    '#define WRAP(x) int32_t tb_world_step(x) { return 0; }',
    '/* tb_world_step(tb_world_id w) { */',
    'static const char* s = "tb_world_step(w) {";',
    'tb_status tb_world_step(tb_world_id world);',
    'static int (*hooks[])(int) = {0};',
    'typedef struct tb_thing { int a; } tb_thing;',
    'int helper(int a) {',
    '  if (a) { tb_world_step(a); }',
    '  return a;',
    '}',
    'static const tb_field_info table[] = {{"x"}};',
    'static float scale(const float p[3], int32_t (*f)(int)) { return p[0]; }',
  ].join('\n');
  assert.deepEqual(definitions(text), [{ name: 'helper', line: 7 }, { name: 'scale', line: 12 }]);
});
