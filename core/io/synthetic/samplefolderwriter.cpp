#include "samplefolderwriter.h"

#include "neffdebugwriter.h"
#include "neffwriter.h"
#include "ntffwriter.h"
#include "sampleprogramops.h"
#include "util/textutil.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace lanescope {

namespace {

constexpr int64_t kUs = 1000;
constexpr int64_t kOriginPs = 5'000'000; // device trace origin, ps after the clock sync point
constexpr int kTiles = 4;                // x: [512, 4096] bf16 = 4 tiles of 128 partitions
constexpr uint32_t kTileBytes = 128 * 4096 * 2;
constexpr uint32_t kPacketBytes = 64 * 1024;
constexpr uint32_t kRowStatBytes = 128 * 2; // one value per row of a tile
constexpr uint32_t kWeightBytes = 4096 * 2;

// ---------------------------------------------------------------- device simulation

enum class Queue { Load, Store, Weights };

struct QueueSpec
{
    const char *name; // as the compiler names it (NEFF def.json, NTFF descriptors)
    const char *owner;
    uint32_t queue;
    uint32_t firstEngine, engines;
    uint8_t semBase;
};

constexpr QueueSpec kQueues[] = {{"qSPIO0", "sp", 1, 0, 4, 8}, {"qActIO0", "act", 0, 4, 4, 24}, {"qPoolIO0", "pool", 2, 8, 1, 40}};
const QueueSpec &spec(Queue q) { return kQueues[static_cast<int>(q)]; }

struct Instr
{
    NtffEngine engine;
    uint8_t opcode;
    int64_t begin, end; // ns from the origin
    uint32_t wait = 0;  // cycles
    int stage = -1;     // the recipe step it belongs to (its op in the NEFF's debug chain), -1 = none
};
struct Packet
{
    uint32_t engine, queue;
    int64_t start, end;
    uint32_t size;
};
struct SemUpdate
{
    uint8_t id;
    int64_t t;
    uint32_t value;
    uint8_t source;
};

struct Step
{
    NtffEngine engine;
    uint8_t opcode;
    int count;
    int64_t ns; // per instruction
};

struct Recipe
{
    std::vector<std::pair<Queue, uint32_t>> loads; // per tile
    std::vector<Step> steps;                       // per tile, in dependency order
    uint32_t storeBytes = 0;                       // per tile
    bool weights = false;                          // one weight load before the tiles
    bool tableLoad = false;                        // Scalar loads an activation table first
};

constexpr uint8_t kActivate = 0x21, kActTable = 0x23, kVectorOp = 0x41, kMatmul = 0x02, kLdWeights = 0x01,
                  kWaitSem = 0xa0, kDmaTrigger = 0xb8, kNotify = 0xa6;

Recipe recipeFor(const std::string &op)
{
    using E = NtffEngine;
    if (op == "aten::pow")
        return {{{Queue::Load, kTileBytes}}, {{E::Scalar, kActivate, 8, 1100}}, kTileBytes, false, true};
    if (op == "aten::mean")
        return {{{Queue::Load, kTileBytes}}, {{E::Vector, kVectorOp, 8, 800}, {E::Vector, kVectorOp, 1, 250}}, kRowStatBytes};
    if (op == "aten::rsqrt")
        return {{{Queue::Load, kRowStatBytes}}, {{E::Scalar, kActivate, 1, 400}}, kRowStatBytes, false, true};
    if (op == "aten::mul")
        return {{{Queue::Load, kTileBytes}, {Queue::Load, kRowStatBytes}}, {{E::Vector, kVectorOp, 8, 900}}, kTileBytes};
    if (op == "aten::rms_norm")
        return {{{Queue::Load, kTileBytes}},
                {{E::Scalar, kActivate, 8, 1100}, {E::Vector, kVectorOp, 1, 250}, {E::Scalar, kActivate, 1, 400},
                 {E::Vector, kVectorOp, 8, 900}},
                kTileBytes, true, true};
    // torch.compile: squares summed on the Tensor engine, the scaling fused into one ACTIVATE pass
    return {{{Queue::Load, kTileBytes}},
            {{E::Tensor, kLdWeights, 1, 200}, {E::Tensor, kMatmul, 8, 350}, {E::Vector, kVectorOp, 1, 250},
             {E::Scalar, kActivate, 1, 400}, {E::Scalar, kActivate, 8, 1000}},
            kTileBytes, true, true};
}

class DeviceSim
{
public:
    explicit DeviceSim(text::SplitMix64 &rng) : m_rng(rng) {}

