#include "ntffimporter.h"

#include "io/input/inputbuffer.h"
#include "model/hierarchynames.h"
#include "model/saturating.h"
#include "model/tracebuilder.h"
#include "ntffdependencylinker.h"
#include "ntffopcodenaming.h"
#include "ntffreader.h"

#include <algorithm>
#include <array>

namespace lanescope {

namespace {

constexpr int64_t kDmaSortBase = 100;
constexpr int64_t kCounterSortBase = 1000;
constexpr int64_t kLayerSortIndex = -20; // above the engine lanes, below the executions lane
constexpr int64_t kHloSortIndex = -10;

constexpr size_t kCancelEvery = size_t(1) << 16;

void checkCancel(const LoadOptions &options, size_t i)
{
    if ((i & (kCancelEvery - 1)) == 0 && options.cancelled())
        throw LoadCancelled();
}

// The "layers" / "HLO ops" lane above the engine lanes: one slice per run of instructions of one layer
// (op) in time order, from its first instruction's start to the latest end; instructions of no layer do
// not break a run (model/hierarchynames.h).
void addOpSpans(TraceBuilder &b, GroupId core, const NtffProfile &profile, const std::vector<StringId> &opString, bool hlo)
{
    std::vector<uint32_t> order;
    for (size_t i = 0; i < profile.instructionOps.size() && i < profile.instructions.size(); ++i)
        if (hlo ? profile.instructionOps[i].hlo : profile.instructionOps[i].layer)
            order.push_back(uint32_t(i));
    if (order.empty())
        return;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
        return profile.instructions[x].timestamp < profile.instructions[y].timestamp;
    });
    const HierarchyLane &lane = (hlo ? HierarchyNames::kHlo : HierarchyNames::kLayer).lane;
    const TrackId track = b.addTrack(core, TrackKind::Async, b.intern(lane.name), 0);
    b.track(track).sortIndex = hlo ? kHloSortIndex : kLayerSortIndex;
    const StringId category = b.intern(lane.category);
    const StringId kInstructions = b.intern(HierarchyNames::kInstructionsArg);
    size_t first = 0;
    while (first < order.size()) {
        const auto opOf = [&](size_t k) {
            const NtffInstructionOp &op = profile.instructionOps[order[k]];
            return hlo ? op.hlo : op.layer;
        };
        const uint32_t op = opOf(first);
        const int64_t start = profile.instructions[order[first]].timestamp;
        int64_t end = start;
        size_t last = first;
        for (; last < order.size() && opOf(last) == op; ++last)
            end = std::max(end, saturatingEnd(profile.instructions[order[last]].timestamp, profile.instructions[order[last]].duration));
        const std::array<Arg, 1> args = {Arg::makeInt(kInstructions, int64_t(last - first))};
        b.addSlice(track, start, end - start, opString[op - 1u], category, b.addArgs(args));
        first = last;
    }
}

struct DmaTagKeys
{
    StringId variable, source, dest;
};

// The tensor and memories of a DMA row as string args after args[n]; returns the new count.
template <size_t N>
size_t addTagArgs(const NtffDmaTag &tag, const DmaTagKeys &keys, const std::vector<StringId> &names, std::array<Arg, N> &args, size_t n)
{
    const auto add = [&](uint32_t index, StringId key) {
        if (index && index <= names.size() && n < N)
            args[n++] = Arg::makeString(key, names[index - 1u]);
    };
    add(tag.variable, keys.variable);
    add(tag.source, keys.source);
    add(tag.dest, keys.dest);
    return n;
}

