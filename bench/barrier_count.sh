#!/usr/bin/env bash
# Barriers per step of the threads build: the jobs of a step big enough to split over the threads
# (each ends in the caller waiting for the others' chunks), counted by the job system whether or
# not a loaded machine made it back off to one thread, so the count does not depend on load.
#
#   bash bench/barrier_count.sh                    # pyramid and the 1000-body pile, steps 300–310
#   SIDES="5 20" WINDOW=100:110 THREADS=3 bash bench/barrier_count.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WINDOW=${WINDOW:-300:310}
SIDES=${SIDES:-10}
THREADS=${THREADS:-2}
BIN=build/native_bench_barriers
# shellcheck disable=SC2046
gcc -O2 -std=c11 -ffp-contract=off -msse2 -DTB_THREADS -DTB_COUNT_BARRIERS -pthread -Isrc bench/native_bench.c \
  $(find src -name '*.c' | sort) -lm -lpthread -o "$BIN"
echo "threads $THREADS, commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src bench/native_bench.c || echo ' with uncommitted changes'), window steps $WINDOW"
"$BIN" --steps "${WINDOW##*:}" --scenes pyramid --threads "$THREADS" --count "$WINDOW" 2>&1 >/dev/null | sed 's/^/  /'
for s in $SIDES; do
  printf '  side %s ' "$s"
  "$BIN" --steps "${WINDOW##*:}" --scenes pile --side "$s" --threads "$THREADS" --count "$WINDOW" 2>&1 >/dev/null
done
