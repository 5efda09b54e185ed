#include "opbreakdown.h"

#include "neuroncoretracks.h"

#include "model/hierarchynames.h"
#include "model/trace.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace lanescope {

namespace {

using coretracks::Interval;

struct Accumulator
{
    OpBreakdownRow row;
    std::array<std::vector<Interval>, kNeuronEngineCount> busy;

    void add(NeuronEngine e, const Slice &s, bool wait)
    {
        OpEngineTime &t = row.engines[size_t(e)];
        ++t.instructionCount;
        ++row.instructionCount;
        row.startNs = std::min(row.startNs, s.start);
        row.endNs = std::max(row.endNs, s.end());
        if (wait) {
            ++t.semaphoreWaitCount;
            return;
        }
        t.instructionTimeNs += s.duration;
        busy[size_t(e)].emplace_back(s.start, s.end());
    }
    OpBreakdownRow finish()
    {
        for (size_t e = 0; e < busy.size(); ++e)
            row.engines[e].activeTimeNs = coretracks::mergeIntervals(busy[e]);
        return std::move(row);
    }
};

Accumulator start(const Trace &trace, GroupId core, std::string name, std::string op)
{
    Accumulator a;
    a.row.core = core;
    a.row.coreName = trace.groupPath(core);
    a.row.name = std::move(name);
    a.row.op = std::move(op);
    a.row.startNs = std::numeric_limits<int64_t>::max();
    a.row.endNs = std::numeric_limits<int64_t>::min();
    return a;
}

// neuron-profile's layer_summary rows kept in the metadata: name -> row index.
std::map<std::string, size_t, std::less<>> reportedLayers(const Trace &trace)
{
    std::map<std::string, size_t, std::less<>> rows;
    for (size_t i = 0;; ++i) {
        const std::string *name = trace.metadata().find("neuron_profile.layer_summary[" + std::to_string(i) + "].name");
        if (!name)
            break;
        rows.emplace(*name, i);
    }
    return rows;
}

const HierarchyLevel &level(OpBreakdown::By by) { return by == OpBreakdown::By::Layer ? HierarchyNames::kLayer : HierarchyNames::kHlo; }

void takeReported(const Trace &trace, size_t index, OpBreakdownRow &r)
{
    const std::string prefix = "neuron_profile.layer_summary[" + std::to_string(index) + "].tensor_engine_";
    r.flops = coretracks::metadataNumber(trace, prefix + "flop_count");
    r.modelFlops = coretracks::metadataNumber(trace, prefix + "model_flop_count");
    if (const auto v = coretracks::metadataNumber(trace, prefix + "mfu"))
        r.mfuPercent = 100.0 * *v;
    if (const auto v = coretracks::metadataNumber(trace, prefix + "hfu"))
        r.hfuPercent = 100.0 * *v;
}

} // namespace

OpBreakdownResult OpBreakdown::compute(const Trace &trace, By by)
{
    OpBreakdownResult result;
    const StringId key = trace.strings().find(level(by).arg);
    const std::string *subgraph = trace.metadata().find("subgraph");
    const std::string program = "/" + (subgraph && !subgraph->empty() ? *subgraph : std::string("program"));
    const std::vector<coretracks::Core> cores = coretracks::find(trace);
    const bool oneExport = cores.size() == 1;
    const auto reported = oneExport && by == By::Layer ? reportedLayers(trace) : decltype(reportedLayers(trace))();
    for (const coretracks::Core &core : cores) {
        Accumulator whole = start(trace, core.core, program, std::string());
        std::unordered_map<uint32_t, Accumulator> ops;
        std::unordered_map<uint32_t, bool> waitName;
        for (int e = 0; e < kNeuronEngineCount; ++e) {
            for (TrackId t : core.engines[size_t(e)]) {
                for (const Slice &s : trace.slices(t)) {
                    auto [w, added] = waitName.try_emplace(s.name.value, false);
                    if (added)
                        w->second = EngineBreakdown::isSemaphoreWait(trace.str(s.name));
                    whole.add(NeuronEngine(e), s, w->second);
                    if (!key.isValid() || !s.args.isValid())
                        continue;
                    for (const Arg &a : trace.args().args(s.args)) {
                        if (a.key != key || a.type != ArgType::String)
                            continue;
                        const StringId op = a.stringValue();
                        auto it = ops.find(op.value);
                        if (it == ops.end()) {
                            const std::string name(trace.str(op));
                            it = ops.emplace(op.value, start(trace, core.core, program + "/" + name, name)).first;
                        }
                        it->second.add(NeuronEngine(e), s, w->second);
                        break;
                    }
                }
            }
        }
        if (whole.row.instructionCount == 0)
            continue;
        result.any = result.any || !ops.empty();
        std::vector<OpBreakdownRow> rows;
        rows.reserve(ops.size());
        for (auto &[id, a] : ops)
            rows.push_back(a.finish());
        std::sort(rows.begin(), rows.end(), [](const OpBreakdownRow &a, const OpBreakdownRow &b) {
            return std::tie(a.startNs, a.name) < std::tie(b.startNs, b.name);
        });
        rows.insert(rows.begin(), whole.finish());
        for (OpBreakdownRow &r : rows) {
            if (const auto it = reported.find(r.name); it != reported.end())
                takeReported(trace, it->second, r);
            result.rows.push_back(std::move(r));
        }
    }
    if (by == By::HloOp)
        result.flopsNote = "FLOPs/MFU: per layer only (neuron-profile's layer_summary; no file attributes FLOPs to HLO ops)";
    else if (!oneExport)
        result.flopsNote = "FLOPs/MFU: not shown for several cores (layer_summary is per exported profile)";
    else if (reported.empty())
        result.flopsNote = "FLOPs/MFU: no layer_summary in this trace (neuron-profile JSON exports carry it; the NTFF does not)";
    else
        result.flopsNote = "FLOPs, MFU and HFU as neuron-profile reported them in layer_summary";
    return result;
}

