#include "enginebreakdown.h"

#include "deviceexecutions.h"
#include "neuroncoretracks.h"

#include "model/argint.h"
#include "model/trace.h"
#include "util/textutil.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace lanescope {

namespace {

using Interval = coretracks::Interval;
using coretracks::mergeIntervals;
using coretracks::metadataNumber;
using coretracks::neuronCoreOf;
using CoreTracks = coretracks::Core;

using text::lower;

bool overlaps(const Slice &s, int64_t t0, int64_t t1)
{
    return s.duration > 0 ? (s.end() > t0 && s.start < t1) : (s.start >= t0 && s.start <= t1);
}

Interval clip(const Slice &s, int64_t t0, int64_t t1)
{
    const int64_t a = std::max(s.start, t0);
    return {a, std::max(a, std::min(s.end(), t1))};
}

// Adds each interval's overlap with every bucket, as a fraction of the bucket (busy fraction).
void addToBuckets(const std::vector<Interval> &merged, int64_t t0, int64_t bucketNs, size_t buckets,
                  std::vector<float> &out)
{
    out.assign(buckets, 0.0f);
    if (bucketNs <= 0 || buckets == 0)
        return;
    for (const Interval &x : merged) {
        const size_t first = size_t(std::max<int64_t>(0, (x.first - t0) / bucketNs));
        for (size_t b = first; b < buckets; ++b) {
            const int64_t b0 = t0 + int64_t(b) * bucketNs, b1 = b0 + bucketNs;
            if (b0 >= x.second)
                break;
            const int64_t o = std::min(b1, x.second) - std::max(b0, x.first);
            if (o > 0)
                out[b] += float(double(o) / double(bucketNs));
        }
    }
    for (float &f : out)
        f = std::min(f, 1.0f);
}

int64_t intArg(const Trace &trace, ArgSetId set, StringId key, int64_t fallback)
{
    if (!set.isValid() || !key.isValid())
        return fallback;
    for (const Arg &a : trace.args().args(set)) {
        if (a.key != key)
            continue;
        if (const std::optional<int64_t> i = argInt(a, [&trace](StringId id) { return trace.str(id); }))
            return *i;
    }
    return fallback;
}

class Computation
{
public:
    Computation(const Trace &trace, const EngineBreakdown::Options &options, EngineBreakdownResult &r)
        : m_trace(trace), m_options(options), m_r(r)
    {
    }

    void engineRow(const CoreTracks &core, NeuronEngine engine);
    void dmaRows(const CoreTracks &core, CoreBreakdown &totals);
    void flops(CoreBreakdown &c);

private:
    // Per opcode name of one engine: its row, and whether it is a semaphore wait. Engines run few
    // distinct opcodes, so a short table searched from the last hit beats hashing every slice.
    struct OpEntry
    {
        uint32_t name;
        bool wait;
        EngineOpcodeTime time;
    };
    struct OpTable
    {
        std::vector<OpEntry> entries;
        std::unordered_map<uint32_t, size_t> index; // used once there are many names
        size_t last = 0;
    };
    static constexpr size_t kLinearOps = 32;
    OpEntry &opEntry(OpTable &t, StringId name)
    {
        if (t.last < t.entries.size() && t.entries[t.last].name == name.value)
            return t.entries[t.last];
        if (t.entries.size() <= kLinearOps) {
            for (size_t i = 0; i < t.entries.size(); ++i)
                if (t.entries[i].name == name.value) {
                    t.last = i;
                    return t.entries[i];
                }
        } else if (const auto it = t.index.find(name.value); it != t.index.end()) {
            t.last = it->second;
            return t.entries[t.last];
        }
        t.entries.push_back(OpEntry{name.value, EngineBreakdown::isSemaphoreWait(m_trace.str(name)), {}});
        t.last = t.entries.size() - 1;
        if (t.entries.size() > kLinearOps) {
            if (t.index.empty())
                for (size_t i = 0; i < t.entries.size(); ++i)
                    t.index.emplace(t.entries[i].name, i);
            else
                t.index.emplace(name.value, t.last);
        }
        return t.entries.back();
    }
    double clockOf(NeuronEngine e) const;
    int64_t physicalCoreTimedFrom(TrackId t) const;

