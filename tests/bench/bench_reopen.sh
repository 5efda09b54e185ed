#!/usr/bin/env bash
# bench_reopen.sh BUILD_DIR FILE [RUNS]: reopening FILE from the trace cache against parsing it, process
# to process, alternating in the same run (median of RUNS, default 3), wall time and peak resident
# memory (/usr/bin/time), for
#   info        lanescope-cli info FILE                      (the CLI's summary path)
#   frame       lanescope-cli screenshot FILE -o OUT.png     (the first frame: the timeline of the whole
#                                                             trace rendered offscreen, written as PNG)
#   gui frame   lanescope FILE --screenshot OUT.png --first-frame  (the GUI's window as soon as it has
#                                                             drawn the trace, offscreen, its painted pixels
#                                                             written as PNG; the docks' analyses are not
#                                                             waited for: they wait for the picture), when
#                                                             BUILD_DIR/app/lanescope exists
#   start-up    --version of each executable (process to process): the part of every reopen that is
#               the process starting
# parse: LANESCOPE_NO_CACHE=1; reopen: a trace cache in a temporary folder, filled once beforehand by
# `lanescope-cli info` (FILE older than 2 s, so its stat signature is trusted as on a user's second
# open; the model file is in the page cache, as after a first open). Goal: reopen >= 25x faster.
set -uo pipefail
BUILD=${1:?usage: bench_reopen.sh BUILD_DIR FILE [RUNS]}
FILE=${2:?usage: bench_reopen.sh BUILD_DIR FILE [RUNS]}
RUNS=${3:-3}
CLI="$BUILD/app/lanescope-cli"
GUI="$BUILD/app/lanescope"
[ -x "$CLI" ] || { echo "bench_reopen: $CLI not built" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lanescope-reopen.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export QT_QPA_PLATFORM=offscreen

# one MODE OUT CMD...: one process; appends "wall_seconds peak_rss_kb" to OUT. The wall time is taken
# with date's nanoseconds (/usr/bin/time's %e has 10 ms steps, a sixth of a 60 ms reopen); the peak
# memory with /usr/bin/time.
one() {
  local mode=$1 out=$2; shift 2
  local t0 t1
  t0=$(date +%s%N)
  if [ "$mode" = parse ]; then
    LANESCOPE_NO_CACHE=1 /usr/bin/time -f "%e %M" -o "$out.one" "$@" >/dev/null 2>"$out.err" || { echo "  FAILED: $*"; cat "$out.err"; return 1; }
  else
    LANESCOPE_CACHE_DIR="$WORK/cache" /usr/bin/time -f "%e %M" -o "$out.one" "$@" >/dev/null 2>"$out.err" || { echo "  FAILED: $*"; cat "$out.err"; return 1; }
    # the CLI prints its load notices on stderr (the GUI shows them in its status bar)
    if [ "$1" = "$CLI" ] && ! grep -q "loaded from cache" "$out.err"; then echo "  NOT from the cache: $*"; cat "$out.err"; return 1; fi
  fi
  t1=$(date +%s%N)
  awk -v ns=$((t1 - t0)) '{ printf "%.4f %s\n", ns / 1e9, $2 }' "$out.one" >> "$out"
}
median_of() { sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# compare NAME CMD...: parse and reopen alternating, then the medians and the ratio.
compare() {
  local name=$1; shift
  rm -f "$WORK/p.txt" "$WORK/r.txt"
  for _ in $(seq "$RUNS"); do
    one parse "$WORK/p.txt" "$@" || return 1
    one reopen "$WORK/r.txt" "$@" || return 1
  done
  awk -v n="$name" -v pw="$(median_of "$WORK/p.txt" 1)" -v pm="$(median_of "$WORK/p.txt" 2)" \
      -v rw="$(median_of "$WORK/r.txt" 1)" -v rm="$(median_of "$WORK/r.txt" 2)" -v runs="$RUNS" 'BEGIN {
    if (rw < 0.001) rw = 0.001;
    r = pw / rw;
    printf "  %-10s parse %.3f s (peak %.0f MB), reopen %.3f s (peak %.0f MB): %.1fx faster (median of %d; goal >= 25x: %s)\n",
      n, pw, pm / 1024, rw, rm / 1024, r, runs, (r >= 25 ? "met" : "NOT met") }'
}

size=$(stat -c %s "$FILE")
echo "  file $FILE ($(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1e6 }') MB)"
LANESCOPE_CACHE_DIR="$WORK/cache" "$CLI" info "$FILE" >/dev/null 2>&1 || { echo "  FAILED: filling the cache"; exit 1; }
age=$(( $(date +%s) - $(stat -c %Y "$FILE") ))
[ "$age" -ge 3 ] || sleep 3
status=0
compare info "$CLI" info "$FILE" || status=1
compare frame "$CLI" screenshot "$FILE" -o "$WORK/frame.png" || status=1
if [ -x "$GUI" ]; then
  compare "gui frame" "$GUI" "$FILE" --screenshot "$WORK/gui.png" --first-frame || status=1
fi
du -b "$WORK"/cache/*.lsmodel 2>/dev/null | awk '{ printf "  model file %.1f MB\n", $1 / 1e6 }'
# start-up: what every reopen pays before main() and Qt (mostly the dynamic loader binding Qt's symbols):
# `--version` of each executable, the median of 5 * RUNS launches.
startup() {
  local name=$1; shift
  rm -f "$WORK/s.txt"
  for _ in $(seq $((5 * RUNS))); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || { echo "  FAILED: $*"; return 1; }
    t1=$(date +%s%N)
    echo $((t1 - t0)) >> "$WORK/s.txt"
  done
  printf "  start-up   %-13s %.1f ms (median of %d)\n" "$name" "$(median_of "$WORK/s.txt" 1 | awk '{ print $1 / 1e6 }')" $((5 * RUNS))
}
startup lanescope-cli "$CLI" --version || status=1
[ -x "$GUI" ] && { startup lanescope "$GUI" --version || status=1; }
exit $status
