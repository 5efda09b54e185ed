#pragma once
// Test helpers of tst_ntffreader: an NtffProfile's instruction, DMA, semaphore and throttle rows (and
// neuron-profile's JSON rows) as comparable keys, and a row-by-row comparison that names the first
// difference.
#include "io/ntff/ntffprofile.h"

#include <QJsonObject>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace lanescope::test {


struct InstrKey
{
    std::string subgraph; // the physical core (JSON "subgraph": sg00, sg01)
    std::string subgroup;
    int64_t pc, timestamp;
    std::string label;
    int64_t duration;
    std::string opcode;
    int64_t evtWait, crcIn, crcOut, compilerPc;
    auto tie() const { return std::tie(subgraph, subgroup, pc, timestamp, label, duration, opcode, evtWait, crcIn, crcOut, compilerPc); }
    bool operator<(const InstrKey &o) const { return tie() < o.tie(); }
    bool operator==(const InstrKey &o) const { return tie() == o.tie(); }
    std::string str() const
    {
        std::ostringstream s;
        s << "subgraph=" << subgraph << " subgroup=" << subgroup << " pc=" << pc << " timestamp=" << timestamp << " label=" << label
          << " duration=" << duration << " opcode=" << opcode << " evt_wait_time=" << evtWait << " crc_in=" << crcIn
          << " crc_out=" << crcOut << " compiler_pc=" << compilerPc;
        return s.str();
    }
};

struct DmaKey
{
    int64_t engine, queue, timestamp, duration, size, crc;
    std::string subgraph = {};
    auto tie() const { return std::tie(subgraph, engine, queue, timestamp, duration, size, crc); }
    bool operator<(const DmaKey &o) const { return tie() < o.tie(); }
    bool operator==(const DmaKey &o) const { return tie() == o.tie(); }
    std::string str() const
    {
        std::ostringstream s;
        s << "subgraph=" << subgraph << " dma_engine=" << engine << " dma_queue=" << queue << " timestamp=" << timestamp << " duration=" << duration
          << " transfer_size=" << size << " crc=" << crc;
        return s.str();
    }
};

struct SemKey
{
    int64_t id, timestamp, value;
    std::string subgraph = {};
    auto tie() const { return std::tie(subgraph, id, timestamp, value); }
    bool operator<(const SemKey &o) const { return tie() < o.tie(); }
    bool operator==(const SemKey &o) const { return tie() == o.tie(); }
    std::string str() const
    {
        return "subgraph=" + subgraph + " id=" + std::to_string(id) + " timestamp=" + std::to_string(timestamp) + " value=" + std::to_string(value);
    }
};

struct HamKey
{
    int64_t timestamp, duration, k, n, type;
    std::string subgraph = {};
    auto tie() const { return std::tie(subgraph, timestamp, duration, k, n, type); }
    bool operator<(const HamKey &o) const { return tie() < o.tie(); }
    bool operator==(const HamKey &o) const { return tie() == o.tie(); }
    std::string str() const
    {
        return "subgraph=" + subgraph + " timestamp=" + std::to_string(timestamp) + " duration=" + std::to_string(duration) + " k=" + std::to_string(k)
            + " n=" + std::to_string(n) + " type=" + std::to_string(type);
    }
};

// Sorts both sides, compares counts and every row; returns an empty string or the first difference.
template <class K>
std::string compareRows(const char *table, std::vector<K> expected, std::vector<K> actual)
{
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    const size_t n = std::min(expected.size(), actual.size());
    for (size_t i = 0; i < n; ++i)
        if (!(expected[i] == actual[i]))
            return std::string(table) + " row " + std::to_string(i) + " differs:\n  json:    " + expected[i].str()
                + "\n  decoded: " + actual[i].str() + "\n  (json " + std::to_string(expected.size()) + " rows, decoded "
                + std::to_string(actual.size()) + ")";
    if (expected.size() != actual.size())
        return std::string(table) + ": json has " + std::to_string(expected.size()) + " rows, decoded "
            + std::to_string(actual.size()) + "; first extra: " + (expected.size() > n ? "json " + expected[n].str()
                                                                                     : "decoded " + actual[n].str());
    return {};
}

inline int64_t jsonInt(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isString() ? v.toString().toLongLong() : v.toInteger(-999999);
}

inline std::string jsonStr(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toString().toStdString(); }

// "S[8] (qSyncSpillReload0)" -> 8 (display names come from the NEFF); "12" -> 12
inline int64_t semaphoreId(const QString &id)
{
    static const QRegularExpression re(QStringLiteral("^S\\[(\\d+)\\]"));
    const auto m = re.match(id);
    return m.hasMatch() ? m.captured(1).toLongLong() : id.toLongLong();
}

// The subgraph (physical core) of a decoded row; with `withCore` false every row's is "" (the hand-built
// files of the round-trip tests compare their rows without it).
inline std::string subgraphOf(const NtffProfile &p, uint8_t core, bool withCore)
{
    return !withCore ? std::string() : core < p.cores.size() ? p.cores[core].subgraphName : std::string("?");
}

inline std::vector<InstrKey> decodedInstructions(const NtffProfile &p, bool withCore = false)
{
    std::vector<InstrKey> out;
    for (const auto &r : p.instructions)
        out.push_back({subgraphOf(p, r.core, withCore), std::string(ntffEngineName(r.engine)), r.pc, r.timestamp,
                       std::string(ntffLaneName(r.lane)), r.duration, std::string(r.opcodeName()), r.evtWaitTime, r.crcIn,
                       r.crcOut, r.compilerPc});
    return out;
}

inline std::vector<DmaKey> decodedDma(const NtffProfile &p, bool withCore = false)
{
    std::vector<DmaKey> out;
    for (const auto &r : p.dma)
        out.push_back({r.engine, r.queue, r.timestamp, r.duration, r.transferSize, r.crc, subgraphOf(p, r.core, withCore)});
    return out;
}

inline std::vector<SemKey> decodedSemaphores(const NtffProfile &p, bool withCore = false)
{
    std::vector<SemKey> out;
    for (const auto &r : p.semaphores)
        out.push_back({r.id, r.timestamp, r.value, subgraphOf(p, r.core, withCore)});
    return out;
}

inline std::vector<HamKey> decodedThrottle(const NtffProfile &p, bool withCore = false)
{
    std::vector<HamKey> out;
    for (const auto &r : p.throttle)
        out.push_back({r.timestamp, r.duration, r.k, r.n, r.type, subgraphOf(p, r.core, withCore)});
    return out;
}

} // namespace lanescope::test
