#include "hostrules.h"

#include "analysis/stepstatistics.h"
#include "insightcontext.h"
#include "insighttext.h"
#include "model/trace.h"
#include "util/textutil.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace lanescope {

namespace {

std::string sliceName(const Trace &trace, SliceId id) { return id.isValid() ? std::string(trace.str(trace.slice(id).name)) : std::string(); }

// Bytes a copy moved: the `bytes` arg (Kineto memcpy, nrt_tensor_* in trace.json) or `size`.
int64_t copyBytes(const Trace &trace, ArgSetId args)
{
    static const std::string_view keys[] = {"bytes", "size"};
    for (std::string_view k : keys) {
        const StringId key = trace.strings().find(k);
        int64_t v = 0;
        if (key.isValid() && LaunchIndex::intArg(trace, args, key, v) && v > 0)
            return v;
    }
    return 0;
}

// A finding about time spent in `occ` (slice ids) as a share of the window, `occ` sorted longest
// first; nullopt below the threshold.
std::optional<Finding> shareFinding(InsightContext &ctx, int64_t time, double threshold, std::vector<uint32_t> &occ)
{
    const int64_t span = ctx.rankTimeNs(); // the window; a multi-rank trace: the ranks' spans summed
    if (time <= 0 || span <= 0 || 100.0 * double(time) / double(span) < threshold)
        return std::nullopt;
    const Trace &trace = ctx.trace();
    std::sort(occ.begin(), occ.end(), [&](uint32_t a, uint32_t b) { return trace.slice(SliceId(a)).duration > trace.slice(SliceId(b)).duration; });
    Finding f;
    f.value = 100.0 * double(time) / double(span);
    f.threshold = threshold;
    f.recoverableNs = time;
    f.severity = Finding::severityForShare(time, span);
    return f;
}

// Op-table rows a rule sums: their CPU total, calls, "name Nx time" parts and occurrences.
struct OpRowSum
{
    int64_t time = 0;
    uint64_t calls = 0;
    std::vector<std::string> parts;
    std::vector<uint32_t> occurrences;

    void add(const OpTable::Row &r)
    {
        time += r.cpuTotal;
        calls += r.calls;
        parts.push_back(r.name + " " + std::to_string(r.calls) + "x " + insighttext::ns(r.cpuTotal));
        occurrences.insert(occurrences.end(), r.occurrences.begin(), r.occurrences.end());
    }
};

// What keeps a device fed, in its own terms: CUDA graphs are a GPU tool; a NeuronCore runs compiled
// graphs (NEFFs), one execution per graph, so fewer, larger graphs mean fewer dispatches
// (docs/insights.md, TorchNeuron guidance).
std::string idleAction(bool gpu, bool neuron)
{
    const std::string gpuText = "remove host work and synchronisation between dispatches, fuse small ops, use CUDA graphs / "
                                "torch.compile, overlap data loading with compute";
    const std::string neuronText = "remove host work and synchronisation between executions (torch.neuron.synchronize, .item(), "
                                   ".cpu() inside the step), compile more of the step into one graph (torch.compile, no graph "
                                   "breaks) so it runs as fewer, larger NEFF executions, overlap data loading with compute";
    if (neuron && !gpu)
        return "Keep the NeuronCores fed: " + neuronText;
    if (neuron)
        return "Keep the devices fed: GPUs: " + gpuText + "; NeuronCores: " + neuronText;
    return "Keep the device fed: " + gpuText;
}

std::string launchAction(bool gpu, bool neuron)
{
    const std::string gpuText = "bigger batches, fused ops, CUDA graphs or torch.compile (mode=\"reduce-overhead\"), fewer "
                                "host-side calls per step";
    const std::string neuronText = "bigger batches, more of the step compiled into one graph (fewer NEFF executions and "
                                   "nrt_execute calls), fewer host-side calls per step";
    if (neuron && !gpu)
        return "Batch the work into fewer, larger executions: " + neuronText;
    if (neuron)
        return "Batch the work into fewer, larger launches: GPUs: " + gpuText + "; NeuronCores: " + neuronText;
    return "Batch the work into fewer, larger launches: " + gpuText;
}

// Below this share of the starved devices' time, the device idle a host-side rule explains is noise.
constexpr double kMinExplainedPercent = 1.0;

// The detail's sentence on what the device lost, and on the saturated devices left out.
std::string starvationText(const DeviceStarvation &st, int64_t explained, size_t gaps, const std::string &how)
{
    std::string t = "; the device idled " + insighttext::ns(explained) + " in " + std::to_string(gaps) + " gap(s) " + how + " (" +
                    insighttext::pct(100.0 * double(explained) / double(std::max<int64_t>(1, st.starvedTotalNs()))) + " of " +
                    insighttext::ns(st.starvedTotalNs()) + " of device time)";
    if (!st.saturatedText().empty())
        t += "; not counted, saturated (busy >= " + insighttext::pct(DeviceStarvation::kSaturatedBusyPercent) + "): " + st.saturatedText();
    return t;
}

} // namespace

