#!/usr/bin/env python3
"""Builds the seed corpora of the libFuzzer harnesses from the shared real-trace corpus.

    make_seeds.py <corpus dir> <out dir> [<samples dir>]

<samples dir>: the synthetic sample folders make_fuzz_samples wrote (small NTFF, NEFF, trace.json and
system_profile.json files and whole folders), added as seeds to the matching harnesses.

Writes <out dir>/<harness>/<name> for every harness. Everything goes into the build tree: the corpus
files must never be committed into the project, and nothing here writes inside the source tree.
Large inputs are shrunk (first events / rows of each array kept) so every seed stays below the
harness's -max_len and a run explores mutations rather than re-parsing megabytes.
"""
import gzip
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

MAX_JSON = 48 * 1024
MAX_BIN = 64 * 1024


def put(out, harness, name, data):
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    safe = name.replace('/', '__')
    with open(os.path.join(d, safe), 'wb') as f:
        f.write(data)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def decompressed(data):
    if data[:2] == b'\x1f\x8b':
        try:
            return gzip.decompress(data)
        except Exception:
            return None
    return data


def shrink_json(obj, keep):
    """The same shape with every array cut to its first `keep` elements (recursively)."""
    if isinstance(obj, list):
        return [shrink_json(x, keep) for x in obj[:keep]]
    if isinstance(obj, dict):
        return {k: shrink_json(v, keep) for k, v in obj.items()}
    if isinstance(obj, str) and len(obj) > 512:
        return obj[:512]
    return obj


def small_json(text, limit):
    """`text` itself when small enough, else a shrunk re-encoding (or None when not JSON)."""
    if len(text) <= limit:
        return text
    try:
        obj = json.loads(text)
    except Exception:
        return None
    for keep in (200, 60, 20, 6, 2):
        enc = json.dumps(shrink_json(obj, keep), separators=(',', ':')).encode()
        if len(enc) <= limit:
            return enc
    return None


def zstd(data):
    exe = shutil.which('zstd')
    if not exe:
        return None
    try:
        return subprocess.run([exe, '-q', '-c', '-3'], input=data, stdout=subprocess.PIPE, check=True).stdout
    except Exception:
        return None


def ntff_metadata(data):
    if len(data) < 0x80:
        return None
    n = struct.unpack_from('<I', data, 1)[0]
    return data[0x80:0x80 + n] if 0x80 + n <= len(data) else None


def pack_folder(entries):
    """Entries of fuzz_profilefolder's input format (see fuzz_profilefolder.cpp)."""
    out = b''
    for path, content in entries:
        if out:
            out += b'\n'
        out += b'@@ ' + path.encode() + b'\n'
        if content is not None:
            out += content
    return out


# fuzz_jsonwindows: byte 0 picks the stream (0-3 memory, 4 gzip (+0x20 two members, +0x40 cut),
# 5 zstd, 6 plain file, 7 the bytes as they are; +8: two parse threads, +16: a stream start past
# 4 GiB), byte 1 the window (bits 0-2) and memory block (bits 3-5) sizes and the second copy's shift
# (bits 6-7).
WINDOW_HEADERS = [(0x00, 0x00), (0x01, 0x3b), (0x02, 0x09), (0x03, 0x12), (0x04, 0x23), (0x05, 0x05),
                  (0x06, 0x0c), (0x08, 0x2e), (0x10, 0x19), (0x24, 0x41), (0x44, 0x86), (0x0d, 0x06)]


def window_header(i):
    return bytes(WINDOW_HEADERS[i % len(WINDOW_HEADERS)])


def add_samples(samples, out):
    """Seeds from the synthetic sample folders (make_fuzz_samples): each file by kind, each run folder whole."""
    harness_of = {'.ntff': 'fuzz_ntff', '.neff': 'fuzz_neff'}
    for root, _, names in os.walk(samples):
        run = []
        for n in sorted(names):
            p = os.path.join(root, n)
            r = 'sample__' + os.path.relpath(p, samples)
            data = read(p)
            ext = os.path.splitext(n)[1]
            if n.endswith('.lanescope-notes.json'):  # notes sidecars (make_fuzz_samples), not part of a run
                put(out, 'fuzz_notes', r, data)
                continue
            if n.endswith('.summary.json'):  # rank summaries (make_fuzz_samples), not part of a run
                put(out, 'fuzz_ranksummary', r, data)
                continue
            if n.endswith('.parquet'):  # Parquet files of Lanescope's writer (make_fuzz_samples)
                put(out, 'fuzz_parquet', r, data)
                continue
            if ext in harness_of:
                put(out, harness_of[ext], r, data)
                if ext == '.ntff':
                    meta = ntff_metadata(data)
                    if meta:
                        put(out, 'fuzz_protobuf', r + '.pb', meta)
            elif n == 'system_profile.json':
                put(out, 'fuzz_systemprofile', r, data)
            elif n == 'trace.json':
                put(out, 'fuzz_chromejson', r, data)
                put(out, 'fuzz_jsonwindows', r + '.stream', window_header(len(run)) + data)
            if not n.startswith('README'):
                run.append(('i-0abc_pid_42/20250101_000000/' + n, data))
        if run and len(run) <= 6:  # the one-pair folder (trace, system profile, NEFF, NTFF)
            put(out, 'fuzz_profilefolder', 'sample__' + os.path.relpath(root, samples), pack_folder(run))


