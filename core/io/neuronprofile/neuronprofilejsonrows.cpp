#include "neuronprofilejsonparserstate.h"

// The row tables of a neuron-profile JSON export: instruction, DMA, semaphore and throttle rows.
namespace lanescope::npjson {

void Parser::readInstruction(sj::object obj, uint64_t offset)
{
    enum : uint32_t { Ts = 1, Dur = 2, Pc = 4, Op = 8, Sub = 16, Label = 32 };
    enum : uint32_t { Wait = 64, CrcIn = 128, CrcOut = 256, Cpc = 512, CpcPresent = 1024 };
    NtffInstructionRow r;
    NtffSync sync;
    NtffInstructionOp op;
    uint32_t ok = 0, code = 0;
    std::string_view s;
    bool hasSubgraph = false;
    uint8_t core = 0;
    uint64_t id = 0;
    m_rowPredecessors.clear();
    forEachField(obj, "instruction", [&](std::string_view key, sj::value &val) {
        switch (key.size()) { // the keys of interest differ in length or first letter: few compares per key
        case 2:
            if (key == "pc")
                take(val, r.pc, ok, Pc);
            else if (key == "id" && !u64Of(val, id))
                id = 0;
            break;
        case 5:
            if (key == "label" && stringOf(val, s) && NeuronProfileValues::laneFromName(s, r.lane))
                ok |= Label;
            else if (key == "layer" && stringOf(val, s)) // "_dot.3": the framework layer (optional)
                op.layer = nameIndex(s);
            break;
        case 6:
            if (key == "opcode" && stringOf(val, s)) {
                code = opcodeCode(s, offset);
                ok |= Op;
            } else if (key == "crc_in") {
                take(val, r.crcIn, ok, CrcIn);
            }
            break;
        case 7:
            if (key == "crc_out")
                take(val, r.crcOut, ok, CrcOut);
            break;
        case 8:
            if (key == "subgroup" && stringOf(val, s) && NeuronProfileValues::engineFromName(s, r.engine))
                ok |= Sub;
            else if (key == "duration")
                takeIn(val, 0, kMaxI64, r.duration, ok, Dur);
            else if (key == "operands" && stringOf(val, s)) // the semaphore waited on / updated
                sync = NtffSync::fromOperands(s);
            else if (key == "hlo_name" && stringOf(val, s)) // "%dot.3 = dot(%p0, %p1)": the HLO op (optional)
                op.hlo = nameIndex(s);
            else if (key == "subgraph" && stringOf(val, s)) { // 2.28+: "sg00", the physical core
                core = subgraphIndex(s, offset);
                hasSubgraph = true;
            }
            break;
        case 9:
            if (key == "timestamp")
                take(val, r.timestamp, ok, Ts);
            break;
        case 11:
            if (key == "compiler_pc") {
                ok |= CpcPresent;
                takeIn(val, 0, std::numeric_limits<int32_t>::max(), r.compilerPc, ok, Cpc);
            }
            break;
        case 12:
            if (key == "predecessors")
                readPredecessors(val, offset);
            break;
        case 13:
            if (key == "evt_wait_time")
                take(val, r.evtWaitTime, ok, Wait);
            break;
        default:
            break;
        }
    });
    static constexpr const char *kTable = "instruction";
    if (!requireAll(kTable, ok, {{Ts, "timestamp"}, {Dur, "duration"}, {Pc, "pc"}, {Op, "opcode"}}, offset))
        return;
    if (!(ok & (Sub | Label)))
        return warn(kTable, "without a valid", "subgroup", "skipped", offset);
    r.opcode = code < 256 ? uint8_t(code) : uint8_t(0);
    r.extraOpcode = code < 256 ? uint16_t(0) : uint16_t(std::min<uint32_t>(code - 255, std::numeric_limits<uint16_t>::max()));
    if (!(ok & Sub)) { // the engine from the lane: TensorMatrix runs on Tensor
        NeuronProfileValues::engineFromName(ntffLaneName(r.lane), r.engine);
        warn(kTable, "without a valid", "subgroup", "engine taken from \"label\"", offset);
    }
    if (!(ok & Label)) {
        const bool matmul = r.engine == NtffEngine::Tensor && r.opcode == kNtffOpMatmul && !r.extraOpcode;
        r.lane = matmul ? NtffLane::TensorMatrix : ntffLaneOf(r.engine);
        warn(kTable, "without a valid", "label", "lane taken from \"subgroup\"", offset);
    }
    if (!(ok & Wait))
        warn(kTable, "without a valid", "evt_wait_time", "0 assumed", offset);
    if (!(ok & CrcIn))
        warn(kTable, "without a valid", "crc_in", "65535 assumed", offset);
    if (!(ok & CrcOut))
        warn(kTable, "without a valid", "crc_out", "65535 assumed", offset);
    if ((ok & CpcPresent) && !(ok & Cpc))
        warn(kTable, "with an invalid", "compiler_pc", "ignored", offset);
    r.core = placed(hasSubgraph, core, InstructionRows, offset);
    for (NeuronProfileJsonPart::Predecessor &d : m_rowPredecessors) {
        d.instruction = uint32_t(m_profile.instructions.size());
        m_part.predecessors.push_back(d);
    }
    m_part.instructionIds.push_back(id);
    m_profile.instructions.push_back(r);
    m_profile.instructionSync.push_back(sync);
    m_profile.instructionOps.push_back(op);
}

// "predecessors": [{"id": 3813231492213955883, "type": "FLOW_DEPENDENCE"}, ...], the instructions this one
// depends on (2.28+ exports). Kept for the row being read; an entry without a valid "id" is skipped.
void Parser::readPredecessors(sj::value &val, uint64_t offset)
{
    sj::array entries;
    if (val.get_array().get(entries)) {
        warn("instruction", "with an invalid", "predecessors", "ignored", offset);
        return;
    }
    bool bad = false;
    for (auto er : entries) {
        sj::object entry;
        if (std::move(er).get_object().get(entry)) {
            bad = true;
            continue;
        }
        NeuronProfileJsonPart::Predecessor d;
        bool hasId = false;
        std::string_view type;
        forEachField(entry, "instruction", [&](std::string_view key, sj::value &v) {
            if (key == "id")
                hasId = u64Of(v, d.id);
            else if (key == "type" && stringOf(v, type))
                d.type = nameIndex(type);
        });
        if (hasId)
            m_rowPredecessors.push_back(d);
        else
            bad = true;
    }
    if (bad)
        warn("instruction", "with an invalid", "predecessors", "entry without an \"id\" skipped", offset);
}

void Parser::readDma(sj::object obj, uint64_t offset)
{
    enum : uint32_t { Ts = 1, Dur = 2, Eng = 4, Queue = 8, Size = 16, Crc = 32, Sub = 64 };
    NtffDmaRow r;
    uint32_t ok = 0;
    std::string_view s, lane;
    NtffDmaTag tag;
    bool aggregated = false;
    bool hasSubgraph = false;
    uint8_t core = 0;
    int16_t semaphore = -1; // "S[8] (qSyncSpillReload0)": the semaphore the packet's completion updates
    forEachField(obj, "dma", [&](std::string_view key, sj::value &val) {
        switch (key.size()) { // 34 keys per row: compare only the candidates of the same length
        case 3:
            if (key == "crc")
                take(val, r.crc, ok, Crc);
            break;
        case 4:
            if (key == "dest" && firstString(val, s)) // ["SB"]
                tag.dest = nameIndex(s);
            break;
        case 6:
            if (key == "source" && firstString(val, s)) // [["WEIGHT"]]
                tag.source = nameIndex(s);
            break;
        case 8:
            if (key == "duration")
                takeIn(val, 0, kMaxI64, r.duration, ok, Dur);
            else if (key == "subgroup" && stringOf(val, lane))
                ok |= Sub;
            else if (key == "variable" && stringOf(val, s)) // the tensor: "identity_56"
                tag.variable = nameIndex(s);
            else if (key == "subgraph" && stringOf(val, s)) { // 2.28+: "sg00", the physical core
                core = subgraphIndex(s, offset);
                hasSubgraph = true;
            }
            break;
        case 9:
            if (key == "timestamp")
                take(val, r.timestamp, ok, Ts);
            else if (key == "dma_queue")
                takeIn(val, 0, 15, r.queue, ok, Queue);
            break;
        case 10:
            if (key == "dma_engine") // "3" on inf2; trn2: 16 x physical core + engine, "64".."95"
                takeIn(val, 0, 255, r.engine, ok, Eng);
            else if (key == "aggregated")
                aggregated = !stringOf(val, s) || s != "no";
            else if (key == "queue_type" && stringOf(val, s)) // "hardware_dynamic", "software_dynamic", "instruction", "data"
                tag.queueType = nameIndex(s);
            break;
        case 12:
            if (key == "semaphore_id" && stringOf(val, s)) {
                const NtffSync parsed = NtffSync::fromOperands(std::string(s) + "++");
                if (parsed.updatesSemaphore())
                    semaphore = parsed.updateSemaphore;
            }
            break;
        case 13:
            if (key == "transfer_size")
                take(val, r.transferSize, ok, Size);
            break;
        default:
            break;
        }
    });
    if (aggregated) { // a DMA transfer: its packets are rows of their own
        if (!requireAll("aggregated dma", ok, {{Ts, "timestamp"}, {Dur, "duration"}}, offset))
            return;
        m_profile.dmaBlocks.push_back({r.timestamp, r.duration, r.transferSize, std::string((ok & Sub) ? lane : ""), tag});
        return;
    }
    if (!requireAll("dma", ok, {{Ts, "timestamp"}, {Dur, "duration"}, {Eng, "dma_engine"}, {Queue, "dma_queue"}},
                    offset))
        return;
    if (!(ok & Size))
        warn("dma", "without a valid", "transfer_size", "0 assumed", offset);
    r.core = placed(hasSubgraph, core, DmaRows, offset);
    if (const size_t key = size_t(r.engine) * 16 + r.queue; (ok & Sub) && !m_rowQueueSeen[key]) {
        m_rowQueueSeen[key] = true;
        m_part.queueLanes.push_back({uint16_t(key), std::string(lane), r.core});
    }
    m_profile.dma.push_back(r);
    m_profile.dmaSemaphore.push_back(semaphore);
    m_profile.dmaTags.push_back(tag);
}

void Parser::readSemaphore(sj::object obj, uint64_t offset)
{
    enum : uint32_t { Id = 1, Ts = 2, Value = 4 };
    NtffSemaphoreRow r;
    uint32_t ok = 0;
    std::string_view s, name;
    bool hasSubgraph = false;
    uint8_t core = 0;
    forEachField(obj, "semaphore_update", [&](std::string_view key, sj::value &val) {
        if (key == "id") { // "12", 12, or a display name "S[8] (qSyncSpillReload0)"
            if (!stringOf(val, s))
                return take(val, r.id, ok, Id);
            s = trim(s);
            if (s.size() > 3 && s.substr(0, 2) == "S[" && s.find(']') != std::string_view::npos) {
                const std::string_view rest = trim(s.substr(s.find(']') + 1));
                if (rest.size() >= 2 && rest.front() == '(' && rest.back() == ')')
                    name = rest.substr(1, rest.size() - 2);
                s = s.substr(2, s.find(']') - 2);
            }
            int64_t v = 0;
            if (parseInt(s, v) && v >= 0 && v <= 255) {
                r.id = uint8_t(v);
                ok |= Id;
            }
        } else if (key == "timestamp") {
            take(val, r.timestamp, ok, Ts);
        } else if (key == "value") {
            take(val, r.value, ok, Value);
        } else if (key == "subgraph" && stringOf(val, s)) { // 2.28+: the physical core
            core = subgraphIndex(s, offset);
            hasSubgraph = true;
        }
    });
    if (!requireAll("semaphore_update", ok, {{Id, "id"}, {Ts, "timestamp"}, {Value, "value"}}, offset))
        return;
    r.core = placed(hasSubgraph, core, SemaphoreRows, offset);
    if (!name.empty())
        noteSemaphoreName(r.core, r.id, name, offset);
    m_profile.semaphores.push_back(r);
}

void Parser::readThrottle(sj::object obj, uint64_t offset)
{
    enum : uint32_t { Ts = 1, Dur = 2, K = 4, N = 8, Type = 16 };
    NtffThrottleRow r;
    uint32_t ok = 0;
    std::string_view s;
    bool hasSubgraph = false;
    uint8_t core = 0;
    forEachField(obj, "ham", [&](std::string_view key, sj::value &val) {
        if (key == "timestamp")
            take(val, r.timestamp, ok, Ts);
        else if (key == "duration")
            takeIn(val, 0, kMaxI64, r.duration, ok, Dur);
        else if (key == "k")
            take(val, r.k, ok, K);
        else if (key == "n")
            take(val, r.n, ok, N);
        else if (key == "type")
            take(val, r.type, ok, Type);
        else if (key == "subgraph" && stringOf(val, s)) { // 2.28+: the physical core
            core = subgraphIndex(s, offset);
            hasSubgraph = true;
        }
    });
    if (!requireAll("ham", ok, {{Ts, "timestamp"}, {Dur, "duration"}, {K, "k"}, {N, "n"}, {Type, "type"}}, offset))
        return;
    r.core = placed(hasSubgraph, core, ThrottleRows, offset);
    m_profile.throttle.push_back(r);
}

} // namespace lanescope::npjson
