#!/usr/bin/env bash
# bench_python_baseline.sh FILE [RUNS]: how long Python's json.loads takes on FILE's decompressed
# bytes (gzip/zip detected by magic bytes; decompression is not timed), the baseline of the
# "at least 10x faster than Python json.loads" goal. Prints the median of RUNS (default 3) runs in
# seconds and MB/s of JSON. Compare with the "(b) import" line of bench_load on the same file.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: bash tests/bench/bench_python_baseline.sh FILE [RUNS]" >&2
  exit 2
fi
FILE=$1
RUNS=${2:-3}
if [ ! -f "$FILE" ]; then
  echo "bench_python_baseline: SKIP: $FILE not found"
  exit 0
fi
PY=python3
command -v "$PY" >/dev/null || { echo "bench_python_baseline: SKIP: python3 not found"; exit 0; }

"$PY" - "$FILE" "$RUNS" <<'PYEOF'
import gc, gzip, io, json, statistics, sys, time, zipfile

path, runs = sys.argv[1], int(sys.argv[2])
with open(path, "rb") as f:
    data = f.read()
if data[:2] == b"\x1f\x8b":
    data = gzip.decompress(data)
elif data[:4] == b"PK\x03\x04":
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        data = z.read(z.namelist()[0])
mb = len(data) / 1e6
times = []
for _ in range(runs):
    gc.collect()
    t0 = time.perf_counter()
    doc = json.loads(data)
    times.append(time.perf_counter() - t0)
    del doc
s = statistics.median(times)
print("bench_python_baseline: %s (python %s, median of %d runs)" % (path, sys.version.split()[0], runs))
print("  python json.loads   %8.3f s  %8.1f MB/s  (%.1f MB of JSON, decompression not timed)" % (s, mb / s, mb))
PYEOF
