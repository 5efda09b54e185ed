#include "neuroncoretracks.h"

#include "model/trace.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <tuple>
#include <unordered_map>

namespace lanescope::coretracks {

std::vector<Core> find(const Trace &trace, GroupId laneSet)
{
    std::vector<Core> cores;
    std::unordered_map<uint32_t, size_t> index;
    const StringId dmaCategory = trace.strings().find("dma");
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &tr = trace.tracks()[t];
        if (tr.kind == TrackKind::Counter || tr.sliceCount == 0)
            continue;
        if (laneSet.isValid() && tr.group != laneSet
            && !(trace.group(tr.group).kind == GroupKind::PhysicalCore && trace.group(tr.group).parent == laneSet))
            continue;
        const GroupId core = neuronCoreOf(trace, tr.group);
        if (!core.isValid())
            continue;
        const auto engine = EngineBreakdown::engineOf(trace.str(tr.name));
        const bool dma = !engine && dmaCategory.isValid() && trace.slices(TrackId(t)).front().category == dmaCategory;
        if (!engine && !dma)
            continue;
        const auto [it, added] = index.try_emplace(core.value, cores.size());
        if (added)
            cores.push_back(Core{core, {}, {}});
        Core &c = cores[it->second];
        if (engine)
            c.engines[size_t(*engine)].push_back(TrackId(t));
        else
            c.dma.push_back(TrackId(t));
    }
    std::sort(cores.begin(), cores.end(), [&trace](const Core &a, const Core &b) {
        const TrackGroup &ga = trace.group(a.core), &gb = trace.group(b.core);
        return std::tie(ga.sortIndex, ga.externalId, a.core.value) < std::tie(gb.sortIndex, gb.externalId, b.core.value);
    });
    return cores;
}

int64_t mergeIntervals(std::vector<Interval> &iv)
{
    if (!std::is_sorted(iv.begin(), iv.end())) // one track's slices come sorted by start already
        std::sort(iv.begin(), iv.end());
    size_t out = 0;
    for (const Interval &x : iv) {
        if (x.second <= x.first)
            continue;
        if (out > 0 && x.first <= iv[out - 1].second)
            iv[out - 1].second = std::max(iv[out - 1].second, x.second);
        else
            iv[out++] = x;
    }
    iv.resize(out);
    int64_t total = 0;
    for (const Interval &x : iv)
        total += x.second - x.first;
    return total;
}

std::optional<double> metadataNumber(const Trace &trace, std::string_view key)
{
    const std::string *text = trace.metadata().find(key);
    if (!text || text->empty())
        return std::nullopt;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if (ec != std::errc() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

GroupId neuronCoreOf(const Trace &trace, GroupId g)
{
    for (int guard = 0; g.isValid() && guard < 64; ++guard) {
        const TrackGroup &grp = trace.group(g);
        if (grp.kind == GroupKind::NeuronCore)
            return g;
        g = grp.parent;
    }
    return {};
}

} // namespace lanescope::coretracks