void HostRules::deviceIdle(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kIdlePercent = 20.0;
    constexpr size_t kLargestGaps = 5;
    if (ctx.index().work().empty())
        return;
    const Trace &trace = ctx.trace();
    const RankScopes &scopes = ctx.rankScopes();
    // Windows: each step in range on its own rank's devices (a multi-rank trace: rank r's steps are
    // measured on rank r's GPUs only, so the ranks add up in device time); without steps, the
    // analysed range (DeviceSummary's own rows, each device over its own span).
    std::vector<uint32_t> steps = ctx.steps();
    if (steps.size() > 256)
        steps.resize(256);
    int64_t total = 0, idle = 0;
    bool gpu = false, neuron = false;
    std::vector<std::pair<int64_t, int64_t>> gaps;
    std::map<std::string, std::pair<int64_t, int64_t>> perDevice; // name -> idle, total
    std::map<int64_t, std::pair<int64_t, int64_t>> perRank;       // rank -> idle, total
    auto addWindow = [&](const DeviceSummary::Options &opt, const std::vector<DeviceSummary::Row> &rows) {
        for (const DeviceSummary::Row &r : rows) {
            total += r.total;
            idle += r.idle;
            auto &pd = perDevice[r.device];
            pd.first += r.idle;
            pd.second += r.total;
            auto &pr = perRank[opt.rank];
            pr.first += r.idle;
            pr.second += r.total;
            (r.neuron ? neuron : gpu) = true;
        }
        // The gaps behind those idle times, from the same busy intervals (the rank's devices).
        const auto &devs = ctx.index().devices();
        for (uint32_t d = 0; d < devs.size(); ++d) {
            if (opt.rank != -1 && scopes.rankOfDevice(d) != opt.rank)
                continue;
            const auto &busy = ctx.busyIntervals()[d];
            auto first = std::lower_bound(busy.begin(), busy.end(), opt.hasRange ? opt.t0 : INT64_MIN,
                                          [](const DeviceSummary::Interval &iv, int64_t v) { return iv.second <= v; });
            int64_t prevEnd = INT64_MIN;
            for (auto it = first; it != busy.end() && (!opt.hasRange || it->first < opt.t1); ++it) {
                if (prevEnd != INT64_MIN && it->first > prevEnd)
                    gaps.emplace_back(prevEnd, it->first);
                prevEnd = it->second;
            }
        }
    };
    if (!steps.empty()) {
        for (uint32_t s : steps) {
            const Slice &st = trace.slice(SliceId(s));
            DeviceSummary::Options opt;
            opt.hasRange = true;
            opt.t0 = st.start;
            opt.t1 = st.end();
            if (scopes.multiRank()) {
                opt.rank = scopes.rankOfSlice(trace, SliceId(s));
                if (opt.rank == -1)
                    continue; // a step outside every rank's group: no devices of its own
            }
            addWindow(opt, DeviceSummary::compute(trace, ctx.index(), opt));
        }
    } else {
        addWindow(ctx.deviceOptions(), ctx.devices());
    }
    if (total <= 0)
        return;
    const double share = 100.0 * double(idle) / double(total);
    if (share < kIdlePercent)
        return;
    // Only the longest are named and kept (longest first, earlier first among equals).
    const size_t keep = std::min(gaps.size(), std::max<size_t>(kLargestGaps, Finding::kMaxEvents));
    std::partial_sort(gaps.begin(), gaps.begin() + ptrdiff_t(keep), gaps.end(), [](const auto &a, const auto &b) {
        return a.second - a.first != b.second - b.first ? a.second - a.first > b.second - b.first : a.first < b.first;
    });
    Finding f;
    f.title = "Device idle " + insighttext::pct(share) + " of the time between dispatches" + (steps.empty() ? "" : " inside steps");
    std::vector<std::string> devs;
    for (const auto &[name, v] : perDevice)
        devs.push_back(name + " idle " + insighttext::ns(v.first) + " of " + insighttext::ns(v.second));
    std::string over = steps.empty() ? "" : ", over " + std::to_string(steps.size()) + " step(s)";
    if (scopes.multiRank() && perRank.size() > 1) {
        // Device time summed over the ranks' devices; the ranks run side by side, so the job's wall
        // clock gains at most the idlest rank's share of it.
        const auto idlest = std::max_element(perRank.begin(), perRank.end(), [](const auto &a, const auto &b) {
            return a.second.first < b.second.first;
        });
        over += " of " + std::to_string(perRank.size()) + " ranks, each on its own devices; device time summed over them, the idlest rank " +
                std::to_string(idlest->first) + " idle " + insighttext::ns(idlest->second.first) + " of " + insighttext::ns(idlest->second.second);
    }
    f.detail = "Device idle " + insighttext::ns(idle) + " of " + insighttext::ns(total) + " (" + insighttext::pct(share) + ", device table" +
               over + "): " + insighttext::join(devs, "; ");
    std::vector<std::string> largest;
    for (size_t i = 0; i < gaps.size() && i < kLargestGaps; ++i) {
        const auto &g = gaps[i];
        const SliceId host = ctx.hostActivityAt(g.first + (g.second - g.first) / 2);
        largest.push_back(insighttext::ns(g.second - g.first) + (host.isValid() ? " (host in " + sliceName(trace, host) + ")" : " (host: no op)"));
        if (host.isValid())
            f.addEvent(host.value);
    }
    if (!largest.empty())
        f.detail += ". Largest gaps: " + insighttext::join(largest, ", ");
    f.action = idleAction(gpu, neuron);
    f.value = share;
    f.threshold = kIdlePercent;
    f.recoverableNs = idle;
    f.severity = Finding::severityForShare(idle, total);
    for (size_t i = 0; i < gaps.size() && i < Finding::kMaxEvents; ++i)
        f.ranges.push_back(gaps[i]);
    out.push_back(std::move(f));
}

