// lanescope-cli rows PATH --table instruction|dma|semaphore [--format jsonl|csv]
// Prints the decoded rows of an NTFF, or the rows of neuron-profile's JSON export of one (recognised by
// content), or of a processed Neuron Explorer profile (a directory of Parquet tables, or a folder holding
// one: recognised by its table files), one per line, with neuron-profile's JSON field names and times in ns from the trace
// origin, sorted by time. Both inputs print the same way, so the two can be diffed. Instruction and DMA
// rows also carry "event_id": the slice id `lanescope-cli chain --event` takes.
#include "commands.h"

#include "io/explorer/explorerdeviceimporter.h"
#include "io/formats.h"
#include "io/input/inputbuffer.h"
#include "io/ntff/ntffimporter.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>

namespace lanescope::cli {

namespace {

class LineWriter
{
public:
    explicit LineWriter(bool csv) : m_csv(csv) { m_buf.reserve(kFlushAt + 4096); }
    ~LineWriter() { flush(); }

    void header(std::initializer_list<const char *> names)
    {
        if (!m_csv)
            return;
        bool first = true;
        for (const char *n : names) {
            if (!first)
                m_buf += ',';
            m_buf += n;
            first = false;
        }
        m_buf += '\n';
    }
    void begin() { m_first = true; m_buf += m_csv ? "" : "{"; }
    void end()
    {
        m_buf += m_csv ? "\n" : "}\n";
        if (m_buf.size() >= kFlushAt)
            flush();
    }
    void number(const char *key, int64_t v) { field(key); m_buf += std::to_string(v); }
    void text(const char *key, std::string_view v) // values are identifiers and numbers: no escaping needed
    {
        field(key);
        if (!m_csv)
            m_buf += '"';
        m_buf += v;
        if (!m_csv)
            m_buf += '"';
    }
    void empty(const char *key) // absent value: skipped in JSONL, empty cell in CSV
    {
        if (m_csv)
            field(key);
    }
    void flush()
    {
        if (!m_buf.empty())
            std::fwrite(m_buf.data(), 1, m_buf.size(), stdout);
        m_buf.clear();
    }

private:
    static constexpr size_t kFlushAt = size_t(1) << 20;
    void field(const char *key)
    {
        if (!m_first)
            m_buf += ',';
        m_first = false;
        if (!m_csv) {
            m_buf += '"';
            m_buf += key;
            m_buf += "\":";
        }
    }

    bool m_csv;
    bool m_first = true;
    std::string m_buf;
};

// The slice id ("event_id": what `chain --event` and the GUI's details panel use) of each row, found in
// the trace the viewer builds from the same rows: the row's lane (in its physical core's lane set), its
// start, duration and pc / size.
class EventIds
{
public:
    explicit EventIds(const NtffProfile &p) : m_profile(p), m_trace(NtffImporter::build(p, std::string()))
    {
        for (uint32_t t = 0; t < m_trace.tracks().size(); ++t) {
            const Track &track = m_trace.track(TrackId(t));
            if (track.kind != TrackKind::Async)
                continue;
            const TrackGroup &g = m_trace.group(track.group);
            const std::string core(g.kind == GroupKind::PhysicalCore ? m_trace.str(g.name) : std::string_view());
            m_tracks.emplace(core + "/" + std::string(m_trace.str(track.name)), TrackId(t));
        }
    }
    int64_t instruction(const NtffInstructionRow &r) const
    {
        return find(m_profile.coreLabel(r.core) + "/" + std::string(ntffLaneName(r.lane)), r.timestamp, r.duration, "pc", r.pc);
    }
    int64_t dma(const NtffDmaRow &r) const
    {
        return find(m_profile.coreLabel(r.core) + "/" + NtffImporter::dmaTrackName(m_profile, r.engine, r.queue), r.timestamp,
                    r.duration, "transfer_size", r.transferSize);
    }

private:
    int64_t find(const std::string &lane, int64_t start, int64_t duration, std::string_view key, int64_t value) const
    {
        const auto it = m_tracks.find(lane);
        if (it == m_tracks.end())
            return -1;
        const auto slices = m_trace.slices(it->second);
        auto s = std::lower_bound(slices.begin(), slices.end(), start, [](const Slice &a, int64_t v) { return a.start < v; });
        for (; s != slices.end() && s->start == start; ++s) {
            if (s->duration != std::max<int64_t>(0, duration))
                continue;
            for (const Arg &a : m_trace.args().args(s->args))
                if (m_trace.str(a.key) == key && a.value.i == value)
                    return int64_t(m_trace.track(it->second).sliceBegin) + (s - slices.begin());
        }
        return -1;
    }