    const Trace &m_trace;
    const EngineBreakdown::Options &m_options;
    EngineBreakdownResult &m_r;
};

double Computation::clockOf(NeuronEngine e) const
{
    return EngineBreakdown::clockGHz(m_trace, e);
}

// An NTFF v4/v5 of a trn2 core records where each physical core's own start NOTIFY ended
// ("pcore[k].window_start_ns"): neuron-profile's summary-text (2.25) counts a core's instructions from the
// common origin but times them from there, so instructions of a physical core that begin before it are
// counted and not timed. v6 files and neuron-profile's later exports time everything from the origin
// (the entry is absent). INT64_MIN: time everything.
int64_t Computation::physicalCoreTimedFrom(TrackId t) const
{
    const TrackGroup &g = m_trace.group(m_trace.track(t).group);
    if (g.kind != GroupKind::PhysicalCore)
        return INT64_MIN;
    const auto from = coretracks::metadataNumber(m_trace, "pcore[" + std::to_string(g.externalId) + "].window_start_ns");
    return from ? int64_t(*from) : INT64_MIN;
}

void Computation::engineRow(const CoreTracks &core, NeuronEngine engine)
{
    const auto &tracks = core.engines[size_t(engine)];
    if (tracks.empty())
        return;
    EngineBreakdownRow row;
    row.core = core.core;
    row.coreName = m_trace.groupPath(core.core);
    row.engine = engine;
    row.tracks = tracks;
    row.clockGHz = clockOf(engine);
    const int64_t t0 = m_r.startNs, t1 = m_r.endNs;
    std::vector<Interval> busy;
    OpTable ops;
    for (TrackId t : tracks) {
        const auto slices = m_trace.slices(t);
        const auto [first, last] = m_trace.sliceRange(t, t0, t1);
        const int64_t timedFrom = physicalCoreTimedFrom(t);
        for (uint32_t i = first; i < last; ++i) {
            const Slice &s = slices[i];
            if (!overlaps(s, t0, t1))
                continue;
            ++row.instructionCount;
            if (s.start < timedFrom)
                continue; // counted, not timed (see physicalCoreTimedFrom)
            const Interval c = clip(s, t0, t1);
            const int64_t d = c.second - c.first;
            OpEntry &op = opEntry(ops, s.name);
            if (op.wait) {
                ++row.semaphoreWaitCount;
                row.semaphoreWaitTimeNs += d;
                continue;
            }
            row.instructionTimeNs += d;
            busy.push_back(c);
            ++op.time.count;
            op.time.timeNs += d;
        }
    }
    row.activeTimeNs = mergeIntervals(busy);
    row.activeIntervalCount = busy.size();
    row.activePercent = m_r.denominatorNs > 0 ? 100.0 * double(row.activeTimeNs) / double(m_r.denominatorNs) : 0.0;
    row.idleTimeNs = std::max<int64_t>(0, (t1 - t0) - row.activeTimeNs);

    std::vector<EngineIdleGap> gaps;
    int64_t cursor = t0;
    for (const Interval &x : busy) {
        if (x.first > cursor)
            gaps.push_back({cursor, x.first - cursor});
        cursor = std::max(cursor, x.second);
    }
    if (t1 > cursor)
        gaps.push_back({cursor, t1 - cursor});
    row.idleGapCount = gaps.size();
    const size_t keepGaps = std::min(gaps.size(), m_options.longestIdleGaps);
    std::partial_sort(gaps.begin(), gaps.begin() + ptrdiff_t(keepGaps), gaps.end(),
                      [](const EngineIdleGap &a, const EngineIdleGap &b) {
                          return a.durationNs != b.durationNs ? a.durationNs > b.durationNs : a.startNs < b.startNs;
                      });
    gaps.resize(keepGaps);
    row.longestIdleGaps = std::move(gaps);

    for (OpEntry &op : ops.entries) {
        if (op.wait)
            continue;
        op.time.opcode = std::string(m_trace.str(StringId(op.name)));
        row.topOpcodes.push_back(std::move(op.time));
    }
    std::sort(row.topOpcodes.begin(), row.topOpcodes.end(), [](const EngineOpcodeTime &a, const EngineOpcodeTime &b) {
        return a.timeNs != b.timeNs ? a.timeNs > b.timeNs : a.opcode < b.opcode;
    });
    if (row.topOpcodes.size() > m_options.topOpcodes)
        row.topOpcodes.resize(m_options.topOpcodes);

    addToBuckets(busy, t0, m_r.bucketNs, m_r.bucketCount, row.utilization);
    m_r.engines.push_back(std::move(row));
}

void Computation::dmaRows(const CoreTracks &core, CoreBreakdown &totals)
{
    const int64_t t0 = m_r.startNs, t1 = m_r.endNs;
    const StringId kSize = m_trace.strings().find("transfer_size");
    const StringId kEngine = m_trace.strings().find("dma_engine");
    const StringId kQueue = m_trace.strings().find("dma_queue");
    std::vector<Interval> all;
    totals.dmaBytesPerBucket.assign(m_r.bucketCount, 0.0);
    for (TrackId t : core.dma) {
        DmaQueueBreakdownRow row;
        row.core = core.core;
        row.coreName = m_trace.groupPath(core.core);
        row.track = t;
        row.queue = std::string(m_trace.str(m_trace.track(t).name));
        const auto slices = m_trace.slices(t);
        row.dmaEngine = int(intArg(m_trace, slices.front().args, kEngine, -1));
        row.queueIndex = int(intArg(m_trace, slices.front().args, kQueue, -1));
        std::vector<Interval> busy;
        const auto [first, last] = m_trace.sliceRange(t, t0, t1);
        for (uint32_t i = first; i < last; ++i) {
            const Slice &s = slices[i];
            if (!overlaps(s, t0, t1))
                continue;
            ++row.packetCount;
            const int64_t size = std::max<int64_t>(0, intArg(m_trace, s.args, kSize, 0));
            row.bytes += uint64_t(size);
            const Interval c = clip(s, t0, t1);
            busy.push_back(c);
            if (m_r.bucketNs > 0 && m_r.bucketCount > 0) {
                // Bytes spread evenly over the packet's time (a zero-length packet lands in one bucket).
                const int64_t len = s.duration;
                const size_t bFirst = size_t(std::clamp<int64_t>((c.first - t0) / m_r.bucketNs, 0, int64_t(m_r.bucketCount) - 1));
                if (len <= 0) {
                    totals.dmaBytesPerBucket[bFirst] += double(size);
                } else {
                    for (size_t b = bFirst; b < m_r.bucketCount; ++b) {
                        const int64_t b0 = t0 + int64_t(b) * m_r.bucketNs, b1 = b0 + m_r.bucketNs;
                        if (b0 >= c.second)
                            break;
                        const int64_t o = std::min(b1, s.end()) - std::max(b0, s.start);
                        if (o > 0)
                            totals.dmaBytesPerBucket[b] += double(size) * double(o) / double(len);
                    }
                }
            }
        }
        all.insert(all.end(), busy.begin(), busy.end());
        row.activeTimeNs = mergeIntervals(busy);
        row.activeIntervalCount = busy.size();
        row.activePercent = m_r.denominatorNs > 0 ? 100.0 * double(row.activeTimeNs) / double(m_r.denominatorNs) : 0.0;
        row.throughputBytesPerSec = row.activeTimeNs > 0 ? double(row.bytes) * 1e9 / double(row.activeTimeNs) : 0.0;
        totals.dmaBytes += row.bytes;
        if (m_r.execution && row.packetCount == 0)
            continue; // a queue of the core's other executions (shared lanes)
        m_r.dma.push_back(std::move(row));
    }
    totals.dmaActiveTimeNs = mergeIntervals(all);
    totals.dmaActiveIntervalCount = all.size();
}

void Computation::flops(CoreBreakdown &c)
{
    if (!m_r.wholeTrace) {
        c.flopsNote = "MFU/HFU: whole trace only (FLOPs are not attributed to time)";
        return;
    }
    auto model = metadataNumber(m_trace, "neuron_profile.summary.model_flops");
    const auto hardware = metadataNumber(m_trace, "neuron_profile.summary.hardware_flops");
    // Without HLO stats (NKI kernels) neuron-profile writes model_flops 0, and since 2.28 its MFU uses
    // hardware_flops - transpose_flops instead (its terminology for mfu_estimated_percent).
    const auto transpose = metadataNumber(m_trace, "neuron_profile.summary.transpose_flops");
    const bool fromInstructions = (!model || *model == 0) && hardware && transpose && *hardware >= *transpose && *hardware > 0;
    if (fromInstructions)
        model = *hardware - *transpose;
    if (!model && !hardware) {
        c.flopsNote = "MFU/HFU: no FLOP counts in this trace (neuron-profile JSON exports carry them; the NTFF does not)";
        return;
    }
    const double rows = metadataNumber(m_trace, "neuron_profile.metadata.pe_num_rows").value_or(128);
    const double cols = metadataNumber(m_trace, "neuron_profile.metadata.pe_num_cols").value_or(128);
    const double peak = EngineBreakdown::peakFlopsPerSec(m_trace);
    if (peak <= 0 || m_r.denominatorNs <= 0) {
        c.flopsNote = "MFU/HFU: Tensor clock unknown";
        return;
    }
    c.peakFlopsPerSec = peak;
    double seconds = double(m_r.denominatorNs) * 1e-9;
    // The recorded total time to the picosecond, as neuron-profile divides by it (the ns rounding is
    // 4e-6 of a 60 us trn2 kernel's MFU)
    if (m_r.denominatorSource == "recorded total time")
        if (const auto ps = metadataNumber(m_trace, "total_time_ps"); ps && *ps > 0)
            seconds = *ps * 1e-12;
    c.modelFlops = model.value_or(0);
    c.hardwareFlops = hardware.value_or(0);
    if (model)
        c.mfuPercent = 100.0 * *model / (c.peakFlopsPerSec * seconds);
    if (hardware)
        c.hfuPercent = 100.0 * *hardware / (c.peakFlopsPerSec * seconds);
    const double clock = EngineBreakdown::clockGHz(m_trace, NeuronEngine::Tensor) * 1e9;
    const long cores = clock > 0 ? std::lround(peak / (2.0 * rows * cols * clock)) : 1; // trn2: 2 physical cores
    c.flopsNote = "MFU = model FLOPs / (" + (cores > 1 ? std::to_string(cores) + " physical cores x " : std::string()) + "2 x "
        + std::to_string(int(rows)) + " x " + std::to_string(int(cols))
        + " x Tensor clock x total time); FLOPs as neuron-profile reported them"
        + (fromInstructions ? " (no HLO stats: model FLOPs = hardware_flops - transpose_flops)" : "");
}

} // namespace