void HostRules::syncStall(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kSyncPercent = 5.0;
    const Trace &trace = ctx.trace();
    OpRowSum sum;
    for (const OpTable::Row &r : ctx.ops().rows)
        if (HostRules::isSyncCall(r.name))
            sum.add(r);
    const int64_t time = sum.time;
    const uint64_t calls = sum.calls;
    const std::vector<std::string> &names = sum.parts;
    std::vector<uint32_t> &occ = sum.occurrences;
    // The hosts' own time: each rank's synchronisation over its own span, the ranks summed.
    const RankScopes &scopes = ctx.rankScopes();
    const int64_t hostTime = scopes.totalNs();
    if (time <= 0 || hostTime <= 0 || 100.0 * double(time) / double(hostTime) < kSyncPercent)
        return;
    // Where the device starved: a gap on the call's own (starved) devices that begins while the host
    // waits (the queue ran dry and stays empty until the host launches again).
    const DeviceStarvation &st = ctx.starvation();
    if (!st.anyStarved())
        return;
    IdleUnion explained;
    for (uint32_t o : occ) {
        const Slice &call = trace.slice(SliceId(o));
        const RankScopes::Scope *scope = scopes.scopeOf(scopes.rankOfSlice(trace, SliceId(o)));
        if (!scope)
            continue;
        for (uint32_t d : scope->devices)
            if (st.starved(d))
                if (const auto gap = st.gapBeginningIn(d, call.start, call.end()))
                    explained.add(d, gap->first, gap->second);
    }
    const int64_t recoverable = explained.totalNs();
    if (100.0 * double(recoverable) < kMinExplainedPercent * double(st.starvedTotalNs()))
        return;
    std::sort(occ.begin(), occ.end(), [&](uint32_t a, uint32_t b) { return trace.slice(SliceId(a)).duration > trace.slice(SliceId(b)).duration; });
    Finding f;
    f.value = 100.0 * double(time) / double(hostTime);
    f.threshold = kSyncPercent;
    f.recoverableNs = recoverable;
    f.severity = Finding::severityForShare(recoverable, st.starvedTotalNs());
    f.title = "Synchronisation calls block the host " + insighttext::pct(f.value) + " of the time";
    f.detail = std::to_string(calls) + " synchronisation call(s), " + insighttext::ns(time) + " CPU total (op table) of " +
               insighttext::ns(hostTime) +
               (scopes.multiRank() ? " (" + std::to_string(scopes.scopes().size()) + " hosts, each rank's own span, summed)" : "") + ": " +
               insighttext::join(names, ", ") + starvationText(st, recoverable, explained.gaps(), "that begin while a synchronisation waits");
    f.action = "Drop synchronisations that are not needed (.item(), .cpu(), prints, explicit synchronize in the loop); "
               "synchronise once per step, not per op";
    // What the longest calls waited for: the device work that finished last inside each.
    const auto work = ctx.index().work();
    std::vector<std::string> waited;
    for (size_t i = 0; i < occ.size() && i < 3; ++i) {
        const Slice &s = trace.slice(SliceId(occ[i]));
        auto endIt = std::upper_bound(work.begin(), work.end(), s.end(), [](int64_t v, const LaunchIndex::Work &w) { return v < w.start; });
        const LaunchIndex::Work *best = nullptr;
        for (auto it = work.begin() + (endIt - work.begin()); it != work.begin();) {
            --it;
            if (s.end() - it->start > 10 * s.duration + 1000000000)
                break; // far enough back: the list is by start
            if (LaunchIndex::isExecutionLevel(it->kind) && it->end <= s.end() + 1000 && it->end >= s.start && (!best || it->end > best->end))
                best = &*it;
        }
        if (best) {
            waited.push_back(insighttext::ns(s.duration) + " waiting for " + LaunchIndex::workName(trace, *best));
            f.addEvent(occ[i]);
            f.addEvent(best->slice.value);
        }
    }
    if (!waited.empty())
        f.detail += ". Longest: " + insighttext::join(waited, "; ");
    for (uint32_t o : occ)
        f.addSlice(trace, o);
    out.push_back(std::move(f));
}

