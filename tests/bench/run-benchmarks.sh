#!/usr/bin/env bash
# run-benchmarks.sh BUILD_DIR: what `make bench` runs. Benchmarks print numbers; they do not assert.
#  1. bench_load on the corpus file tracelens/xdit_sd35_rank0.json.gz (62 MB of Kineto JSON), then
#     process to process (in the same run, alternating, median of 5): `lanescope-cli info` of that
#     file against `bench_load --floor` (read, decompress and one bare single-threaded simdjson pass
#     over the same bytes); goal: ratio <= 1.0;
#  2. Python's json.loads on the same bytes, and the speed-up of our import over it (goal >= 12x);
#  3. a ~1 GB Kineto trace tiled from that file by gen_kineto into a temporary folder: `lanescope-cli
#     info` on it as a process (MB/s of JSON, goal >= 400; peak resident memory / file size, goal
#     <= 0.6), bench_load on it, then the file is removed; with LANESCOPE_BENCH_HUGE=1 also a ~6 GB
#     trace (past 4 GiB), the same figures, skipped with a message when the disk lacks room;
#     each of them also as the trace.json of a profile folder (a hard link in a folder of its own):
#     `lanescope-cli info FOLDER` against `lanescope-cli info FILE`, alternating in the same run, the
#     folder-vs-file ratios of time (goal <= 1.15) and peak resident memory, and the folder's peak
#     against the file size (goal <= 0.6);
#  4. bench_cache (first load vs reopening from the trace cache, in a temporary cache folder) on the
#     corpus file and on the ~1 GB trace; on the ~1 GB trace also bench_reopen.sh: reopening from the
#     cache against parsing, process to process (`lanescope-cli info`, `lanescope-cli screenshot`'s
#     first frame, the GUI's `--screenshot`), with peak memory (goal: reopen >= 25x faster);
#     bench_export (SQLite vs Parquet export of the loaded trace and reading each back, same run) and
#     bench_insights (insights after load) and bench_calltree (the call tree after load) on the ~1 GB
#     trace too (bench_calltree also runs on the corpus file in step 5, with its defaults);
#     bench_query (SQL over the loaded trace: GROUP BY name in the engine, time and peak memory against
#     the model, next to export-sqlite and the same query on the file) on the ~1 GB trace too;
#  5. jobs past one machine: gen_rankset writes a 256-rank job from HTA's NCCL trace (every rank on its
#     own clock, rank 17 running 1.3 x slower, rank 42 arriving 1 ms late at every collective),
#     `lanescope-cli summarize --jobs <cores>` summarises them (wall time, bytes per summary vs trace),
#     then `lanescope-cli info` on the summaries folder (median of 5 runs; goal < 2 s, with rank 17
#     named a straggler and rank 42 a late rank); the rank files are removed right after summarising
#     (LANESCOPE_BENCH_RANKS sets the count);
#  6. every other bench_* program in BUILD_DIR/tests (e.g. bench_ntff), each with its defaults.
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

CLI="$BUILD/app/lanescope-cli"
# run_process OUT CMD...: one whole-process run; appends "wall_seconds peak_rss_kb" to OUT.
run_process() {
  local out=$1; shift
  LANESCOPE_NO_CACHE=1 /usr/bin/time -f "%e %M" -o "$out.one" "$@" >/dev/null 2>&1 || { echo "  FAILED: $*"; return 1; }
  cat "$out.one" >> "$out"
}
# median of column $2 of file $1
median_of() { sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# big_trace FILE: process figures of one large file (goals: >= 400 MB/s, peak <= 0.6 x the file)
big_trace() {
  local file=$1 runs=${2:-1} size mb
  size=$(stat -c %s "$file")
  mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1e6 }')
  rm -f "$WORK/big.txt"
  for _ in $(seq "$runs"); do run_process "$WORK/big.txt" "$CLI" info "$file" || return 1; done
  local wall rss
  wall=$(median_of "$WORK/big.txt" 1)
  rss=$(median_of "$WORK/big.txt" 2)
  awk -v w="$wall" -v r="$rss" -v s="$size" -v mb="$mb" 'BEGIN {
    rate = s / 1e6 / w; ratio = r * 1024 / s;
    printf "  lanescope-cli info  %.1f MB file: %.2f s, %.0f MB/s (goal >= 400: %s); peak RSS %.0f MB = %.2f x the file (goal <= 0.6: %s)\n",
      mb, w, rate, (rate >= 400 ? "met" : "NOT met"), r / 1024, ratio, (ratio <= 0.6 ? "met" : "NOT met") }'
}

