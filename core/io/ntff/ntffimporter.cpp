#include "ntffimporter.h"

#include "io/input/inputbuffer.h"
#include "model/hierarchynames.h"
#include "model/subnanosecond.h"
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
    StringId variable, source, dest, queueType;
};

// The tensor, memories and queue type of a DMA row as string args after args[n]; returns the new count.
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
    add(tag.queueType, keys.queueType);
    return n;
}

// The "DMA transfers" lane: one slice per transfer neuron-profile summarised (its packets are on the
// queue lanes), named after the tensor it moves.
std::vector<uint32_t> addTransfers(TraceBuilder &b, GroupId core, const NtffProfile &profile, const std::vector<StringId> &names,
                                   const DmaTagKeys &keys)
{
    std::vector<uint32_t> slices;
    if (profile.dmaBlocks.empty())
        return slices;
    const TrackId track = b.addTrack(core, TrackKind::Async, b.intern(HierarchyNames::kTransfers.name), 0);
    b.track(track).sortIndex = kDmaSortBase - 1;
    const StringId category = b.intern(HierarchyNames::kTransfers.category), unnamed = b.intern("DMA transfer");
    const StringId kSize = b.intern("transfer_size"), kQueue = b.intern("queue");
    for (const NtffDmaBlock &blk : profile.dmaBlocks) {
        std::array<Arg, 6> args = {Arg::makeUInt(kSize, blk.transferSize), Arg::makeString(kQueue, b.intern(blk.queue))};
        const size_t n = addTagArgs(blk.tag, keys, names, args, 2);
        const StringId name = blk.tag.variable && blk.tag.variable <= names.size() ? names[blk.tag.variable - 1u] : unnamed;
        slices.push_back(b.addSlice(track, blk.timestamp, blk.duration, name, category, b.addArgs(std::span<const Arg>(args.data(), n))));
    }
    return slices;
}

// The lanes of rows an NTFF and its JSON export lack (NtffEventLane: Neuron Explorer's collectives, core
// barriers, hardware errors), in the lane set of their physical core or of the NeuronCore itself.
void addEventLanes(TraceBuilder &b, GroupId core, const std::vector<GroupId> &laneSet, const NtffProfile &profile,
                   const std::vector<StringId> &names)
{
    std::vector<TrackId> track(profile.eventLanes.size());
    std::vector<StringId> category(profile.eventLanes.size());
    for (size_t i = 0; i < profile.eventLanes.size(); ++i) {
        const NtffEventLane &l = profile.eventLanes[i];
        const GroupId group = l.core == kNtffLogicalCore || laneSet.empty() ? core : laneSet[std::min<size_t>(l.core, laneSet.size() - 1)];
        track[i] = b.addTrack(group, TrackKind::Async, b.intern(l.name), int64_t(i));
        b.track(track[i]).sortIndex = l.sortIndex;
        category[i] = b.intern(l.category);
    }
    std::vector<Arg> args;
    for (const NtffLaneEvent &e : profile.laneEvents) {
        if (e.lane >= track.size())
            continue;
        args.clear();
        for (uint32_t k = e.firstArg; k < e.firstArg + e.argCount && k < profile.eventArgs.size(); ++k) {
            const NtffEventArg &a = profile.eventArgs[k];
            if (!a.key || a.key > names.size())
                continue;
            const StringId key = names[a.key - 1u];
            if (a.kind == NtffEventArg::Kind::Int)
                args.push_back(Arg::makeInt(key, a.integer));
            else if (a.kind == NtffEventArg::Kind::Real)
                args.push_back(Arg::makeDouble(key, a.real));
            else if (a.text && a.text <= names.size())
                args.push_back(Arg::makeString(key, names[a.text - 1u]));
        }
        const StringId name = e.name && e.name <= names.size() ? names[e.name - 1u] : category[e.lane];
        const ArgSetId set = b.addArgs(args);
        if (e.duration < 0)
            b.addInstant(track[e.lane], e.timestamp, name, category[e.lane], set);
        else
            b.addSlice(track[e.lane], e.timestamp, e.duration, name, category[e.lane], set);
    }
}

} // namespace