std::optional<NeuronEngine> EngineBreakdown::engineOf(std::string_view laneName)
{
    static const std::map<std::string, NeuronEngine, std::less<>> aliases = {
        {"tensor", NeuronEngine::Tensor}, {"tensormatrix", NeuronEngine::Tensor}, {"pe", NeuronEngine::Tensor},
        {"tensore", NeuronEngine::Tensor}, {"vector", NeuronEngine::Vector}, {"dve", NeuronEngine::Vector},
        {"vectore", NeuronEngine::Vector}, {"scalar", NeuronEngine::Scalar}, {"act", NeuronEngine::Scalar},
        {"activation", NeuronEngine::Scalar}, {"scalare", NeuronEngine::Scalar}, {"gpsimd", NeuronEngine::GpSimd},
        {"pool", NeuronEngine::GpSimd}, {"gpsimde", NeuronEngine::GpSimd}, {"sync", NeuronEngine::Sync},
        {"sp", NeuronEngine::Sync}, {"synce", NeuronEngine::Sync},
    };
    const auto it = aliases.find(lower(laneName));
    if (it == aliases.end())
        return std::nullopt;
    return it->second;
}

std::string_view EngineBreakdown::engineName(NeuronEngine e)
{
    static constexpr std::array<std::string_view, kNeuronEngineCount> names = {"Tensor", "Vector", "Scalar", "GpSimd",
                                                                               "Sync"};
    return names[size_t(e)];
}

