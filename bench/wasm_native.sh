#!/usr/bin/env bash
# The same C benchmarks natively and as wasm with pthreads in Node, on this machine in its current
# state: native_bench (bench/native_bench.c, the pile and pyramid of bench/scenes.mjs through the C
# API) and job_cost (the job system's cost per parallel job). Runs are interleaved, native then
# wasm, ROUNDS times; prints each run's ms/step (or µs per job) and the cross-core round trip
# (bench/core_latency.mjs) before and after, which decides what two threads can give here. The
# pile's state hash is the same in both builds for about 100 steps, then differs: each build's
# rotations use its own C library's sinf/cosf (glibc natively, musl in wasm; src/core/simd.h), and
# each build gives its own bits with any thread count.
#
#   bash bench/wasm_native.sh                        # pile, 1 and 2 threads, 3 rounds
#   SCENE=pyramid ROUNDS=5 bash bench/wasm_native.sh
#   JOBS=1 bash bench/wasm_native.sh                 # job_cost instead (work 100 and 1000)
#
# The wasm build is the threads build's flags (Makefile WASM_FLAGS / WASM_MT_FLAGS) for Node instead
# of the browser; Node runs it with --no-experimental-fetch (this Emscripten's loader fails on Node
# 20's fetch otherwise) and --no-liftoff (TurboFan's code from the first step, as bench/ab.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
SCENE=${SCENE:-pile}
SIDE=${SIDE:-10}
STEPS=${STEPS:-600}
OUT=build/wasm_native
mkdir -p "$OUT"
echo '{"type": "commonjs"}' > "$OUT/package.json" # Emscripten's loader is a CommonJS script
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
SRC=$(find src -name '*.c' | sort)
EMFLAGS="-std=c11 -ffp-contract=off -Isrc -O3 -msimd128 -mbulk-memory -flto -pthread -DTB_THREADS -DTB_MAX_WORKERS=4
  -sPTHREAD_POOL_SIZE=4 -sALLOW_MEMORY_GROWTH -sINITIAL_MEMORY=33554432 -sENVIRONMENT=node,worker -sEXIT_RUNTIME=1"
NODE=(node --no-experimental-fetch --no-liftoff)
latency() { node bench/core_latency.mjs | tail -1; }
if [ "${JOBS:-0}" = 1 ]; then
  gcc -O2 -std=c11 -DTB_THREADS -pthread -Isrc bench/job_cost.c src/core/jobs.c -lm -lpthread -o "$OUT/job_cost"
  # shellcheck disable=SC2086
  emcc $EMFLAGS bench/job_cost.c src/core/jobs.c -o "$OUT/job_cost.js"
  latency
  for ((r = 0; r < ROUNDS; ++r)); do
    for work in 100 1000; do
      for t in 1 2; do
        echo "native $("$OUT/job_cost" "$t" "$work" | tail -1)"
        echo "wasm   $("${NODE[@]}" "$OUT/job_cost.js" "$t" "$work" | tail -1)"
      done
    done
  done
  latency
  exit 0
fi
# shellcheck disable=SC2086
gcc -O2 -std=c11 -ffp-contract=off -msse2 -DTB_THREADS -pthread -Isrc bench/native_bench.c $SRC -lm -lpthread -o "$OUT/native_bench"
# shellcheck disable=SC2086
emcc $EMFLAGS bench/native_bench.c $SRC -o "$OUT/native_bench.js"
ms() { "$@" --scenes "$SCENE" --side "$SIDE" --steps "$STEPS" --adaptive 0 |
  node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s).scenes['$SCENE'];console.log(r.median_ms.toFixed(3)+' ms/step'+(r.state_hash?' state '+r.state_hash:''))})"; }
echo "$SCENE (side $SIDE), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src bench || echo ' with uncommitted changes')"
latency
for ((r = 0; r < ROUNDS; ++r)); do
  for t in 1 2; do
    echo "round $((r + 1)), $t thread(s): native $(ms "$OUT/native_bench" --threads "$t"), wasm $(ms "${NODE[@]}" "$OUT/native_bench.js" --threads "$t")"
  done
done
latency
