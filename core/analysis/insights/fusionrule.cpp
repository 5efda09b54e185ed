#include "fusionrule.h"

#include "insightcontext.h"
#include "insighttext.h"
#include "model/trace.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace lanescope {

namespace {

constexpr size_t kMinExecutions = 3;

// One finding in the making: an op name, or a run's parent and op names.
struct Candidate
{
    bool run = false;
    std::string name;                  // the op; for a run its op names, comma separated
    std::string parent;                // a run's parent op ("top level" without one)
    std::vector<uint32_t> firstOps;    // the ops of the first qualifying occurrence
    std::vector<uint32_t> firstWork;   // and their executions, by start
    std::vector<uint32_t> occurrences; // first op of each qualifying occurrence
    int64_t idle = 0;                  // device idle between their executions
    int64_t deviceNs = 0;              // their executions' durations (kernel table)
    uint64_t executions = 0;           // over the qualifying occurrences
    std::vector<std::pair<int64_t, int64_t>> gaps;
};

// Whether an op is a ProfilerStep#N, folding each distinct name once.
class Steps
{
public:
    explicit Steps(const Trace &trace) : m_trace(trace) {}
    bool operator()(uint32_t op)
    {
        const StringId name = m_trace.slice(SliceId(op)).name;
        auto [it, added] = m_byName.try_emplace(name.value, false);
        if (added)
            it->second = OpTable::foldName(m_trace.str(name)) == "ProfilerStep*";
        return it->second;
    }

private:
    const Trace &m_trace;
    std::unordered_map<uint32_t, bool> m_byName;
};

std::string opName(const Trace &trace, uint32_t op) { return std::string(OpTable::foldName(trace.str(trace.slice(SliceId(op)).name))); }

constexpr int64_t kMaxGapNs = 10'000'000; // 10 ms: a longer gap is the host doing something else

// Adds one occurrence (its ops and their executions, by start) when the device idles between the
// executions for no longer than the host spent in the ops.
void addOccurrence(InsightContext &ctx, std::map<std::string, Candidate> &byKey, const std::string &key, Candidate proto,
                   const std::vector<uint32_t> &ops, const std::vector<uint32_t> &launched)
{
    const Trace &trace = ctx.trace();
    const auto work = ctx.index().work();
    const LaunchIndex::Work &first = work[launched.front()];
    if (!ctx.starvation().starved(first.device))
        return; // busy >= 95 % of its span: a host-side rule has nothing to recover there
    int64_t lastEnd = first.end, deviceNs = 0;
    for (uint32_t i : launched) {
        lastEnd = std::max(lastEnd, work[i].end);
        deviceNs += work[i].duration();
    }
    int64_t hostStart = INT64_MAX, hostEnd = INT64_MIN;
    for (uint32_t op : ops) {
        hostStart = std::min(hostStart, trace.slice(SliceId(op)).start);
        hostEnd = std::max(hostEnd, trace.slice(SliceId(op)).end());
    }
    std::vector<std::pair<int64_t, int64_t>> gaps;
    const int64_t idle = ctx.idleInside(first.device, first.start, lastEnd, &gaps);
    int64_t largest = 0;
    for (const auto &[s, e] : gaps)
        largest = std::max(largest, e - s);
    if (idle <= 0 || idle > hostEnd - hostStart || largest > kMaxGapNs)
        return; // back to back on the device (nothing to gain), or waiting on something else
    auto [it, added] = byKey.try_emplace(key, std::move(proto));
    Candidate &c = it->second;
    if (added) {
        c.firstOps = ops;
        c.firstWork = launched;
    }
    c.occurrences.push_back(ops.front());
    c.idle += idle;
    c.deviceNs += deviceNs;
    c.executions += launched.size();
    c.gaps.insert(c.gaps.end(), gaps.begin(), gaps.end());
}

// Per op slice: inside a qualifying op (or one itself).
class Covered
{
public:
    Covered(const LaunchIndex &index, const std::vector<uint8_t> &qualifies) : m_index(index), m_state(qualifies.size(), -1)
    {
        for (size_t i = 0; i < qualifies.size(); ++i)
            if (qualifies[i])
                m_state[i] = 1;
    }
    bool operator()(SliceId op)
    {
        std::vector<uint32_t> chain;
        int8_t v = 0;
        for (SliceId p = op; p.isValid() && chain.size() < 512; p = m_index.opParent(p)) {
            if (m_state[p.value] >= 0) {
                v = m_state[p.value];
                break;
            }
            chain.push_back(p.value);
        }
        for (uint32_t c : chain)
            m_state[c] = v;
        return v == 1;
    }

private:
    const LaunchIndex &m_index;
    std::vector<int8_t> m_state; // -1 unknown, 0 no, 1 yes
};

constexpr size_t kMaxRunOps = 16;

// Runs of adjacent sibling framework ops (kMaxRunOps at most) that launch >= kMinExecutions
// together, outside qualifying ops. Members launch at least one execution each.
std::vector<std::vector<uint32_t>> siblingRuns(InsightContext &ctx, const std::vector<uint8_t> &qualifies, Steps &isStep)
{
    const Trace &trace = ctx.trace();
    const LaunchIndex &index = ctx.index();
    const std::vector<uint32_t> &counts = ctx.launchCounts();
    Covered covered(index, qualifies);
    struct Child
    {
        uint64_t parent; // the parent op, or 2^32 + track at the top level
        int64_t start;
        uint32_t op;
    };
    std::vector<Child> children;
    for (uint32_t op : index.opSlices()) {
        // Ops without device work neither join nor end a run; qualifying ops stay: they end one.
        if (counts[op] == 0 || index.role(SliceId(op)) != LaunchIndex::Role::FrameworkOp)
            continue;
        const Slice &s = trace.slice(SliceId(op));
        const SliceId parent = index.opParent(SliceId(op));
        if (!ctx.startsInRange(s.start) || (parent.isValid() && covered(parent)))
            continue;
        const uint64_t key = parent.isValid() ? parent.value : (uint64_t(1) << 32) + trace.trackOfSlice(SliceId(op)).value;
        children.push_back({key, s.start, op});
    }
    std::sort(children.begin(), children.end(), [](const Child &a, const Child &b) {
        return a.parent != b.parent ? a.parent < b.parent : a.start != b.start ? a.start < b.start : a.op < b.op;
    });
    std::vector<std::vector<uint32_t>> runs;
    std::vector<uint32_t> run;
    uint64_t launches = 0;
    size_t launching = 0; // children of the parent that launch anything
    auto flush = [&](bool groupEnd) {
        // A run of every launching op of a step is the step's idle time (device-idle), not a candidate.
        const SliceId parent = run.empty() ? SliceId() : index.opParent(SliceId(run.front()));
        const bool wholeStep = groupEnd && run.size() == launching && parent.isValid() && isStep(parent.value);
        if (run.size() >= 2 && run.size() <= kMaxRunOps && launches >= kMinExecutions &&
            !wholeStep)
            runs.push_back(run);
        run.clear();
        launches = 0;
    };
    for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0 && children[i].parent != children[i - 1].parent) {
            flush(true);
            launching = 0;
        }
        const uint32_t op = children[i].op;
        ++launching;
        if (counts[op] >= kMinExecutions || isStep(op)) {
            flush(false);
            continue;
        }
        run.push_back(op);
        launches += counts[op];
    }
    flush(true);
    return runs;
}

