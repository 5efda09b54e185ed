#include "tensortable.h"

#include "model/hierarchynames.h"
#include "model/trace.h"
#include "util/textutil.h"
#include "util/unittext.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace lanescope {

namespace {

struct Keys
{
    StringId variable, source, dest, size, dma, transfer;
    explicit Keys(const Trace &t)
        : variable(t.strings().find(HierarchyNames::kDmaTags.variable)), source(t.strings().find(HierarchyNames::kDmaTags.source)),
          dest(t.strings().find(HierarchyNames::kDmaTags.dest)), size(t.strings().find("transfer_size")),
          dma(t.strings().find("dma")), transfer(t.strings().find(HierarchyNames::kTransfers.category))
    {
    }
};

struct Tags
{
    StringId variable, source, dest;
    uint64_t size = 0;
};

Tags tagsOf(const Trace &trace, const Slice &s, const Keys &k)
{
    Tags t;
    if (!s.args.isValid())
        return t;
    for (const Arg &a : trace.args().args(s.args)) {
        if (a.key == k.size && (a.type == ArgType::Int || a.type == ArgType::UInt))
            t.size = a.type == ArgType::Int ? uint64_t(std::max<int64_t>(0, a.value.i)) : a.value.u;
        else if (a.type != ArgType::String)
            continue;
        else if (a.key == k.variable)
            t.variable = a.stringValue();
        else if (a.key == k.source)
            t.source = a.stringValue();
        else if (a.key == k.dest)
            t.dest = a.stringValue();
    }
    return t;
}

// Calls fn(slice id, slice, tags, isTransfer) for every DMA packet / transfer slice that names a tensor.
template <class Fn> void forEachTagged(const Trace &trace, Fn &&fn)
{
    const Keys k(trace);
    if (!k.variable.isValid())
        return;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &track = trace.tracks()[t];
        if (track.kind == TrackKind::Counter || track.sliceCount == 0)
            continue;
        const auto slices = trace.slices(TrackId(t));
        const StringId cat = slices.front().category;
        if (cat != k.dma && cat != k.transfer)
            continue;
        for (uint32_t i = 0; i < slices.size(); ++i) {
            const Tags tags = tagsOf(trace, slices[i], k);
            if (tags.variable.isValid())
                fn(trace.sliceId(TrackId(t), i), slices[i], tags, slices[i].category == k.transfer);
        }
    }
}

std::string metadataText(const Trace &trace, const std::string &key)
{
    const std::string *v = trace.metadata().find(key);
    return v ? *v : std::string();
}

// A tensor's description from one metadata row: "<prefix>type", "<prefix><formatKey>" (neff_node
// "format", a NEFF's variables "dtype"), "<prefix>shape", "<prefix>size".
void describe(TensorRow &row, const Trace &trace, const std::string &prefix, const char *formatKey)
{
    row.type = metadataText(trace, prefix + "type");
    row.format = metadataText(trace, prefix + formatKey);
    row.shape = metadataText(trace, prefix + "shape");
    int64_t size = 0;
    if (text::parseInt(metadataText(trace, prefix + "size"), size) && size >= 0)
        row.sizeBytes = uint64_t(size);
}

} // namespace