// The "DMA transfers" lane: one slice per transfer neuron-profile summarised (its packets are on the
// queue lanes), named after the tensor it moves.
void addTransfers(TraceBuilder &b, GroupId core, const NtffProfile &profile, const std::vector<StringId> &names,
                  const DmaTagKeys &keys)
{
    if (profile.dmaBlocks.empty())
        return;
    const TrackId track = b.addTrack(core, TrackKind::Async, b.intern(HierarchyNames::kTransfers.name), 0);
    b.track(track).sortIndex = kDmaSortBase - 1;
    const StringId category = b.intern(HierarchyNames::kTransfers.category), unnamed = b.intern("DMA transfer");
    const StringId kSize = b.intern("transfer_size"), kQueue = b.intern("queue");
    for (const NtffDmaBlock &blk : profile.dmaBlocks) {
        std::array<Arg, 5> args = {Arg::makeUInt(kSize, blk.transferSize), Arg::makeString(kQueue, b.intern(blk.queue))};
        const size_t n = addTagArgs(blk.tag, keys, names, args, 2);
        const StringId name = blk.tag.variable && blk.tag.variable <= names.size() ? names[blk.tag.variable - 1u] : unnamed;
        b.addSlice(track, blk.timestamp, blk.duration, name, category, b.addArgs(std::span<const Arg>(args.data(), n)));
    }
}

} // namespace

std::string NtffImporter::dmaTrackName(const NtffProfile &profile, uint32_t engine, uint32_t queue)
{
    const std::string suffix = "Q" + std::to_string(queue) + "-E" + std::to_string(engine);
    const NtffDmaQueue *q = profile.dmaQueue(engine, queue);
    // neuron-profile leaves the software-DGE queues ("...Dynamic", one per DMA engine) unnamed:
    // their packets show as "Q0-E<n>". Do the same, so lanes read as in AWS's own tool.
    const bool dynamic = q && q->displayName.size() >= 7
        && q->displayName.compare(q->displayName.size() - 7, 7, "Dynamic") == 0;
    return q && !q->displayName.empty() && !dynamic ? q->displayName + "-" + suffix : suffix;
}

std::string NtffImporter::coreGroupName(const NtffProfile &profile)
{
    std::string name = "NeuronCore 0";
    if (!profile.subgraphName.empty())
        name += " (" + profile.subgraphName + ")";
    return name;
}

Trace NtffImporter::import(const InputBuffer &input, const std::string &name, const LoadOptions &options)
{
    LoadOptions decodeOptions;
    decodeOptions.cancel = options.cancel;
    decodeOptions.memoryBudget = options.memoryBudget;
    if (options.progress)
        decodeOptions.progress = [&options](int permille) { options.report(permille * 9 / 10); };
    NtffProfile profile = NtffReader::read(input.view(), name, decodeOptions);
    NtffOpcodeNaming::nameFromNeighbour(profile, name, options); // "op 0x41" -> the name a JSON export beside it gives
    Trace trace = build(profile, name, options);
    return trace;
}