std::string NtffImporter::dmaTrackName(const NtffProfile &profile, uint32_t engine, uint32_t queue)
{
    const std::string suffix = "Q" + std::to_string(queue) + "-E" + std::to_string(engine);
    const NtffDmaQueue *q = profile.dmaQueue(engine, queue);
    // neuron-profile leaves the DGE queues unnamed, software ("...Dynamic", one per DMA engine) and, on
    // trn2, hardware ("...DynamicHW"): their packets show as "Q0-E<n>". Do the same, so lanes read as
    // in AWS's own tool.
    const auto endsWith = [q](std::string_view suffix) {
        return q->displayName.size() >= suffix.size()
            && q->displayName.compare(q->displayName.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    const bool dynamic = q && (endsWith("Dynamic") || endsWith("DynamicHW"));
    return q && !q->displayName.empty() && !dynamic ? q->displayName + "-" + suffix : suffix;
}

std::string NtffImporter::coreGroupName(const NtffProfile &profile)
{
    std::string name = "NeuronCore 0";
    if (profile.cores.size() > 1) { // "NeuronCore 0 (pcore 4, pcore 5)"
        name += " (";
        for (size_t k = 0; k < profile.cores.size(); ++k)
            name += (k ? ", " : "") + profile.cores[k].label();
        name += ")";
    } else if (!profile.subgraphName.empty()) {
        name += " (" + profile.subgraphName + ")";
    }
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
    if (!profile.instanceId.empty())
        entry("instance_id", profile.instanceId);
    if (profile.totalTimePs)
        entry("total_time_ps", std::to_string(*profile.totalTimePs));
    if (profile.cores.size() > 1) { // per physical core: "pcore[1].index" = 5, "pcore[1].subgraph" = sg01
        entry("physical_cores", std::to_string(profile.cores.size()));
        for (size_t k = 0; k < profile.cores.size(); ++k) {
            const NtffCore &c = profile.cores[k];
            const std::string key = "pcore[" + std::to_string(k) + "].";
            md.entries.emplace_back(key + "subgraph", c.subgraphName);
            if (c.index)
                md.entries.emplace_back(key + "index", std::to_string(*c.index));
            if (c.totalTimePs)
                md.entries.emplace_back(key + "total_time_ps", std::to_string(*c.totalTimePs));
            // v4/v5: where this core's own start NOTIFY ended, ns from the origin (neuron-profile 2.25's
            // summary-text times each core from there; EngineBreakdown reads it)
            if (c.startNotifyEndPs && profile.windowStartPs == std::nullopt)
                md.entries.emplace_back(key + "window_start_ns", std::to_string((*c.startNotifyEndPs - profile.originPs) / 1000));
        }
    }
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
        if (profile.cores.size() > 1)
            md.entries.emplace_back(key + "pcore", std::to_string(m.core));
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
    // The lane set of each physical core: the NeuronCore itself when it has one, else a "pcore 4" group
    // per physical core below it (per-engine numbers stay per logical core, as AWS reports them).
    size_t coreCount = std::max<size_t>(1, profile.cores.size());
    for (const auto &r : profile.instructions)
        coreCount = std::max<size_t>(coreCount, r.core + 1u);
    for (const auto &r : profile.dma)
        coreCount = std::max<size_t>(coreCount, r.core + 1u);
    std::vector<GroupId> laneSet(coreCount, core);
    if (coreCount > 1)
        for (size_t k = 0; k < coreCount; ++k) {
            const std::string label = k < profile.cores.size() ? profile.cores[k].label() : "pcore " + std::to_string(k);
            laneSet[k] = b.addGroup(GroupKind::PhysicalCore, b.intern(label), core, int64_t(k));
            b.group(laneSet[k]).sortIndex = int64_t(k);
        }

    // Engine lanes per physical core: every engine with a program, TensorMatrix when MATMULs ran.
    std::vector<std::array<bool, kNtffLaneCount>> present(coreCount);
    for (const auto &p : profile.programs)
        if (p.core < coreCount)
            present[p.core][static_cast<size_t>(ntffLaneOf(p.engine))] = true;
    for (const auto &r : profile.instructions)
        present[r.core][static_cast<size_t>(r.lane)] = true;
    std::vector<std::array<TrackId, kNtffLaneCount>> laneTrack(coreCount);
    for (size_t k = 0; k < coreCount; ++k)
        for (int lane = 0; lane < kNtffLaneCount; ++lane) {
            if (!present[k][size_t(lane)])
                continue;
            laneTrack[k][size_t(lane)] =
                b.addTrack(laneSet[k], TrackKind::Async, b.intern(ntffLaneName(static_cast<NtffLane>(lane))), lane);
            b.track(laneTrack[k][size_t(lane)]).sortIndex = lane;
        }

    // DMA queue lanes, in (engine, queue) order, for queues that carried packets, in the lane set of the
    // physical core whose engines they are (neuron-profile's engine numbers differ between the cores).
    constexpr size_t kDmaKeys = 256 * 16;
    std::vector<TrackId> dmaTrack(kDmaKeys);
    std::vector<int16_t> dmaCore(kDmaKeys, -1);
    for (const auto &r : profile.dma)
        dmaCore[size_t(r.engine) * 16 + r.queue] = r.core;
    for (uint32_t key = 0; key < kDmaKeys; ++key) {
        if (dmaCore[key] < 0)
            continue;
        const uint32_t engine = key / 16, queue = key % 16;
        dmaTrack[key] = b.addTrack(laneSet[size_t(dmaCore[key])], TrackKind::Async, b.intern(dmaTrackName(profile, engine, queue)), key);
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
    const StringId kSubNs = b.intern(SubNanosecond::kArg);
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
        std::array<Arg, 12> args;
        size_t n = 0;
        args[n++] = Arg::makeInt(kPc, r.pc);
        if (i < profile.instructionSubNsPs.size())
            args[n++] = Arg::makeInt(kSubNs, profile.instructionSubNsPs[i]);
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
            b.addSlice(laneTrack[r.core][static_cast<size_t>(r.lane)], r.timestamp, r.duration, name, catInstruction, argSet);
    }
    addOpSpans(b, core, profile, opString, false);
    addOpSpans(b, core, profile, opString, true);
    options.report(930);

    const StringId dmaName = b.intern("DMA packet");
    const StringId kSize = b.intern("transfer_size"), kEngine = b.intern("dma_engine"), kQueue = b.intern("dma_queue"),
                   kCrc = b.intern("crc");
    const DmaTagArgs &tags = HierarchyNames::kDmaTags;
    const DmaTagKeys tagKeys{b.intern(tags.variable), b.intern(tags.source), b.intern(tags.dest), b.intern("queue_type")};
    std::vector<std::vector<std::pair<int64_t, int>>> pending(coreCount); // per core: (time, +1 start / -1 end)
    for (size_t i = 0; i < profile.dma.size(); ++i) {
        checkCancel(options, i);
        const NtffDmaRow &r = profile.dma[i];
        std::array<Arg, 8> args = {Arg::makeInt(kSize, r.transferSize), Arg::makeInt(kEngine, r.engine),
                                   Arg::makeInt(kQueue, r.queue), Arg::makeInt(kCrc, r.crc)};
        size_t n = 4;
        if (i < profile.dmaTags.size())
            n = addTagArgs(profile.dmaTags[i], tagKeys, opString, args, n);
        dmaSlice[i] = b.addSlice(dmaTrack[size_t(r.engine) * 16 + r.queue], r.timestamp, r.duration, dmaName, catDma,
                                 b.addArgs(std::span<const Arg>(args.data(), n)));
        pending[r.core].emplace_back(r.timestamp, +1);
        pending[r.core].emplace_back(saturatingEnd(r.timestamp, r.duration), -1);
    }
    const std::vector<uint32_t> blockSlice = addTransfers(b, core, profile, opString, tagKeys);
    addEventLanes(b, core, laneSet, profile, opString);
    options.report(960);

    // Counters per physical core: in-flight DMA packets (ends before starts at equal times), throttling,
    // semaphores.
    for (size_t k = 0; k < coreCount; ++k) {
        auto &events = pending[k];
        if (events.empty())
            continue;
        const TrackId t = b.addTrack(laneSet[k], TrackKind::Counter, b.intern("pending DMAs"), 0);
        b.track(t).sortIndex = kCounterSortBase;
        b.track(t).unit = b.intern("packets");
        std::sort(events.begin(), events.end());
        int64_t level = 0;
        for (size_t i = 0; i < events.size(); ++i) {
            level += events[i].second;
            if (i + 1 == events.size() || events[i + 1].first != events[i].first)
                b.addCounterSample(t, events[i].first, double(level));
        }
    }
    std::vector<TrackId> throttleTrack(coreCount);
    std::vector<const NtffThrottleRow *> lastThrottle(coreCount, nullptr);
    const auto throttleValue = [](const NtffThrottleRow &r) { return r.type == 99 || r.n == 0 ? 1.0 : double(r.k) / double(r.n); };
    for (const auto &r : profile.throttle) {
        const size_t k = std::min<size_t>(r.core, coreCount - 1);
        if (!throttleTrack[k].isValid()) {
            throttleTrack[k] = b.addTrack(laneSet[k], TrackKind::Counter, b.intern("throttling (utilization limit k/n)"), 0);
            b.track(throttleTrack[k]).sortIndex = kCounterSortBase + 1;
            b.track(throttleTrack[k]).unit = b.intern("fraction");
        }
        b.addCounterSample(throttleTrack[k], r.timestamp, throttleValue(r));
        lastThrottle[k] = &r;
    }
    for (size_t k = 0; k < coreCount; ++k)
        if (lastThrottle[k])
            b.addCounterSample(throttleTrack[k], saturatingEnd(lastThrottle[k]->timestamp, lastThrottle[k]->duration),
                               throttleValue(*lastThrottle[k]));
    if (!profile.semaphores.empty()) {
        std::vector<std::array<TrackId, 256>> semTrack(coreCount);
        std::vector<std::array<bool, 256>> used(coreCount);
        for (const auto &r : profile.semaphores)
            used[std::min<size_t>(r.core, coreCount - 1)][r.id] = true;
        for (size_t k = 0; k < coreCount; ++k) {
            if (std::none_of(used[k].begin(), used[k].end(), [](bool u) { return u; }))
                continue;
            const GroupId semGroup = b.addGroup(GroupKind::Counters, b.intern("semaphores"), laneSet[k], 0);
            b.group(semGroup).sortIndex = kCounterSortBase + 2;
            for (size_t id = 0; id < used[k].size(); ++id) {
                if (!used[k][id])
                    continue;
                const std::string_view named = profile.semaphoreName(uint8_t(k), uint8_t(id)); // "semaphore 8 (qSyncSpillReload0)"
                const std::string suffix = named.empty() ? std::string() : " (" + std::string(named) + ")";
                semTrack[k][id] = b.addTrack(semGroup, TrackKind::Counter, b.intern("semaphore " + std::to_string(id) + suffix), int64_t(id));
            }
        }
        for (size_t i = 0; i < profile.semaphores.size(); ++i) {
            checkCancel(options, i);
            const NtffSemaphoreRow &r = profile.semaphores[i];
            b.addCounterSample(semTrack[std::min<size_t>(r.core, coreCount - 1)][r.id], r.timestamp, double(r.value));
        }
    }
    // neuron-profile's own counters (SBUF / PSUM usage, DMA / HBM throughput), below the others, in the
    // lane set of the physical core they were computed for.
    for (size_t k = 0; k < profile.counters.size(); ++k) {
        const NtffCounterSeries &c = profile.counters[k];
        const TrackId t = b.addTrack(laneSet[std::min<size_t>(c.core, coreCount - 1)], TrackKind::Counter, b.intern(c.name), int64_t(k));
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
    if (links.incrementSkips && links.unresolvedWaits) // why, when the trace says
        b.diagnostics().warn("semaphore increments that skip values: the updates between them are missing from the trace "
                             "(event records lost by the capture), so waits on them cannot be linked",
                             std::string(), links.incrementSkips);
    // The profile's own dependency edges (Neuron Explorer's Flow table), beside the links made above.
    if (!profile.dependencies.empty()) {
        const StringId catDependency = b.intern("dependency"), unnamed = b.intern("dependency");
        uint64_t dangling = 0;
        const auto sliceOf = [&](NtffDependency::End kind, uint32_t i) -> std::optional<uint32_t> {
            const std::vector<uint32_t> &slices = kind == NtffDependency::End::Instruction ? instructionSlice : blockSlice;
            return i < slices.size() ? std::optional<uint32_t>(slices[i]) : std::nullopt;
        };
        for (const NtffDependency &d : profile.dependencies) {
            const auto from = sliceOf(d.fromKind, d.from), to = sliceOf(d.toKind, d.to);
            if (!from || !to) {
                ++dangling;
                continue;
            }
            const StringId name = d.type && d.type <= opString.size() ? opString[d.type - 1u] : unnamed;
            b.addFlow(FlowEnd::slice(*from), FlowEnd::slice(*to), catDependency, name, 0);
        }
        if (dangling)
            b.diagnostics().warn("dependency edges whose end is no row of the trace (not linked)", std::string(), dangling);
    }
    options.report(980);
    Trace trace = b.finish();
    options.report(1000);
    return trace;
}

} // namespace lanescope
