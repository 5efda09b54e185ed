#!/usr/bin/env python3
"""Golden event counts for the Chrome / Kineto trace JSON files of the real-trace corpus.

An independent oracle for tests/core/io/tst_corpusimport.cpp: it uses only Python's standard library
(json, gzip, zipfile), never Lanescope code, to count what the importer must report.

Regenerate (from the repository root, with the corpus at ../shared/corpus):

    python3 tools/golden_counts.py ../shared/corpus > tests/golden/chrome_counts.json

Output: one JSON object, keys are paths relative to the corpus folder, sorted:
    {"group/file.json": {"events": N, "phases": {"X": n, ...}, "categories": {"cpu_op": n, ...}}}
or, for a file that must fail to load (JSON that is not a trace, invalid JSON):
    {"group/file.json": {"error": true}}

Counting semantics (they mirror Trace::stats() of the importer):
  * events      number of elements of the traceEvents array (object form) or of the bare top-level
                array, metadata events ("ph": "M") included;
  * phases      the "ph" value as written -> count; events without "ph" are counted under "";
  * categories  the "cat" value as written -> count; events without "cat" are not counted.
A file is a trace when its top level is an array of objects, or an object whose "traceEvents" member
is an array of objects. Anything else (an object without traceEvents, an array of arrays such as
HTA's memory_timeline.raw.gz, invalid JSON) is an expected load failure.

Input handling, as the importer does it: decompression is chosen by magic bytes, never by the file
name (gzip 1f 8b, zip "PK\\x03\\x04" -> first member); a UTF-8 byte-order mark is skipped; a bare
array that is not terminated (speedscope/simple-partial*.json, which Chrome accepts) is repaired by
stripping trailing whitespace and one trailing comma and appending "]".

The output holds counts only, so it stays small enough to commit. The corpus itself must never be
copied into the repository.
"""

import gzip
import io
import json
import os
import sys
import zipfile

GROUPS = [
    "catapult", "hta", "kineto", "perfetto", "speedscope", "zoology", "gpumodel", "mlops-student",
    "tracelens", "generated-torch-cpu",
]
SUFFIXES = (".json", ".json.gz", ".gz", ".zip", ".raw.gz")
SKIP_SUFFIXES = (".txt", ".py", ".md")


def read_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        return gzip.decompress(data)  # handles concatenated members too
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = [i for i in z.infolist() if not i.is_dir()]
            return z.read(names[0]) if names else b""
    return data


def parse(data):
    """Returns the parsed top-level value, or raises ValueError."""
    text = data.decode("utf-8-sig")
    try:
        return json.loads(text)
    except ValueError:
        stripped = text.strip()
        if not stripped.startswith("["):
            raise
        # Unterminated bare array: drop trailing whitespace and one trailing comma, close it.
        repaired = stripped.rstrip()
        if repaired.endswith(","):
            repaired = repaired[:-1]
        return json.loads(repaired + "]")


def count(path):
    try:
        top = parse(read_bytes(path))
    except (ValueError, UnicodeDecodeError, OSError, EOFError, zipfile.BadZipFile):
        return {"error": True}
    if isinstance(top, list):
        events = top
    elif isinstance(top, dict) and isinstance(top.get("traceEvents"), list):
        events = top["traceEvents"]
    else:
        return {"error": True}
    if not all(isinstance(e, dict) for e in events):
        return {"error": True}
    phases = {}
    categories = {}
    for e in events:
        ph = e.get("ph", "")
        phases[ph] = phases.get(ph, 0) + 1
        if "cat" in e:
            cat = e["cat"]
            categories[cat] = categories.get(cat, 0) + 1
    return {"events": len(events), "phases": phases, "categories": categories}


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        sys.stderr.write("usage: python3 tools/golden_counts.py CORPUS_DIR > tests/golden/chrome_counts.json\n")
        return 2
    root = argv[1]
    result = {}
    for group in GROUPS:
        folder = os.path.join(root, group)
        if not os.path.isdir(folder):
            sys.stderr.write("warning: corpus group %s not found\n" % group)
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if not os.path.isfile(path) or name.endswith(SKIP_SUFFIXES) or not name.endswith(SUFFIXES):
                continue
            result[group + "/" + name] = count(path)
    # One line per file: small, and a regeneration diff shows exactly which files changed.
    lines = ["%s: %s" % (json.dumps(k, ensure_ascii=False), json.dumps(result[k], sort_keys=True, ensure_ascii=False))
             for k in sorted(result)]
    sys.stdout.write("{\n" + ",\n".join(lines) + "\n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