def add_rank_seeds(files, rel, out):
    """Real Kineto traces of ranks (HTA's test traces: rank in the file name and in distributedInfo):
    their names and heads for fuzz_ranks, folders of them for fuzz_rankload."""
    ranked = []
    for p in files:
        r = rel(p)
        if not r.startswith('hta/') or 'rank' not in r.lower() or not r.endswith('.json.gz'):
            continue
        text = decompressed(read(p))
        small = small_json(text, 3 * 1024) if text else None
        if small:
            ranked.append((r.split('__', 1)[-1], text, small))
    for name, text, _ in ranked:
        put(out, 'fuzz_ranks', 'head__' + name, ('logs/%s\n' % name).encode() + text[:2048])
    if len(ranked) >= 2:
        # by file name (and distributedInfo), by distributedInfo alone, by folder name
        put(out, 'fuzz_rankload', 'folder_named', pack_folder([(n, s) for n, _, s in ranked[:3]]))
        put(out, 'fuzz_rankload', 'folder_info', pack_folder([('host%d.pt.trace.json' % i, s) for i, (_, _, s) in enumerate(ranked[:3])]))
        put(out, 'fuzz_rankload', 'folder_dirs', pack_folder([('rank_%d/trace.json' % (7 - i), s) for i, (_, _, s) in enumerate(ranked[:2])]))