void HostRules::launchBound(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kLaunchBoundRatio = 1.0;
    const Trace &trace = ctx.trace();
    struct Acc
    {
        int64_t overhead = 0;
        std::vector<uint32_t> launchers;
        std::vector<uint32_t> works; // the work each launcher launched first (index into work())
    };
    std::unordered_map<uint32_t, Acc> byName; // by the op's name id; folded below
    std::vector<uint8_t> seen(ctx.index().sliceCount(), 0); // launchers counted once
    const auto work = ctx.index().work();
    for (uint32_t wi = 0; wi < work.size(); ++wi) {
        const LaunchIndex::Work &w = work[wi];
        if (!LaunchIndex::isExecutionLevel(w.kind) || !w.launcher.isValid() || !w.op.isValid())
            continue;
        if (!ctx.startsInRange(trace.slice(w.op).start) || w.launcher.value >= seen.size() || seen[w.launcher.value])
            continue;
        seen[w.launcher.value] = 1;
        // Host time of the call outside the device work it overlaps (synchronous calls such as
        // nrt_execute contain their execution).
        const Slice &call = trace.slice(w.launcher);
        const int64_t overlap = std::max<int64_t>(0, std::min(call.end(), w.end) - std::max(call.start, w.start));
        Acc &a = byName[trace.slice(w.op).name.value];
        a.overhead += call.duration - overlap;
        a.launchers.push_back(w.launcher.value);
        a.works.push_back(wi);
    }
    std::map<std::string, Acc> byOp; // op table names ("ProfilerStep#N" folds into "ProfilerStep*")
    for (auto &[name, a] : byName) {
        Acc &to = byOp[std::string(OpTable::foldName(trace.str(StringId(name))))];
        to.overhead += a.overhead;
        to.launchers.insert(to.launchers.end(), a.launchers.begin(), a.launchers.end());
        to.works.insert(to.works.end(), a.works.begin(), a.works.end());
    }
    struct Hit
    {
        std::string name;
        int64_t overhead, device;
        const Acc *acc;
    };
    std::vector<Hit> hits;
    int64_t overhead = 0, device = 0;
    for (const auto &[name, a] : byOp) {
        const OpTable::Row *row = ctx.opRow(name);
        if (!row || row->deviceSelf <= 0 || double(a.overhead) < kLaunchBoundRatio * double(row->deviceSelf))
            continue;
        hits.push_back({name, a.overhead, row->deviceSelf, &a});
        overhead += a.overhead;
        device += row->deviceSelf;
    }
    const int64_t excess = overhead - device;
    // Worth saying only when the launch overhead is a visible share of the hosts' time.
    if (hits.empty() || overhead * 100 < ctx.rankTimeNs())
        return;
    // Where the device starved: the gap before a launched work on a starved device, from the start of
    // its launch call on (HTA's "host wait": the call began after the device ran dry).
    const DeviceStarvation &st = ctx.starvation();
    IdleUnion explained;
    bool gpu = false, neuron = false;
    for (const Hit &h : hits)
        for (size_t i = 0; i < h.acc->works.size(); ++i) {
            const LaunchIndex::Work &w = work[h.acc->works[i]];
            (ctx.index().devices()[w.device].neuron ? neuron : gpu) = true;
            if (!st.starved(w.device))
                continue;
            if (const auto gap = st.gapEndingAt(w.device, w.start))
                explained.add(w.device, std::max(gap->first, trace.slice(SliceId(h.acc->launchers[i])).start), gap->second);
        }
    const int64_t starvedIdle = explained.totalNs();
    if (100.0 * double(starvedIdle) < kMinExplainedPercent * double(st.starvedTotalNs()) || starvedIdle <= 0)
        return;
    std::sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) { return a.overhead - a.device > b.overhead - b.device; });
    Finding f;
    f.title = std::to_string(hits.size()) + " op(s) spend longer launching than their device work runs";
    std::vector<std::string> parts;
    for (size_t i = 0; i < hits.size() && i < 5; ++i)
        parts.push_back(hits[i].name + ": launch " + insighttext::ns(hits[i].overhead) + " vs device self " + insighttext::ns(hits[i].device));
    f.detail = "Runtime call time outside the device work " + insighttext::ns(overhead) + " vs device self time " + insighttext::ns(device) +
               " (op table): " + insighttext::join(parts, "; ") +
               starvationText(st, starvedIdle, explained.gaps(), "before their work while the launch call ran");
    f.action = launchAction(gpu, neuron);
    f.value = device > 0 ? double(overhead) / double(device) : 0;
    f.threshold = kLaunchBoundRatio;
    // The launch overhead beyond the device work, at most the device idle it explains.
    f.recoverableNs = std::min(std::max<int64_t>(0, excess), starvedIdle);
    f.severity = Finding::severityForShare(*f.recoverableNs, st.starvedTotalNs());
    for (const Hit &h : hits)
        for (uint32_t l : h.acc->launchers)
            f.addEvent(l);
    out.push_back(std::move(f));
}

