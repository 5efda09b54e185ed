#include "kinetosamplewriter.h"

#include "util/textutil.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

namespace lanescope {

namespace {

constexpr int64_t kUs = 1000; // ns per µs

void appendEscaped(std::string &out, std::string_view s)
{
    out += '"';
    for (const char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

std::string quoted(std::string_view s)
{
    std::string out;
    appendEscaped(out, s);
    return out;
}

// µs with exactly 3 decimals, digit-exact from integer ns (what Kineto writes).
void appendMicros(std::string &out, int64_t ns)
{
    uint64_t v = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    if (ns < 0)
        out += '-';
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(v / 1000),
                  static_cast<unsigned long long>(v % 1000));
    out += buf;
}

struct Event
{
    char ph = 'X';
    std::string cat; // empty: no "cat" member
    std::string name;
    std::string pid; // JSON tokens
    std::string tid;
    int64_t ts = 0;    // ns
    int64_t dur = -1;  // ns, < 0: no "dur" member
    std::string extra; // further members, e.g. "\"id\": 7, \"bp\": \"e\""
    std::string args;  // members of "args", empty: no args
};

void appendEvent(std::string &out, const Event &e)
{
    out += "  {\n    \"ph\": \"";
    out += e.ph;
    out += '"';
    if (!e.cat.empty()) {
        out += ", \"cat\": ";
        appendEscaped(out, e.cat);
    }
    out += ", \"name\": ";
    appendEscaped(out, e.name);
    out += ", \"pid\": ";
    out += e.pid;
    out += ", \"tid\": ";
    out += e.tid;
    out += ",\n    \"ts\": ";
    appendMicros(out, e.ts);
    if (e.dur >= 0) {
        out += ", \"dur\": ";
        appendMicros(out, e.dur);
    }
    if (!e.extra.empty()) {
        out += ", ";
        out += e.extra;
    }
    if (!e.args.empty()) {
        out += ",\n    \"args\": {\n      ";
        out += e.args;
        out += "\n    }";
    }
    out += "\n  }";
}

// One naive RMSNorm step: y = x * rsqrt(mean(x^2) + eps) * w, x: [8, 2048, 4096] bf16.
struct OpSpec
{
    const char *name;
    const char *inputDims;
    const char *inputTypes;
    const char *concreteInputs;
    bool allocates; // an aten::empty child and a [memory] instant
    const char *kernel;
    int64_t hostNs;   // host-side work before the runtime call
    int64_t kernelNs; // device time
};

constexpr OpSpec kNaiveOps[] = {
    {"aten::pow", "[[8, 2048, 4096], []]", "[\"c10::BFloat16\", \"Scalar\"]", "[\"\", \"2\"]", true,
     "nki_pow_bf16_tile128", 9 * kUs, 305 * kUs},
    {"aten::mean", "[[8, 2048, 4096], [], [], []]", "[\"c10::BFloat16\", \"ScalarList\", \"Scalar\", \"\"]",
     "[\"\", \"[-1]\", \"True\", \"\"]", true, "nki_mean_reduce_bf16_free_axis", 11 * kUs, 178 * kUs},
    {"aten::add", "[[8, 2048, 1], [], []]", "[\"c10::BFloat16\", \"Scalar\", \"Scalar\"]", "[\"\", \"1e-06\", \"1\"]",
     false, "nki_add_scalar_bf16", 7 * kUs, 12 * kUs},
    {"aten::rsqrt", "[[8, 2048, 1]]", "[\"c10::BFloat16\"]", "[\"\"]", true, "nki_rsqrt_bf16_act", 6 * kUs, 10 * kUs},
    {"aten::mul", "[[8, 2048, 4096], [8, 2048, 1]]", "[\"c10::BFloat16\", \"c10::BFloat16\"]", "[\"\", \"\"]", true,
     "nki_mul_broadcast_bf16", 8 * kUs, 322 * kUs},
    {"aten::mul", "[[8, 2048, 4096], [4096]]", "[\"c10::BFloat16\", \"c10::BFloat16\"]", "[\"\", \"\"]", true,
     "nki_mul_weight_bf16", 8 * kUs, 318 * kUs},
};

constexpr OpSpec kFusedOp = {"aten::rms_norm",
                             "[[8, 2048, 4096], [], [4096], []]",
                             "[\"c10::BFloat16\", \"ScalarList\", \"c10::BFloat16\", \"Scalar\"]",
                             "[\"\", \"[4096]\", \"\", \"1e-06\"]",
                             true,
                             "nki_rmsnorm_fused_bf16",
                             14 * kUs,
                             338 * kUs};

constexpr int64_t kTensorBytes = int64_t(8) * 2048 * 4096 * 2; // one [8, 2048, 4096] bf16 tensor

class Generator
{
public:
    explicit Generator(const KinetoSampleWriter::Options &o)
        : m_rng(o.seed), m_steps(std::max(0, o.steps)), m_start(o.baseTimeUs * kUs), m_seed(o.seed)
    {
        m_hostPid = std::to_string(KinetoSampleWriter::kHostPid);
        m_devicePid = std::to_string(KinetoSampleWriter::kDevicePid);
        m_stream = std::to_string(KinetoSampleWriter::kDeviceStream);
    }

    std::string run()
    {
        m_t = m_start + 40 * kUs;
        m_deviceFree = m_t;
        for (int step = 1; step <= m_steps; ++step)
            runStep(step);
        const int64_t windowEnd = std::max(m_t, m_deviceFree) + 12 * kUs;

        // Kineto's order: CPU activities by start time, then runtime + device activities, counters and
        // instants, metadata, the profiler span.
        std::stable_sort(m_cpu.begin(), m_cpu.end(), [](const Event &a, const Event &b) { return a.ts < b.ts; });

        std::string out;
        out.reserve(size_t(m_steps) * 40000 + 16384);
        appendHeader(out);
        bool first = true;
        auto emit = [&](const Event &e) {
            out += first ? "\n" : ",\n";
            first = false;
            appendEvent(out, e);
        };
        for (const Event &e : m_cpu)
            emit(e);
        for (const Event &e : m_device)
            emit(e);
        for (const Event &e : m_other)
            emit(e);
        for (const Event &e : metadata())
            emit(e);
        Event span{'X',
                   "Trace",
                   "PyTorch Profiler (0)",
                   "\"Spans\"",
                   "\"PyTorch Profiler\"",
                   m_start,
                   windowEnd - m_start,
                   {},
                   "\"Op count\": 0"};
        emit(span);
        emit(Event{'M', {}, "process_sort_index", "\"Spans\"", "0", m_start, -1, {}, "\"sort_index\": 536870912"});
        emit(Event{'i',
                   {},
                   "Iteration Start: PyTorch Profiler",
                   "\"Traces\"",
                   "\"Trace PyTorch Profiler\"",
                   m_start,
                   -1,
                   "\"s\": \"g\"",
                   {}});
        emit(Event{'i', {}, "Record Window End", "\"\"", "\"\"", windowEnd, -1, "\"s\": \"g\"", {}});
        out += "\n],\n  \"traceName\": \"synthetic_kineto_rmsnorm.trace.json (generated by lanescope-cli "
               "generate-sample; synthetic data, not a measurement)\"\n}\n";
        return out;
    }

private:
    void appendHeader(std::string &out) const
    {
        out += "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\n";
        out += "      \"id\": 0, \"name\": \"NeuronCore-v2 (synthetic)\", \"totalGlobalMem\": 17179869184,\n";
        out += "      \"computeMajor\": 2, \"computeMinor\": 0, \"numCores\": 1, \"tensorEngineRows\": 128, "
               "\"tensorEngineColumns\": 128\n    }\n  ],\n";
        out += "  \"distributedInfo\": {\"backend\": \"xla\", \"rank\": 0, \"world_size\": 1},\n";
        out += "  \"record_shapes\": 1,\n  \"with_stack\": 0,\n";
        out += "  \"";
        out += KinetoSampleWriter::kSyntheticKey;
        out += "\": true,\n  \"trace_id\": \"";
        char id[40];
        std::snprintf(id, sizeof id, "5E17717E71C0%04X%016llX", unsigned(m_steps & 0xffff),
                      static_cast<unsigned long long>(m_seed));
        out += id;
        out += "\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1735689600000000000,\n";
        out += "  \"traceEvents\": [";
    }

    std::vector<Event> metadata() const
    {
        const std::string name = std::string("\"name\": ") + quoted(KinetoSampleWriter::kProcessName);
        const std::string host = m_hostPid;
        std::vector<Event> m;
        auto meta = [&](const char *what, const std::string &pid, const std::string &tid, std::string args) {
            m.push_back(Event{'M', {}, what, pid, tid, m_start, -1, {}, std::move(args)});
        };
        meta("process_name", host, "0", name);
        meta("process_labels", host, "0", "\"labels\": \"CPU\"");
        meta("process_sort_index", host, "0", "\"sort_index\": " + host);
        meta("process_name", m_devicePid, "0",
             std::string("\"name\": ") + quoted(KinetoSampleWriter::kDeviceProcessName));
        meta("process_labels", m_devicePid, "0", "\"labels\": \"NeuronCore 0\"");
        meta("process_sort_index", m_devicePid, "0", "\"sort_index\": 5000000");
        meta("thread_name", m_devicePid, m_stream, "\"name\": \"stream " + m_stream + " \"");
        meta("thread_sort_index", m_devicePid, m_stream, "\"sort_index\": " + m_stream);
        meta("thread_name", host, host, "\"name\": \"thread " + host + " (python3)\"");
        meta("thread_sort_index", host, host, "\"sort_index\": " + host);
        return m;
    }

    size_t hostSlice(const char *cat, const std::string &name, int64_t ts, std::string args)
    {
        m_cpu.push_back(Event{'X', cat, name, m_hostPid, m_hostPid, ts, 0, {}, std::move(args)});
        return m_cpu.size() - 1;
    }

    std::string annotationArgs(int64_t ext)
    {
        return "\"External id\": " + std::to_string(ext) +
               ", \"Record function id\": 0, \"Ev Idx\": " + std::to_string(m_evIdx++);
    }

    std::string opArgs(int64_t ext, const OpSpec &op)
    {
        return "\"External id\": " + std::to_string(ext) +
               ", \"Record function id\": 0, \"Sequence number\": " + std::to_string(m_sequence++) +
               ", \"Fwd thread id\": 0, \"Concrete Inputs\": " + op.concreteInputs +
               ", \"Input type\": " + op.inputTypes + ", \"Input Dims\": " + op.inputDims +
               ", \"Ev Idx\": " + std::to_string(m_evIdx++);
    }

    void counter(int64_t ts)
    {
        m_other.push_back(Event{'C',
                                {},
                                "Device memory (synthetic)",
                                m_devicePid,
                                "0",
                                ts,
                                -1,
                                {},
                                "\"allocated MB\": " + std::to_string(m_allocated >> 20) +
                                    ", \"reserved MB\": " + std::to_string(m_reserved >> 20)});
    }

    void allocate(int64_t ts, int64_t bytes)
    {
        m_allocated += bytes;
        m_reserved = std::max(m_reserved, m_allocated);
        char addr[32];
        std::snprintf(addr, sizeof addr, "%lld", static_cast<long long>(0x7f3a00000000ll + m_allocated));
        m_other.push_back(Event{
            'i', "cpu_instant_event", "[memory]", m_hostPid, m_hostPid, ts, -1, "\"s\": \"t\"",
            std::string("\"Device Type\": 20, \"Device Id\": 0, \"Addr\": ") + addr +
                ", \"Bytes\": " + std::to_string(bytes) + ", \"Total Allocated\": " + std::to_string(m_allocated) +
                ", \"Total Reserved\": " + std::to_string(m_reserved) + ", \"Ev Idx\": " + std::to_string(m_evIdx++)});
        counter(ts);
    }

    // One cpu_op with an optional aten::empty child and an nrt_execute launching one kernel.
    void runOp(const OpSpec &op)
    {
        const int64_t opStart = m_t;
        const int64_t ext = m_external++;
        const size_t opIndex = hostSlice("cpu_op", op.name, opStart, opArgs(ext, op));
        m_t += m_rng.vary(op.hostNs / 3, 200);
        if (op.allocates) {
            static constexpr OpSpec kEmpty = {"aten::empty",
                                              "[[], [], [], [], [], []]",
                                              "[\"ScalarList\", \"Scalar\", \"\", \"Device\", \"Scalar\", \"\"]",
                                              "[\"[8, 2048, 4096]\", \"15\", \"\", \"\", \"False\", \"\"]",
                                              false,
                                              nullptr,
                                              0,
                                              0};
            const int64_t emptyExt = m_external++;
            const size_t e = hostSlice("cpu_op", "aten::empty", m_t, opArgs(emptyExt, kEmpty));
            const int64_t d = m_rng.vary(2400, 300);
            m_cpu[e].dur = d;
            allocate(m_t + d / 2, kTensorBytes);
            m_t += d + m_rng.vary(400, 300);
        }
        m_t += m_rng.vary(op.hostNs * 2 / 3, 200);

        // Runtime call on the host thread and the kernel it launches on the device stream.
        const int64_t rtStart = m_t;
        const int64_t rtDur = m_rng.vary(6500, 250);
        const int64_t corr = m_correlation++;
        const std::string ids =
            "\"External id\": " + std::to_string(ext) + ", \"correlation\": " + std::to_string(corr);
        m_device.push_back(Event{'X',
                                 "privateuse1_runtime",
                                 "nrt_execute",
                                 m_hostPid,
                                 m_hostPid,
                                 rtStart,
                                 rtDur,
                                 {},
                                 ids + ", \"cbid\": 211"});
        m_device.push_back(
            Event{'s', "ac2g", "ac2g", m_hostPid, m_hostPid, rtStart, -1, "\"id\": " + std::to_string(corr), {}});
        const int64_t kStart = std::max(rtStart + m_rng.vary(14 * kUs, 250), m_deviceFree + m_rng.vary(1500, 400));
        const int64_t kDur = m_rng.vary(op.kernelNs, 30);
        m_device.push_back(Event{'X',
                                 "kernel",
                                 op.kernel,
                                 m_devicePid,
                                 m_stream,
                                 kStart,
                                 kDur,
                                 {},
                                 ids + ", \"device\": 0, \"stream\": " + m_stream +
                                     ", \"queued\": 0, \"context\": 0, \"kind\": \"NEFF execution\", \"neff\": " +
                                     quoted(std::string("neff_") + op.kernel + ".neff")});
        m_device.push_back(Event{'f',
                                 "ac2g",
                                 "ac2g",
                                 m_devicePid,
                                 m_stream,
                                 kStart,
                                 -1,
                                 "\"id\": " + std::to_string(corr) + ", \"bp\": \"e\"",
                                 {}});
        m_deviceFree = kStart + kDur;

        m_t = rtStart + rtDur + m_rng.vary(1200, 300);
        m_cpu[opIndex].dur = m_t - opStart;
        m_t += m_rng.vary(3 * kUs, 300);
    }

    void runStep(int step)
    {
        const int64_t stepStart = m_t;
        const size_t stepIndex = hostSlice("user_annotation", "ProfilerStep#" + std::to_string(step), stepStart,
                                           annotationArgs(m_external++));
        m_t += m_rng.vary(6 * kUs, 300);
        const int64_t liveAtStart = m_allocated;

        const int64_t naiveStart = m_t;
        const size_t naive = hostSlice("user_annotation", "rmsnorm_naive", naiveStart, annotationArgs(m_external++));
        m_t += m_rng.vary(1500, 300);
        for (const OpSpec &op : kNaiveOps)
            runOp(op);
        m_cpu[naive].dur = m_t - naiveStart;
        m_allocated = liveAtStart + kTensorBytes; // the temporaries are freed, the result stays
        counter(m_t);
        m_t += m_rng.vary(4 * kUs, 300);

        const int64_t fusedStart = m_t;
        const size_t fused = hostSlice("user_annotation", "rmsnorm_fused", fusedStart, annotationArgs(m_external++));
        m_t += m_rng.vary(1500, 300);
        runOp(kFusedOp);
        m_cpu[fused].dur = m_t - fusedStart;
        m_t += m_rng.vary(1500, 300);

        // loss.item(): the host blocks in a tensor read until the device queue has drained.
        const int64_t itemStart = m_t;
        static constexpr OpSpec kItem = {"aten::item", "[[]]", "[\"c10::BFloat16\"]", "[\"\"]", false, nullptr, 0, 0};
        const size_t item = hostSlice("cpu_op", "aten::item", itemStart, opArgs(m_external++, kItem));
        m_t += m_rng.vary(2 * kUs, 300);
        const int64_t readStart = m_t;
        const int64_t readEnd = std::max(readStart + 4 * kUs, m_deviceFree + m_rng.vary(9 * kUs, 300));
        m_device.push_back(Event{'X',
                                 "privateuse1_runtime",
                                 "nrt_tensor_read",
                                 m_hostPid,
                                 m_hostPid,
                                 readStart,
                                 readEnd - readStart,
                                 {},
                                 "\"External id\": " + std::to_string(m_external - 1) + ", \"bytes\": 2"});
        m_t = readEnd + m_rng.vary(1500, 300);
        m_cpu[item].dur = m_t - itemStart;

        m_allocated = liveAtStart; // the step's outputs are released
        counter(m_t);
        m_t += m_rng.vary(5 * kUs, 300);
        m_cpu[stepIndex].dur = m_t - stepStart;
        m_t += m_rng.vary(25 * kUs, 300); // python between steps
    }

    text::SplitMix64 m_rng;
    int m_steps;
    int64_t m_start;
    uint64_t m_seed = 0;
    std::string m_hostPid, m_devicePid, m_stream;
    int64_t m_t = 0;
    int64_t m_deviceFree = 0;
    int64_t m_external = 1;
    int64_t m_correlation = 1001;
    int64_t m_evIdx = 0;
    int64_t m_sequence = 0;
    int64_t m_allocated = int64_t(2) << 30; // weights etc.
    int64_t m_reserved = int64_t(2) << 30;
    std::vector<Event> m_cpu, m_device, m_other;
};

} // namespace

std::string KinetoSampleWriter::write(const Options &options)
{
    return Generator(options).run();
}

bool KinetoSampleWriter::writeFile(const std::string &path, const Options &options, std::string *error)
{
    const std::string text = write(options);
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
        if (error)
            *error = path + ": cannot open for writing: " + std::strerror(errno);
        return false;
    }
    const size_t written = std::fwrite(text.data(), 1, text.size(), f);
    const bool flushed = std::fflush(f) == 0;
    const int savedErrno = errno;
    const bool closed = std::fclose(f) == 0;
    if (written != text.size() || !flushed || !closed) {
        if (error)
            *error = path + ": write failed: " + std::strerror(savedErrno ? savedErrno : errno);
        return false;
    }
    return true;
}

} // namespace lanescope