def whole_records(data, limit):
    """The length-prefixed records (4-byte little-endian length + message) of data that fit in limit bytes."""
    end = 0
    while end + 4 <= len(data):
        n = struct.unpack_from('<I', data, end)[0]
        if end + 4 + n > min(len(data), limit):
            break
        end += 4 + n
    return data[:end]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    corpus, out = sys.argv[1], sys.argv[2]
    samples = sys.argv[3] if len(sys.argv) == 4 else None
    files = []
    for root, _, names in os.walk(corpus):
        for n in sorted(names):
            files.append(os.path.join(root, n))
    files.sort()
    rel = lambda p: os.path.relpath(p, corpus)

    chrome_small = []  # (rel, bytes) of small chrome traces, reused below
    for p in files:
        r = rel(p)
        data = read(p)
        low = r.lower()
        if low.endswith('.ntff'):
            if len(data) <= 2 * MAX_BIN:
                put(out, 'fuzz_ntff', r, data)
            meta = ntff_metadata(data)
            if meta:
                put(out, 'fuzz_protobuf', r + '.pb', meta)
            continue
        if low.endswith('.neff'):
            if len(data) <= MAX_BIN:
                put(out, 'fuzz_neff', r, data)
            continue
        if low.endswith('.zip'):
            if len(data) <= MAX_BIN:
                put(out, 'fuzz_inputbuffer', r, data)
                put(out, 'fuzz_chromejson', r, data)
            continue
        if not (low.endswith('.json') or low.endswith('.gz')):
            continue
        text = decompressed(data)
        if text is None:
            continue
        if r.startswith('neuron-profile-json/'):
            s = small_json(text, MAX_JSON)
            if s:
                put(out, 'fuzz_neuronprofilejson', r, s)
            continue
        if data[:2] == b'\x1f\x8b' and len(data) <= MAX_BIN:
            put(out, 'fuzz_inputbuffer', r, data)
            put(out, 'fuzz_chromejson', r, data)
        s = small_json(text, MAX_JSON)
        if s is None:
            continue
        put(out, 'fuzz_chromejson', r if s is text else r + '.shrunk.json', s)
        if len(s) <= 8192:
            chrome_small.append((r, s))

    # Compressed seeds of the decompression layer: gzip, two gzip members, zstd, a raw prefix.
    for r, s in chrome_small[:12]:
        put(out, 'fuzz_inputbuffer', r + '.gz', gzip.compress(s, 6))
        put(out, 'fuzz_inputbuffer', r + '.2members.gz', gzip.compress(s[: len(s) // 2]) + gzip.compress(s[len(s) // 2:]))
        z = zstd(s)
        if z:
            put(out, 'fuzz_inputbuffer', r + '.zst', z)
            put(out, 'fuzz_chromejson', r + '.zst', z)
        put(out, 'fuzz_inputbuffer', r + '.raw', s[:256])

    # The windowed path: small real traces behind stream / window headers, three each.
    for i, (r, s_) in enumerate(chrome_small[:40]):
        if len(s_) <= 4094:  # -max_len 4096
            for k in range(3):
                put(out, 'fuzz_jsonwindows', '%s.h%d' % (r, k), window_header(3 * i + k) + s_)

    add_rank_seeds(files, rel, out)

    # Folders: real NEFF / NTFF / JSON heads in the layouts of formats.md section 1.
    by = {rel(p): p for p in files}
    kineto = next((by[k] for k in sorted(by) if k.startswith('generated-torch-cpu/') and k.endswith('.trace.json')), None)
    trace = small_json(read(kineto), 16 * 1024) if kineto else None
    pairs = [('neuron-cs149-asst4/stream_256k_fd1k.neff', 'neuron-cs149-asst4/stream_256k_fd1k.ntff'),
             ('neuron-cs149-asst4/stream_256k_fd2k.neff', 'neuron-cs149-asst4/stream_256k_fd2k.ntff')]
    entries = []
    for i, (neff, ntff) in enumerate(pairs):
        if neff in by and ntff in by:
            h = str(int(hashlib.md5(neff.encode()).hexdigest()[:8], 16))
            entries.append(('i-0abc_pid_42/20250101_000000/neff_%s.neff' % h, read(by[neff])))
            entries.append(('i-0abc_pid_42/20250101_000000/%s_instid_0_vnc_%d.ntff' % (h, i), read(by[ntff])))
    if trace:
        entries.append(('i-0abc_pid_42/20250101_000000/trace.json', trace))
    if entries:
        put(out, 'fuzz_profilefolder', 'torchneuron_layout', pack_folder(entries))
    njson = sorted(k for k in by if k.startswith('neuron-profile-json/') and k.endswith('.json'))
    if njson:
        j = njson[0]
        t = j[:-5] + '.ntff'
        e = [('profile_rank_0.ntff', read(by[t]) if t in by else None),
             ('exported/profile.json', small_json(read(by[j]), 16 * 1024))]
        put(out, 'fuzz_profilefolder', 'neuron_profile_export', pack_folder(e))
    put(out, 'fuzz_profilefolder', 'links_and_fifos', pack_folder([
        ('a/b/c/', None), ('a/loop -> ..', None), ('a/b/self -> self', None), ('a/b/dangling -> nowhere', None),
        ('a/fifo |', None), ('.hidden/x.json', b'{"traceEvents":[]}'), ('a/b/c/empty.ntff', b''),
        ('ntrace.pb', b'\x0a\x00'), ('a/b/trace.json', b'[{"ph":"X","ts":1,"dur":2,"pid":1,"tid":1,"name":"a"}]'),
        ('a/b/same.json -> trace.json', None)]))
    if trace:
        put(out, 'fuzz_profilefolder', 'framework_only', pack_folder([('neuron_framework_trace_rank_3.json', trace)]))

    # system_profile.json: no real export is public (formats.md), so the seeds are the project's own
    # hand-written fixtures (tests/data/system_profile), plus a folder that holds one next to a trace.
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'system_profile')
    if os.path.isdir(fixtures):
        for n in sorted(os.listdir(fixtures)):
            put(out, 'fuzz_systemprofile', n, read(os.path.join(fixtures, n)))
        basic = os.path.join(fixtures, 'basic.json')
        if trace and os.path.exists(basic):
            put(out, 'fuzz_profilefolder', 'system_profile_run', pack_folder([
                ('i-0abc_pid_42/20250101_000000/system_profile.json', read(basic)),
                ('i-0abc_pid_42/20250101_000000/trace.json', trace)]))

    # Parquet files of other writers (tests/data/parquet): DuckDB's LIST columns (lists-*.parquet, the
    # 3-level LIST with null and empty lists, pages v1 and v2) and the regression inputs.
    pq = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'parquet')
    if os.path.isdir(pq):
        for n in sorted(os.listdir(pq)):
            if n.endswith('.parquet'):
                put(out, 'fuzz_parquet', 'data__' + n, read(os.path.join(pq, n)))

    # Capture sessions (fuzz_ntrace): trace_info.pb, the first samples and records of the other files,
    # packed as the harness reads them (u16 length + bytes for trace_info, cpu_util, host_mem; then ntrace).
    for k in sorted(by):
        if os.path.basename(k) != 'ntrace.pb':
            continue
        d = os.path.dirname(k)
        part = lambda n, limit: whole_records(read(by[os.path.join(d, n)]), limit) if os.path.join(d, n) in by else b''
        info = read(by[os.path.join(d, 'trace_info.pb')]) if os.path.join(d, 'trace_info.pb') in by else b''
        packed = b''.join(struct.pack('<H', len(x)) + x for x in (info[:65535], part('cpu_util.pb', 1024), part('host_mem.pb', 256)))
        put(out, 'fuzz_ntrace', k, packed + whole_records(read(by[k]), 12 * 1024))

    if samples and os.path.isdir(samples):
        add_samples(samples, out)

    for h in sorted(os.listdir(out)):
        print('  %-24s %4d seeds' % (h, len(os.listdir(os.path.join(out, h)))))


if __name__ == '__main__':
    main()