void HostRules::hostDeviceCopy(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kCopyPercent = 10.0;
    const Trace &trace = ctx.trace();
    // Host-side like the others: on devices busy >= 95 % of their span there is nothing to say.
    if (!ctx.starvation().anyStarved())
        return;
    int64_t time = 0, bytes = 0;
    uint64_t count = 0;
    std::vector<std::string> parts;
    std::vector<uint32_t> occ;
    // GPU copies: the kernel table's memcpy rows; Neuron tensor copies: the op table's runtime rows.
    for (const KernelTable::Row &r : ctx.kernels().rows) {
        if (r.kind != LaunchIndex::WorkKind::Memcpy || !HostRules::isHostDeviceCopy(r.name))
            continue;
        time += r.total;
        count += r.count;
        parts.push_back(r.name + " " + std::to_string(r.count) + "x " + insighttext::ns(r.total));
        occ.insert(occ.end(), r.occurrences.begin(), r.occurrences.end());
    }
    OpRowSum runtime;
    for (const OpTable::Row &r : ctx.ops().rows)
        if (r.runtime && HostRules::isHostDeviceCopy(r.name))
            runtime.add(r);
    time += runtime.time;
    count += runtime.calls;
    parts.insert(parts.end(), runtime.parts.begin(), runtime.parts.end());
    occ.insert(occ.end(), runtime.occurrences.begin(), runtime.occurrences.end());
    for (uint32_t o : occ)
        bytes += copyBytes(trace, trace.slice(SliceId(o)).args);
    std::optional<Finding> found = shareFinding(ctx, time, kCopyPercent, occ);
    if (!found)
        return;
    Finding &f = *found;
    f.title = "Host<->device copies take " + insighttext::pct(f.value) + " of the time";
    f.detail = std::to_string(count) + " copies, " + insighttext::bytes(double(bytes)) + ", " + insighttext::ns(time) + " of " +
               insighttext::ns(ctx.rankTimeNs()) + (ctx.rankScopes().multiRank() ? " (the ranks' own spans, summed)" : "") +
               " (kernel / op table): " + insighttext::join(parts, ", ");
    f.action = "Keep tensors on the device between steps; copy once, pinned (pin_memory, non_blocking=True) and "
               "overlapped with compute; move pre/post-processing to the device";
    for (uint32_t o : occ)
        f.addSlice(trace, o);
    out.push_back(std::move(f));
}

