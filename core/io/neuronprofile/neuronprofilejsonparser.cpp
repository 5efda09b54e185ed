#include "neuronprofilejsonparser.h"

#include "io/input/inputbuffer.h"
#include "io/json/jsonobjectpieces.h"
#include "io/json/jsonreaderbase.h"
#include "neuronprofilejsonfields.h"
#include "neuronprofilevalues.h"
#include "util/textutil.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <limits>
#include <string_view>
#include <map>
#include <tuple>
#include <unordered_map>

namespace lanescope {

namespace sj = simdjson::ondemand;

namespace {

using namespace npjson;

constexpr size_t kMaxReportedValueBytes = size_t(1) << 16;

using text::parseInt;
using text::trim;

struct NameHash
{
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};

using OpcodeTable = std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>>;

// The names ntffOpcodeName gives the 256 opcode bytes (the first byte of a name given twice).
const OpcodeTable &builtinOpcodes()
{
    static const OpcodeTable table = [] {
        OpcodeTable t;
        for (int op = 0; op < 256; ++op)
            t.emplace(std::string(ntffOpcodeName(uint8_t(op))), uint32_t(op));
        return t;
    }();
    return table;
}

class Parser : JsonReaderBase
{
public:
    // `tables`: nullptr for a window (rows only, no progress reports).
    Parser(InputBuffer &input, uint64_t offset, uint64_t fileEnd, const std::string &name, const LoadOptions &options,
           sj::parser *parser, NeuronProfileJsonTables *tables, NeuronProfileJsonPart &part)
        : JsonReaderBase(input, name, options, Style{}, parser), m_profile(part.rows), m_part(part), m_tables(tables)
    {
        setTextOffset(offset, fileEnd);
    }

    void runWindow(const char *table);
    void runPiece(NeuronProfileJsonParser::Piece piece);

private:
    enum class Table { Metadata, NeffHeader, ProfileInfo, Summary, ModelInfo, LayerSummary, DmaQueues, NeffNode, Warnings, Terminology };
    enum RowTable : size_t { InstructionRows, DmaRows, SemaphoreRows, ThrottleRows }; // NeuronProfileJsonPart::withoutSubgraph

    void warn(const char *table, const char *problem, std::string_view field, const char *consequence, uint64_t offset);
    template <class Fn> void forEachRow(sj::value v, const char *table, Fn &&fn);
    template <class Fn> void forEachField(sj::object &obj, const char *table, Fn &&fn);
    bool requireAll(const char *table, uint32_t ok, std::initializer_list<std::pair<uint32_t, const char *>> fields,
                    uint64_t offset);
    void readInstruction(sj::object obj, uint64_t offset);
    void readDma(sj::object obj, uint64_t offset);
    void readSemaphore(sj::object obj, uint64_t offset);
    void readThrottle(sj::object obj, uint64_t offset);
    void readUsage(sj::object obj, uint64_t offset);
    void readThroughput(sj::object obj, uint64_t offset);
    NtffCounterSeries &series(const std::string &name, const char *unit, uint8_t core);
    void readReported(Table table, const char *tableName, size_t index, sj::object obj, uint64_t offset);
    void useReported(Table table, size_t index, std::string_view key, std::string_view text, bool isString);
    uint32_t opcodeCode(std::string_view name, uint64_t offset);
    uint32_t nameIndex(std::string_view name);
    void noteSemaphoreName(uint8_t core, uint8_t id, std::string_view name, uint64_t offset);
    uint8_t subgraphIndex(std::string_view name, uint64_t offset);
    uint8_t placed(bool hasSubgraph, uint8_t core, RowTable table, uint64_t offset);
    void checkCancel();

