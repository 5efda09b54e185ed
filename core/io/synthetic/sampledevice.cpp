#include "sampledevice.h"

#include "neffdebugwriter.h"
#include "neffwriter.h"
#include "ntffwriter.h"
#include "sampleprogramops.h"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

namespace lanescope {

namespace {

constexpr int64_t kOriginPs = 5'000'000; // device trace origin, ps after the clock sync point
constexpr int kTiles = 4;                // x: [512, 4096] bf16 = 4 tiles of 128 partitions
constexpr uint32_t kTileBytes = 128 * 4096 * 2;
constexpr uint32_t kPacketBytes = 64 * 1024;
constexpr uint32_t kRowStatBytes = 128 * 2; // one value per row of a tile
constexpr uint32_t kWeightBytes = 4096 * 2;

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
    w.setNetworkName(SampleDevice::networkName(x));
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

} // namespace

struct SampleDevice::State
{
    explicit State(text::SplitMix64 &rng) : sim(rng) {}
    Recipe recipe;
    DeviceSim sim;
};

SampleDevice::SampleDevice(const SampleFolderWriter::Execution &x, text::SplitMix64 &rng)
    : m_execution(x), m_state(std::make_unique<State>(rng))
{
    static_assert(kTensorBytes == int64_t(kTiles) * kTileBytes);
    m_state->recipe = recipeFor(x.op);
    m_state->sim.run(m_state->recipe);
}

SampleDevice::~SampleDevice() = default;

int64_t SampleDevice::endNs() const { return m_state->sim.end(); }

void SampleDevice::writeNtff(text::SplitMix64 &rng, const std::string &path) const
{
    lanescope::writeNtff(m_execution, m_state->sim, rng, path);
}

std::string SampleDevice::networkName(const SampleFolderWriter::Execution &x)
{
    const size_t colons = x.op.rfind("::");
    return "synthetic_rmsnorm_" + (colons == std::string::npos ? std::string("compiled") : x.op.substr(colons + 2)) + ".neff";
}

void SampleDevice::writeNeff(const std::string &path) const
{
    lanescope::writeNeff(m_execution, m_state->recipe, m_state->sim, path);
}

} // namespace lanescope
