#include "opbreakdown.h"

#include "neuroncoretracks.h"

#include "model/argint.h"
#include "model/hierarchynames.h"
#include "model/subnanosecond.h"
#include "model/trace.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace lanescope {

namespace {

using coretracks::Interval;

// Times are kept in picoseconds from `base` (the core's first instruction) and floored to ns once, at
// the end, as neuron-profile does: its layer_summary instruction time is floor(sum of ps durations /
// 1000) and its active time floor(length of the ps union / 1000) (docs/ntff.md, "Engine and layer
// times"). An NTFF instruction carries the ps its ns row drops (SubNanosecond); a JSON row is whole ns.
struct Accumulator
{
    OpBreakdownRow row;
    int64_t base = 0;
    std::array<int64_t, kNeuronEngineCount> instructionPs{};
    std::array<std::vector<Interval>, kNeuronEngineCount> busy; // ps from base

    void add(NeuronEngine e, const Slice &s, bool wait, SubNanosecond::Remainders ps)
    {
        OpEngineTime &t = row.engines[size_t(e)];
        ++t.instructionCount;
        ++row.instructionCount;
        row.startNs = std::min(row.startNs, s.start);
        const int64_t begin = (s.start - base) * 1000 + ps.startPs;
        const int64_t end = begin + s.duration * 1000 + ps.durationPs;
        startPs = std::min(startPs, begin);
        endPs = std::max(endPs, end);
        if (wait) {
            ++t.semaphoreWaitCount;
            return;
        }
        instructionPs[size_t(e)] += end - begin;
        busy[size_t(e)].emplace_back(begin, end);
    }
    OpBreakdownRow finish()
    {
        for (size_t e = 0; e < busy.size(); ++e) {
            row.engines[e].instructionTimeNs = instructionPs[e] / 1000;
            row.engines[e].activeTimeNs = coretracks::mergeIntervals(busy[e]) / 1000;
        }
        if (row.instructionCount) { // begin and end are >= 0: base is the earliest start
            row.endNs = base + endPs / 1000;
            row.durationNs = (endPs - startPs) / 1000;
        }
        return std::move(row);
    }

private:
    int64_t startPs = std::numeric_limits<int64_t>::max();
    int64_t endPs = std::numeric_limits<int64_t>::min();
};

Accumulator start(const Trace &trace, GroupId core, std::string name, std::string op, int64_t base)
{
    Accumulator a;
    a.base = base;
    a.row.core = core;
    a.row.coreName = trace.groupPath(core);
    a.row.name = std::move(name);
    a.row.op = std::move(op);
    a.row.startNs = std::numeric_limits<int64_t>::max();
    a.row.endNs = std::numeric_limits<int64_t>::min();
    return a;
}

// `carried` (when given) is set when the slice has the arg: its times are ps-exact.
SubNanosecond::Remainders remaindersOf(const Trace &trace, StringId subKey, const Slice &s, bool *carried = nullptr)
{
    if (!subKey.isValid() || !s.args.isValid())
        return {};
    for (const Arg &a : trace.args().args(s.args))
        if (a.key == subKey)
            if (const std::optional<int64_t> v = argInt(a)) {
                if (carried)
                    *carried = true;
                return SubNanosecond::unpack(*v);
            }
    return {};
}

// The prefix of neuron-profile's layer_summary keys: "" for an export or an NTFF opened alone, "<file>: "
// in a profile folder of one device file (several: none, the rows are per export).
std::optional<std::string> reportPrefix(const Trace &trace)
{
    static const std::string key = "neuron_profile.layer_summary[0].name";
    if (trace.metadata().find(key))
        return std::string();
    std::optional<std::string> prefix;
    for (const auto &entry : trace.metadata().entries) {
        const std::string &k = entry.first;
        if (k.size() <= key.size() + 2 || k.compare(k.size() - key.size(), key.size(), key) != 0
            || k.compare(k.size() - key.size() - 2, 2, ": ") != 0)
            continue;
        if (prefix)
            return std::nullopt;
        prefix = k.substr(0, k.size() - key.size());
    }
    return prefix;
}

// neuron-profile's layer_summary rows kept in the metadata (keys after `prefix`): name -> row index.
std::map<std::string, size_t, std::less<>> reportedLayers(const Trace &trace, const std::string &prefix)
{
    std::map<std::string, size_t, std::less<>> rows;
    for (size_t i = 0;; ++i) {
        const std::string *name = trace.metadata().find(prefix + "neuron_profile.layer_summary[" + std::to_string(i) + "].name");
        if (!name)
            break;
        rows.emplace(*name, i);
    }
    return rows;
}

const HierarchyLevel &level(OpBreakdown::By by) { return by == OpBreakdown::By::Layer ? HierarchyNames::kLayer : HierarchyNames::kHlo; }

// neuron-profile's engine times, end and duration of a layer_summary row ("tensor_engine_active_time", ...), taken where
// the instructions are whole ns (a JSON export: each row's duration cut to the ns, so their union falls up
// to 1 ns per instruction short of the ps union neuron-profile computed). Counts stay Lanescope's own
// (they equal layer_summary's on every corpus export). True when every engine's two times were there.
bool takeReportedTimes(const Trace &trace, const std::string &keyPrefix, size_t index, OpBreakdownRow &r)
{
    static constexpr const char *kPrefix[kNeuronEngineCount] = {"tensor", "vector", "scalar", "gpsimd", "sync"};
    std::array<std::optional<double>, kNeuronEngineCount> active, instruction;
    const std::string row = keyPrefix + "neuron_profile.layer_summary[" + std::to_string(index) + "].";
    for (int e = 0; e < kNeuronEngineCount; ++e) {
        active[size_t(e)] = coretracks::metadataNumber(trace, row + kPrefix[e] + "_engine_active_time");
        instruction[size_t(e)] = coretracks::metadataNumber(trace, row + kPrefix[e] + "_engine_instruction_time");
        if (!active[size_t(e)] || !instruction[size_t(e)])
            return false;
    }
    // its end and duration too: the floor of the latest end in ps, which the ns rows can miss by 1
    if (const auto end = coretracks::metadataNumber(trace, row + "end"))
        r.endNs = int64_t(*end);
    if (const auto duration = coretracks::metadataNumber(trace, row + "duration"))
        r.durationNs = int64_t(*duration);
    for (int e = 0; e < kNeuronEngineCount; ++e) {
        r.engines[size_t(e)].activeTimeNs = int64_t(*active[size_t(e)]);
        r.engines[size_t(e)].instructionTimeNs = int64_t(*instruction[size_t(e)]);
    }
    return true;
}

void takeReported(const Trace &trace, const std::string &keyPrefix, size_t index, OpBreakdownRow &r)
{
    const std::string prefix = keyPrefix + "neuron_profile.layer_summary[" + std::to_string(index) + "].tensor_engine_";
    r.flops = coretracks::metadataNumber(trace, prefix + "flop_count");
    r.modelFlops = coretracks::metadataNumber(trace, prefix + "model_flop_count");
    if (const auto v = coretracks::metadataNumber(trace, prefix + "mfu"))
        r.mfuPercent = 100.0 * *v;
    if (const auto v = coretracks::metadataNumber(trace, prefix + "hfu"))
        r.hfuPercent = 100.0 * *v;
}

// The program row of each physical core: neuron-profile's layer_summary has one per subgraph ("/sg00",
// "/sg01" on trn2), each over that core's instructions, and the layers below it ("/sg00/Unknown").
struct Program
{
    std::string name;
    Accumulator whole;
    std::unordered_map<uint32_t, Accumulator> ops;
};

// The metadata entry `key`, or in a profile folder (keys "<file>: key") the value every file gives it
// when they agree; "" otherwise.
std::string agreedEntry(const Trace &trace, const std::string &key)
{
    if (const std::string *v = trace.metadata().find(key))
        return *v;
    const std::string suffix = ": " + key;
    std::string value;
    for (const auto &[k, v] : trace.metadata().entries) {
        if (k.size() <= suffix.size() || k.compare(k.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        if (!value.empty() && value != v)
            return std::string();
        value = v;
    }
    return value;
}

std::string programName(const Trace &trace, const Track &track)
{
    const TrackGroup &g = trace.group(track.group);
    std::string subgraph;
    if (g.kind == GroupKind::PhysicalCore) {
        subgraph = agreedEntry(trace, "pcore[" + std::to_string(g.externalId) + "].subgraph");
        if (subgraph.empty())
            subgraph = std::string(trace.str(g.name));
    } else {
        subgraph = agreedEntry(trace, "subgraph");
    }
    return "/" + (subgraph.empty() ? std::string("program") : subgraph);
}

} // namespace

OpBreakdownResult OpBreakdown::compute(const Trace &trace, By by)
{
    OpBreakdownResult result;
    const StringId key = trace.strings().find(level(by).arg);
    const StringId subKey = trace.strings().find(SubNanosecond::kArg);
    const std::vector<coretracks::Core> cores = coretracks::find(trace);
    const bool oneExport = cores.size() == 1;
    const std::optional<std::string> keyPrefix = oneExport && by == By::Layer ? reportPrefix(trace) : std::nullopt;
    const auto reported = keyPrefix ? reportedLayers(trace, *keyPrefix) : std::map<std::string, size_t, std::less<>>();
    size_t reportedTimes = 0; // rows whose engine times are layer_summary's (whole-ns rows only)
    bool psExact = false;     // some instruction keeps its ps (an NTFF): times computed, never taken
    for (const coretracks::Core &core : cores) {
        int64_t base = std::numeric_limits<int64_t>::max();
        for (const auto &tracks : core.engines)
            for (TrackId t : tracks)
                if (!trace.slices(t).empty())
                    base = std::min(base, trace.slices(t).front().start);
        std::vector<Program> programs; // in the order their lanes come (physical core order)
        std::unordered_map<uint32_t, bool> waitName;
        for (int e = 0; e < kNeuronEngineCount; ++e) {
            for (TrackId t : core.engines[size_t(e)]) {
                const std::string name = programName(trace, trace.track(t));
                auto p = std::find_if(programs.begin(), programs.end(), [&](const Program &x) { return x.name == name; });
                if (p == programs.end()) {
                    programs.push_back(Program{name, start(trace, core.core, name, std::string(), base), {}});
                    p = programs.end() - 1;
                }
                for (const Slice &s : trace.slices(t)) {
                    auto [w, added] = waitName.try_emplace(s.name.value, false);
                    if (added)
                        w->second = EngineBreakdown::isSemaphoreWait(trace.str(s.name));
                    const SubNanosecond::Remainders ps = remaindersOf(trace, subKey, s, &psExact);
                    p->whole.add(NeuronEngine(e), s, w->second, ps);
                    if (!key.isValid() || !s.args.isValid())
                        continue;
                    for (const Arg &a : trace.args().args(s.args)) {
                        if (a.key != key || a.type != ArgType::String)
                            continue;
                        const StringId op = a.stringValue();
                        auto it = p->ops.find(op.value);
                        if (it == p->ops.end()) {
                            std::string opName(trace.str(op));
                            it = p->ops.emplace(op.value, start(trace, core.core, p->name + "/" + opName, opName, base)).first;
                        }
                        it->second.add(NeuronEngine(e), s, w->second, ps);
                        break;
                    }
                }
            }
        }
        std::sort(programs.begin(), programs.end(), [](const Program &a, const Program &b) { return a.name < b.name; });
        for (Program &p : programs) {
            if (p.whole.row.instructionCount == 0)
                continue;
            result.any = result.any || !p.ops.empty();
            std::vector<OpBreakdownRow> rows;
            rows.reserve(p.ops.size() + 1);
            for (auto &[id, a] : p.ops)
                rows.push_back(a.finish());
            std::sort(rows.begin(), rows.end(), [](const OpBreakdownRow &a, const OpBreakdownRow &b) {
                return std::tie(a.startNs, a.name) < std::tie(b.startNs, b.name);
            });
            rows.insert(rows.begin(), p.whole.finish());
            for (OpBreakdownRow &r : rows) {
                if (const auto it = reported.find(r.name); it != reported.end()) {
                    takeReported(trace, *keyPrefix, it->second, r);
                    if (!psExact && takeReportedTimes(trace, *keyPrefix, it->second, r))
                        ++reportedTimes;
                }
                result.rows.push_back(std::move(r));
            }
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
    if (reportedTimes)
        result.flopsNote += "; engine times of " + std::to_string(reportedTimes) +
                            " rows as layer_summary reports them (the export's instruction rows are cut to whole ns, "
                            "their union up to 1 ns per instruction short of neuron-profile's ps times)";
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
    int64_t base = 0;
    for (size_t i = 0; i < instructions.size(); ++i)
        base = i ? std::min(base, trace.slice(instructions[i]).start) : trace.slice(instructions[i]).start;
    const StringId subKey = trace.strings().find(SubNanosecond::kArg);
    Accumulator a = start(trace, core, name, name, base);
    for (SliceId id : instructions) {
        const Slice &s = trace.slice(id);
        const auto engine = EngineBreakdown::engineOf(trace.str(trace.track(trace.trackOfSlice(id)).name));
        if (engine)
            a.add(*engine, s, EngineBreakdown::isSemaphoreWait(trace.str(s.name)), remaindersOf(trace, subKey, s));
    }
    OpBreakdownRow row = a.finish();
    if (row.instructionCount == 0)
        row.startNs = row.endNs = 0;
    return row;
}

} // namespace lanescope