# folder_vs_file FILE RUNS: FILE alone and as FOLDER/trace.json, alternating (median of RUNS each).
folder_vs_file() {
  local file=$1 runs=${2:-3} size dir
  size=$(stat -c %s "$file")
  dir="$WORK/folder_$(basename "$file" .json)"
  mkdir -p "$dir"
  ln "$file" "$dir/trace.json" 2>/dev/null || ln -s "$file" "$dir/trace.json" || return 1
  rm -f "$WORK/alone.txt" "$WORK/infolder.txt"
  for _ in $(seq "$runs"); do
    run_process "$WORK/alone.txt" "$CLI" info "$file" || return 1
    run_process "$WORK/infolder.txt" "$CLI" info "$dir" || return 1
  done
  rm -rf "$dir"
  awk -v fw="$(median_of "$WORK/alone.txt" 1)" -v fr="$(median_of "$WORK/alone.txt" 2)" \
      -v dw="$(median_of "$WORK/infolder.txt" 1)" -v dr="$(median_of "$WORK/infolder.txt" 2)" -v s="$size" -v n="$runs" 'BEGIN {
    t = dw / fw; m = dr / fr; p = dr * 1024 / s;
    printf "  folder/trace.json vs the file alone (%.1f MB, median of %d): %.2f s vs %.2f s = %.2fx time (goal <= 1.15: %s); peak %.0f MB vs %.0f MB = %.2fx; folder peak %.2f x the file (goal <= 0.6: %s)\n",
      s / 1e6, n, dw, fw, t, (t <= 1.15 ? "met" : "NOT met"), dr / 1024, fr / 1024, m, p, (p <= 0.6 ? "met" : "NOT met") }'
}

if [ -f "$XDIT" ]; then
  echo "== bench_load (corpus file)"
  "$TESTS/bench_load" "$XDIT" | tee "$WORK/load.txt" || status=1
  if [ -x "$CLI" ]; then
    echo
    echo "== process to process: lanescope-cli info vs a single-threaded simdjson pass (bench_load --floor)"
    rm -f "$WORK/cli.txt" "$WORK/floor.txt"
    for _ in 1 2 3 4 5; do
      run_process "$WORK/cli.txt" "$CLI" info "$XDIT" || status=1
      run_process "$WORK/floor.txt" "$TESTS/bench_load" --floor "$XDIT" || status=1
    done
    cli_s=$(median_of "$WORK/cli.txt" 1); floor_s=$(median_of "$WORK/floor.txt" 1)
    cli_kb=$(median_of "$WORK/cli.txt" 2); floor_kb=$(median_of "$WORK/floor.txt" 2)
    awk -v a="$cli_s" -v b="$floor_s" -v ka="$cli_kb" -v kb="$floor_kb" 'BEGIN { r = a / b;
      printf "  lanescope-cli info %.3f s (peak %.0f MB), floor %.3f s (peak %.0f MB): ratio %.2f (goal <= 1.0: %s)\n",
        a, ka / 1024, b, kb / 1024, r, (r <= 1.0 ? "met" : "NOT met") }'
  fi
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
    awk -v a="$theirs" -v b="$ours" 'BEGIN { r = a / b; printf "  import vs python json.loads: %.1fx faster (goal >= 12x: %s)\n", r, (r >= 12 ? "met" : "NOT met") }'
  fi
  echo
  echo "== bench_load (~$TARGET_MB MB tiled Kineto trace)"
  BIG="$WORK/kineto_tiled.json"
  free_mb=$(df -Pm "$WORK" | awk 'NR == 2 { print $4 }')
  if [ -n "$free_mb" ] && [ "$free_mb" -lt $((TARGET_MB * 2)) ]; then
    echo "SKIP: only $free_mb MB free in $WORK, need about $((TARGET_MB * 2)) MB"
  elif "$TESTS/gen_kineto" "$XDIT" "$BIG" "$TARGET_MB"; then
    [ -x "$CLI" ] && { big_trace "$BIG" 3 || status=1; }
    [ -x "$CLI" ] && { folder_vs_file "$BIG" 3 || status=1; }
    "$TESTS/bench_load" "$BIG" 1 || status=1
    if [ -x "$TESTS/bench_cache" ]; then
      echo
      echo "== bench_cache (~$TARGET_MB MB tiled Kineto trace)"
      sleep 3 # the cache trusts a file's stat signature only once it is older than 2 s
      # Medians of 3: one reopen takes ~0.2 s, so a single run moves with whatever else the machine does.
      "$TESTS/bench_cache" "$BIG" 3 || status=1
    fi
    if [ -x "$TESTS/bench_export" ]; then
      echo
      echo "== bench_export (~$TARGET_MB MB tiled Kineto trace; goal: the Parquet export not slower than the SQLite export)"
      "$TESTS/bench_export" "$BIG" 3 || status=1
    fi
    if [ -x "$CLI" ]; then
      echo
      echo "== reopen from the trace cache vs parse, process to process (~$TARGET_MB MB tiled Kineto trace)"
      bash "$HERE/bench_reopen.sh" "$BUILD" "$BIG" 3 || status=1
    fi
    if [ -x "$TESTS/bench_insights" ]; then
      echo
      echo "== bench_insights (~$TARGET_MB MB tiled Kineto trace; goal < 2 s after load)"
      "$TESTS/bench_insights" --runs 3 "$BIG" || status=1
    fi
    if [ -x "$TESTS/bench_calltree" ]; then
      echo
      echo "== bench_calltree (~$TARGET_MB MB tiled Kineto trace; goal: the tree < 3 s after load)"
      "$TESTS/bench_calltree" --runs 3 "$BIG" || status=1
    fi
    if [ -x "$TESTS/bench_query" ]; then
      echo
      echo "== bench_query (~$TARGET_MB MB tiled Kineto trace; goal: GROUP BY name < 2 s, peak <= 10 % above the model)"
      "$TESTS/bench_query" --runs 3 "$BIG" || status=1
    fi
  else
    status=1
  fi
  rm -f "$BIG"
  if [ "${LANESCOPE_BENCH_HUGE:-0}" = 1 ]; then
    echo
    echo "== ~6 GB tiled Kineto trace (LANESCOPE_BENCH_HUGE=1; past 4 GiB)"
    HUGE="$WORK/kineto_huge.json"
    free_mb=$(df -Pm "$WORK" | awk 'NR == 2 { print $4 }')
    if [ -n "$free_mb" ] && [ "$free_mb" -lt 7000 ]; then
      echo "SKIP: only $free_mb MB free in $WORK, need about 7000 MB"
    elif "$TESTS/gen_kineto" "$XDIT" "$HUGE" 6144; then
      big_trace "$HUGE" 1 || status=1
      folder_vs_file "$HUGE" 1 || status=1
    else
      status=1
    fi
    rm -f "$HUGE"
  fi