double EngineBreakdown::clockGHz(const Trace &trace, NeuronEngine e, std::string_view prefix)
{
    const auto number = [&](std::string_view key) { return metadataNumber(trace, std::string(prefix) + std::string(key)); };
    // neuron-profile records the Tensor clock and the clock of "the others" (Scalar, GpSimd, Sync).
    if (e == NeuronEngine::Tensor)
        if (auto v = number("neuron_profile.metadata.pe_clock_freq"); v && *v > 0)
            return *v;
    if (e == NeuronEngine::Scalar || e == NeuronEngine::GpSimd || e == NeuronEngine::Sync)
        if (auto v = number("neuron_profile.metadata.pe_clock_others"); v && *v > 0)
            return *v;
    const std::string *instance = trace.metadata().find(std::string(prefix) + "instance_type");
    return defaultClockGHz(instance ? *instance : std::string(), e);
}

double EngineBreakdown::peakFlopsPerSec(const Trace &trace, std::string_view prefix)
{
    const auto number = [&](std::string_view key) { return metadataNumber(trace, std::string(prefix) + std::string(key)); };
    const double rows = number("neuron_profile.metadata.pe_num_rows").value_or(128);
    const double cols = number("neuron_profile.metadata.pe_num_cols").value_or(128);
    const double clock = clockGHz(trace, NeuronEngine::Tensor, prefix);
    // A trn2 logical NeuronCore is two physical cores, each with its own Tensor engine (recorded by the
    // NTFF reader as "physical_cores", by neuron-profile as num_physical_cores).
    double cores = number("physical_cores").value_or(number("neuron_profile.metadata.num_physical_cores").value_or(1));
    if (!(cores >= 1 && cores <= 64))
        cores = 1;
    return clock > 0 && rows > 0 && cols > 0 ? cores * 2.0 * rows * cols * clock * 1e9 : 0.0;
}

