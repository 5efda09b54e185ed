#!/usr/bin/env bash
# Runs every libFuzzer harness of tests/fuzz for FUZZ_SECONDS each (`make fuzz`).
#
#   run-fuzzers.sh <build dir> [harness ...]
#
# Environment:
#   FUZZ_SECONDS   seconds per harness (default 60)
#   FUZZ_RUNS      stop a harness after this many executions instead (default: no limit; with both,
#                  whichever comes first)
#   FUZZ_KEEP_SEEDS=1  reuse the seeds already made (two runs side by side must not remake them)
#   FUZZ_JOBS      parallel fuzzing processes per harness (default 1; libFuzzer -fork)
#   LANESCOPE_CORPUS  the real-trace corpus (default ../shared/corpus next to the source tree)
#
# For each harness: first replays tests/data/fuzz-regressions/<harness>/ (every input that once failed
# must now pass), then fuzzes with the seeds made from the corpus (make_seeds.py, into the build tree)
# plus the inputs earlier runs found (<build>/fuzz/corpus/<harness>, kept between runs). Findings land
# in <build>/fuzz/artifacts/<harness>/; the script prints executions and findings per harness and exits
# non-zero when anything was found. Nothing is written into the source tree.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
build="$(cd "${1:?usage: run-fuzzers.sh <build dir> [harness ...]}" && pwd)"
shift
seconds="${FUZZ_SECONDS:-60}"
runs="${FUZZ_RUNS:-}"
jobs="${FUZZ_JOBS:-1}"
corpus_src="${LANESCOPE_CORPUS:-$src/../shared/corpus}"

all=(fuzz_chromejson fuzz_inputbuffer fuzz_neff fuzz_ntff fuzz_protobuf fuzz_neuronprofilejson fuzz_profilefolder fuzz_systemprofile fuzz_folderload
     fuzz_jsonwindows fuzz_notes fuzz_ranks fuzz_rankload fuzz_ranksummary fuzz_ntrace fuzz_parquet)
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=("${all[@]}")

# -max_len per harness (bytes) and dictionary. JSON grammar is local, so 16 KB inputs reach what 64 KB
# ones do at three times the speed (measured: fuzz_chromejson 2,742 -> 5,933 exec/s with the ASan
# options below, same coverage after 30 s). NTFFs get 32 KB: the synthetic sample seeds
# (make_fuzz_samples: 4-18 KB NTFFs) fit whole, the real NTFFs (50-84 KB, with a 24-40 KB metadata
# message) are cut, which the reader must survive anyway. Protobuf messages are local too (16 KB).
# NEFFs get 32 KB: 4,613 instead of 1,685 exec/s, for 1,580 instead of 1,598 edges reached by the seeds
# (the rest need members past 32 KB; hostile-file tests cover large NEFFs).
# Folder classification reads the first 64 KB of each file but decides on its first few hundred bytes
# (32 KB); the folder load keeps 64 KB so the 45 KB one-pair sample folder fits whole.
# The windowed JSON path gets 4 KB: windows of 1 byte to 4 KiB all cut such a text, and every window
# costs the reader's fixed setup (measured under load: 8 KB inputs ran at 70 exec/s from memory).
# Rank summaries get 16 KB: the make_fuzz_samples seeds (1.6 KB) fit whole, a real one (60 KB, mostly
# table rows the reader only checks are objects) is cut.
# Parquet files get 16 KB: the make_fuzz_samples seeds (a few hundred rows in several row groups,
# 1-6 KB) fit whole.
# A capture session gets 16 KB: trace_info (1.9 KB), a few samples and the first ~90 records of the real
# ntrace.pb (records are local; the rest of the file repeats them).
declare -A maxlen=([fuzz_chromejson]=16384 [fuzz_inputbuffer]=65536 [fuzz_neff]=32768 [fuzz_ntff]=32768
                   [fuzz_protobuf]=16384 [fuzz_neuronprofilejson]=16384 [fuzz_profilefolder]=32768
                   [fuzz_systemprofile]=16384 [fuzz_folderload]=65536
                   [fuzz_jsonwindows]=4096 [fuzz_notes]=8192 [fuzz_ranks]=4096 [fuzz_rankload]=16384
                   [fuzz_ranksummary]=16384 [fuzz_ntrace]=16384 [fuzz_parquet]=16384)
# Extra libFuzzer flags per harness. fuzz_folderload runs every importer, so a run touches ~27,000
# features and the entropic scheduler's per-feature bookkeeping took a third of the time (measured: 128
# -> 218 exec/s without it).
declare -A extra=([fuzz_folderload]="-entropic=0")
declare -A dict=([fuzz_chromejson]=chrome.dict [fuzz_neuronprofilejson]=neuronprofile.dict
                 [fuzz_profilefolder]=chrome.dict [fuzz_systemprofile]=systemprofile.dict
                 [fuzz_folderload]=chrome.dict [fuzz_jsonwindows]=chrome.dict [fuzz_notes]=notes.dict
                 [fuzz_ranks]=ranks.dict [fuzz_rankload]=ranks.dict [fuzz_ranksummary]=ranksummary.dict)