TensorTableResult TensorTable::compute(const Trace &trace)
{
    TensorTableResult result;
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0;; ++i) {
        const std::string prefix = "neuron_profile.neff_node[" + std::to_string(i) + "].";
        const std::string *name = trace.metadata().find(prefix + "variable_name");
        if (!name) {
            if (!trace.metadata().find(prefix + "node") && !trace.metadata().find(prefix + "type"))
                break;
            continue; // a node row without a variable
        }
        result.listedAny = true;
        if (name->empty() || index.count(*name))
            continue; // neuron-profile's per-subgraph node rows carry no variable
        TensorRow row;
        row.name = *name;
        describe(row, trace, prefix, "format");
        index.emplace(row.name, result.rows.size());
        result.rows.push_back(std::move(row));
    }
    std::unordered_set<std::string> seen;
    if (result.rows.empty()) // a profile folder: the paired NEFFs' variables
        for (const auto &[key, value] : trace.metadata().entries) {
            const size_t at = key.find(": neff.variable[");
            if (at == std::string::npos || !key.ends_with("].name") || value.empty())
                continue;
            const std::string prefix = key.substr(0, key.size() - 4); // "<ntff>: neff.variable[i]."
            TensorRow row;
            row.name = value;
            const std::string neff = metadataText(trace, key.substr(0, at) + ": neff.file");
            row.program = neff.empty() ? key.substr(0, at) : neff.substr(neff.find_last_of('/') + 1); // the NEFF's file name
            if (!seen.insert(row.program + '\n' + row.name).second)
                continue; // the same NEFF run again: listed once
            describe(row, trace, prefix, "dtype");
            result.listedAny = true;
            result.fromNeff = true;
            result.rows.push_back(std::move(row));
        }
    const size_t listed = result.rows.size();
    std::vector<std::map<std::string, uint64_t>> packetDirs, transferDirs;
    const auto rowOf = [&](StringId name) -> size_t {
        const std::string n(trace.str(name));
        const auto [it, added] = index.try_emplace(n, result.rows.size());
        if (added) {
            TensorRow row;
            row.name = n;
            row.listed = false;
            result.rows.push_back(std::move(row));
        }
        return it->second;
    };
    forEachTagged(trace, [&](SliceId, const Slice &, const Tags &tags, bool transfer) {
        const size_t r = rowOf(tags.variable);
        packetDirs.resize(result.rows.size());
        transferDirs.resize(result.rows.size());
        TensorRow &row = result.rows[r];
        const std::string dir = std::string(tags.source.isValid() ? trace.str(tags.source) : "?") + " -> "
            + std::string(tags.dest.isValid() ? trace.str(tags.dest) : "?");
        if (!transfer) {
            ++row.packets;
            row.packetBytes += tags.size;
            packetDirs[r][dir] += tags.size;
            return;
        }
        ++row.transfers;
        row.transferBytes += tags.size;
        transferDirs[r][dir] += tags.size;
        if (tags.dest.isValid() && trace.str(tags.dest) == "SB") {
            ++row.loadToSbufCount;
            row.loadToSbufBytes += tags.size;
        }
    });
    packetDirs.resize(result.rows.size());
    transferDirs.resize(result.rows.size());
    for (size_t r = 0; r < result.rows.size(); ++r) {
        TensorRow &row = result.rows[r];
        const auto &dirs = transferDirs[r].empty() ? packetDirs[r] : transferDirs[r];
        row.bytesByDirection.assign(dirs.begin(), dirs.end());
        if (row.loadToSbufCount) {
            row.loadToSbufAvgBytes = double(row.loadToSbufBytes) / double(row.loadToSbufCount);
            if (row.sizeBytes && *row.sizeBytes > 0)
                row.repeatFactor = double(row.loadToSbufBytes) / double(*row.sizeBytes);
        }
    }
    std::sort(result.rows.begin() + std::ptrdiff_t(listed), result.rows.end(),
              [](const TensorRow &a, const TensorRow &b) { return a.name < b.name; });
    if (!result.listedAny && result.rows.empty())
        result.note = "no tensors: neither neff_node rows (neuron-profile JSON exports carry them) nor DMA rows naming a tensor";
    else if (!result.listedAny)
        result.note = "no neff_node rows: tensors named by the DMA rows only (no type, format, shape or size)";
    else if (result.fromNeff)
        result.note = "tensors of the paired NEFFs (format = dtype); an NTFF names no tensor on its DMAs (a neuron-profile JSON export does)";
    return result;
}

bool TensorTable::hasTensors(const Trace &trace)
{
    if (trace.strings().find(HierarchyNames::kDmaTags.variable).isValid() || trace.metadata().find("neuron_profile.neff_node[0].variable_name"))
        return true;
    for (const auto &[key, value] : trace.metadata().entries)
        if (key.find(": neff.variable[") != std::string::npos)
            return true;
    return false;
}

std::vector<SliceId> TensorTable::slicesOf(const Trace &trace, std::string_view tensor)
{
    std::vector<SliceId> out;
    forEachTagged(trace, [&](SliceId id, const Slice &, const Tags &tags, bool) {
        if (trace.str(tags.variable) == tensor)
            out.push_back(id);
    });
    std::sort(out.begin(), out.end(), [&trace](SliceId a, SliceId b) {
        return std::make_pair(trace.slice(a).start, a.value) < std::make_pair(trace.slice(b).start, b.value);
    });
    return out;
}

std::string TensorTable::directionsText(const TensorRow &row)
{
    std::string out;
    for (const auto &[dir, bytes] : row.bytesByDirection)
        out += (out.empty() ? "" : ", ") + dir + ": " + UnitText::bytes(double(bytes));
    return out;
}

} // namespace lanescope
