#include "explorerdevicereader.h"

#include "explorerdevicestate.h"
#include "io/input/importerror.h"
#include "io/neuronprofile/neuronprofilevalues.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>

namespace lanescope {

namespace {

using namespace explorer;

constexpr std::string_view kDeviceTables[] = {"Instruction", "DmaPacket", "DmaPacketAggregated", "SemaphoreUpdate",
                                              "Metadata",    "Summary"};

void checkCancel(const DeviceState &s)
{
    if (s.options.cancelled())
        throw LoadCancelled();
}

// Metadata: one row. Every column kept; the ones the model has a field for read.
void readMetadata(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "Metadata");
    if (!c) {
        p.diagnostics.note("Neuron Explorer profile without a Metadata table (no schema version, core count, "
                           "versions or trace end; the latest instruction end used)", s.dir.path());
        return;
    }
    if (const auto *v = c.text("profile_schema_version"); v && c.rows()) {
        const std::string version(textAt(v, 0).value_or(""));
        const std::string major = version.substr(0, version.find('.'));
        if (major != "7" && major != "12")
            p.diagnostics.warn("Neuron Explorer profile schema version " + version +
                                   " (this reader knows 7.x and 12.x; the tables and columns it recognises are read)",
                               c.where());
    }
    if (auto v = intAt(c.integer("ntff_version"), 0); v && *v >= 0 && *v <= 255)
        p.version = uint8_t(*v);
    if (auto v = intAt(c.integer("last_hw_timestamp"), 0))
        p.lastHwTimestamp = *v;
    if (auto v = intAt(c.integer("num_physical_cores"), 0); v && *v >= 1)
        s.physicalCores = *v;
    const auto text = [&](std::string_view column, std::string &to) {
        if (auto v = textAt(c.text(column), 0))
            to = std::string(*v);
    };
    text("instance_type", p.instanceType);
    text("runtime_version", p.runtimeVersion);
    text("driver_version", p.driverVersion);
    text("collectives_version", p.collectivesVersion);
    c.note("their values are unknown");
    s.keepRows(c.loaded(), "neuron_profile.metadata", false);
    // The names neuron-profile's JSON metadata gives these (what the engine breakdown reads)
    static constexpr std::pair<std::string_view, std::string_view> kJsonNames[] = {
        {"tensor_engine_clock_freq", "pe_clock_freq"},
        {"scalar_engine_clock_freq", "pe_clock_others"},
        {"tensor_engine_num_rows", "pe_num_rows"},
        {"tensor_engine_num_cols", "pe_num_cols"}};
    for (const auto &[column, json] : kJsonNames)
        if (const parquet::ColumnData *col = c.loaded().find(column))
            if (auto v = valueText(*col, 0))
                p.reportedMetadata.emplace_back("neuron_profile.metadata." + std::string(json), std::move(*v));
}

// Summary: one row of float seconds, 0-1 fractions and counts, kept as neuron-profile's summary.
void readSummary(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable t(s, "Summary");
    if (!t)
        return;
    if (t.rows() > 1)
        p.diagnostics.warn("Summary table of " + std::to_string(t.rows()) + " rows (expected one; the first is used)", t.where());
    s.keepRows(t.loaded(), "neuron_profile.summary", false);
    if (const parquet::ColumnData *c = t.loaded().find("total_time"))
        if (auto v = valueText(*c, 0); v && c->type != parquet::PhysicalType::ByteArray) {
            uint64_t ps = 0;
            if (NeuronProfileValues::secondsToPs(*v, ps))
                p.totalTimePs = ps;
        }
    if (const parquet::ColumnData *c = t.loaded().find("event_count"))
        if (auto v = intAt(c, 0); v && *v >= 0 && (c->type == parquet::PhysicalType::Int64 || c->type == parquet::PhysicalType::Int32))
            p.eventRecordCount = uint64_t(*v);
}

void readNeffHeader(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "NeffHeader");
    if (!c)
        return;
    if (auto v = textAt(c.text("uuid"), 0))
        p.uuid = std::string(*v);
    if (auto v = textAt(c.text("network_name"), 0))
        p.neffName = std::string(*v);
    s.keepRows(c.loaded(), "neuron_profile.neff_header", false);
}

// The physical cores the rows use, "sg00", "sg01", ..., numbered by their DMA engines when the logical
// core has several (a one-core device numbers none, as its NTFF does).
void placeCores(DeviceState &s)
{
    NtffProfile &p = s.profile;
    const size_t count = std::min<size_t>(kNtffMaxCores, std::max<int64_t>(s.coreCount, s.physicalCores.value_or(1)));
    if (s.physicalCores && *s.physicalCores > int64_t(kNtffMaxCores))
        p.diagnostics.warn("Metadata.num_physical_cores " + std::to_string(*s.physicalCores) + " (at most " +
                               std::to_string(kNtffMaxCores) + " are read)",
                           s.dir.path());
    p.cores.clear();
    for (size_t k = 0; k < count; ++k) {
        NtffCore c;
        c.subgraphName = std::string("sg") + (k < 10 ? "0" : "") + std::to_string(k);
        if (count > 1 && s.coreNumber[k] && !s.coreNumberConflict[k])
            c.index = *s.coreNumber[k];
        p.cores.push_back(std::move(c));
    }
    p.subgraphName = p.cores.front().subgraphName;
    if (p.cores.size() > 1) // Summary.total_time is the first core's, as the JSON export's
        p.cores.front().totalTimePs = p.totalTimePs;
}

