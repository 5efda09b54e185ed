#include "ntffexportops.h"

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace lanescope {

namespace {

using RowKey = std::tuple<uint8_t, uint8_t, uint32_t, int64_t, int64_t>; // core, engine, pc, start, duration

RowKey keyOf(const NtffInstructionRow &r)
{
    return {r.core, static_cast<uint8_t>(r.engine), r.pc, r.timestamp, r.duration};
}

} // namespace

NtffExportOps::Result NtffExportOps::copy(NtffProfile &ntff, const NtffProfile &json)
{
    Result result;
    result.rows = ntff.instructions.size();
    if (json.instructionOps.size() != json.instructions.size() || ntff.instructions.empty())
        return result;
    // export rows by key; a key seen twice (same pc, same ns times) is used in row order
    std::map<RowKey, std::vector<size_t>> byKey;
    for (size_t i = 0; i < json.instructions.size(); ++i)
        byKey[keyOf(json.instructions[i])].push_back(i);
    std::map<RowKey, size_t> used;
    std::vector<NtffInstructionOp> ops(ntff.instructions.size());
    std::vector<std::string> names = ntff.names;
    std::unordered_map<std::string, uint32_t> existing; // names are kept once each (1-based)
    for (size_t i = 0; i < names.size(); ++i)
        existing.emplace(names[i], uint32_t(i + 1));
    std::unordered_map<uint32_t, uint32_t> nameIndex; // json name index -> ntff name index
    const auto mapName = [&](uint32_t j) -> uint32_t {
        if (!j)
            return 0;
        if (const auto it = nameIndex.find(j); it != nameIndex.end())
            return it->second;
        const std::string name(json.name(j));
        auto [e, added] = existing.emplace(name, uint32_t(names.size() + 1));
        if (added)
            names.push_back(name);
        return nameIndex[j] = e->second;
    };
    for (size_t i = 0; i < ntff.instructions.size(); ++i) {
        const RowKey k = keyOf(ntff.instructions[i]);
        const auto it = byKey.find(k);
        if (it == byKey.end())
            continue;
        size_t &next = used[k];
        if (next >= it->second.size())
            continue;
        const NtffInstructionOp &op = json.instructionOps[it->second[next++]];
        ++result.matched;
        ops[i] = NtffInstructionOp{mapName(op.layer), mapName(op.hlo)};
        result.tagged += (op.layer || op.hlo) ? 1 : 0;
    }
    if (double(result.matched) < kMinMatched * double(result.rows) || result.tagged == 0)
        return result;
    ntff.names = std::move(names);
    ntff.instructionOps = std::move(ops);
    for (const auto &[key, value] : json.reportedMetadata)
        if (std::string_view(key).substr(0, 29) == "neuron_profile.layer_summary[")
            ntff.reportedMetadata.emplace_back(key, value);
    result.copied = true;
    return result;
}

} // namespace lanescope