double EngineBreakdown::defaultClockGHz(std::string_view instanceType, NeuronEngine e)
{
    // formats.md section 6: Trn1/Inf2 = NeuronCore-v2, Trn2 = v3, Trn3 = v4. Sync runs with the "others".
    const std::string type = lower(instanceType);
    if (type.rfind("trn1", 0) == 0 || type.rfind("inf2", 0) == 0) {
        static constexpr std::array<double, kNeuronEngineCount> v2 = {2.8, 1.12, 1.4, 1.4, 1.4};
        return v2[size_t(e)];
    }
    if (type.rfind("trn2", 0) == 0) {
        static constexpr std::array<double, kNeuronEngineCount> v3 = {2.4, 0.96, 1.2, 1.2, 1.2};
        return v3[size_t(e)];
    }
    if (type.rfind("trn3", 0) == 0) {
        static constexpr std::array<double, kNeuronEngineCount> v4 = {2.4, 1.2, 1.2, 1.2, 1.2};
        return v4[size_t(e)];
    }
    return 0.0;
}

EngineBreakdownResult EngineBreakdown::compute(const Trace &trace, const Options &options)
{
    EngineBreakdownResult r;
    GroupId laneSet;
    std::optional<std::pair<int64_t, int64_t>> executionSpan;
    if (options.execution) {
        const DeviceExecutions executions = DeviceExecutions::build(trace);
        if (*options.execution < executions.all().size()) {
            const DeviceExecution &e = executions.all()[*options.execution];
            laneSet = e.laneSet;
            executionSpan = std::make_pair(e.start, e.end);
        }
    }
    const std::vector<CoreTracks> cores = options.execution && !laneSet.isValid() ? std::vector<CoreTracks>()
                                                                                   : coretracks::find(trace, laneSet);
    // The default window: the span of the NeuronCore tracks (not of host tracks in a profile folder).
    int64_t spanStart = std::numeric_limits<int64_t>::max(), spanEnd = std::numeric_limits<int64_t>::min();
    auto extend = [&](TrackId t) {
        const auto s = trace.slices(t);
        spanStart = std::min(spanStart, s.front().start);
        for (const Slice &x : s)
            spanEnd = std::max(spanEnd, x.end());
    };
    for (const CoreTracks &c : cores) {
        for (const auto &tracks : c.engines)
            for (TrackId t : tracks)
                extend(t);
        for (TrackId t : c.dma)
            extend(t);
    }
    if (cores.empty())
        spanStart = spanEnd = trace.startNs();
    if (executionSpan)
        std::tie(spanStart, spanEnd) = *executionSpan;
    r.execution = options.execution;
    r.wholeTrace = !options.startNs && !options.endNs && !options.execution;
    r.startNs = options.startNs.value_or(spanStart);
    r.endNs = std::max(r.startNs, options.endNs.value_or(spanEnd));
    r.denominatorNs = r.endNs - r.startNs;
    r.denominatorSource = "window";
    if (r.wholeTrace && cores.size() == 1) {
        if (auto ps = metadataNumber(trace, "total_time_ps"); ps && *ps > 0) {
            r.denominatorNs = int64_t(std::llround(*ps / 1000.0));
            r.denominatorSource = "recorded total time";
        }
    }
    r.bucketCount = options.buckets;
    r.bucketNs = r.bucketCount ? std::max<int64_t>(1, (r.endNs - r.startNs + int64_t(r.bucketCount) - 1) / int64_t(r.bucketCount)) : 0;

    Computation comp(trace, options, r);
    for (const CoreTracks &c : cores) {
        for (int e = 0; e < kNeuronEngineCount; ++e)
            comp.engineRow(c, NeuronEngine(e));
        CoreBreakdown totals;
        totals.core = c.core;
        totals.coreName = trace.groupPath(c.core);
        comp.dmaRows(c, totals);
        if (options.execution)
            totals.flopsNote = "MFU/HFU: not computed for one execution of a profile folder";
        else if (cores.size() == 1)
            comp.flops(totals);
        else
            totals.flopsNote = "MFU/HFU: not computed for several cores (FLOP counts are per profile)";
        r.cores.push_back(std::move(totals));
    }
    return r;
}

} // namespace lanescope