# Harnesses that take another harness's input format share its seeds and regression inputs.
declare -A inputs_of=([fuzz_folderload]=fuzz_profilefolder)

out="$build/fuzz"
seeds="$out/seeds"
mkdir -p "$out"
if [ "${FUZZ_KEEP_SEEDS:-0}" = 1 ] && [ -d "$seeds" ]; then
  echo "lanescope fuzz: reusing the seeds in $seeds"
elif [ -d "$corpus_src" ]; then
  echo "lanescope fuzz: seeds from $corpus_src -> $seeds"
  rm -rf "$seeds"
  samples="$out/samples"
  rm -rf "$samples"
  "$build/tests/fuzz/make_fuzz_samples" "$samples" || { echo "make_fuzz_samples failed" >&2; exit 1; }
  python3 "$here/make_seeds.py" "$corpus_src" "$seeds" "$samples" || { echo "make_seeds.py failed" >&2; exit 1; }
else
  echo "lanescope fuzz: corpus not found at $corpus_src: fuzzing from the regression inputs and earlier finds only"
fi

scratch_base="${TMPDIR:-/tmp}"
[ -d /dev/shm ] && [ -w /dev/shm ] && scratch_base=/dev/shm
export LANESCOPE_FUZZ_SCRATCH="$scratch_base/lanescope-fuzz-$$"
mkdir -p "$LANESCOPE_FUZZ_SCRATCH"
trap 'rm -rf "$LANESCOPE_FUZZ_SCRATCH"' EXIT

# malloc_context_size=0: no allocation stack per malloc (20 % faster); to see where a reported block was
# allocated, replay the artifact with ASAN_OPTIONS=malloc_context_size=30.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=0:malloc_context_size=0:quarantine_size_mb=32}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export QT_QPA_PLATFORM=offscreen

summary=()
failed=0
for h in "${harnesses[@]}"; do
  bin="$build/tests/fuzz/$h"
  if [ ! -x "$bin" ]; then
    echo "lanescope fuzz: $bin not built" >&2
    failed=1
    summary+=("$(printf '%-24s %s' "$h" 'NOT BUILT')")
    continue
  fi
  corpus="$out/corpus/$h"
  artifacts="$out/artifacts/$h"
  log="$out/$h.log"
  mkdir -p "$corpus" "$artifacts"

  kind="${inputs_of[$h]:-$h}"
  regressions="$src/tests/data/fuzz-regressions/$kind"
  nreg=0
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions" 2>/dev/null)" ]; then
    nreg=$(ls -1 "$regressions" | wc -l)
    echo "lanescope fuzz: $h: replaying $nreg regression inputs"
    if ! "$bin" -rss_limit_mb=2048 -timeout=30 "$regressions"/* > "$out/$h.regressions.log" 2>&1; then
      echo "lanescope fuzz: $h: a regression input fails again, see $out/$h.regressions.log" >&2
      tail -30 "$out/$h.regressions.log" >&2
      failed=1
    fi
  fi

  args=(-max_total_time="$seconds" -max_len="${maxlen[$h]:-65536}" -timeout=10 -rss_limit_mb=2048
        -malloc_limit_mb=1024 -artifact_prefix="$artifacts/" -print_final_stats=1 -reload=0)
  [ -n "$runs" ] && args+=(-runs="$runs")
  [ -n "${extra[$h]:-}" ] && args+=(${extra[$h]})
  [ -n "${dict[$h]:-}" ] && args+=(-dict="$here/${dict[$h]}")
  [ "$jobs" -gt 1 ] && args+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  dirs=("$corpus")
  [ -d "$seeds/$kind" ] && dirs+=("$seeds/$kind")
  [ -d "$regressions" ] && dirs+=("$regressions")
  before=$(ls -1 "$artifacts" | wc -l)
  echo "lanescope fuzz: $h: ${seconds}s ($log)"
  start=$(date +%s)
  nice "$bin" "${args[@]}" "${dirs[@]}" > "$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  # the last final-stats line: after a finding libFuzzer prints them twice (the sanitizer's report, then the deadly signal)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  execs=${execs:-0}
  if [ "$execs" = 0 ]; then # -fork mode prints no final stats: take the last status line
    execs=$(grep -o '#[0-9]*' "$log" | tail -1 | tr -d '#')
  fi
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  found=$(( $(ls -1 "$artifacts" | wc -l) - before ))
  status=ok
  if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
    status="FINDINGS ($found new artifacts in $artifacts, exit $rc)"
    failed=1
    grep -m3 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|invariant violated' "$log" >&2 || true
  fi
  summary+=("$(printf '%-24s %10s execs %5ss  cov %-6s regressions %-3s %s' "$h" "${execs:-?}" "$took" "${cov:-?}" "$nreg" "$status")")
done

echo
echo "lanescope fuzz summary (FUZZ_SECONDS=$seconds, FUZZ_RUNS=${runs:-none}, FUZZ_JOBS=$jobs):"
printf '  %s\n' "${summary[@]}"
exit $failed
