#pragma once
// Writes the protobuf files of a Neuron capture session (docs/ntrace.md): trace_info.pb (one message:
// session, host, enum tables), ntrace.pb (length-prefixed records: 2 ts, 7 type, 9 thread, 10 id =
// worker << 50 | sequence, 12 attributes, 14 phase, 15 correlation id), cpu_util.pb and host_mem.pb,
// laid out as the real capture is (records grouped per worker, in id order; an end's field 15 is its
// begin's id). For the synthetic sample and tests; it encodes with its own wire helpers (protobufwire.h),
// never with the reader's code, so a reader bug cannot cancel out in a round trip.
//
// Record type numbers come from the writer's type table (by default the order of the real capture's
// runtime, 40 types); setTypeNames() gives others, so a test can prove the reader resolves types through
// trace_info and not by number.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

class NtraceWriter
{
public:
    using Attributes = std::vector<std::pair<std::string, std::string>>;

    struct Session
    {
        std::string instanceId = "i-0synthetic0000000";
        std::string instanceType = "trn2.3xlarge";
        std::string hostName = "ip-10-0-0-1";
        std::string cpuModel = "synthetic CPU";
        uint64_t pid = 4242;
        uint64_t cpuCount = 2;
        uint64_t hostMemoryBytes = uint64_t(64) << 30;
        int64_t start = 0, end = 0; // Unix ns
    };

    explicit NtraceWriter(Session session);

    // The runtime's 40 record types, numbered by position (0 generic, 1 nrt_load, 3 nrt_execute, ...).
    static std::vector<std::string> defaultTypeNames();
    void setTypeNames(std::vector<std::string> names) { m_types = std::move(names); }
    // system_trace entries: interned strings (a model id -> its NEFF's network name).
    void addInternedString(uint64_t id, std::string text) { m_interned.emplace_back(id, std::move(text)); }

    // A call: its begin now, its end later (end() with the id begin() returned). Worker = nc_idx.
    uint64_t begin(const std::string &type, int64_t thread, int64_t ts, uint64_t worker, Attributes attributes);
    void end(uint64_t id, int64_t ts, Attributes attributes);
    // A single record (timestamp_sync_point).
    void single(const std::string &type, int64_t thread, int64_t ts, uint64_t worker, Attributes attributes);

    void setSessionEnd(int64_t ts) { m_session.end = ts; }
    void cpuSample(int64_t ts, uint64_t cpu, float percent) { m_cpu.push_back({ts, cpu, percent}); }
    void memorySample(int64_t ts, uint64_t bytes) { m_memory.emplace_back(ts, bytes); }

    std::string traceInfo() const;
    std::string ntrace() const;
    std::string cpuUtil() const;
    std::string hostMem() const;
    size_t recordCount() const { return m_records.size(); }
    // Writes the four files into `dir` (created beforehand). Throws std::runtime_error naming the path.
    void save(const std::string &dir) const;

private:
    struct Record
    {
        int64_t ts = 0;
        uint64_t type = 0;
        int64_t thread = 0;
        uint64_t id = 0, correlation = 0, worker = 0;
        int phase = 1;
        Attributes attributes;
    };
    struct CpuSample
    {
        int64_t ts;
        uint64_t cpu;
        float percent;
    };
    uint64_t typeNumber(const std::string &name) const;
    uint64_t nextId(uint64_t worker);

    Session m_session;
    std::vector<std::string> m_types;
    std::vector<std::pair<uint64_t, std::string>> m_interned;
    std::vector<Record> m_records;
    std::vector<std::pair<uint64_t, uint64_t>> m_sequence; // worker -> last sequence
    std::vector<CpuSample> m_cpu;
    std::vector<std::pair<int64_t, uint64_t>> m_memory;
};

} // namespace lanescope
