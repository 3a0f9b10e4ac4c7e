#!/usr/bin/env bash
# Two builds of native_bench against each other: a fresh process of each per pair, the order
# alternating, so the host's drifting speed falls on both; prints each pair's median ms/step and
# new / base, then the median and min–max of new / base over the pairs (below 1: NEW is faster).
#
#   bash bench/native_ab.sh BASE_BIN NEW_BIN [scene] [threads] [pairs]
#
# scene: pile (default) or pyramid; SIDE=20 or 40 in the environment for the larger piles (default
# 10: 1 000 bodies); threads: 1 (default) or more, fixed (--adaptive 0; the
# binaries need -DTB_THREADS -pthread for more than one); pairs: 10. Build each binary from its
# checkout, e.g.
#   gcc -O2 -std=c11 -ffp-contract=off -msse2 -DTB_THREADS -pthread -Isrc bench/native_bench.c \
#     $(find src -name '*.c' | sort) -lm -lpthread -o /tmp/nb_new
set -euo pipefail
base=${1:?usage: bash bench/native_ab.sh BASE_BIN NEW_BIN [scene] [threads] [pairs]}
new=${2:?usage: bash bench/native_ab.sh BASE_BIN NEW_BIN [scene] [threads] [pairs]}
scene=${3:-pile}
threads=${4:-1}
pairs=${5:-10}
side=${SIDE:-10}
case $scene in pile | pyramid) ;; *) echo "bench/native_ab.sh: scene must be pile or pyramid (got $scene)" >&2; exit 1 ;; esac

ms_of() { # binary → median ms/step of the scene over steps 300–600
  "$1" --scenes "$scene" --side "$side" --threads "$threads" --adaptive 0 --steps 600 |
    node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).scenes['$scene'].median_ms))"
}

ratios=()
for ((i = 0; i < pairs; ++i)); do
  if ((i % 2 == 0)); then b=$(ms_of "$base"); n=$(ms_of "$new"); else n=$(ms_of "$new"); b=$(ms_of "$base"); fi
  r=$(node -e "console.log(($n / $b).toFixed(4))")
  ratios+=("$r")
  printf 'pair %d: base %.4f ms, new %.4f ms, new/base %s\n' "$((i + 1))" "$b" "$n" "$r"
done
node -e "const r=process.argv.slice(1).map(Number).sort((a,b)=>a-b);const m=r.length%2?r[(r.length-1)/2]:(r[r.length/2-1]+r[r.length/2])/2;
console.log('$scene, $threads thread(s): new/base median '+m.toFixed(3)+' (min '+r[0].toFixed(3)+', max '+r[r.length-1].toFixed(3)+', '+r.length+' pairs)')" "${ratios[@]}"
