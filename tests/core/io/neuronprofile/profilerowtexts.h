#pragma once
// Test helpers of tst_neuronprofilejsonreader: an NtffProfile's instruction, DMA, semaphore and
// throttle rows as text lines with every field the JSON export carries, and a comparison of two such
// row lists that names the first difference.
#include "io/ntff/ntffprofile.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace lanescope::test {

// The physical core of a row as the JSON names it ("sg00"; "?" when `cores` lacks it).
inline std::string subgraphOf(const NtffProfile &p, uint8_t core)
{
    return core < p.cores.size() ? p.cores[core].subgraphName : std::string("?");
}

// Every field of NtffInstructionRow that the JSON carries (all but `flags`, the branch-taken bit).
inline std::vector<std::string> instructionRows(const NtffProfile &p)
{
    std::vector<std::string> out;
    for (const auto &r : p.instructions) {
        std::ostringstream s;
        s << "subgraph=" << subgraphOf(p, r.core) << " subgroup=" << ntffEngineName(r.engine) << " pc=" << r.pc << " timestamp=" << r.timestamp
          << " label=" << ntffLaneName(r.lane) << " duration=" << r.duration << " opcode=" << p.opcodeName(r)
          << " opcode_byte=" << int(r.opcode) << " extra_opcode=" << r.extraOpcode << " evt_wait_time=" << r.evtWaitTime
          << " crc_in=" << r.crcIn << " crc_out=" << r.crcOut << " compiler_pc=" << r.compilerPc;
        out.push_back(s.str());
    }
    return out;
}

inline std::vector<std::string> dmaRows(const NtffProfile &p)
{
    std::vector<std::string> out;
    for (const auto &r : p.dma)
        out.push_back("subgraph=" + subgraphOf(p, r.core) + " dma_engine=" + std::to_string(r.engine) + " dma_queue=" + std::to_string(r.queue) +
                      " timestamp=" + std::to_string(r.timestamp) + " duration=" + std::to_string(r.duration) +
                      " transfer_size=" + std::to_string(r.transferSize) + " crc=" + std::to_string(r.crc));
    return out;
}

// id, timestamp, value (op, source and flags are not in the JSON)
inline std::vector<std::string> semaphoreRows(const NtffProfile &p)
{
    std::vector<std::string> out;
    for (const auto &r : p.semaphores)
        out.push_back("subgraph=" + subgraphOf(p, r.core) + " id=" + std::to_string(r.id) + " timestamp=" + std::to_string(r.timestamp) +
                      " value=" + std::to_string(r.value));
    return out;
}

// all but `reason` (not in the JSON)
inline std::vector<std::string> throttleRows(const NtffProfile &p)
{
    std::vector<std::string> out;
    for (const auto &r : p.throttle)
        out.push_back("subgraph=" + subgraphOf(p, r.core) + " timestamp=" + std::to_string(r.timestamp) +
                      " duration=" + std::to_string(r.duration) + " k=" + std::to_string(r.k) + " n=" + std::to_string(r.n) + " type=" + std::to_string(r.type));
    return out;
}

// Sorts both sides, compares counts and every row; returns an empty string or the first difference.
inline std::string compareRows(const char *table, std::vector<std::string> ntff, std::vector<std::string> json)
{
    std::sort(ntff.begin(), ntff.end());
    std::sort(json.begin(), json.end());
    const size_t n = std::min(ntff.size(), json.size());
    for (size_t i = 0; i < n; ++i)
        if (ntff[i] != json[i])
            return std::string(table) + " row " + std::to_string(i) + " differs:\n  ntff: " + ntff[i] +
                   "\n  json: " + json[i] + "\n  (ntff " + std::to_string(ntff.size()) + " rows, json " +
                   std::to_string(json.size()) + ")";
    if (ntff.size() != json.size())
        return std::string(table) + ": ntff has " + std::to_string(ntff.size()) + " rows, json " +
               std::to_string(json.size()) +
               "; first extra: " + (ntff.size() > n ? "ntff " + ntff[n] : "json " + json[n]);
    return {};
}

} // namespace lanescope::test
