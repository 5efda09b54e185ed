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
    const int64_t span = ctx.spanNs();
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

} // namespace

void HostRules::deviceIdle(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kIdlePercent = 20.0;
    constexpr size_t kLargestGaps = 5;
    if (ctx.index().work().empty())
        return;
    const Trace &trace = ctx.trace();
    // Windows: each step in range; without steps, the analysed range (DeviceSummary's own rows).
    std::vector<uint32_t> steps = ctx.steps();
    if (steps.size() > 256)
        steps.resize(256);
    int64_t total = 0, idle = 0;
    std::vector<std::pair<int64_t, int64_t>> gaps;
    std::map<std::string, std::pair<int64_t, int64_t>> perDevice; // name -> idle, total
    auto addWindow = [&](const DeviceSummary::Options &opt, const std::vector<DeviceSummary::Row> &rows) {
        for (const DeviceSummary::Row &r : rows) {
            total += r.total;
            idle += r.idle;
            auto &pd = perDevice[r.device];
            pd.first += r.idle;
            pd.second += r.total;
        }
        // The gaps behind those idle times, from the same busy intervals.
        const auto &devs = ctx.index().devices();
        for (uint32_t d = 0; d < devs.size(); ++d) {
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
    f.detail = "Device idle " + insighttext::ns(idle) + " of " + insighttext::ns(total) + " (" + insighttext::pct(share) + ", device table" +
               (steps.empty() ? "" : ", over " + std::to_string(steps.size()) + " step(s)") + "): " + insighttext::join(devs, "; ");
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
    f.action = "Keep the device fed: remove host work and synchronisation between dispatches, fuse small ops, use "
               "CUDA graphs / torch.compile, overlap data loading with compute";
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
    std::optional<Finding> found = shareFinding(ctx, time, kSyncPercent, occ);
    if (!found)
        return;
    Finding &f = *found;
    f.title = "Synchronisation calls block the host " + insighttext::pct(f.value) + " of the time";
    f.detail = std::to_string(calls) + " synchronisation call(s), " + insighttext::ns(time) + " CPU total (op table) of " +
               insighttext::ns(ctx.spanNs()) + ": " + insighttext::join(names, ", ");
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
    };
    std::unordered_map<uint32_t, Acc> byName; // by the op's name id; folded below
    std::vector<uint8_t> seen(ctx.index().sliceCount(), 0); // launchers counted once
    for (const LaunchIndex::Work &w : ctx.index().work()) {
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
    }
    std::map<std::string, Acc> byOp; // op table names ("ProfilerStep#N" folds into "ProfilerStep*")
    for (auto &[name, a] : byName) {
        Acc &to = byOp[std::string(OpTable::foldName(trace.str(StringId(name))))];
        to.overhead += a.overhead;
        to.launchers.insert(to.launchers.end(), a.launchers.begin(), a.launchers.end());
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
    // Worth saying only when the launch overhead is a visible share of the window.
    if (hits.empty() || overhead * 100 < ctx.spanNs())
        return;
    std::sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) { return a.overhead - a.device > b.overhead - b.device; });
    Finding f;
    f.title = std::to_string(hits.size()) + " op(s) spend longer launching than their device work runs";
    std::vector<std::string> parts;
    for (size_t i = 0; i < hits.size() && i < 5; ++i)
        parts.push_back(hits[i].name + ": launch " + insighttext::ns(hits[i].overhead) + " vs device self " + insighttext::ns(hits[i].device));
    f.detail = "Runtime call time outside the device work " + insighttext::ns(overhead) + " vs device self time " + insighttext::ns(device) +
               " (op table): " + insighttext::join(parts, "; ");
    f.action = "Batch the work into fewer, larger launches: bigger batches, fused ops, CUDA graphs or torch.compile "
               "(mode=\"reduce-overhead\"), fewer host-side calls per step";
    f.value = device > 0 ? double(overhead) / double(device) : 0;
    f.threshold = kLaunchBoundRatio;
    f.recoverableNs = std::max<int64_t>(0, excess);
    f.severity = Finding::severityForShare(*f.recoverableNs, ctx.spanNs());
    for (const Hit &h : hits)
        for (uint32_t l : h.acc->launchers)
            f.addEvent(l);
    out.push_back(std::move(f));
}

void HostRules::hostDeviceCopy(InsightContext &ctx, std::vector<Finding> &out)
{
    constexpr double kCopyPercent = 10.0;
    const Trace &trace = ctx.trace();
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
               insighttext::ns(ctx.spanNs()) + " (kernel / op table): " + insighttext::join(parts, ", ");
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
    std::vector<int64_t> delays;
    std::vector<std::pair<int64_t, uint32_t>> queued; // delay, work slice
    for (const LaunchIndex::Work &w : ctx.index().work()) {
        if (!LaunchIndex::isExecutionLevel(w.kind) || !w.launcher.isValid() || !ctx.startsInRange(w.start))
            continue;
        const int64_t d = std::max<int64_t>(0, w.start - trace.slice(w.launcher).end());
        delays.push_back(d);
        if (d >= kQueuedNs)
            queued.emplace_back(d, w.slice.value);
    }
    if (delays.size() < 10)
        return; // too few launches for a distribution
    const double share = 100.0 * double(queued.size()) / double(delays.size());
    if (share < kQueuedPercent)
        return;
    // Only the longest kMaxEvents become events (earlier slices first among equal delays).
    const size_t queuedCount = queued.size();
    const size_t keep = std::min(queuedCount, Finding::kMaxEvents);
    std::partial_sort(queued.begin(), queued.begin() + ptrdiff_t(keep), queued.end(),
                      [](const auto &a, const auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    queued.resize(keep);
    Finding f;
    f.title = insighttext::pct(share) + " of kernel launches wait >= " + insighttext::ns(kQueuedNs) + " before the device starts them";
    f.detail = std::to_string(delays.size()) + " launches: launch-to-start median " + insighttext::ns(StepStatistics::median(delays)) + ", p90 " +
               insighttext::ns(StepStatistics::percentile(delays, 0.9)) + ", max " + insighttext::ns(StepStatistics::percentile(delays, 1.0)) + "; " +
               std::to_string(queuedCount) + " queued >= " + insighttext::ns(kQueuedNs);
    f.action = "The device queue is long (launches run far ahead, fine) or the device is blocked behind earlier work: "
               "check the work before the slowest launches and the streams they wait on";
    f.value = share;
    f.threshold = kQueuedPercent;
    f.severity = share >= 50.0 ? Severity::Medium : Severity::Low;
    for (const auto &q : queued)
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