std::string workLabel(const Trace &trace, const LaunchIndex::Work &w, uint32_t self)
{
    // Executions the named op launched itself are named by kernel / program, the others by their op.
    if (w.op.isValid() && w.op.value != self)
        return std::string(trace.str(trace.slice(w.op).name));
    return LaunchIndex::workName(trace, w);
}

Finding toFinding(InsightContext &ctx, Candidate &c)
{
    const Trace &trace = ctx.trace();
    const auto work = ctx.index().work();
    std::vector<std::string> launchers;
    for (uint32_t i : c.firstWork)
        if (launchers.size() < 8)
            launchers.push_back(workLabel(trace, work[i], c.run ? UINT32_MAX : c.firstOps.front()));
    const size_t perOccurrence = c.firstWork.size();
    const std::string list = insighttext::join(launchers, ", ") + (perOccurrence > launchers.size() ? ", ..." : "");
    const std::string idle = "device idle between them " + insighttext::ns(c.idle) + " in " + std::to_string(c.gaps.size()) + " gap(s)";
    Finding f;
    if (c.run) {
        std::vector<std::string> names;
        for (size_t i = 0; i < c.firstOps.size() && i < 4; ++i)
            names.push_back(opName(trace, c.firstOps[i]));
        f.title = "Fusion candidate: " + std::to_string(c.firstOps.size()) + " adjacent ops under " + c.parent + " (" +
                  insighttext::join(names, ", ") + (c.firstOps.size() > names.size() ? ", ..." : "") + ") make " +
                  std::to_string(perOccurrence) + " separate device executions";
        f.detail = c.name + " under " + c.parent + ": " + std::to_string(c.occurrences.size()) + " occurrence(s), " +
                   std::to_string(c.executions) + " device executions (" + list + " per occurrence); device time " +
                   insighttext::ns(c.deviceNs) + " (kernel table, these executions); " + idle;
    } else {
        const OpTable::Row *row = ctx.opRow(c.name);
        f.title = "Fusion candidate: " + c.name + " makes " + std::to_string(perOccurrence) + " separate device executions";
        f.detail = c.name + ": " + std::to_string(c.occurrences.size()) + " occurrence(s), " + std::to_string(c.executions) +
                   " device executions (" + list + " per occurrence); device total " + insighttext::ns(row ? row->deviceTotal : 0) +
                   " (op table); " + idle;
    }
    f.action = "Fuse the ops into one device execution: torch.compile the region, use the library's fused op (e.g. "
               "torch.rms_norm / F.layer_norm, a foreach / fused optimizer), or write one kernel (NKI / Triton) for it";
    f.value = double(perOccurrence);
    f.threshold = double(kMinExecutions);
    f.recoverableNs = c.idle;
    f.severity = std::max(Severity::Medium, Finding::severityForShare(c.idle, ctx.rankTimeNs()));
    // The ops and executions of the first occurrence, then the other occurrences.
    for (uint32_t op : c.firstOps)
        f.addEvent(op);
    for (uint32_t i : c.firstWork)
        f.addEvent(work[i].slice.value);
    for (uint32_t op : c.occurrences)
        f.addEvent(op);
    std::sort(c.gaps.begin(), c.gaps.end(), [](const auto &a, const auto &b) { return a.second - a.first > b.second - b.first; });
    for (size_t g = 0; g < c.gaps.size() && g < Finding::kMaxEvents; ++g)
        f.ranges.push_back(c.gaps[g]);
    return f;
}

} // namespace