    void run(const Recipe &r)
    {
        int64_t ready = 200;
        m_stage = -1; // the table and weight loads belong to no step
        if (r.tableLoad)
            ready = std::max(ready, compute(NtffEngine::Scalar, kActTable, 0, 1500));
        if (r.weights)
            ready = std::max(ready, transfer(Queue::Weights, 0, kWeightBytes));
        std::array<int64_t, kTiles> loaded{}, computed{};
        auto load = [&](int i, int64_t after) {
            m_stage = 0; // a tile's loads feed the first step
            int64_t done = 0;
            for (const auto &[q, bytes] : r.loads)
                done = std::max(done, transfer(q, after, bytes));
            loaded[size_t(i)] = done;
        };
        load(0, 0);
        load(1, 0);
        for (int i = 0; i < kTiles; ++i) {
            int64_t t = std::max(loaded[size_t(i)], ready);
            NtffEngine previous = NtffEngine::Sync;
            m_stage = -1;
            for (const Step &s : r.steps) {
                ++m_stage;
                if (s.engine != previous)
                    t = wait(s.engine, t);
                for (int k = 0; k < s.count; ++k)
                    t = compute(s.engine, s.opcode, t, s.ns);
                previous = s.engine;
            }
            computed[size_t(i)] = t;
            semaphore(uint8_t(3 + static_cast<int>(previous) % 4), t, uint8_t(previous));
            transfer(Queue::Store, t, r.storeBytes);
            if (i + 2 < kTiles)
                load(i + 2, computed[size_t(i)]);
        }
    }

    int64_t end() const
    {
        int64_t e = 0;
        for (const Instr &i : m_instrs)
            e = std::max(e, i.end);
        for (const Packet &p : m_packets)
            e = std::max(e, p.end);
        return e;
    }
    const std::vector<Instr> &instructions() const { return m_instrs; }
    const std::vector<Packet> &packets() const { return m_packets; }
    const std::vector<SemUpdate> &semaphores() const { return m_sems; }

private:
    int64_t &free(NtffEngine e) { return m_engineFree[static_cast<size_t>(e)]; }

    int64_t compute(NtffEngine e, uint8_t opcode, int64_t ready, int64_t ns)
    {
        const int64_t begin = std::max(free(e), ready);
        const int64_t end = begin + m_rng.vary(ns, 50);
        m_instrs.push_back({e, opcode, begin, end});
        m_instrs.back().stage = m_stage;
        free(e) = end + m_rng.vary(40, 300);
        return end;
    }

    // The engine waits on a semaphore until `ready`: an EVENT_SEMAPHORE spanning the wait.
    int64_t wait(NtffEngine e, int64_t ready)
    {
        const int64_t begin = free(e);
        const int64_t end = std::max(begin, ready) + 30;
        m_instrs.push_back({e, kWaitSem, begin, end, uint32_t(std::min<int64_t>(0xffff, (end - begin) * 14 / 10)), m_stage});
        free(e) = end;
        return end;
    }

    void semaphore(uint8_t id, int64_t t, uint8_t source) { m_sems.push_back({id, t, ++m_semValue[id], source}); }

    // Sync triggers the DMA; packets of up to 64 KiB go round-robin over the queue's DMA engines.
    int64_t transfer(Queue q, int64_t ready, uint32_t bytes)
    {
        const QueueSpec &s = spec(q);
        const int64_t issue = compute(NtffEngine::Sync, kDmaTrigger, ready, 90);
        int64_t done = issue;
        uint32_t k = 0;
        for (uint32_t left = bytes; left > 0; ++k) {
            const uint32_t size = std::min(left, kPacketBytes);
            left -= size;
            const uint32_t engine = s.firstEngine + k % s.engines;
            const int64_t start = std::max(m_dmaFree[engine], issue + 100);
            const int64_t end = start + m_rng.vary(150 + int64_t(size) / 12, 60);
            m_packets.push_back({engine, s.queue, start, end, size});
            m_dmaFree[engine] = end + 20;
            done = std::max(done, end);
        }
        semaphore(uint8_t(s.semBase + m_transfers[static_cast<size_t>(q)]++ % 16), done + 10, 6);
        return done + 10;
    }

