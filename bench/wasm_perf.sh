#!/usr/bin/env bash
# Where the wasm build's time goes, as V8 compiled it: the scene steps in Node under `perf record`
# with V8's map of its generated code (--perf-prof), `perf inject --jit` puts that code into the
# profile, and the report names each wasm function as V8 tiered it (JS:<name>-<index>-turbofan).
# With a function named, also its hottest instructions (x86, as V8 emitted them): a NaN test of
# fmaxf, a trapping float-to-int conversion or a loop counter kept in a stack slot shows there,
# where a native profile or node --cpu-prof cannot show it (bench/RESULTS.md "perf18").
#
#   bash bench/wasm_perf.sh [pile|pyramid] [steps] [function]
#   bash bench/wasm_perf.sh pile 1200 JS:generate-162-turbofan
#
# Needs perf (Debian's linux-perf) and `make wasm`. The link-time build merges each stage's jobs
# into the stage's function, so a function here is often several of the C files' functions.
set -euo pipefail
cd "$(dirname "$0")/.."
scene=${1:-pile}
steps=${2:-1200}
fn=${3:-}
case $scene in pile | pyramid) ;; *) echo "bench/wasm_perf.sh: scene must be pile or pyramid (got $scene)" >&2; exit 1 ;; esac
command -v perf >/dev/null || { echo "bench/wasm_perf.sh: needs perf (apt-get install -y linux-perf)" >&2; exit 1; }
root=$(pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/run.mjs" <<JS
import { loadFrom } from '$root/bench/engines/tribo.mjs';
import { pile, pyramid } from '$root/bench/scenes.mjs';
const engine = await loadFrom('$root', { simd: true });
const world = engine.createWorld(('$scene' === 'pile' ? pile : pyramid)());
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