    const NtffProfile &m_profile;
    Trace m_trace;
    std::map<std::string, TrackId, std::less<>> m_tracks;
};

int usageError(const std::string &message)
{
    std::fprintf(stderr, "lanescope-cli rows: %s\nusage: lanescope-cli rows PATH --table instruction|dma|semaphore "
                         "[--format jsonl|csv]\n",
                 message.c_str());
    return kExitUnreadable;
}

// The physical core of a row as neuron-profile names it ("sg00", "sg01": the JSON rows' "subgraph").
std::string subgraphOf(const NtffProfile &p, uint8_t core)
{
    return core < p.cores.size() ? p.cores[core].subgraphName : p.subgraphName;
}

void printInstructions(NtffProfile &p, LineWriter &out)
{
    const EventIds ids(p);
    std::stable_sort(p.instructions.begin(), p.instructions.end(), [](const auto &a, const auto &b) {
        if (a.timestamp != b.timestamp)
            return a.timestamp < b.timestamp;
        return std::tie(a.core, a.engine, a.pc) < std::tie(b.core, b.engine, b.pc);
    });
    out.header({"timestamp", "duration", "subgraph", "label", "subgroup", "pc", "opcode", "evt_wait_time", "crc_in",
                "crc_out", "compiler_pc", "event_id"});
    for (const auto &r : p.instructions) {
        out.begin();
        out.number("timestamp", r.timestamp);
        out.number("duration", r.duration);
        out.text("subgraph", subgraphOf(p, r.core));
        out.text("label", ntffLaneName(r.lane));
        out.text("subgroup", ntffEngineName(r.engine));
        out.number("pc", r.pc);
        out.text("opcode", p.opcodeName(r));
        out.number("evt_wait_time", r.evtWaitTime);
        out.number("crc_in", r.crcIn);
        out.number("crc_out", r.crcOut);
        if (r.hasCompilerPc())
            out.number("compiler_pc", r.compilerPc);
        else
            out.empty("compiler_pc");
        if (const int64_t id = ids.instruction(r); id >= 0)
            out.number("event_id", id);
        else
            out.empty("event_id");
        out.end();
    }
}

void printDma(NtffProfile &p, LineWriter &out)
{
    const EventIds ids(p);
    std::stable_sort(p.dma.begin(), p.dma.end(), [](const auto &a, const auto &b) {
        if (a.timestamp != b.timestamp)
            return a.timestamp < b.timestamp;
        return std::tie(a.engine, a.queue) < std::tie(b.engine, b.queue);
    });
    out.header({"timestamp", "duration", "subgraph", "dma_engine", "dma_queue", "transfer_size", "crc", "event_id"});
    for (const auto &r : p.dma) {
        out.begin();
        out.number("timestamp", r.timestamp);
        out.number("duration", r.duration);
        out.text("subgraph", subgraphOf(p, r.core));
        out.text("dma_engine", std::to_string(r.engine));
        out.text("dma_queue", std::to_string(r.queue));
        out.number("transfer_size", r.transferSize);
        out.number("crc", r.crc);
        if (const int64_t id = ids.dma(r); id >= 0)
            out.number("event_id", id);
        else
            out.empty("event_id");
        out.end();
    }
}

void printSemaphores(NtffProfile &p, LineWriter &out)
{
    std::stable_sort(p.semaphores.begin(), p.semaphores.end(), [](const auto &a, const auto &b) {
        return std::tie(a.timestamp, a.core, a.id) < std::tie(b.timestamp, b.core, b.id);
    });
    out.header({"subgraph", "id", "timestamp", "value"});
    for (const auto &r : p.semaphores) {
        out.begin();
        out.text("subgraph", subgraphOf(p, r.core));
        out.text("id", std::to_string(r.id));
        out.number("timestamp", r.timestamp);
        out.number("value", r.value);
        out.end();
    }
}

// The device rows of `path`: an NTFF or neuron-profile JSON export (by content), or a processed Neuron
// Explorer profile directory (or a folder holding one). False (the reason printed) for anything else.
bool readRows(const std::string &path, NtffProfile &profile)
{
    const LoadOptions options;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        if (ExplorerDeviceImporter::find(path).empty()) {
            std::fprintf(stderr, "lanescope-cli rows: %s: a folder that is no processed Neuron Explorer profile "
                                 "(expected a directory of Parquet tables such as Instruction.parquet, or a folder "
                                 "holding one); for a folder of traces give one NTFF or JSON export\n",
                         path.c_str());
            return false;
        }
        profile = ExplorerDeviceImporter::readRows(path, options);
        return true;
    }
    InputBuffer input = InputBuffer::read(path, options);
    const FileFormat kind = Formats::sniff(input.view().substr(0, Formats::kJsonProbeBytes), input.size());
    const FormatInfo &info = Formats::info(kind);
    if (!info.readRows) {
        std::fprintf(stderr, "lanescope-cli rows: %s: not an NTFF or a neuron-profile JSON export (detected: %s); "
                             "expected a raw Neuron device trace (.ntff), the output of neuron-profile view "
                             "--output-format json or a processed Neuron Explorer profile directory\n",
                     path.c_str(), info.name);
        return false;
    }
    profile = info.readRows(input, path, options);
    return true;
}

} // namespace

int cmdRows(const Args &args)
{
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--table" || a == "--format") {
            if (i + 1 >= args.size())
                return usageError(a + " needs a value");
            ++i;
        } else if (a.size() > 1 && a[0] == '-' && a.rfind("--table=", 0) != 0 && a.rfind("--format=", 0) != 0) {
            return usageError("unknown option '" + a + "'");
        }
    }
    const auto paths = positional(args, {"--table", "--format"});
    if (paths.size() != 1)
        return usageError(paths.empty() ? "missing PATH" : "expected one PATH");
    const std::string table = flagValue(args, "--table");
    if (table != "instruction" && table != "dma" && table != "semaphore")
        return usageError(table.empty() ? "missing --table" : "unknown table '" + table + "'");
    const std::string format = flagValue(args, "--format", "jsonl");
    if (format != "jsonl" && format != "csv")
        return usageError("unknown format '" + format + "'");

    const std::string &path = paths.front();
    NtffProfile profile;
    try {
        if (!readRows(path, profile))
            return kExitUnreadable;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "lanescope-cli rows: %s\n", e.what());
        return kExitUnreadable;
    }
    for (const auto &w : profile.diagnostics.warnings())
        std::fprintf(stderr, "warning: %s\n", Diagnostics::format(w).c_str());

    LineWriter out(format == "csv");
    if (table == "instruction")
        printInstructions(profile, out);
    else if (table == "dma")
        printDma(profile, out);
    else
        printSemaphores(profile, out);
    out.flush();
    return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

} // namespace lanescope::cli