    text::SplitMix64 &m_rng;
    int m_stage = -1; // the recipe step being simulated (Instr::stage)
    std::array<int64_t, 6> m_engineFree{};
    std::array<int64_t, 16> m_dmaFree{};
    std::array<uint32_t, 3> m_transfers{};
    std::map<uint8_t, uint32_t> m_semValue;
    std::vector<Instr> m_instrs;
    std::vector<Packet> m_packets;
    std::vector<SemUpdate> m_sems;
};

void writeNtff(const SampleFolderWriter::Execution &x, const DeviceSim &sim, text::SplitMix64 &rng, const std::string &path)
{
    NtffProfile layout;
    layout.uuid = x.uuid;
    layout.neffName = x.neffFile;
    layout.runtimeVersion = "2.29.40 (5e171)";
    layout.driverVersion = "2.25.0 ()";
    layout.collectivesVersion = "2.29.41 ()";
    layout.instanceType = "trn1.2xlarge";
    layout.subgraphName = "sg00";
    const int64_t endNs = sim.end() + 300;
    layout.totalTimePs = uint64_t(endNs * 1000 + 300'000); // latest hint-3 begin - earliest hint-2 begin
    // Programs in time order per engine, between the start (hint 2) and end (hint 3) NOTIFY.
    std::array<std::vector<const Instr *>, kNtffEngineCount + 1> byEngine;
    for (const Instr &i : sim.instructions())
        byEngine[static_cast<size_t>(i.engine)].push_back(&i);
    for (auto &list : byEngine)
        std::stable_sort(list.begin(), list.end(), [](const Instr *a, const Instr *b) { return a->begin < b->begin; });
    for (int e = 1; e <= kNtffEngineCount; ++e) {
        std::vector<uint8_t> ops = {kNotify}, hints = {2};
        for (const Instr *i : byEngine[size_t(e)]) {
            ops.push_back(i->opcode);
            hints.push_back(0);
        }
        ops.push_back(kNotify);
        hints.push_back(3);
        layout.programs.push_back(NtffWriter::makeProgram(static_cast<NtffEngine>(e), ops, hints));
    }
    for (const QueueSpec &q : kQueues)
        for (uint32_t k = 0; k < q.engines; ++k)
            layout.dmaQueues.push_back({q.firstEngine + k, q.queue, 2, q.name, ntffQueueDisplayName(q.name)});
    NtffWriter w(layout);
    for (int e = 1; e <= kNtffEngineCount; ++e) {
        const auto engine = static_cast<NtffEngine>(e);
        const int64_t notifyEnd = kOriginPs - (engine == NtffEngine::Tensor ? 0 : 10'000 * e); // Tensor's ends last: the origin
        w.addInstruction(engine, 0, notifyEnd - 200'000, notifyEnd);
        uint32_t pc = 1;
        for (const Instr *i : byEngine[size_t(e)])
            w.addInstruction(engine, pc++, kOriginPs + i->begin * 1000, kOriginPs + i->end * 1000, i->wait);
        const int64_t endBegin = kOriginPs + (endNs + 10 * e) * 1000;
        w.addInstruction(engine, pc, endBegin, endBegin + 150'000);
    }
    for (const Packet &p : sim.packets())
        w.addDmaPacket(p.engine, p.queue, kOriginPs + p.start * 1000, kOriginPs + p.end * 1000, p.size,
                       uint16_t(rng.next() & 0xffff));
    for (const SemUpdate &s : sim.semaphores())
        w.addSemaphoreUpdate(s.id, kOriginPs + s.t * 1000, s.value, s.source);
    w.addThrottle(kOriginPs, 1, 1, 99);
    w.save(path);
}

// The NEFF's instruction streams, debug chain and hlo_stats.json. Each engine's .bin holds the
// program as the NTFF executes it: the start NOTIFY, the instructions in time order, the end NOTIFY
// (one 64-byte placeholder each; the encoding is not public, only the opcode byte is set, as ntff.md
// section 6 names them), so an NTFF row's compiler_pc indexes it and its debug entry names the op.
void writeProgram(NeffWriter &w, const SampleFolderWriter::Execution &x, const Recipe &r, const DeviceSim &sim)
{
    constexpr std::array<std::pair<NtffEngine, NeffEngine>, 5> engines = {{{NtffEngine::Tensor, NeffEngine::Tensor},
                                                                         {NtffEngine::Scalar, NeffEngine::Scalar},
                                                                         {NtffEngine::GpSimd, NeffEngine::GpSimd},
                                                                         {NtffEngine::Vector, NeffEngine::Vector},
                                                                         {NtffEngine::Sync, NeffEngine::Sync}}};
    const std::vector<sampleprogram::StepOp> ops = sampleprogram::stepOps(x.op);
    NeffDebugWriter debug;
    std::map<std::string, uint32_t> penguinOf; // step op name -> Penguin op (two steps of one dot share it)
    std::vector<uint32_t> stagePenguin;
    for (const sampleprogram::StepOp &o : ops) {
        auto it = penguinOf.find(o.name);
        if (it == penguinOf.end())
            it = penguinOf
                     .emplace(o.name, sampleprogram::isNki(x.op)
                                          ? debug.addKernelOp(o.penguinType, sampleprogram::kKernelFile, o.line)
                                          : debug.addHlo(o.name, o.opType, sampleprogram::kSourceFile, o.line, o.scope, o.penguinType))
                     .first;
        stagePenguin.push_back(it->second);
    }
    const auto instruction = [](uint8_t opcode) {
        std::string one(64, '\0');
        one[0] = char(opcode);
        one[1] = char(0x10);
        return one;
    };
    for (const auto &[ntff, neff] : engines) {
        std::vector<const Instr *> list;
        for (const Instr &i : sim.instructions())
            if (i.engine == ntff)
                list.push_back(&i);
        std::stable_sort(list.begin(), list.end(), [](const Instr *a, const Instr *b) { return a->begin < b->begin; });
        const std::string engine = NeffWriter::engineFileStem(neff);
        std::string bin = instruction(kNotify);
        debug.addInstruction(engine, NeffDebugWriter::kNone);
        for (const Instr *i : list) {
            bin += instruction(i->opcode);
            debug.addInstruction(engine, i->stage >= 0 && size_t(i->stage) < stagePenguin.size() ? stagePenguin[size_t(i->stage)]
                                                                                                 : NeffDebugWriter::kNone);
        }
        bin += instruction(kNotify);
        debug.addInstruction(engine, NeffDebugWriter::kNone);
        w.setInstructions(neff, bin);
    }
    for (auto &[name, bytes] : debug.members())
        w.addMember(name, bytes);
    if (const int64_t macs = sampleprogram::macCount(x.op); macs >= 0) {
        uint64_t traffic = uint64_t(kTiles) * r.storeBytes + (r.weights ? kWeightBytes : 0);
        for (const auto &load : r.loads)
            traffic += uint64_t(kTiles) * load.second;
        w.addMember("hlo_stats.json", NeffWriter::hloStatsJson(macs, int64_t(traffic)));
    }
}

void writeNeff(const SampleFolderWriter::Execution &x, const Recipe &r, const DeviceSim &sim, const std::string &path)
{
    NeffWriter w;
    writeProgram(w, x, r, sim);
    w.setUuid(x.uuid);
    const size_t colons = x.op.rfind("::");
    w.setNetworkName("synthetic_rmsnorm_" + (colons == std::string::npos ? std::string("compiled") : x.op.substr(colons + 2)) + ".neff");
    w.setCompilerVersion("2.21.18209.0+synthetic");
    w.setTarget("sunda");
    const bool rowStatIn = r.loads.front().second == kRowStatBytes;
    w.addVariable({"SB", "state-buffer", 0, {}, {}});
    w.addVariable({"x", "input", uint64_t(kTiles) * (rowStatIn ? kRowStatBytes : kTileBytes), "bfloat16",
                   rowStatIn ? std::vector<int64_t>{512, 1} : std::vector<int64_t>{512, 4096}});
    if (r.loads.size() > 1)
        w.addVariable({"r", "input", uint64_t(kTiles) * kRowStatBytes, "bfloat16", {512, 1}});
    if (r.weights)
        w.addVariable({"w", "input", kWeightBytes, "bfloat16", {4096}});
    const bool rowStatOut = r.storeBytes == kRowStatBytes;
    w.addVariable({"out", "output", uint64_t(kTiles) * r.storeBytes, "bfloat16",
                   rowStatOut ? std::vector<int64_t>{512, 1} : std::vector<int64_t>{512, 4096}});
    for (const QueueSpec &q : kQueues) {
        std::vector<int64_t> sems;
        for (int i = 0; i < 16; ++i)
            sems.push_back(q.semBase + i);
        w.addDmaQueue({q.name, q.owner, "in", 16, sems});
    }
    int sem = 0;
    for (int t = 0; t < kTiles; ++t) {
        for (size_t l = 0; l < r.loads.size(); ++l)
            w.addDmaBlock({NeffEngine::Sync, "qSPIO0", 8 + sem++ % 16, "I-" + std::to_string(t) + "-" + std::to_string(l) + "-block-1",
                           l == 0 ? "x" : "r", "SB", "bfloat16", {int64_t(r.loads[l].second / 128), 128}, {}});
        w.addDmaBlock({NeffEngine::Scalar, "qActIO0", 24 + t % 16, "O-" + std::to_string(t) + "-block-1", "SB", "out",
                       "bfloat16", {int64_t(r.storeBytes / 128), 128}, {}});
    }
    if (r.weights)
        w.addDmaBlock({NeffEngine::GpSimd, "qPoolIO0", 40, "W-0-block-1", "w", "SB", "bfloat16", {int64_t(kWeightBytes), 1}, {}});
    w.save(path);
}

// ---------------------------------------------------------------- host (Kineto) trace

void appendEscaped(std::string &out, std::string_view s)
{
    out += '"';
    for (const char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
}

void appendMicros(std::string &out, int64_t ns) // µs with 3 decimals, digit-exact (ns >= 0)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
    out += buf;
}

struct HostEvent
{
    char ph;
    std::string cat, name;
    int64_t tid;
    int64_t ts, dur; // ns; dur < 0: none
    std::string args; // members of "args"
};

class HostTrace
{
public:
    void add(HostEvent e) { m_events.push_back(std::move(e)); }
    size_t slice(const char *cat, std::string name, int64_t tid, int64_t ts, std::string args = {})
    {
        m_events.push_back({'X', cat, std::move(name), tid, ts, 0, std::move(args)});
        return m_events.size() - 1;
    }
    HostEvent &at(size_t i) { return m_events[i]; }
    size_t size() const { return m_events.size(); }

    std::string json(uint64_t seed) const
    {
        std::string out = "{\n  \"schemaVersion\": 1,\n  \"synthetic\": true,\n";
        out += "  \"traceName\": \"synthetic_rmsnorm_profile (generated by lanescope-cli generate-sample --folder, seed " +
               std::to_string(seed) + "; synthetic data, not a measurement)\",\n";
        out += "  \"deviceProperties\": [{\"id\": 0, \"name\": \"NeuronCore-v2 (synthetic)\", \"numCores\": 1}],\n";
        out += "  \"distributedInfo\": {\"backend\": \"xla\", \"rank\": 0, \"world_size\": 1},\n";
        out += "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1735689600000000000,\n  \"traceEvents\": [";
        std::vector<HostEvent> sorted = m_events;
        std::stable_sort(sorted.begin(), sorted.end(), [](const HostEvent &a, const HostEvent &b) {
            return (a.ph == 'M') != (b.ph == 'M') ? b.ph == 'M' : a.ts < b.ts;
        });
        for (size_t i = 0; i < sorted.size(); ++i) {
            const HostEvent &e = sorted[i];
            out += i ? ",\n  {" : "\n  {";
            out += "\"ph\": \"" + std::string(1, e.ph) + "\"";
            if (!e.cat.empty()) {
                out += ", \"cat\": ";
                appendEscaped(out, e.cat);
            }
            out += ", \"name\": ";
            appendEscaped(out, e.name);
            out += ", \"pid\": " + std::to_string(SampleFolderWriter::kPid) + ", \"tid\": " + std::to_string(e.tid) + ", \"ts\": ";
            appendMicros(out, e.ts);
            if (e.dur >= 0) {
                out += ", \"dur\": ";
                appendMicros(out, e.dur);
            }
            if (!e.args.empty())
                out += ", \"args\": {" + e.args + "}";
            out += "}";
        }
        return out + "\n  ]\n}\n";
    }

private:
    std::vector<HostEvent> m_events;
};

// ---------------------------------------------------------------- system trace (system_profile.json)

// Host times are Unix-epoch ns (the trace.json clock + its baseTimeNanoseconds); hardware events are
// written on a device clock that runs kDeviceLag behind, with timestamp_sync_point pairs to undo it.
constexpr int64_t kBaseTimeNs = 1735689600000000000;
constexpr int64_t kDeviceLag = 570000000000000 - 12345;

class SystemTrace
{
public:
    // Returns the id given to the event.
    int64_t add(const char *name, const char *group, int64_t type, int64_t hostTs, int64_t dur, int64_t parent,
                std::string extra = {})
    {
        const int64_t id = ++m_id;
        std::string e = "{\"timestamp\": " + std::to_string(hostTs) + ", \"duration\": " + std::to_string(dur) + ", \"name\": ";
        appendEscaped(e, name);
        e += ", \"group\": \"" + std::string(group) + "\", \"type\": " + std::to_string(type) + ", \"id\": " + std::to_string(id);
        if (parent > 0)
            e += ", \"parent_id\": " + std::to_string(parent);
        e += ", \"instance_id\": \"" + std::string(SampleFolderWriter::kInstanceId) + "\", \"process_id\": \"" +
             std::to_string(SampleFolderWriter::kPid) + "\", \"thread_id\": " + std::to_string(SampleFolderWriter::kPid) +
             ", \"lnc_idx\": \"0\"" + extra + "}";
        m_events.emplace_back(hostTs, std::move(e));
        return id;
    }
    void syncPoint(int64_t hostTs)
    {
        add("timestamp_sync_point", "nrt-nc-000", 3, hostTs - kDeviceLag, 0, 0,
            ", \"sync_host_ts\": " + std::to_string(hostTs) + ", \"sync_device_ts\": " + std::to_string(hostTs - kDeviceLag));
    }
    void sample(bool memory, int64_t ts, const std::string &fields)
    {
        (memory ? m_mem : m_cpu).push_back("{\"timestamp\": " + std::to_string(ts) + ", \"instance_id\": \"" +
                                           SampleFolderWriter::kInstanceId + "\", \"process_id\": \"" +
                                           std::to_string(SampleFolderWriter::kPid) + "\", " + fields + "}");
    }
    std::string json() const
    {
        std::vector<std::pair<int64_t, std::string>> sorted = m_events;
        std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        std::string out = "{\n  \"synthetic\": true,\n  \"note\": \"synthetic Lanescope sample, not a measurement\",\n  \"trace_events\": [";
        for (size_t i = 0; i < sorted.size(); ++i)
            out += (i ? ",\n    " : "\n    ") + sorted[i].second;
        auto list = [&out](const char *key, const std::vector<std::string> &v) {
            out += "\n  ],\n  \"" + std::string(key) + "\": [";
            for (size_t i = 0; i < v.size(); ++i)
                out += (i ? ",\n    " : "\n    ") + v[i];
        };
        list("mem_usage", m_mem);
        list("cpu_util", m_cpu);
        return out + "\n  ]\n}\n";
    }

private:
    int64_t m_id = 0;
    std::vector<std::pair<int64_t, std::string>> m_events; // (ts, JSON object)
    std::vector<std::string> m_mem, m_cpu;
};

void writeText(const std::filesystem::path &path, const std::string &text)
{
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        throw std::runtime_error(path.string() + ": cannot open for writing: " + std::strerror(errno));
    const size_t written = std::fwrite(text.data(), 1, text.size(), f);
    const bool closed = std::fclose(f) == 0;
    if (written != text.size() || !closed)
        throw std::runtime_error(path.string() + ": write failed: " + std::strerror(errno));
}

constexpr const char *kReadme =
    "SYNTHETIC SAMPLE - NOT A MEASUREMENT\n\n"
    "Written by `lanescope-cli generate-sample --folder DIR`. It has the shape of a TorchNeuron profile\n"
    "folder (framework trace.json + NEFF/NTFF pairs) for an RMSNorm case study: naive (pow, mean, rsqrt,\n"
    "mul as four device executions), torch.rms_norm (fused) and torch.compile, in three profiled steps\n"
    "(schedule wait=1, warmup=1, active=3; one NTFF per device execution). Every number in it comes\n"
    "from a small simulation, not from hardware. Open the folder in Lanescope.\n";

constexpr const char *kNativeReadme =
    "SYNTHETIC SAMPLE - NOT A MEASUREMENT\n\n"
    "Written by `lanescope-cli generate-sample --folder DIR --layout native`. It has the layout of a native\n"
    "PyTorch capture (NeuronConfig + NeuronProfiler): profile_output/<instance>_pid_<pid>/<timestamp>/ with\n"
    "trace.json, neff_<H>_vnc_0.neff, profile_nc_0_session_<S>.ntff (one session per profiled step) and the\n"
    "runtime's protobuf files (ntrace.pb, trace_info.pb, cpu_util.pb, host_mem.pb), here placeholders: their\n"
    "schema is not public. Every number comes from a small simulation, not from hardware.\n";

} // namespace

std::vector<std::string> SampleFolderWriter::captureVariants() { return {"no-sync", "no-warmup"}; }

std::string SampleFolderWriter::captureFolderName(const std::string &capture)
{
    if (capture.empty())
        return kFolderName;
    std::string name = "synthetic_rmsnorm_" + capture;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

std::vector<std::string> SampleFolderWriter::nativeProtobufFiles() { return {"ntrace.pb", "trace_info.pb", "cpu_util.pb", "host_mem.pb"}; }

std::string SampleFolderWriter::folderName(const Options &options)
{
    if (!options.folderName.empty())
        return options.folderName;
    return options.layout == kNativeLayout ? kNativeFolderName : captureFolderName(options.capture);
}

std::string SampleFolderWriter::runFolder(const Options &options)
{
    return folderName(options) + "/" + kInstanceId + "_pid_" + std::to_string(kPid) + "/" + kTimestampFolder;
}

std::vector<std::string> SampleFolderWriter::variants()
{
    return {"naive", "torch.rms_norm", "torch.compile"};
}

std::vector<std::string> SampleFolderWriter::writeComparison(const std::string &outDir, const Options &options)
{
    static constexpr const char *kFolders[] = {"synthetic_rmsnorm_naive", "synthetic_rmsnorm_rms_norm",
                                               "synthetic_rmsnorm_compile"};
    std::vector<std::string> out;
    const std::vector<std::string> all = variants();
    for (size_t i = 0; i < all.size(); ++i) {
        Options o = options;
        o.variant = all[i];
        o.folderName = kFolders[i];
        out.push_back(write(outDir, o));
    }
    return out;
}

std::vector<SampleFolderWriter::Execution> SampleFolderWriter::executions(const Options &options)
{
    static constexpr std::pair<const char *, const char *> kRuns[] = {{"naive", "aten::pow"},
                                                                      {"naive", "aten::mean"},
                                                                      {"naive", "aten::rsqrt"},
                                                                      {"naive", "aten::mul"},
                                                                      {"torch.rms_norm", "aten::rms_norm"},
                                                                      {"torch.compile", "CompiledFunction"}};
    text::SplitMix64 rng(options.seed ^ 0x5EED5A4D91E0F01Dull);
    std::vector<Execution> programs;
    for (const auto &[variant, op] : kRuns) {
        if (!options.variant.empty() && options.variant != variant) {
            rng.next(); // keep the hashes and uuids of the other variants' executions the same
            rng.next();
            rng.next();
            continue;
        }
        Execution x;
        x.variant = variant;
        x.op = op;
        x.hash = std::to_string(rng.next() | (uint64_t(1) << 63)); // 19-20 decimal digits
        char uuid[33];
        std::snprintf(uuid, sizeof uuid, "%016llx%016llx", static_cast<unsigned long long>(rng.next()),
                      static_cast<unsigned long long>(rng.next()));
        x.uuid = uuid;
        x.neffFile = "neff_" + x.hash + (options.layout == kNativeLayout ? "_vnc_0.neff" : ".neff");
        programs.push_back(std::move(x));
    }
    // Every active step runs every program once; each execution has its own NTFF, numbered per NEFF.
    std::vector<Execution> out;
    for (int step = 1; step <= kActiveSteps; ++step)
        for (Execution x : programs) {
            x.step = step;
            x.ntffFile = options.layout == kNativeLayout ? "profile_nc_0_session_" + std::to_string(step - 1) + ".ntff"
                                                         : x.hash + "_instid_" + std::to_string(step - 1) + "_vnc_0.ntff";
            out.push_back(std::move(x));
        }
    return out;
}

std::string SampleFolderWriter::write(const std::string &outDir, const Options &options)
{
    namespace fs = std::filesystem;
    if (!options.variant.empty()) {
        const std::vector<std::string> all = variants();
        if (std::find(all.begin(), all.end(), options.variant) == all.end())
            throw std::runtime_error("unknown RMSNorm variant \"" + options.variant + "\" (naive, torch.rms_norm or torch.compile)");
    }
    if (!options.capture.empty()) {
        const std::vector<std::string> all = captureVariants();
        if (std::find(all.begin(), all.end(), options.capture) == all.end())
            throw std::runtime_error("unknown capture variant \"" + options.capture + "\" (no-sync or no-warmup)");
    }
    const bool native = options.layout == kNativeLayout;
    if (!options.layout.empty() && !native)
        throw std::runtime_error("unknown layout \"" + options.layout + "\" (native, or none for the env-var capture layout)");
    if (native && options.variant.empty()) {
        Options one = options; // the native layout's one program
        one.variant = "torch.rms_norm";
        return write(outDir, one);
    }
    if (native && options.variant == "naive")
        throw std::runtime_error("the native layout writes one NTFF per session, covering one program: choose torch.rms_norm or "
                                 "torch.compile (naive runs four)");
    const bool noSync = options.capture == "no-sync", noWarmup = options.capture == "no-warmup";
    const fs::path root = fs::path(outDir) / folderName(options);
    const fs::path run = fs::path(outDir) / runFolder(options);
    std::error_code ec;
    fs::create_directories(run, ec);
    if (ec)
        throw std::runtime_error(run.string() + ": cannot create folder: " + ec.message());
    writeText(root / "README_SYNTHETIC.txt", native ? kNativeReadme : kReadme);

    text::SplitMix64 rng(options.seed);
    const std::vector<Execution> runs = executions(options);
    HostTrace host;
    const int64_t mainTid = kPid, driverTid = kPid + 1;
    int64_t t = int64_t(573720829000) * kUs; // Kineto-like relative clock
    int64_t external = -1, correlation = 1001;
    // The system trace sees the same calls: framework op (99999) > runtime call (11) > hardware execution.
    SystemTrace sys;
    const int64_t B = kBaseTimeNs;
    const int64_t tensorBytes = int64_t(kTiles) * kTileBytes;
    // x in at the start of a step, y out at its end: a cpu_op around an nrt_tensor_* call, in both traces.
    auto tensorCall = [&](const char *op, const char *call, int64_t callUs, int64_t tensorId, const char *tensor) {
        const size_t o = host.slice("cpu_op", op, mainTid, t, "\"External id\": " + std::to_string(++external));
        host.add({'X', "privateuse1_runtime", call, mainTid, t + 2 * kUs, rng.vary(callUs * kUs, 50),
                  "\"External id\": " + std::to_string(external) + ", \"bytes\": " + std::to_string(tensorBytes)});
        host.at(o).dur = 2 * kUs + host.at(o + 1).dur + rng.vary(3 * kUs, 200);
        const int64_t f = sys.add(op, "framework-4242", 99999, B + host.at(o).ts, host.at(o).dur, 0);
        sys.add(call, "nrt-nc-000", 11, B + host.at(o + 1).ts, host.at(o + 1).dur, f,
                ", \"size\": " + std::to_string(tensorBytes) + ", \"tensor_id\": " + std::to_string(tensorId) +
                    ", \"tensor_name\": \"" + tensor + "\"");
        t += host.at(o).dur;
    };
    sys.syncPoint(B + t);
    const int64_t firstStep = t;
    size_t k = 0; // index into runs: the device executions in host order, kActiveSteps steps of them
    for (int stepNo = 1; stepNo <= kActiveSteps; ++stepNo) {
        const size_t step = host.slice("user_annotation", "ProfilerStep#" + std::to_string(stepNo), mainTid, t,
                                       "\"External id\": " + std::to_string(++external));
        t += rng.vary(6 * kUs, 200);
        tensorCall("aten::to", "nrt_tensor_write", 180, 1, "x");
        t += rng.vary(10 * kUs, 200);
        std::string variant;
        size_t annotation = 0;
        for (size_t p = 0; k < runs.size() && runs[k].step == stepNo; ++k, ++p) {
            const Execution &x = runs[k];
            if (x.variant != variant) {
                if (!variant.empty()) {
                    host.at(annotation).dur = t - host.at(annotation).ts;
                    t += rng.vary(12 * kUs, 200);
                }
                variant = x.variant;
                annotation = host.slice("user_annotation", "rmsnorm " + variant, mainTid, t, "\"External id\": " + std::to_string(++external));
                t += rng.vary(2 * kUs, 200);
                if (variant == "torch.compile") {
                    host.slice("user_annotation", "Torch-Compiled Region: 0/0", mainTid, t, "\"External id\": " + std::to_string(++external));
                    t += rng.vary(1 * kUs, 200);
                }
            }
            // Device work first: its length sets how long the synchronous nrt_execute takes.
            const Recipe recipe = recipeFor(x.op);
            DeviceSim sim(rng);
            sim.run(recipe);
            // "no-sync": the profiler stopped before the device ran the last executions; their NTFFs were never written.
            const bool lost = noSync && k + kLostExecutions >= runs.size();
            if (x.step == 1) // one NEFF per program, loaded once
                writeNeff(x, recipe, sim, (run / x.neffFile).string());
            if (!lost)
                writeNtff(x, sim, rng, (run / x.ntffFile).string());

            const int64_t ext = ++external, corr = correlation++;
            const size_t op = host.slice("cpu_op", x.op, mainTid, t,
                                         "\"External id\": " + std::to_string(ext) + ", \"Input Dims\": [[512, 4096]], "
                                         "\"Input type\": [\"c10::BFloat16\"], \"Record function id\": 0");
            const std::string neffArg = "\"neff\": \"neff_" + x.hash + "\"";
            int64_t loadAt = -1, loadDur = 0;
            if (noWarmup && x.step == 1) { // the first call of a NEFF loads it (no warm-up iteration ran before the profiler)
                loadAt = t + rng.vary(3 * kUs, 200);
                loadDur = rng.vary(kLoadNs, 10);
                host.add({'X', "privateuse1_runtime", "nrt_load", mainTid, loadAt, loadDur,
                          "\"External id\": " + std::to_string(ext) + ", " + neffArg + ", \"nc_idx\": 0"});
                t = loadAt + loadDur;
            }
            const int64_t execStart = t + rng.vary(9 * kUs, 200);
            const int64_t launch = rng.vary(2 * kUs, 200);
            const int64_t device = sim.end() + 500;
            const std::string ids = "\"External id\": " + std::to_string(ext) + ", \"correlation\": " + std::to_string(corr);
            // Without synchronize the lost executions' nrt_execute only queues them and returns.
            host.add({'X', "privateuse1_runtime", "nrt_execute", mainTid, execStart, launch + (lost ? 0 : device) + rng.vary(4 * kUs, 200),
                      ids + ", " + neffArg + ", \"nc_idx\": 0, \"device\": 0"});
            const size_t callIndex = host.size() - 1;
            if (!lost)
                host.add({'X', "privateuse1_driver", "nc_exec_running", driverTid, execStart + launch, device,
                          ids + ", " + neffArg + ", \"nc\": 0"});
            t = execStart + launch + (lost ? 0 : device) + rng.vary(6 * kUs, 200);
            host.at(op).dur = t - host.at(op).ts;
            const std::string neffName = ", \"neff_name\": \"" + x.neffFile + "\"";
            const int64_t f = sys.add(x.op.c_str(), "framework-4242", 99999, B + host.at(op).ts, host.at(op).dur, 0);
            if (loadAt >= 0)
                sys.add("nrt_load", "nrt-nc-000", 11, B + loadAt, loadDur, f, neffName);
            const HostEvent &call = host.at(callIndex);
            const int64_t c = sys.add("nrt_execute", "nrt-nc-000", 11, B + call.ts, call.dur, f, neffName);
            if (!lost)
                sys.add("nc_exec_running", "nrt-nc-000", 1, B + execStart + launch - kDeviceLag, device, c, neffName);
            const int64_t q = int64_t(p);
            sys.sample(true, B + execStart, "\"usage\": " + std::to_string(3 * tensorBytes + q * 65536) +
                                                ", \"percent_usage\": " + std::to_string(1 + q % 3));
            for (int cpu = 0; cpu < 2; ++cpu)
                sys.sample(false, B + execStart, "\"cpu_id\": " + std::to_string(cpu) + ", \"util\": " +
                                                     std::to_string(cpu == 0 ? 92 - 3 * q : 7 + q));
            t += rng.vary(4 * kUs, 200);
        }
        host.at(annotation).dur = t - host.at(annotation).ts;
        if (size_t compiled = annotation + 1; compiled < host.size() && host.at(compiled).name == "Torch-Compiled Region: 0/0")
            host.at(compiled).dur = t - 2 * kUs - host.at(compiled).ts;
        t += rng.vary(8 * kUs, 200);
        tensorCall("aten::_to_copy", "nrt_tensor_read", 170, 2, "y"); // y.cpu(), after torch.neuron.synchronize()
        t += rng.vary(5 * kUs, 200);
        host.at(step).dur = t - host.at(step).ts;
        t += rng.vary(30 * kUs, 200); // prof.step() and the Python loop until the next step begins
    }

    const int64_t meta = firstStep;
    host.add({'M', {}, "process_name", 0, meta, -1, std::string("\"name\": \"") + kProcessName + "\""});
    host.add({'M', {}, "process_labels", 0, meta, -1, "\"labels\": \"CPU, NeuronCore 0 (synthetic)\""});
    host.add({'M', {}, "thread_name", mainTid, meta, -1, "\"name\": \"thread 4242 (python3, synthetic)\""});
    host.add({'M', {}, "thread_name", driverTid, meta, -1, "\"name\": \"neuron driver (synthetic)\""});
    host.add({'M', {}, "thread_sort_index", driverTid, meta, -1, "\"sort_index\": 1"});
    sys.syncPoint(B + t);
    writeText(run / "trace.json", host.json(options.seed));
    if (!native) {
        writeText(run / "system_profile.json", sys.json());
        return root.string();
    }
    // The runtime writes its system trace and host samples as protobuf, whose schema is not public:
    // stand-ins that say so (a reader recognises these files by name only).
    for (const std::string &pb : nativeProtobufFiles())
        writeText(run / pb, "SYNTHETIC placeholder for " + pb + " (the Neuron runtime writes protobuf here; its schema is not public)\n");
    return root.string();
}

} // namespace lanescope