    NtffProfile &m_profile; // the part's rows and warnings
    NeuronProfileJsonPart &m_part;
    NeuronProfileJsonTables *m_tables;
    bool m_whole = false;
    OpcodeTable m_extraOpcodes; // name -> 256 + index in m_part.opcodeNames
    OpcodeTable m_names;        // layer / HLO op / tensor name -> 1 + index in m_profile.names
    std::vector<bool> m_rowQueueSeen = std::vector<bool>(kNeuronProfileQueueKeys); // engine * 16 + queue
    std::map<std::tuple<uint8_t, uint8_t, std::string>, size_t, std::less<>> m_semaphoreNames; // (core, id, name) -> index in m_part.semaphoreNames
};

// Progress on the scale of this text only for the whole file: a window or a piece is a part of it,
// reported when merged.
void Parser::checkCancel()
{
    if (m_whole)
        progress();
    else if (m_options.cancelled())
        throw LoadCancelled();
}

// What neuron-profile writes in a field the reader needs (the "expected" of a warning).
std::string_view expectation(std::string_view table, std::string_view field)
{
    static constexpr std::pair<std::string_view, std::string_view> kFields[] = {
        {"timestamp", "integer ns"},
        {"duration", "integer ns >= 0"},
        {"pc", "an integer >= 0"},
        {"opcode", "a name"},
        {"subgroup", "an engine: Tensor, Vector, Scalar, GpSimd or Sync"},
        {"label", "a lane: Tensor, TensorMatrix, Vector, Scalar, GpSimd or Sync"},
        {"evt_wait_time", "an integer >= 0"},
        {"crc_in", "0..65535"},
        {"crc_out", "0..65535"},
        {"compiler_pc", "an integer >= 0"},
        {"dma_engine", "0..255, a number or decimal string"},
        {"dma_queue", "0..15, a number or decimal string"},
        {"transfer_size", "an integer >= 0"},
        {"id", "0..255 or \"S[n] (name)\""},
        {"value", "an integer >= 0"},
        {"k", "an integer >= 0"},
        {"n", "an integer >= 0"},
    };
    if (table == "instruction_usage" && field == "type")
        return "\"sb\" or \"psum\"";
    if (field == "type")
        return "an integer >= 0";
    for (const auto &[name, text] : kFields)
        if (name == field)
            return text;
    return {};
}

// "instruction rows without a valid \"crc_in\" (expected 0..65535; 65535 assumed)"
void Parser::warn(const char *table, const char *problem, std::string_view field, const char *consequence,
                  uint64_t offset)
{
    const std::string_view expected = expectation(table, field);
    std::string message = std::string(table) + " rows " + problem + " \"" + std::string(field) + "\" (" +
                          (expected.empty() ? std::string() : "expected " + std::string(expected) + "; ") + consequence + ")";
    m_profile.diagnostics.warnAtByte(message, offset);
}

template <class Fn> void Parser::forEachRow(sj::value v, const char *table, Fn &&fn)
{
    const std::string expected = std::string("expected a row object of \"") + table + "\"";
    sj::json_type type;
    if (auto err = v.type().get(type))
        failJson(err, "expected the value of \"" + std::string(table) + "\"");
    if (type == sj::json_type::object) { // tolerated: a single row written without its array
        sj::object obj;
        const uint64_t offset = location();
        if (auto err = v.get_object().get(obj))
            failJson(err, expected);
        ++m_part.rowCount;
        fn(obj, offset, size_t(0));
        return;
    }
    if (type != sj::json_type::array) {
        if (std::string_view(table) == "instruction")
            fail(location(), "\"instruction\" is not an array; expected neuron-profile's array of instruction rows");
        m_profile.diagnostics.warnAtByte("top-level \"" + std::string(table) + "\" that is not an array (skipped)",
                                         location());
        return;
    }
    sj::array rows;
    if (auto err = v.get_array().get(rows))
        failJson(err, "expected the array \"" + std::string(table) + "\"");
    size_t index = 0;
    for (auto rr : rows) {
        sj::value row;
        if (auto err = std::move(rr).get(row))
            failJson(err, expected + " or ']'");
        if ((++m_part.rowCount & (kNeuronProfileCheckEvery - 1)) == 0)
            checkCancel();
        const uint64_t offset = location();
        sj::object obj;
        const auto err = row.get_object().get(obj);
        if (err == simdjson::INCORRECT_TYPE) {
            m_profile.diagnostics.warnAtByte("\"" + std::string(table) + "\" entries that are not objects (skipped)",
                                             offset);
            ++index;
            continue;
        }
        if (err)
            failJson(err, expected);
        fn(obj, offset, index++);
    }
}

// The byte of a name ntffOpcodeName knows; else 256 + its index among this part's other names (the
// merge gives those their codes in file order).
uint32_t Parser::opcodeCode(std::string_view name, uint64_t offset)
{
    const OpcodeTable &builtin = builtinOpcodes();
    if (const auto it = builtin.find(name); it != builtin.end())
        return it->second;
    if (const auto it = m_extraOpcodes.find(name); it != m_extraOpcodes.end())
        return it->second;
    m_part.opcodeNames.emplace_back(name);
    m_part.opcodeOffsets.push_back(offset);
    const uint32_t code = 256 + uint32_t(m_part.opcodeNames.size() - 1);
    m_extraOpcodes.emplace(std::string(name), code);
    return code;
}

// 1 + the index of a layer / HLO op / tensor / memory name among this part's (the merge maps them to the
// profile's); 0 for "" and neuron-profile's "unknown".
uint32_t Parser::nameIndex(std::string_view name)
{
    if (name.empty() || name == "unknown")
        return 0;
    if (const auto it = m_names.find(name); it != m_names.end())
        return it->second;
    m_profile.names.emplace_back(name);
    const uint32_t index = uint32_t(m_profile.names.size());
    m_names.emplace(std::string(name), index);
    return index;
}

void Parser::noteSemaphoreName(uint8_t core, uint8_t id, std::string_view name, uint64_t offset)
{
    const auto key = std::make_tuple(core, id, std::string(name));
    const auto [it, inserted] = m_semaphoreNames.emplace(key, m_part.semaphoreNames.size());
    if (inserted)
        m_part.semaphoreNames.push_back({id, core, std::get<2>(key), offset, 0, m_profile.diagnostics.warnings().size()});
    ++m_part.semaphoreNames[it->second].rows;
}

// The part-local index of a "subgraph" name (the physical core a 2.28+ row ran on).
uint8_t Parser::subgraphIndex(std::string_view name, uint64_t offset)
{
    for (size_t i = 0; i < m_part.subgraphs.size(); ++i)
        if (m_part.subgraphs[i] == name)
            return uint8_t(i);
    if (m_part.subgraphs.size() >= kSubgraphOverflow)
        return kSubgraphOverflow;
    m_part.subgraphs.emplace_back(name);
    m_part.subgraphFirst.push_back(offset);
    return uint8_t(m_part.subgraphs.size() - 1);
}

// A row's core: its subgraph's index, or kNoSubgraph counted (the merge decides whether that is the
// one core of a 2.27 export or a row that lost its field).
uint8_t Parser::placed(bool hasSubgraph, uint8_t core, RowTable table, uint64_t offset)
{
    if (hasSubgraph)
        return core;
    NeuronProfileJsonPart::Unplaced &u = m_part.withoutSubgraph[table];
    if (u.rows++ == 0)
        u.first = offset;
    return kNoSubgraph;
}

template <class Fn> void Parser::forEachField(sj::object &obj, const char *table, Fn &&fn)
{
    for (auto fr : obj) {
        sj::field f;
        if (auto err = std::move(fr).get(f))
            failJson(err, std::string("expected a field of a \"") + table + "\" row (\"name\": value)");
        const std::string_view key = keyOf(f);
        sj::value val = f.value();
        fn(key, val);
    }
}

// Counts the first required field (in `bit` order) missing from `ok`; true when all are there.
bool Parser::requireAll(const char *table, uint32_t ok, std::initializer_list<std::pair<uint32_t, const char *>> fields,
                        uint64_t offset)
{
    for (const auto &[bit, field] : fields)
        if (!(ok & bit)) {
            warn(table, "without a valid", field, "skipped", offset);
            return false;
        }
    return true;
}

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
    forEachField(obj, "instruction", [&](std::string_view key, sj::value &val) {
        switch (key.size()) { // the keys of interest differ in length or first letter: few compares per key
        case 2:
            if (key == "pc")
                take(val, r.pc, ok, Pc);
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
    m_profile.instructions.push_back(r);
    m_profile.instructionSync.push_back(sync);
    m_profile.instructionOps.push_back(op);
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

void Parser::useReported(Table table, size_t index, std::string_view key, std::string_view text, bool isString)
{
    int64_t v = 0;
    NtffProfile &m_profile = m_tables->profile; // the profile itself, not the part
    auto &m_queueRows = m_tables->queueRows;
    if (table == Table::DmaQueues) {
        if (m_queueRows.size() <= index)
            m_queueRows.resize(index + 1);
        NeuronProfileJsonTables::QueueRow &q = m_queueRows[index];
        if (key == "q_eng_idx" && parseInt(text, v) && v >= 0 && v <= kMaxU32) {
            q.queue.engine = uint32_t(v);
            q.ok |= 1;
        } else if (key == "q_idx" && parseInt(text, v) && v >= 0 && v <= kMaxU32) {
            q.queue.queue = uint32_t(v);
            q.ok |= 2;
        } else if (key == "q_name" && isString) {
            q.queue.name = q.queue.displayName = std::string(text); // already the display name: qGpSimdDynamic
            q.ok |= 4;
        } else if (key == "subgraph" && isString) {
            q.subgraph = std::string(text);
        }
        return;
    }
    if (table == Table::ModelInfo) { // one row per physical core (2.28 on trn2: two)
        auto &rows = m_tables->modelInfo;
        if (rows.size() <= index)
            rows.resize(index + 1);
        NeuronProfileJsonTables::ModelInfoRow &m = rows[index];
        static constexpr std::pair<std::string_view, NtffEngine> kCounts[] = {
            {"tensor_engine_instruction_count", NtffEngine::Tensor}, {"vector_engine_instruction_count", NtffEngine::Vector},
            {"scalar_engine_instruction_count", NtffEngine::Scalar}, {"gpsimd_engine_instruction_count", NtffEngine::GpSimd},
            {"sync_engine_instruction_count", NtffEngine::Sync}};
        if (key == "sg_name" && isString)
            m.subgraph = std::string(text);
        else if (key == "nc_idx" && parseInt(text, v) && v >= 0 && v <= kMaxU32)
            m.index = uint32_t(v);
        else if (key == "event_count" && parseInt(text, v) && v >= 0)
            m.events = uint64_t(v);
        else
            for (const auto &[name, engine] : kCounts)
                if (key == name && parseInt(text, v) && v >= 0)
                    m.instructions[size_t(engine) - 1] = uint64_t(v);
        return;
    }
    if (index > 0) // the tables below have one row; the others are kept as reported only
        return;
    switch (table) {
    case Table::Metadata:
        if (key == "ntff_version" && parseInt(text, v) && v >= 0 && v <= 255)
            m_profile.version = uint8_t(v);
        else if (key == "last_hw_timestamp" && parseInt(text, v)) {
            m_profile.lastHwTimestamp = v;
            m_tables->sawLastHw = true;
        } else if (key == "num_physical_cores" && parseInt(text, v)) {
            m_tables->physicalCores = v;
        }
        break;
    case Table::NeffHeader:
        if (key == "uuid" && isString)
            m_profile.uuid = std::string(text);
        else if (key == "network_name" && isString && m_profile.neffName.empty())
            m_profile.neffName = std::string(text);
        break;
    case Table::ProfileInfo:
        if (key == "neff_name" && isString && !text.empty())
            m_profile.neffName = std::string(text);
        break;
    case Table::Summary:
        if (key == "runtime_version" && isString)
            m_profile.runtimeVersion = std::string(text);
        else if (key == "driver_version" && isString)
            m_profile.driverVersion = std::string(text);
        else if (key == "collectives_version" && isString)
            m_profile.collectivesVersion = std::string(text);
        else if (key == "instance_type" && isString)
            m_profile.instanceType = std::string(text);
        else if (key == "total_time") {
            uint64_t ps = 0;
            if (!isString && NeuronProfileValues::secondsToPs(text, ps))
                m_profile.totalTimePs = ps;
        }
        break;
    case Table::ModelInfo:
    case Table::LayerSummary:
    case Table::DmaQueues:
    case Table::NeffNode:
    case Table::Warnings:
    case Table::Terminology:
        break;
    }
}

// One series per (name, physical core): 2.28 writes DMA throughput for each subgraph on one timeline.
NtffCounterSeries &Parser::series(const std::string &name, const char *unit, uint8_t core)
{
    for (NtffCounterSeries &c : m_profile.counters)
        if (c.name == name && c.core == core)
            return c;
    return m_profile.counters.emplace_back(NtffCounterSeries{name, unit, {}, core});
}

// instruction_usage: SBUF ("sb") or PSUM ("psum") usage at a time, the average over partitions and one
// value per group of 32 partitions ("partition_32_usage"), each a fraction.
void Parser::readUsage(sj::object obj, uint64_t offset)
{
    int64_t ts = 0;
    uint32_t ok = 0;
    std::string memory;
    std::vector<std::pair<std::string, double>> values;
    std::string_view s;
    uint8_t core = kNoSubgraph;
    forEachField(obj, "instruction_usage", [&](std::string_view key, sj::value &val) {
        double d = 0;
        if (key == "timestamp")
            take(val, ts, ok, 1);
        else if (key == "subgraph" && stringOf(val, s))
            core = subgraphIndex(s, offset);
        else if (key == "type" && stringOf(val, s))
            memory = s == "sb" ? "SBUF" : s == "psum" ? "PSUM" : std::string(s);
        else if (key == "usage_avg" && !val.get_double().get(d))
            values.emplace_back("average", d);
        else if (key.starts_with("partition_") && key.ends_with("_usage") && !val.get_double().get(d)) {
            const std::string_view first = key.substr(10, key.size() - 16);
            int64_t p = 0;
            if (parseInt(first, p) && p >= 0 && p < 4096)
                values.emplace_back("partitions " + std::string(first) + "-" + std::to_string(p + 31), d);
        }
    });
    if (!(ok & 1) || memory.empty())
        return warn("instruction_usage", "without a valid", !(ok & 1) ? "timestamp" : "type", "skipped", offset);
    // the average first, then the partition groups in partition order, whatever the key order
    std::stable_sort(values.begin(), values.end(), [](const auto &x, const auto &y) {
        const auto rank = [](const std::string &w) {
            int64_t p = -1;
            const std::string_view v(w);
            if (v.starts_with("partitions ") && !parseInt(v.substr(11, v.find('-') - 11), p))
                p = 1 << 20;
            return p;
        };
        return rank(x.first) < rank(y.first);
    });
    for (const auto &[what, value] : values)
        series(memory + " usage (" + what + ")", "fraction", core).samples.emplace_back(ts, value);
}

// dma_throughput: the transfer rate of all DMA and of the HBM part at a time, bytes/s.
void Parser::readThroughput(sj::object obj, uint64_t offset)
{
    int64_t ts = 0;
    uint32_t ok = 0;
    double total = 0, hbm = 0;
    std::string_view s;
    uint8_t core = kNoSubgraph;
    forEachField(obj, "dma_throughput", [&](std::string_view key, sj::value &val) {
        if (key == "timestamp")
            take(val, ts, ok, 1);
        else if (key == "subgraph" && stringOf(val, s))
            core = subgraphIndex(s, offset);
        else if (key == "transfer_rate" && !val.get_double().get(total))
            ok |= 2;
        else if (key == "hbm_transfer_rate" && !val.get_double().get(hbm))
            ok |= 4;
    });
    if (!(ok & 1))
        return warn("dma_throughput", "without a valid", "timestamp", "skipped", offset);
    if (ok & 2)
        series("DMA throughput", "bytes/s", core).samples.emplace_back(ts, total);
    if (ok & 4)
        series("HBM throughput", "bytes/s", core).samples.emplace_back(ts, hbm);
}

void Parser::readReported(Table table, const char *tableName, size_t index, sj::object obj, uint64_t offset)
{
    std::string prefix = std::string("neuron_profile.") + tableName;
    auto &m_queueRows = m_tables->queueRows;
    if (table == Table::DmaQueues && m_queueRows.size() <= index) {
        m_queueRows.resize(index + 1);
        m_queueRows[index].offset = offset;
    }
    if (table == Table::ModelInfo) {
        if (m_tables->modelInfo.size() <= index)
            m_tables->modelInfo.resize(index + 1);
        m_tables->modelInfo[index].offset = offset;
    }
    if (index > 0 || table == Table::LayerSummary || table == Table::DmaQueues || table == Table::NeffNode || table == Table::Warnings)
        prefix += "[" + std::to_string(index) + "]";
    prefix += '.';
    forEachField(obj, tableName, [&](std::string_view key, sj::value &val) {
        sj::json_type type;
        if (auto err = val.type().get(type))
            failJson(err, "expected a value for \"" + std::string(key) + "\"");
        std::string_view text;
        bool isString = false;
        switch (type) {
        case sj::json_type::string:
            if (!stringOf(val, text))
                failJson(simdjson::STRING_ERROR, "expected a valid JSON string");
            isString = true;
            break;
        case sj::json_type::object: {
            sj::object o;
            if (val.get_object().get(o) || o.raw_json().get(text))
                failJson(simdjson::TAPE_ERROR, "expected a JSON object");
            break;
        }
        case sj::json_type::array: {
            sj::array a;
            if (val.get_array().get(a) || a.raw_json().get(text))
                failJson(simdjson::TAPE_ERROR, "expected a JSON array");
            break;
        }
        default:
            text = val.raw_json_token();
            break;
        }
        if (!isString)
            text = trim(text);
        useReported(table, index, key, text, isString);
        std::string value = text.size() > kMaxReportedValueBytes
                                ? "(" + std::to_string(text.size()) + " bytes, not kept)"
                                : std::string(text);
        m_tables->profile.reportedMetadata.emplace_back(prefix + std::string(key), std::move(value));
    });
}

void Parser::runWindow(const char *table)
{
    m_part.textBytes = m_input.size();
    startDocument();
    sj::value v;
    if (auto err = m_doc.get_value().get(v))
        failJson(err, std::string("expected the array \"") + table + "\"");
    switch (table[0]) {
    case 'i':
        return forEachRow(v, table, [this](sj::object o, uint64_t at, size_t) { readInstruction(o, at); });
    case 'd':
        return forEachRow(v, table, [this](sj::object o, uint64_t at, size_t) { readDma(o, at); });
    case 's':
        return forEachRow(v, table, [this](sj::object o, uint64_t at, size_t) { readSemaphore(o, at); });
    default:
        return forEachRow(v, table, [this](sj::object o, uint64_t at, size_t) { readThrottle(o, at); });
    }
}

void Parser::runPiece(NeuronProfileJsonParser::Piece piece)
{
    m_part.textBytes = m_input.size();
    m_whole = piece == NeuronProfileJsonParser::Piece::Whole;
    if (m_whole) {
        const std::string_view text = m_input.view();
        const size_t first = firstByte();
        if (first >= text.size())
            fail(textOffset(), "file is empty; expected neuron-profile's JSON export (a JSON object of arrays)");
        if (text[first] != '{')
            fail(textOffset() + first,
                 std::string("expected '{' at the start of neuron-profile's JSON export, found '") + text[first] + "'");
    }

    startDocument();
    sj::object top = topObject();
    for (auto fr : top) {
        sj::field f = fieldOf(std::move(fr), "expected a top-level key and value (\"instruction\": [...])");
        const std::string_view key = keyOf(f);
        sj::value v = f.value();
        if (m_tables && m_tables->sawTables.size() < 64 && key.size() < 64)
            m_tables->sawTables.emplace_back(key);
        if (key == "instruction") {
            m_tables->sawInstruction = true;
            forEachRow(v, "instruction", [this](sj::object o, uint64_t at, size_t) { readInstruction(o, at); });
        } else if (key == "dma") {
            forEachRow(v, "dma", [this](sj::object o, uint64_t at, size_t) { readDma(o, at); });
        } else if (key == "semaphore_update") {
            forEachRow(v, "semaphore_update", [this](sj::object o, uint64_t at, size_t) { readSemaphore(o, at); });
        } else if (key == "ham") {
            forEachRow(v, "ham", [this](sj::object o, uint64_t at, size_t) { readThrottle(o, at); });
        } else if (key == "instruction_usage") {
            forEachRow(v, "instruction_usage", [this](sj::object o, uint64_t at, size_t) { readUsage(o, at); });
        } else if (key == "dma_throughput") {
            forEachRow(v, "dma_throughput", [this](sj::object o, uint64_t at, size_t) { readThroughput(o, at); });
        } else if (key == "nc_mem_usage") {
            forEachRow(v, "nc_mem_usage", [this](sj::object o, uint64_t at, size_t i) {
                NtffMemoryUsage u;
                u.index = i;
                uint32_t ok = 0;
                int64_t nc = -1; // the physical core number (model_info nc_idx)
                forEachField(o, "nc_mem_usage", [&u, &ok, &nc](std::string_view k, sj::value &val) {
                    std::string_view s;
                    if (k == "amount_bytes")
                        take(val, u.bytes, ok, 1);
                    else if (k == "usage_type" && stringOf(val, s))
                        u.category = std::string(s);
                    else if (k == "nc")
                        takeIn(val, 0, kMaxU32, nc, ok, 2);
                });
                m_profile.memoryUsage.push_back(std::move(u));
                m_part.memoryNc.emplace_back(nc, at);
            });
        } else {
            static constexpr std::pair<std::string_view, Table> reported[] = {
                {"metadata", Table::Metadata},        {"neff_header", Table::NeffHeader},
                {"profile_info", Table::ProfileInfo}, {"summary", Table::Summary},
                {"model_info", Table::ModelInfo},     {"layer_summary", Table::LayerSummary},
                {"dma_queues_info", Table::DmaQueues}, {"neff_node", Table::NeffNode},
                {"warnings", Table::Warnings},         {"terminology", Table::Terminology}};
            m_tables->sawTraceEvents = m_tables->sawTraceEvents || key == "traceEvents";
            for (const auto &[name, table] : reported)
                if (key == name) {
                    const char *tableName = name.data(); // literals: NUL-terminated
                    forEachRow(v, tableName, [this, table = table, tableName](sj::object o, uint64_t at, size_t i) {
                        readReported(table, tableName, i, o, at);
                    });
                }
        }
        checkCancel();
    }
    const uint64_t rest = location(); // simdjson 3.0 has no document::at_end()
    if (rest < fileSize())
        fail(rest, "unexpected content after the top-level object; expected the end of the file");
}

} // namespace

const std::vector<std::string> &NeuronProfileJsonParser::windowedKeys()
{
    static const std::vector<std::string> keys{"instruction", "dma", "semaphore_update", "ham"};
    return keys;
}

void NeuronProfileJsonParser::parseWindow(JsonWindow &window, const std::string &name, const LoadOptions &options,
                                          simdjson::ondemand::parser *parser, NeuronProfileJsonPart &out)
{
    out.clear();
    try {
        Parser p(window.text, window.offset, window.end, name, options, parser, nullptr, out);
        p.runWindow(windowedKeys()[window.key].c_str());
    } catch (...) {
        out.error = std::current_exception();
    }
}

void NeuronProfileJsonParser::parsePiece(InputBuffer &text, uint64_t offset, Piece piece, const std::string &name,
                                         const LoadOptions &options, NeuronProfileJsonTables &tables,
                                         NeuronProfileJsonPart &out)
{
    out.clear();
    Parser p(text, offset, 0, name, options, nullptr, &tables, out);
    p.runPiece(piece);
}

void NeuronProfileJsonPart::clear()
{
    rows.instructions.clear();
    rows.instructionSync.clear();
    rows.instructionOps.clear();
    rows.dmaTags.clear();
    rows.dmaBlocks.clear();
    rows.counters.clear();
    rows.names.clear();
    rows.dma.clear();
    rows.dmaSemaphore.clear();
    rows.semaphores.clear();
    rows.throttle.clear();
    rows.memoryUsage.clear();
    rows.diagnostics = Diagnostics();
    subgraphs.clear();
    subgraphFirst.clear();
    withoutSubgraph = {};
    memoryNc.clear();
    opcodeNames.clear();
    opcodeOffsets.clear();
    queueLanes.clear();
    semaphoreNames.clear();
    rowCount = 0;
    textBytes = 0;
    error = nullptr;
}

} // namespace lanescope