else
  echo "SKIP: corpus-based benchmarks (bench_load, python baseline, 1 GB tiled trace): corpus not found at $CORPUS"
  echo "      set LANESCOPE_CORPUS or place the corpus at ../shared/corpus"
fi

NCCL="$CORPUS/hta/nccl_parser_config__nccl_data.json.gz"
RANKS=${LANESCOPE_BENCH_RANKS:-256}
if [ -f "$NCCL" ] && [ -x "$TESTS/gen_rankset" ] && [ -x "$CLI" ]; then
  echo
  echo "== jobs past one machine: $RANKS ranks of $(basename "$NCCL") summarised, then opened"
  JOB="$WORK/job" SUMS="$WORK/job-summaries"
  mkdir -p "$JOB"
  if "$TESTS/gen_rankset" "$NCCL" "$JOB" --ranks "$RANKS" --slow 17 --late 42; then
    cores=$(nproc)
    start=$(date +%s.%N)
    LANESCOPE_NO_CACHE=1 "$CLI" summarize "$JOB"/rank*.pt.trace.json -o "$SUMS" --jobs "$cores" 2>/dev/null | tail -2 || status=1
    end=$(date +%s.%N)
    trace_bytes=$(du -cb "$JOB"/rank*.pt.trace.json | tail -1 | cut -f1)
    rm -rf "$JOB"
    sum_bytes=$(du -cb "$SUMS"/*.summary.json | tail -1 | cut -f1)
    n=$(ls "$SUMS"/*.summary.json | wc -l)
    awk -v s="$start" -v e="$end" -v n="$n" -v t="$trace_bytes" -v b="$sum_bytes" -v c="$cores" 'BEGIN {
      printf "  summarize: %d ranks in %.1f s with %d jobs (%.2f s per rank per core); %.0f KB per summary vs %.1f MB per trace = %.2f %% (goal < 1 %%: %s)\n",
        n, e - s, c, (e - s) * c / n, b / n / 1024, t / n / 1e6, 100 * b / t, (b / t < 0.01 ? "met" : "NOT met") }'
    rm -f "$WORK/info.txt"
    for _ in 1 2 3 4 5; do run_process "$WORK/info.txt" "$CLI" info "$SUMS" || status=1; done
    "$CLI" info "$SUMS" --json > "$WORK/job.json" || status=1
    wall=$(median_of "$WORK/info.txt" 1)
    named=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print("stragglers", j["stragglers"], "late ranks", j["late_ranks"])' "$WORK/job.json")
    awk -v w="$wall" -v named="$named" 'BEGIN { printf "  info on the summaries: %.2f s median of 5 (goal < 2 s: %s); %s\n", w, (w < 2 ? "met" : "NOT met"), named }'
    case "$named" in "stragglers [17] late ranks [42]") ;; *) echo "  NOT met: the slow rank 17 and the late rank 42 are not the ones named"; status=1 ;; esac
  else
    status=1
  fi
  rm -rf "$JOB" "$SUMS"
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
