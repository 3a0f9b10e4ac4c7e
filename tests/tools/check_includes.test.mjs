// The include check holds on the real tree and fails on a planted forbidden include.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ALLOWED, checkIncludes } from '../../tools/check_includes.mjs';
import { repo, src, withCopy } from './src_copy.mjs';

const script = join(repo, 'tools', 'check_includes.mjs');

function plant(root, file, line) {
  const p = join(root, file);
  writeFileSync(p, `${line}\n${readFileSync(p, 'utf8')}`);
}

test('the real tree has no forbidden include (exit 0)', () => {
  assert.deepEqual(checkIncludes(src), []);
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('collision including the solver fails, naming file, line and edge', () => {
  withCopy((root) => {
    plant(root, 'collision/broad_phase.c', '#include "../solver/solver.h"');
    const r = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /collision\/broad_phase\.c:1: collision\/ may not include solver\/ \(\.\.\/solver\/solver\.h\)/);
    assert.equal(checkIncludes(root).length, 1);
  });
});

test('every layer below step/ and api/ is refused the layers above it', () => {
  const order = ['geometry', 'collision', 'model', 'solver', 'observe', 'step', 'api'];
  withCopy((root) => {
    // world/ may not include any layer; each layer may not include the next one up
    plant(root, 'world/storage.c', '#include "../collision/filter.h"');
    plant(root, 'model/distance.c', '#include "../solver/solver.h"');
    plant(root, 'observe/observe.c', '#include "../step/step.h"');
    plant(root, 'core/alloc.c', '#include "../world/world.h"');
    const problems = checkIncludes(root);
    assert.equal(problems.length, 4, problems.join('\n'));
    for (const edge of ['world/ may not include collision/', 'model/ may not include solver/',
      'observe/ may not include step/', 'core/ may not include world/']) {
      assert.ok(problems.some((p) => p.includes(edge)), edge);
    }
  });
  for (let i = 0; i < order.length - 1; ++i) assert.ok(!ALLOWED[order[i]].includes(order[i + 1]), `${order[i]} -> ${order[i + 1]}`);
});

test('the walls across a layer hold: model to collision, observe to solver', () => {
  withCopy((root) => {
    plant(root, 'model/material.c', '#include "../collision/filter.h"');
    plant(root, 'observe/body_forces.c', '#include "../solver/newton.h"');
    const problems = checkIncludes(root);
    assert.equal(problems.length, 2, problems.join('\n'));
    for (const edge of ['model/ may not include collision/', 'observe/ may not include solver/'])
      assert.ok(problems.some((p) => p.includes(edge)), edge);
  });
});

test('an include that resolves nowhere fails', () => {
  withCopy((root) => {
    plant(root, 'geometry/mass.c', '#include "missing/header.h"');
    const problems = checkIncludes(root);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /geometry\/mass\.c:1: missing\/header\.h does not resolve/);
  });
});
