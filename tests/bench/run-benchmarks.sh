#!/usr/bin/env bash
# run-benchmarks.sh BUILD_DIR: what `make bench` runs. Benchmarks print numbers; they do not assert.
#  1. bench_load on the corpus file tracelens/xdit_sd35_rank0.json.gz (62 MB of Kineto JSON);
#  2. Python's json.loads on the same bytes, and the speed-up of our import over it (goal >= 10x);
#  3. a ~1 GB Kineto trace tiled from that file by gen_kineto into a temporary folder, bench_load on
#     it, then the file is removed;
#  4. bench_cache (first load vs reopening from the trace cache, in a temporary cache folder) on the
#     corpus file and on the ~1 GB trace;
#     bench_insights (insights after load) on the ~1 GB trace too;
#  5. every other bench_* program in BUILD_DIR/tests (e.g. bench_ntff), each with its defaults.
# Steps 1-3 are skipped with a message when the corpus is absent ($LANESCOPE_CORPUS, else
# ../shared/corpus next to the source tree).
set -uo pipefail
BUILD=${1:-build}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
TESTS="$BUILD/tests"
CORPUS=${LANESCOPE_CORPUS:-$SRC/../shared/corpus}
XDIT="$CORPUS/tracelens/xdit_sd35_rank0.json.gz"
TARGET_MB=${LANESCOPE_BENCH_BIG_MB:-1024}
status=0

if [ ! -x "$TESTS/bench_load" ] || [ ! -x "$TESTS/gen_kineto" ]; then
  echo "run-benchmarks: $TESTS/bench_load or gen_kineto not built; run 'make build' (or cmake --build $BUILD) first" >&2
  exit 2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/lanescope-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# "(b) import  0.128 s ..." -> 0.128
import_seconds() { awk '/\(b\) import/ { print $3; exit }' "$1"; }

if [ -f "$XDIT" ]; then
  echo "== bench_load (corpus file)"
  "$TESTS/bench_load" "$XDIT" | tee "$WORK/load.txt" || status=1
  if [ -x "$TESTS/bench_cache" ]; then
    echo
    echo "== bench_cache (corpus file)"
    "$TESTS/bench_cache" "$XDIT" || status=1
  fi
  echo
  echo "== python baseline"
  bash "$HERE/bench_python_baseline.sh" "$XDIT" | tee "$WORK/python.txt" || status=1
  ours=$(import_seconds "$WORK/load.txt")
  theirs=$(awk '/python json.loads/ { print $3; exit }' "$WORK/python.txt")
  if [ -n "$ours" ] && [ -n "$theirs" ]; then
    awk -v a="$theirs" -v b="$ours" 'BEGIN { r = a / b; printf "  import vs python json.loads: %.1fx faster (goal >= 10x: %s)\n", r, (r >= 10 ? "met" : "NOT met") }'
  fi
  echo
  echo "== bench_load (~$TARGET_MB MB tiled Kineto trace)"
  BIG="$WORK/kineto_tiled.json"
  free_mb=$(df -Pm "$WORK" | awk 'NR == 2 { print $4 }')
  if [ -n "$free_mb" ] && [ "$free_mb" -lt $((TARGET_MB * 2)) ]; then
    echo "SKIP: only $free_mb MB free in $WORK, need about $((TARGET_MB * 2)) MB"
  elif "$TESTS/gen_kineto" "$XDIT" "$BIG" "$TARGET_MB"; then
    "$TESTS/bench_load" "$BIG" || status=1
    if [ -x "$TESTS/bench_cache" ]; then
      echo
      echo "== bench_cache (~$TARGET_MB MB tiled Kineto trace)"
      sleep 3 # the cache trusts a file's stat signature only once it is older than 2 s
      "$TESTS/bench_cache" "$BIG" 1 || status=1
    fi
    if [ -x "$TESTS/bench_insights" ]; then
      echo
      echo "== bench_insights (~$TARGET_MB MB tiled Kineto trace; goal < 2 s after load)"
      "$TESTS/bench_insights" --runs 3 "$BIG" || status=1
    fi
  else
    status=1
  fi
  rm -f "$BIG"
else
  echo "SKIP: corpus-based benchmarks (bench_load, python baseline, 1 GB tiled trace): corpus not found at $CORPUS"
  echo "      set LANESCOPE_CORPUS or place the corpus at ../shared/corpus"
fi

for b in "$TESTS"/bench_*; do
  [ -f "$b" ] && [ -x "$b" ] || continue
  name=$(basename "$b")
  [ "$name" = bench_load ] && continue
  [ "$name" = bench_cache ] && continue
  echo
  echo "== $name"
  "$b" || status=1
done
exit $status
