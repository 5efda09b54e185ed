// The compiler hierarchy and dependency tables of a processed Neuron Explorer profile, mapped to what an
// NTFF with its NEFF, or neuron-profile's JSON export, gives for the same facts:
//   FrameworkInstruction.raw_framework_id, framework_name -> the layer of each instruction whose
//       Instruction.raw_framework_id it is (NtffProfile::instructionOps: the "layers" lane and the
//       instructions' "layer" arg), where Instruction.layer gives none
//   HloInstruction.raw_hlo_id, hlo_name -> the HLO op likewise (Instruction.raw_hlo_id; the "HLO ops" lane)
//   Flow.in_id, out_id, in_table, out_table, dependency_type -> NtffProfile::dependencies: flows of
//       category "dependency" named as the dependency type, from the input row to the output row; the
//       ends are Instruction.id ("instruction") and DmaPacketAggregated.id ("dma_block": the "DMA
//       transfers" lane). neuron-profile's JSON export has these edges as the instructions'
//       "predecessors" (its reader does not read them); the links NtffDependencyLinker makes from the
//       semaphores are made for every format, beside these.
// PenguinInstruction, BirInstruction and FrameworkNode are not read: the hierarchy view has the layer and
// HLO op levels (model/hierarchynames.h), nothing below or between them.
#include "explorerdevicestate.h"

#include <algorithm>
#include <unordered_map>

namespace lanescope::explorer {

namespace {

// raw id -> name from one hierarchy table (`key` -> `name` columns); the first name of an id kept.
std::unordered_map<int64_t, uint32_t> hierarchyNames(DeviceState &s, const char *table, const char *key, const char *name)
{
    std::unordered_map<int64_t, uint32_t> out;
    DeviceTable c(s, table);
    if (!c)
        return out;
    const auto *k = c.integer(key);
    const auto *n = c.text(name);
    c.note("the instructions take no names from it");
    RowProblems problems;
    for (size_t row = 0; row < c.rows(); ++row) {
        const auto id = intAt(k, row);
        const auto text = textAt(n, row);
        if (!id || !text) {
            if (k && n)
                problems.add(std::string(table) + " rows without a " + (!id ? key : name) + " (skipped)");
            continue;
        }
        const uint32_t index = s.nameIndex(*text);
        const auto [it, inserted] = out.emplace(*id, index);
        if (!inserted && it->second != index)
            problems.add(std::string(table) + " rows giving a " + key + " a second " + name + " (the first kept)");
    }
    s.rowsRead += c.rows();
    problems.report(s.profile.diagnostics, c.where());
    return out;
}

std::optional<uint32_t> positionOf(const std::vector<std::pair<int64_t, uint32_t>> &ids, int64_t id)
{
    const auto it = std::lower_bound(ids.begin(), ids.end(), std::make_pair(id, uint32_t(0)));
    if (it == ids.end() || it->first != id)
        return std::nullopt;
    return it->second;
}

} // namespace

void readHierarchy(DeviceState &s)
{
    NtffProfile &p = s.profile;
    const bool framework = s.dir.has("FrameworkInstruction"), hlo = s.dir.has("HloInstruction");
    if (!framework && !hlo)
        return;
    if (s.rawFrameworkId.size() != p.instructions.size()) {
        p.diagnostics.note("Neuron Explorer table Instruction without the columns raw_framework_id, raw_hlo_id (the "
                           "FrameworkInstruction / HloInstruction names are not joined to the instructions)",
                           s.dir.path());
        return;
    }
    p.instructionOps.resize(p.instructions.size());
    const auto fill = [&](const std::unordered_map<int64_t, uint32_t> &names, const std::vector<std::optional<int64_t>> &ids,
                          uint32_t NtffInstructionOp::*level) {
        for (size_t i = 0; i < ids.size(); ++i)
            if (ids[i] && !(p.instructionOps[i].*level))
                if (const auto it = names.find(*ids[i]); it != names.end())
                    p.instructionOps[i].*level = it->second;
    };
    if (framework)
        fill(hierarchyNames(s, "FrameworkInstruction", "raw_framework_id", "framework_name"), s.rawFrameworkId,
             &NtffInstructionOp::layer);
    if (hlo)
        fill(hierarchyNames(s, "HloInstruction", "raw_hlo_id", "hlo_name"), s.rawHloId, &NtffInstructionOp::hlo);
}

void readDependencies(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "Flow");
    if (!c)
        return;
    const auto *inId = c.integer("in_id");
    const auto *outId = c.integer("out_id");
    const auto *inTable = c.text("in_table");
    const auto *outTable = c.text("out_table");
    const auto *type = c.text("dependency_type");
    c.note("those values are absent from the dependency edges");
    RowProblems problems;
    // "instruction" -> Instruction.id, "dma_block" -> DmaPacketAggregated.id; a row naming no table is
    // taken as an instruction's
    const auto end = [&](std::optional<std::string_view> table, std::optional<int64_t> id, NtffDependency::End &kind,
                         uint32_t &position, const char *side) {
        if (!id) {
            problems.add(std::string("Flow rows without a valid ") + side + "_id (skipped)");
            return false;
        }
        const std::string_view t = table.value_or("instruction");
        if (t != "instruction" && t != "dma_block") {
            problems.add(std::string("Flow rows whose ") + side + "_table is " + std::string(t) +
                         " (expected instruction or dma_block; not linked)");
            return false;
        }
        kind = t == "instruction" ? NtffDependency::End::Instruction : NtffDependency::End::DmaBlock;
        const auto at = positionOf(kind == NtffDependency::End::Instruction ? s.instructionIds : s.blockIds, *id);
        if (!at) {
            problems.add(std::string("Flow rows whose ") + side + "_id is no " +
                         (kind == NtffDependency::End::Instruction ? "Instruction.id" : "DmaPacketAggregated.id") + " (not linked)");
            return false;
        }
        position = *at;
        return true;
    };
    for (size_t row = 0; row < c.rows(); ++row) {
        NtffDependency d;
        if (!end(textAt(inTable, row), intAt(inId, row), d.fromKind, d.from, "in") ||
            !end(textAt(outTable, row), intAt(outId, row), d.toKind, d.to, "out"))
            continue;
        if (auto t = textAt(type, row))
            d.type = s.textIndex(*t);
        p.dependencies.push_back(d);
    }
    s.rowsRead += c.rows();
    problems.report(p.diagnostics, c.where());
}

} // namespace lanescope::explorer
