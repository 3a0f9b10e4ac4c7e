#!/usr/bin/env bash
# Instructions per step of the native build under callgrind (a count, not a time: it does not
# depend on machine load), for the pyramid and the scaling piles; optionally ms/step too.
#
#   bash bench/instr_counts.sh                 # pyramid, piles of 250 / 1000 / 4000 / 16 000 bodies
#   SIDES="10" SCENES=pyramid,pile bash bench/instr_counts.sh
#   WINDOW=300:310 bash bench/instr_counts.sh  # instrumented steps (default 300:310, settled piles)
#   MS=1 bash bench/instr_counts.sh            # also ms/step without valgrind (quiet machine only)
#   THREADS=2 bash bench/instr_counts.sh       # threads build (-DTB_THREADS) with 2 threads
#   CACHE=1 bash bench/instr_counts.sh         # also simulated cache misses (callgrind --cache-sim:
#                                              # D1 32 KB, LL=${LL:-1048576,16,64}, a 1 MB L2): last-level
#                                              # read and write misses per body·step, also a count
#
# Prints a markdown table: instructions per step over the window (Ir/step), per body and step,
# the first step (step 0, the broad phase's sweep order built from creation order) and first /
# later. Sleeping is off (native_bench). Needs valgrind; builds build/native_bench_cg.
set -euo pipefail
cd "$(dirname "$0")/.."
WINDOW=${WINDOW:-300:310}
SIDES=${SIDES:-5 10 20 40}
SCENES=${SCENES:-pyramid,pile}
THREADS=${THREADS:-1}
OUT=${OUT_DIR:-build/callgrind}
mkdir -p "$OUT"
DEFS=""
[ "$THREADS" -gt 1 ] && DEFS="-DTB_THREADS -pthread"
BIN=build/native_bench_cg$([ "$THREADS" -gt 1 ] && echo _mt || true)
# the state of the sources as compiled: read before the compiler reads them
SOURCE="commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src bench/native_bench.c || echo ' with uncommitted changes')"
# shellcheck disable=SC2046
gcc -O2 -g -std=c11 -ffp-contract=off -msse2 $DEFS -Isrc bench/native_bench.c $(find src -name '*.c' | sort) \
  -lm -lpthread -o "$BIN"
from=${WINDOW%%:*}
to=${WINDOW##*:}
steps=$((to - from))

CACHE_ARGS=""
[ -n "${CACHE:-}" ] && CACHE_ARGS="--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=${LL:-1048576,16,64}"

# total Ir of a callgrind out file
ir_of() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'; }
# total last-level data read and write misses of a callgrind out file: "DLmr DLmw"
ll_of() { callgrind_annotate --show=DLmr,DLmw "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); gsub(",", "", $3); print $1, $3; exit }'; }

run() { # scene side → "bodies window_ir first_ir"
  local scene=$1 side=$2 tag="$1-$2-t$THREADS"
  rm -f "$OUT/$tag".out*
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$OUT/$tag.out" $CACHE_ARGS \
    "$BIN" --steps "$to" --scenes "$scene" --side "$side" --threads "$THREADS" --count "$WINDOW" \
    > "$OUT/$tag.json" 2> "$OUT/$tag.log"
  local bodies
  bodies=$(node -e "const j=JSON.parse(require('fs').readFileSync('$OUT/$tag.json','utf8'));console.log(j.scenes['$scene'].bodies)")
  echo "$bodies $(ir_of "$OUT/$tag.out") $(ir_of "$OUT/$tag.out.1") $([ -n "${CACHE:-}" ] && ll_of "$OUT/$tag.out" || echo 0 0)"
}

ms_of() { # scene side → median ms/step over the second half of 600 steps (no valgrind)
  "$BIN" --steps 600 --scenes "$1" --side "$2" --threads "$THREADS" |
    node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s).scenes['$1'];console.log(r.median_ms.toFixed(3)+' '+(r.first_step_ms??NaN).toFixed(3))})"
}

echo "Native gcc -O2, threads $THREADS, $SOURCE, window steps $WINDOW"
echo
printf '| scene | bodies | Ir/step | Ir per body·step | first step Ir | first / later |%s%s\n' "$([ -n "${MS:-}" ] && echo ' ms/step | first ms |')" \
  "$([ -n "${CACHE:-}" ] && echo ' LL read misses per body·step | LL write misses per body·step |')"
printf '| --- | ---: | ---: | ---: | ---: | ---: |%s%s\n' "$([ -n "${MS:-}" ] && echo ' ---: | ---: |')" "$([ -n "${CACHE:-}" ] && echo ' ---: | ---: |')"
list=()
[[ $SCENES == *pyramid* ]] && list+=("pyramid 10")
if [[ $SCENES == *pile* ]]; then for s in $SIDES; do list+=("pile $s"); done; fi
for item in "${list[@]}"; do
  read -r scene side <<< "$item"
  read -r bodies wir fir llr llw <<< "$(run "$scene" "$side")"
  per=$((wir / steps))
  extra=""
  if [ -n "${MS:-}" ]; then read -r ms fms <<< "$(ms_of "$scene" "$side")"; extra=" $ms | $fms |"; fi
  if [ -n "${CACHE:-}" ]; then extra="$extra $(awk -v r="$llr" -v w="$llw" -v b="$bodies" -v s="$steps" 'BEGIN { printf "%.1f | %.1f |", r / b / s, w / b / s }')"; fi
  awk -v sc="$scene" -v b="$bodies" -v p="$per" -v f="$fir" -v x="$extra" 'BEGIN {
    printf "| %s | %d | %.2fM | %.0f | %.2fM | %.2f |%s\n", sc, b, p / 1e6, p / b, f / 1e6, f / p, x }'
done