Trace NtffImporter::build(const NtffProfile &profile, const std::string &name, const LoadOptions &options)
{
    TraceBuilder b;
    options.report(900);

    TraceMetadata &md = b.metadata();
    md.format = profile.sourceFormat;
    md.sourcePath = name;
    auto entry = [&md](const char *key, std::string value) { md.entries.emplace_back(key, std::move(value)); };
    entry("ntff_version", std::to_string(profile.version));
    entry("uuid", profile.uuid);
    entry("neff_name", profile.neffName);
    entry("runtime_version", profile.runtimeVersion);
    entry("driver_version", profile.driverVersion);
    entry("collectives_version", profile.collectivesVersion);
    entry("instance_type", profile.instanceType);
    entry("subgraph", profile.subgraphName);
    if (profile.totalTimePs)
        entry("total_time_ps", std::to_string(*profile.totalTimePs));
    if (profile.decodedTotalTimePs)
        entry("decoded_total_time_ps", std::to_string(*profile.decodedTotalTimePs));
    entry("last_hw_timestamp", std::to_string(profile.lastHwTimestamp));
    if (profile.captureUnixTime)
        entry("capture_unix_time", std::to_string(*profile.captureUnixTime));
    for (size_t i = 0; i < profile.memoryUsage.size(); ++i) { // static device memory by usage type
        const NtffMemoryUsage &m = profile.memoryUsage[i];
        const std::string key = "memory_usage[" + std::to_string(i) + "].";
        md.entries.emplace_back(key + "category", m.category);
        md.entries.emplace_back(key + "bytes", std::to_string(m.bytes));
    }
    for (const auto &[key, value] : profile.reportedMetadata) // as neuron-profile reported them
        md.entries.emplace_back(key, value);

    ImportStats &stats = b.stats();
    stats.eventsRead = profile.recordsRead;
    stats.bytesRead = profile.fileSize;
    stats.categories["instruction"] = profile.instructions.size();
    stats.categories["dma"] = profile.dma.size();
    stats.categories["semaphore_update"] = profile.semaphores.size();
    stats.categories["throttle"] = profile.throttle.size();
    b.diagnostics().merge(profile.diagnostics);

    const std::string deviceName = profile.instanceType.empty() ? std::string("Neuron device")
                                                                : "Neuron device (" + profile.instanceType + ")";
    const GroupId device = b.addGroup(GroupKind::Device, b.intern(deviceName), {}, 0);
    const GroupId core = b.addGroup(GroupKind::NeuronCore, b.intern(coreGroupName(profile)), device, 0);

    // Engine lanes: every engine with a program, TensorMatrix when MATMULs ran.
    std::array<bool, kNtffLaneCount> present{};
    for (const auto &p : profile.programs)
        present[static_cast<size_t>(ntffLaneOf(p.engine))] = true;
    for (const auto &r : profile.instructions)
        present[static_cast<size_t>(r.lane)] = true;
    std::array<TrackId, kNtffLaneCount> laneTrack{};
    for (int lane = 0; lane < kNtffLaneCount; ++lane) {
        if (!present[size_t(lane)])
            continue;
        laneTrack[size_t(lane)] = b.addTrack(core, TrackKind::Async, b.intern(ntffLaneName(static_cast<NtffLane>(lane))), lane);
        b.track(laneTrack[size_t(lane)]).sortIndex = lane;
    }

    // DMA queue lanes, in (engine, queue) order, for queues that carried packets.
    std::array<TrackId, 256> dmaTrack{};
    std::array<bool, 256> dmaUsed{};
    for (const auto &r : profile.dma)
        dmaUsed[size_t(r.engine) * 16 + r.queue] = true;
    for (uint32_t key = 0; key < 256; ++key) {
        if (!dmaUsed[key])
            continue;
        const uint32_t engine = key / 16, queue = key % 16;
        dmaTrack[key] = b.addTrack(core, TrackKind::Async, b.intern(dmaTrackName(profile, engine, queue)), key);
        b.track(dmaTrack[key]).sortIndex = kDmaSortBase + key;
    }

    b.reserveSlices(profile.instructions.size() + profile.dma.size());
    std::array<StringId, 256> opName{}; // interned on first use
    std::vector<StringId> extraOpName(profile.extraOpcodeNames.size());
    const StringId catInstruction = b.intern("instruction"), catDma = b.intern("dma");
    const StringId kPc = b.intern("pc"), kNeffIndex = b.intern("neff_instruction_index"),
                   kWait = b.intern("evt_wait_time"), kCrcIn = b.intern("crc_in"), kCrcOut = b.intern("crc_out"),
                   kWaitSemaphore = b.intern("wait_semaphore"), kWaitValue = b.intern("wait_value"),
                   kUpdateSemaphore = b.intern("update_semaphore"), kDmaSemaphore = b.intern("dma_semaphore");
    const StringId kLayer = b.intern(HierarchyNames::kLayer.arg), kHloOp = b.intern(HierarchyNames::kHlo.arg);
    std::vector<StringId> opString(profile.names.size()); // layer, HLO op, tensor and memory names
    for (size_t i = 0; i < opString.size(); ++i)
        opString[i] = b.intern(profile.names[i]);
    std::vector<uint32_t> instructionSlice(profile.instructions.size()), dmaSlice(profile.dma.size());
    for (size_t i = 0; i < profile.instructions.size(); ++i) {
        checkCancel(options, i);
        const NtffInstructionRow &r = profile.instructions[i];
        const bool extra = r.extraOpcode && r.extraOpcode <= extraOpName.size();
        StringId &name = extra ? extraOpName[r.extraOpcode - 1u] : opName[r.opcode];
        if (!name.isValid())
            name = b.intern(profile.opcodeName(r));
        std::array<Arg, 11> args;
        size_t n = 0;
        args[n++] = Arg::makeInt(kPc, r.pc);
        if (r.hasCompilerPc())
            args[n++] = Arg::makeInt(kNeffIndex, r.compilerPc);
        args[n++] = Arg::makeInt(kWait, r.evtWaitTime);
        args[n++] = Arg::makeInt(kCrcIn, r.crcIn);
        args[n++] = Arg::makeInt(kCrcOut, r.crcOut);
        const NtffSync sync = profile.syncOf(i); // what the dependency links are made from
        if (sync.waitsOnSemaphore()) {
            args[n++] = Arg::makeInt(kWaitSemaphore, sync.waitSemaphore);
            args[n++] = Arg::makeInt(kWaitValue, sync.waitValue);
        }
        if (sync.updatesSemaphore())
            args[n++] = Arg::makeInt(kUpdateSemaphore, sync.updateSemaphore);
        if (sync.dmaSemaphore >= 0)
            args[n++] = Arg::makeInt(kDmaSemaphore, sync.dmaSemaphore);
        if (i < profile.instructionOps.size()) {
            const NtffInstructionOp op = profile.instructionOps[i];
            if (op.layer)
                args[n++] = Arg::makeString(kLayer, opString[op.layer - 1u]);
            if (op.hlo)
                args[n++] = Arg::makeString(kHloOp, opString[op.hlo - 1u]);
        }
        const ArgSetId argSet = b.addArgs(std::span<const Arg>(args.data(), n));
        instructionSlice[i] =
            b.addSlice(laneTrack[static_cast<size_t>(r.lane)], r.timestamp, r.duration, name, catInstruction, argSet);
    }
    addOpSpans(b, core, profile, opString, false);
    addOpSpans(b, core, profile, opString, true);
    options.report(930);

    const StringId dmaName = b.intern("DMA packet");
    const StringId kSize = b.intern("transfer_size"), kEngine = b.intern("dma_engine"), kQueue = b.intern("dma_queue"),
                   kCrc = b.intern("crc");
    const DmaTagArgs &tags = HierarchyNames::kDmaTags;
    const DmaTagKeys tagKeys{b.intern(tags.variable), b.intern(tags.source), b.intern(tags.dest)};
    std::vector<std::pair<int64_t, int>> pending; // (time, +1 start / -1 end)
    pending.reserve(profile.dma.size() * 2);
    for (size_t i = 0; i < profile.dma.size(); ++i) {
        checkCancel(options, i);
        const NtffDmaRow &r = profile.dma[i];
        std::array<Arg, 7> args = {Arg::makeInt(kSize, r.transferSize), Arg::makeInt(kEngine, r.engine),
                                   Arg::makeInt(kQueue, r.queue), Arg::makeInt(kCrc, r.crc)};
        size_t n = 4;
        if (i < profile.dmaTags.size())
            n = addTagArgs(profile.dmaTags[i], tagKeys, opString, args, n);
        dmaSlice[i] = b.addSlice(dmaTrack[size_t(r.engine) * 16 + r.queue], r.timestamp, r.duration, dmaName, catDma,
                                 b.addArgs(std::span<const Arg>(args.data(), n)));
        pending.emplace_back(r.timestamp, +1);
        pending.emplace_back(saturatingEnd(r.timestamp, r.duration), -1);
    }
    addTransfers(b, core, profile, opString, tagKeys);
    options.report(960);

    // Counters: in-flight DMA packets (ends before starts at equal times), throttling, semaphores.
    if (!pending.empty()) {
        const TrackId t = b.addTrack(core, TrackKind::Counter, b.intern("pending DMAs"), 0);
        b.track(t).sortIndex = kCounterSortBase;
        b.track(t).unit = b.intern("packets");
        std::sort(pending.begin(), pending.end());
        int64_t level = 0;
        for (size_t i = 0; i < pending.size(); ++i) {
            level += pending[i].second;
            if (i + 1 == pending.size() || pending[i + 1].first != pending[i].first)
                b.addCounterSample(t, pending[i].first, double(level));
        }
    }
    if (!profile.throttle.empty()) {
        const TrackId t = b.addTrack(core, TrackKind::Counter, b.intern("throttling (utilization limit k/n)"), 0);
        b.track(t).sortIndex = kCounterSortBase + 1;
        b.track(t).unit = b.intern("fraction");
        for (const auto &r : profile.throttle)
            b.addCounterSample(t, r.timestamp, r.type == 99 || r.n == 0 ? 1.0 : double(r.k) / double(r.n));
        const NtffThrottleRow &last = profile.throttle.back();
        b.addCounterSample(t, saturatingEnd(last.timestamp, last.duration),
                           last.type == 99 || last.n == 0 ? 1.0 : double(last.k) / double(last.n));
    }
    if (!profile.semaphores.empty()) {
        const GroupId semGroup = b.addGroup(GroupKind::Counters, b.intern("semaphores"), core, 0);
        b.group(semGroup).sortIndex = kCounterSortBase + 2;
        std::array<TrackId, 256> semTrack{};
        std::array<bool, 256> used{};
        for (const auto &r : profile.semaphores)
            used[r.id] = true;
        for (size_t id = 0; id < used.size(); ++id) {
            if (!used[id])
                continue;
            const auto named = profile.semaphoreNames.find(uint32_t(id)); // "semaphore 8 (qSyncSpillReload0)"
            const std::string suffix = named == profile.semaphoreNames.end() ? std::string() : " (" + named->second + ")";
            semTrack[id] = b.addTrack(semGroup, TrackKind::Counter, b.intern("semaphore " + std::to_string(id) + suffix), int64_t(id));
        }
        for (size_t i = 0; i < profile.semaphores.size(); ++i) {
            checkCancel(options, i);
            const NtffSemaphoreRow &r = profile.semaphores[i];
            b.addCounterSample(semTrack[r.id], r.timestamp, double(r.value));
        }
    }
    // neuron-profile's own counters (SBUF / PSUM usage, DMA / HBM throughput), below the others.
    for (size_t k = 0; k < profile.counters.size(); ++k) {
        const NtffCounterSeries &c = profile.counters[k];
        const TrackId t = b.addTrack(core, TrackKind::Counter, b.intern(c.name), int64_t(k));
        b.track(t).sortIndex = kCounterSortBase + 3 + int64_t(k);
        b.track(t).unit = b.intern(c.unit);
        std::vector<std::pair<int64_t, double>> samples = c.samples;
        std::stable_sort(samples.begin(), samples.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
        for (const auto &[ts, value] : samples)
            b.addCounterSample(t, ts, value);
    }
    // Semaphore waits and DMA triggers as flows (the rules are in ntffdependencylinker.h).
    const auto links = NtffDependencyLinker::link(profile, instructionSlice, dmaSlice, b);
    if (links.unresolvedWaits)
        b.diagnostics().warn("semaphore waits with no releasing update or no known producer (not linked)",
                             std::string(), links.unresolvedWaits);
    options.report(980);
    Trace trace = b.finish();
    options.report(1000);
    return trace;
}

} // namespace lanescope
