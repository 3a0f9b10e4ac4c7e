#!/usr/bin/env bash
# Where the wasm build's time goes, as V8 compiled it: the scene steps in Node under `perf record`
# with V8's map of its generated code (--perf-prof), `perf inject --jit` puts that code into the
# profile, and the report names each wasm function as V8 tiered it (JS:<name>-<index>-turbofan).
# With a function named, also its hottest instructions (x86, as V8 emitted them): a NaN test of
# fmaxf, a trapping float-to-int conversion or a loop counter kept in a stack slot shows there,
# where a native profile or node --cpu-prof cannot show it (bench/RESULTS.md "perf18").
#
#   bash bench/wasm_perf.sh [--jobs] [pile|pyramid] [steps] [function]
#   bash bench/wasm_perf.sh pile 1200 JS:generate-162-turbofan
#   SIDE=40 bash bench/wasm_perf.sh --jobs pile 400   # the pile's columns per side (10: 1 000 bodies)
#
# Needs perf (Debian's linux-perf) and `make wasm`. The link-time build merges each stage's jobs
# into the stage's function, so a function here is often several of the C files' functions.
# --jobs profiles build/profile/dist (make builds it: the simd build with each job of the serial
# tb_parallel_for called through a pointer, -DTB_PROFILE_JOBS), where every job is a function
# of its own (prepare_rows, narrow_job, match_job, ...), a few per cent slower than the shipped one.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=0
if [ "${1:-}" = --jobs ]; then jobs=1; shift; fi
scene=${1:-pile}
steps=${2:-1200}
fn=${3:-}
case $scene in pile | pyramid) ;; *) echo "bench/wasm_perf.sh: scene must be pile or pyramid (got $scene)" >&2; exit 1 ;; esac
case ${SIDE:-10} in *[!0-9]* | 0*) echo "bench/wasm_perf.sh: SIDE must be a whole number >= 1 without leading zeros (got $SIDE)" >&2; exit 1 ;; esac
command -v perf >/dev/null || { echo "bench/wasm_perf.sh: needs perf (apt-get install -y linux-perf)" >&2; exit 1; }
root=$(pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ $jobs = 1 ]; then
  # a checkout of its own: js/ and dist/ copied, the simd build replaced by the profiling one
  # (js/loader.js names its builds relative to itself, so the files are copies, not links)
  make -s build/profile/dist/tribo_simd.mjs
  mkdir -p "$dir/root/dist"
  cp -r js "$dir/root/js"
  cp dist/*.mjs dist/*.js dist/*.wasm "$dir/root/dist/" 2>/dev/null || true
  cp build/profile/dist/tribo_simd.* "$dir/root/dist/"
  load="$dir/root"
else
  load=$root
fi
cat > "$dir/run.mjs" <<JS
import { loadFrom } from '$root/bench/engines/tribo.mjs';
import { pile, pyramid } from '$root/bench/scenes.mjs';
const engine = await loadFrom('$load', { simd: true });
const world = engine.createWorld('$scene' === 'pile' ? pile({ side: ${SIDE:-10} }) : pyramid());
for (let i = 0; i < $steps; i++) world.step();
world.free();
JS
# --no-liftoff: TurboFan's code from the first step, as bench/run.mjs times it (bench/v8_flags.mjs);
# without it the report splits hot functions between their Liftoff and TurboFan versions
(cd "$dir" && perf record -k 1 -q -g -o perf.data node --perf-prof --no-liftoff run.mjs >/dev/null 2>&1)
perf inject --jit -i "$dir/perf.data" -o "$dir/jit.data" >/dev/null 2>&1
echo "# $scene, $steps steps: share of the samples by function (self)"
perf report -q -i "$dir/jit.data" --no-children --stdio -g none --percent-limit 0.5 2>/dev/null | sed 's/ *$//'
if [ -n "$fn" ]; then
  echo
  echo "# $fn: its hottest instructions (share of the function's samples)"
  perf annotate -i "$dir/jit.data" --stdio -s "$fn" 2>/dev/null | grep -E '^ +[0-9]+\.[0-9]+ :' | sort -rn | head -40
fi