void HostRules::launchLatency(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr int64_t kQueuedNs = 100000; // HTA's launch_delay_cutoff
    constexpr double kQueuedPercent = 10.0;
    const Trace &trace = ctx.trace();
    const DeviceStarvation &st = ctx.starvation();
    // Launches on starved devices: the wait from the call's end to the work's start, and the part of
    // it the device sat idle (a wait behind busy device work is a full queue: the goal, not a loss).
    std::vector<int64_t> delays;
    std::vector<std::pair<int64_t, uint32_t>> starved; // idle while waiting, work slice
    size_t queued = 0;
    IdleUnion explained;
    for (const LaunchIndex::Work &w : ctx.index().work()) {
        if (!LaunchIndex::isExecutionLevel(w.kind) || !w.launcher.isValid() || !ctx.startsInRange(w.start) || !st.starved(w.device))
            continue;
        const int64_t callEnd = trace.slice(w.launcher).end();
        const int64_t d = std::max<int64_t>(0, w.start - callEnd);
        delays.push_back(d);
        if (d < kQueuedNs)
            continue;
        ++queued;
        int64_t idle = 0;
        const auto pieces = st.idleInside(w.device, callEnd, w.start);
        for (const auto &[s, e] : pieces)
            idle += e - s;
        if (idle < kQueuedNs)
            continue;
        starved.emplace_back(idle, w.slice.value);
        for (const auto &[s, e] : pieces)
            explained.add(w.device, s, e);
    }
    if (delays.size() < 10)
        return; // too few launches for a distribution
    const double share = 100.0 * double(starved.size()) / double(delays.size());
    const int64_t recoverable = explained.totalNs();
    if (share < kQueuedPercent || 100.0 * double(recoverable) < kMinExplainedPercent * double(st.starvedTotalNs()))
        return;
    // Only the longest kMaxEvents become events (earlier slices first among equal waits).
    const size_t starvedCount = starved.size();
    const size_t keep = std::min(starvedCount, Finding::kMaxEvents);
    std::partial_sort(starved.begin(), starved.begin() + ptrdiff_t(keep), starved.end(),
                      [](const auto &a, const auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    starved.resize(keep);
    Finding f;
    f.title = insighttext::pct(share) + " of kernel launches wait >= " + insighttext::ns(kQueuedNs) + " with the device idle";
    f.detail = std::to_string(delays.size()) + " launches on starved devices: launch-to-start median " + insighttext::ns(StepStatistics::median(delays)) +
               ", p90 " + insighttext::ns(StepStatistics::percentile(delays, 0.9)) + ", max " + insighttext::ns(StepStatistics::percentile(delays, 1.0)) +
               "; " + std::to_string(queued) + " wait >= " + insighttext::ns(kQueuedNs) + ", " + std::to_string(starvedCount) +
               " of them with the device idle >= " + insighttext::ns(kQueuedNs) + " meanwhile (the rest wait behind busy device work)" +
               starvationText(st, recoverable, explained.gaps(), "while launched work had not started");
    f.detail += ". A queue that deep keeps a device busy; idle under it means the work waited on something else, or "
                "the host and device clocks disagree or device events are missing";
    f.action = "The work was launched but the device did not start it: look for what it waits on (an event or stream "
               "dependency, another stream's work, the runtime's own latency) before the slowest launches; check that the "
               "trace's device events line up with their launches";
    f.value = share;
    f.threshold = kQueuedPercent;
    // No recoverable estimate: the idle under a pending launch is not host work, and on the real traces
    // it comes from clocks or lost events (docs/insights.md); always low.
    f.severity = Severity::Low;
    for (const auto &q : starved)
        f.addEvent(q.second);
    out.push_back(std::move(f));
}

bool HostRules::isSyncCall(std::string_view name)
{
    const std::string n = text::lower(name);
    if (n.find("synchronize") != std::string::npos || n.find("synchronise") != std::string::npos)
        return true;
    return n.rfind("nrt_", 0) == 0 && n.find("wait") != std::string::npos;
}

bool HostRules::isHostDeviceCopy(std::string_view name)
{
    const std::string n = text::lower(name);
    return n.find("htod") != std::string::npos || n.find("dtoh") != std::string::npos || n == "nrt_tensor_write" ||
           n == "nrt_tensor_read";
}

} // namespace lanescope