namespace {

// The instructions on `core`'s engine lanes whose `key` arg is `op`, starting in [t0, t1) (t0 == t1:
// starting at t0).
std::vector<SliceId> collect(const Trace &trace, GroupId core, StringId key, StringId op, int64_t t0, int64_t t1)
{
    std::vector<SliceId> out;
    if (!key.isValid() || !op.isValid() || !core.isValid())
        return out;
    for (const coretracks::Core &c : coretracks::find(trace)) {
        if (c.core != core)
            continue;
        for (const auto &tracks : c.engines)
            for (TrackId t : tracks) {
                const auto slices = trace.slices(t);
                const auto [first, last] = trace.sliceRange(t, t0, t1);
                for (uint32_t i = first; i < last; ++i) {
                    const Slice &x = slices[i];
                    if (x.start < t0 || (x.start >= t1 && !(x.start == t0 && t0 == t1)) || !x.args.isValid())
                        continue;
                    for (const Arg &a : trace.args().args(x.args))
                        if (a.key == key && a.type == ArgType::String && a.stringValue() == op) {
                            out.push_back(trace.sliceId(t, i));
                            break;
                        }
                }
            }
    }
    return out;
}

} // namespace

std::vector<SliceId> OpBreakdown::instructionsOf(const Trace &trace, SliceId span)
{
    if (!span.isValid() || span.value >= trace.allSlices().size())
        return {};
    const Slice &s = trace.slice(span);
    const std::string_view category = trace.str(s.category);
    const bool layer = category == HierarchyNames::kLayer.lane.category;
    if (!layer && category != HierarchyNames::kHlo.lane.category)
        return {};
    const StringId key = trace.strings().find((layer ? HierarchyNames::kLayer : HierarchyNames::kHlo).arg);
    const GroupId core = coretracks::neuronCoreOf(trace, trace.track(trace.trackOfSlice(span)).group);
    return collect(trace, core, key, s.name, s.start, s.end());
}

std::vector<SliceId> OpBreakdown::instructionsOf(const Trace &trace, GroupId core, By by, std::string_view op)
{
    const StringId key = trace.strings().find(level(by).arg);
    return collect(trace, core, key, trace.strings().find(op), std::numeric_limits<int64_t>::min() / 2,
                   std::numeric_limits<int64_t>::max() / 2);
}

OpBreakdownRow OpBreakdown::summarize(const Trace &trace, SliceId span, const std::vector<SliceId> &instructions)
{
    const GroupId core = span.isValid() ? coretracks::neuronCoreOf(trace, trace.track(trace.trackOfSlice(span)).group) : GroupId();
    const std::string name = span.isValid() ? std::string(trace.str(trace.slice(span).name)) : std::string();
    Accumulator a = start(trace, core, name, name);
    for (SliceId id : instructions) {
        const Slice &s = trace.slice(id);
        const auto engine = EngineBreakdown::engineOf(trace.str(trace.track(trace.trackOfSlice(id)).name));
        if (engine)
            a.add(*engine, s, EngineBreakdown::isSemaphoreWait(trace.str(s.name)));
    }
    if (a.row.instructionCount == 0)
        a.row.startNs = a.row.endNs = 0;
    return a.finish();
}

} // namespace lanescope