// DmaQueuesInfo describes the queues; a queue that carried packets is named as its packets' queue_name
// names its lane ("qSyncIO0-Q1-E64" -> qSyncIO0; "Q0-E64" -> none), as the JSON reader does.
void readQueues(DeviceState &s)
{
    NtffProfile &p = s.profile;
    if (DeviceTable c(s, "DmaQueuesInfo"); c) {
        const auto *name = c.text("name");
        const auto *engine = c.integer("engine_idx");
        const auto *queue = c.integer("idx");
        const auto *pcore = c.integer("pcore_idx");
        c.note("queues without them are not described");
        RowProblems problems;
        for (size_t row = 0; row < c.rows(); ++row) {
            const auto n = textAt(name, row);
            const auto e = intAt(engine, row);
            const auto q = intAt(queue, row);
            if (!n || !e || !q || *e < 0 || *e > 255 || *q < 0 || *q > 15) {
                problems.add("DmaQueuesInfo rows without a valid name, engine_idx (0..255) or idx (0..15) (skipped)");
                continue;
            }
            NtffDmaQueue d{uint32_t(*e), uint32_t(*q), 0, std::string(*n), std::string(*n)};
            d.core = s.core(intAt(pcore, row), problems);
            if (d.core >= p.cores.size())
                d.core = 0;
            if (p.dmaQueue(d.engine, d.queue))
                problems.add("DmaQueuesInfo rows for a queue already described (expected one row per DMA engine and "
                             "queue; skipped)");
            else if (!s.queueSeen[d.engine * 16 + d.queue])
                p.dmaQueues.push_back(std::move(d));
        }
        problems.report(p.diagnostics, c.where());
    }
    for (size_t key = 0; key < s.queueLane.size(); ++key)
        if (!s.queueLane[key].empty()) {
            NtffDmaQueue q{uint32_t(key / 16), uint32_t(key % 16), 0, s.queueLane[key], s.queueLane[key]};
            q.core = s.queueCore[key] < p.cores.size() ? s.queueCore[key] : 0;
            p.dmaQueues.push_back(std::move(q));
        }
}

} // namespace

bool ExplorerDeviceReader::hasDeviceTables(const ProfileDirectory &dir)
{
    return std::any_of(std::begin(kDeviceTables), std::end(kDeviceTables), [&](std::string_view t) { return dir.has(t); });
}

NtffProfile ExplorerDeviceReader::read(const std::string &path, const LoadOptions &options)
{
    ProfileDirectory dir;
    std::string why;
    if (!dir.open(path, &why))
        throw ImportError(path, why);
    return read(dir, options);
}

NtffProfile ExplorerDeviceReader::read(const ProfileDirectory &dir, const LoadOptions &options)
{
    if (!hasDeviceTables(dir))
        throw ImportError(dir.path(), "no device table of a processed Neuron Explorer profile here (expected "
                                      "Instruction.parquet, DmaPacket.parquet, SemaphoreUpdate.parquet, Metadata.parquet "
                                      "or Summary.parquet, plain or split as <Table>_0.parquet ...)");
    NtffProfile profile;
    profile.sourceFormat = "neuron-explorer-parquet";
    DeviceState s(dir, options, profile);
    profile.lastHwTimestamp = -1; // without Metadata.last_hw_timestamp: the latest instruction end
    options.report(100);
    readMetadata(s);
    readSummary(s);
    readNeffHeader(s);
    checkCancel(s);
    readInstructions(s);
    options.report(400);
    checkCancel(s);
    readDmaBlocks(s);
    readDmaPackets(s);
    options.report(650);
    checkCancel(s);
    readSemaphores(s);
    readThrottle(s);
    readCollectives(s);
    readErrors(s);
    checkCancel(s);
    placeCores(s);
    readQueues(s);
    readCounters(s);
    readSbufAllocation(s);
    readMemoryUsage(s);
    readActiveTime(s);
    readLookupTables(s);
    readHierarchy(s);
    readDependencies(s);
    if (profile.lastHwTimestamp < 0) {
        int64_t last = 0;
        for (const auto &r : profile.instructions) {
            int64_t end = 0;
            if (__builtin_add_overflow(r.timestamp, r.duration, &end))
                end = std::numeric_limits<int64_t>::max();
            last = std::max(last, end);
        }
        profile.lastHwTimestamp = last;
    }
    // Tables the reader maps that this profile lacks (a missing file means none of those rows): one note.
    static constexpr std::string_view kMapped[] = {"DmaPacket", "DmaPacketAggregated", "SemaphoreUpdate", "Throttle",
                                                   "SbufUsage", "PsumUsage", "DmaUsage", "HbmUsage", "Summary",
                                                   "NeffHeader", "DmaQueuesInfo", "HbmUsageSummaryByType", "TensorInfo"};
    std::string absent;
    for (std::string_view t : kMapped)
        if (!dir.has(t))
            absent += (absent.empty() ? "" : ", ") + std::string(t);
    if (!absent.empty())
        profile.diagnostics.note("Neuron Explorer profile without the tables " + absent + " (none of their rows)", dir.path());
    std::stable_sort(profile.reportedMetadata.begin(), profile.reportedMetadata.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    std::error_code ec;
    for (const std::string &table : dir.tableNames())
        for (const std::string &f : dir.files(table))
            profile.fileSize += std::filesystem::file_size(f, ec) * !ec;
    profile.recordsRead = s.rowsRead;
    options.report(900);
    return profile;
}

} // namespace lanescope