void FusionRule::candidate(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kMinIdlePercent = 0.5; // of the window (a multi-rank trace: the ranks' spans summed)
    constexpr size_t kMaxFindings = 5;
    const Trace &trace = ctx.trace();
    const auto work = ctx.index().work();
    if (work.empty() || ctx.index().opSlices().empty())
        return;
    // Ops that qualify alone: >= 3 executions (some idle between them on their device, below).
    const std::vector<uint32_t> &counts = ctx.launchCounts();
    std::vector<uint8_t> qualifies(counts.size(), 0);
    Steps isStep(trace);
    std::vector<uint32_t> found;
    for (uint32_t op : ctx.index().opSlices()) {
        if (ctx.index().role(SliceId(op)) != LaunchIndex::Role::FrameworkOp || counts[op] < kMinExecutions || isStep(op))
            continue;
        qualifies[op] = 1; // out of range too: the ops inside it are its candidate, never a run
        if (ctx.startsInRange(trace.slice(SliceId(op)).start))
            found.push_back(op);
    }
    // Innermost only: drop an occurrence when an op nested in it qualifies too.
    std::vector<uint8_t> outer(counts.size(), 0), members(counts.size(), 0);
    for (uint32_t op : found)
        for (SliceId p = ctx.index().opParent(SliceId(op)); p.isValid() && !outer[p.value]; p = ctx.index().opParent(p))
            outer[p.value] = 1;
    for (uint32_t op : found)
        members[op] = !outer[op];
    const std::vector<std::vector<uint32_t>> runs = siblingRuns(ctx, qualifies, isStep);
    for (const auto &run : runs)
        for (uint32_t op : run)
            members[op] = 1;
    const auto launches = ctx.launchesOf(members);
    std::map<std::string, Candidate> byKey;
    for (uint32_t op : found) {
        if (outer[op])
            continue;
        Candidate proto;
        proto.name = opName(trace, op);
        addOccurrence(ctx, byKey, proto.name, proto, {op}, launches.at(op));
    }
    for (const auto &run : runs) {
        std::vector<uint32_t> launched;
        std::vector<std::string> names;
        for (uint32_t op : run) {
            const std::vector<uint32_t> &l = launches.at(op);
            launched.insert(launched.end(), l.begin(), l.end());
            names.push_back(opName(trace, op));
        }
        std::sort(launched.begin(), launched.end()); // work() is by start
        Candidate proto;
        proto.run = true;
        proto.name = insighttext::join(names, ", ");
        const SliceId parent = ctx.index().opParent(SliceId(run.front()));
        proto.parent = parent.isValid() ? opName(trace, parent.value) : "top level";
        addOccurrence(ctx, byKey, "run\n" + proto.parent + "\n" + proto.name, proto, run, launched);
    }
    std::vector<Candidate *> ranked;
    for (auto &[key, c] : byKey)
        if (100.0 * double(c.idle) >= kMinIdlePercent * double(ctx.rankTimeNs()))
            ranked.push_back(&c);
    std::sort(ranked.begin(), ranked.end(), [](const Candidate *a, const Candidate *b) { return a->idle > b->idle; });
    if (ranked.size() > kMaxFindings)
        ranked.resize(kMaxFindings);
    for (Candidate *c : ranked)
        out.push_back(toFinding(ctx, *c));
}

} // namespace lanescope
