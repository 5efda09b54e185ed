#include "neuronprofilejsonreader.h"

#include "inputbuffer.h"
#include "jsonreaderbase.h"
#include "neuronprofilevalues.h"
#include "util/textutil.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace lanescope {

namespace sj = simdjson::ondemand;

namespace {

constexpr size_t kMaxReportedValueBytes = size_t(1) << 16;
constexpr int64_t kMaxU32 = int64_t(std::numeric_limits<uint32_t>::max());
constexpr int64_t kMaxI64 = std::numeric_limits<int64_t>::max();

using text::parseInt;
using text::trim;

bool stringOf(sj::value &v, std::string_view &s)
{
    return v.get_string().get(s) == simdjson::SUCCESS;
}

// An integer written as a number or as a decimal string ("12"), within [lo, hi].
bool intIn(sj::value &v, int64_t lo, int64_t hi, int64_t &out)
{
    int64_t i = 0;
    const auto err = v.get_int64().get(i);
    if (err == simdjson::INCORRECT_TYPE) {
        std::string_view s;
        if (!stringOf(v, s) || !parseInt(s, i))
            return false;
    } else if (err) {
        return false;
    }
    if (i < lo || i > hi)
        return false;
    out = i;
    return true;
}

// Stores an integer within [lo, hi] into `dst` and sets `bit` in `ok`; leaves both alone otherwise.
template <class T> void takeIn(sj::value &v, int64_t lo, int64_t hi, T &dst, uint32_t &ok, uint32_t bit)
{
    int64_t i = 0;
    if (intIn(v, lo, hi, i)) {
        dst = static_cast<T>(i);
        ok |= bit;
    }
}

// The same within the range of T.
template <class T> void take(sj::value &v, T &dst, uint32_t &ok, uint32_t bit)
{
    constexpr int64_t hi =
        std::numeric_limits<T>::max() > uint64_t(kMaxI64) ? kMaxI64 : int64_t(std::numeric_limits<T>::max());
    takeIn(v, int64_t(std::numeric_limits<T>::min()), hi, dst, ok, bit);
}

struct NameHash
{
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};

class Reader : JsonReaderBase
{
public:
    Reader(InputBuffer &input, const std::string &name, const LoadOptions &options)
        : JsonReaderBase(input, name, options, Style{})
    {
        for (int op = 0; op < 256; ++op)
            m_opcodes.emplace(std::string(ntffOpcodeName(uint8_t(op))), uint32_t(op));
        m_profile.sourceFormat = "neuron-profile-json";
    }

    NtffProfile run();

private:
    enum class Table { Metadata, NeffHeader, ProfileInfo, Summary, ModelInfo, LayerSummary, DmaQueues };
    struct QueueRow // one dma_queues_info row
    {
        NtffDmaQueue queue;
        uint32_t ok = 0;
        uint64_t offset = 0;
    };

    void warn(const char *table, const char *problem, std::string_view field, const char *consequence, uint64_t offset);
    template <class Fn> void forEachRow(sj::value v, const char *table, Fn &&fn);
    template <class Fn> void forEachField(sj::object &obj, const char *table, Fn &&fn);
    bool requireAll(const char *table, uint32_t ok, std::initializer_list<std::pair<uint32_t, const char *>> fields,
                    uint64_t offset);
    void readInstruction(sj::object obj, uint64_t offset);
    void readDma(sj::object obj, uint64_t offset);
    void readSemaphore(sj::object obj, uint64_t offset);
    void readThrottle(sj::object obj, uint64_t offset);
    void readReported(Table table, const char *tableName, size_t index, sj::object obj, uint64_t offset);
    void useReported(Table table, size_t index, std::string_view key, std::string_view text, bool isString);
    void finishQueues();
    uint32_t opcodeCode(std::string_view name, uint64_t offset);
    void noteQueueName(uint32_t engine, uint32_t queue, std::string_view lane);
    void finish(uint64_t objectOffset);

    NtffProfile m_profile;
    std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>> m_opcodes; // name -> byte, 256 + extra
    std::array<std::string, 256> m_rowQueueName;                                    // engine * 16 + queue
    std::array<bool, 256> m_rowQueueSeen{};
    std::vector<QueueRow> m_queueRows;
    uint64_t m_rows = 0;
    bool m_sawInstruction = false;
    bool m_sawTraceEvents = false;
    bool m_sawLastHw = false;
};

// "instruction rows without a valid \"crc_in\" (65535 assumed)"
void Reader::warn(const char *table, const char *problem, std::string_view field, const char *consequence,
                  uint64_t offset)
{
    std::string message =
        std::string(table) + " rows " + problem + " \"" + std::string(field) + "\" (" + consequence + ")";
    m_profile.diagnostics.warnAtByte(message, offset);
}

template <class Fn> void Reader::forEachRow(sj::value v, const char *table, Fn &&fn)
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
        ++m_rows;
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
        if ((++m_rows & (NeuronProfileJsonReader::kCheckEvery - 1)) == 0)
            progress();
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

uint32_t Reader::opcodeCode(std::string_view name, uint64_t offset)
{
    const auto it = m_opcodes.find(name);
    if (it != m_opcodes.end())
        return it->second;
    if (m_profile.extraOpcodeNames.size() >= std::numeric_limits<uint16_t>::max()) {
        m_profile.diagnostics.warnAtByte(
            "more than 65,535 distinct unknown opcode names (the rest shown as \"op 0x00\")", offset);
        return 0;
    }
    m_profile.extraOpcodeNames.emplace_back(name);
    const uint32_t code = 256 + uint32_t(m_profile.extraOpcodeNames.size() - 1);
    m_opcodes.emplace(std::string(name), code);
    return code;
}

template <class Fn> void Reader::forEachField(sj::object &obj, const char *table, Fn &&fn)
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
bool Reader::requireAll(const char *table, uint32_t ok, std::initializer_list<std::pair<uint32_t, const char *>> fields,
                        uint64_t offset)
{
    for (const auto &[bit, field] : fields)
        if (!(ok & bit)) {
            warn(table, "without a valid", field, "skipped", offset);
            return false;
        }
    return true;
}

void Reader::readInstruction(sj::object obj, uint64_t offset)
{
    enum : uint32_t { Ts = 1, Dur = 2, Pc = 4, Op = 8, Sub = 16, Label = 32 };
    enum : uint32_t { Wait = 64, CrcIn = 128, CrcOut = 256, Cpc = 512, CpcPresent = 1024 };
    NtffInstructionRow r;
    NtffSync sync;
    uint32_t ok = 0, code = 0;
    std::string_view s;
    forEachField(obj, "instruction", [&](std::string_view key, sj::value &val) {
        switch (key.size()) { // the keys of interest differ in length or first letter: few compares per key
        case 2:
            if (key == "pc")
                take(val, r.pc, ok, Pc);
            break;
        case 5:
            if (key == "label" && stringOf(val, s) && NeuronProfileValues::laneFromName(s, r.lane))
                ok |= Label;
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
    r.extraOpcode = code < 256 ? uint16_t(0) : uint16_t(code - 255);
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
    m_profile.instructions.push_back(r);
    m_profile.instructionSync.push_back(sync);
}

void Reader::noteQueueName(uint32_t engine, uint32_t queue, std::string_view lane)
{
    // neuron-profile names a queue's lane "qSyncSpillReload0-Q1-E0", or "Q0-E15" without a descriptor
    const size_t key = engine * 16 + queue;
    m_rowQueueSeen[key] = true;
    const std::string suffix = "-Q" + std::to_string(queue) + "-E" + std::to_string(engine);
    if (lane.size() > suffix.size() && lane.substr(lane.size() - suffix.size()) == suffix)
        m_rowQueueName[key] = std::string(lane.substr(0, lane.size() - suffix.size()));
}

void Reader::readDma(sj::object obj, uint64_t offset)
{
    enum : uint32_t { Ts = 1, Dur = 2, Eng = 4, Queue = 8, Size = 16, Crc = 32, Sub = 64 };
    NtffDmaRow r;
    uint32_t ok = 0;
    std::string_view s, lane;
    bool aggregated = false;
    int16_t semaphore = -1; // "S[8] (qSyncSpillReload0)": the semaphore the packet's completion updates
    forEachField(obj, "dma", [&](std::string_view key, sj::value &val) {
        switch (key.size()) { // 34 keys per row: compare only the candidates of the same length
        case 3:
            if (key == "crc")
                take(val, r.crc, ok, Crc);
            break;
        case 8:
            if (key == "duration")
                takeIn(val, 0, kMaxI64, r.duration, ok, Dur);
            else if (key == "subgroup" && stringOf(val, lane))
                ok |= Sub;
            break;
        case 9:
            if (key == "timestamp")
                take(val, r.timestamp, ok, Ts);
            else if (key == "dma_queue")
                takeIn(val, 0, 15, r.queue, ok, Queue);
            break;
        case 10:
            if (key == "dma_engine")
                takeIn(val, 0, 15, r.engine, ok, Eng);
            else if (key == "aggregated")
                aggregated = !stringOf(val, s) || s != "no";
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
    if (aggregated)
        return m_profile.diagnostics.warnAtByte(
            "aggregated dma rows (DMA block summaries, need the NEFF; their packets are imported) skipped", offset);
    if (!requireAll("dma", ok, {{Ts, "timestamp"}, {Dur, "duration"}, {Eng, "dma_engine"}, {Queue, "dma_queue"}},
                    offset))
        return;
    if (!(ok & Size))
        warn("dma", "without a valid", "transfer_size", "0 assumed", offset);
    if ((ok & Sub) && !m_rowQueueSeen[size_t(r.engine) * 16 + r.queue])
        noteQueueName(r.engine, r.queue, lane);
    m_profile.dma.push_back(r);
    m_profile.dmaSemaphore.push_back(semaphore);
}

void Reader::readSemaphore(sj::object obj, uint64_t offset)
{
    enum : uint32_t { Id = 1, Ts = 2, Value = 4 };
    NtffSemaphoreRow r;
    uint32_t ok = 0;
    std::string_view s, name;
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
        }
    });
    if (!requireAll("semaphore_update", ok, {{Id, "id"}, {Ts, "timestamp"}, {Value, "value"}}, offset))
        return;
    if (!name.empty()) {
        const auto [it, inserted] = m_profile.semaphoreNames.emplace(r.id, std::string(name));
        if (!inserted && it->second != name)
            m_profile.diagnostics.warnAtByte("semaphores shown under two names (the first kept)", offset);
    }
    m_profile.semaphores.push_back(r);
}

void Reader::readThrottle(sj::object obj, uint64_t offset)
{
    enum : uint32_t { Ts = 1, Dur = 2, K = 4, N = 8, Type = 16 };
    NtffThrottleRow r;
    uint32_t ok = 0;
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
    });
    if (requireAll("ham", ok, {{Ts, "timestamp"}, {Dur, "duration"}, {K, "k"}, {N, "n"}, {Type, "type"}}, offset))
        m_profile.throttle.push_back(r);
}

void Reader::useReported(Table table, size_t index, std::string_view key, std::string_view text, bool isString)
{
    int64_t v = 0;
    if (table == Table::DmaQueues) {
        if (m_queueRows.size() <= index)
            m_queueRows.resize(index + 1);
        QueueRow &q = m_queueRows[index];
        if (key == "q_eng_idx" && parseInt(text, v) && v >= 0 && v <= kMaxU32) {
            q.queue.engine = uint32_t(v);
            q.ok |= 1;
        } else if (key == "q_idx" && parseInt(text, v) && v >= 0 && v <= kMaxU32) {
            q.queue.queue = uint32_t(v);
            q.ok |= 2;
        } else if (key == "q_name" && isString) {
            q.queue.name = q.queue.displayName = std::string(text); // already the display name: qGpSimdDynamic
            q.ok |= 4;
        }
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
            m_sawLastHw = true;
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
        if (key == "sg_name" && isString)
            m_profile.subgraphName = std::string(text);
        else if (key == "event_count" && parseInt(text, v) && v >= 0)
            m_profile.eventRecordCount = uint64_t(v);
        break;
    case Table::LayerSummary:
    case Table::DmaQueues:
        break;
    }
}

void Reader::readReported(Table table, const char *tableName, size_t index, sj::object obj, uint64_t offset)
{
    std::string prefix = std::string("neuron_profile.") + tableName;
    if (table == Table::DmaQueues && m_queueRows.size() <= index) {
        m_queueRows.resize(index + 1);
        m_queueRows[index].offset = offset;
    }
    if (index > 0 || table == Table::LayerSummary || table == Table::DmaQueues)
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
        m_profile.reportedMetadata.emplace_back(prefix + std::string(key), std::move(value));
    });
}

void Reader::finish(uint64_t objectOffset)
{
    if (!m_sawInstruction)
        fail(objectOffset,
             std::string("this JSON object has no \"instruction\" array; expected neuron-profile's JSON export "
                         "(neuron-profile view --output-format json), an object of arrays such as "
                         "\"instruction\", \"dma\" and \"semaphore_update\"") +
                 (m_sawTraceEvents ? " (this one has \"traceEvents\": a Chrome/Kineto trace)" : ""));
    finishQueues();
    if (!m_sawLastHw) {
        int64_t last = 0;
        for (const auto &r : m_profile.instructions) {
            int64_t end = 0;
            if (__builtin_add_overflow(r.timestamp, r.duration, &end)) // hostile values: saturate
                end = r.duration > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
            last = std::max(last, end);
        }
        m_profile.lastHwTimestamp = last;
        m_profile.diagnostics.warn("metadata without \"last_hw_timestamp\" (the latest instruction end used)");
    }
    std::stable_sort(m_profile.reportedMetadata.begin(), m_profile.reportedMetadata.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    m_profile.fileSize = m_input.size();
    m_profile.recordsRead = m_rows;
}

// DMA queue descriptors from dma_queues_info; but a queue with packets is named as neuron-profile named
// its lane on those rows ("qSyncSpillReload0-Q1-E0"), which may be no name at all ("Q0-E15" for the
// software DGE queue that dma_queues_info calls qGpSimdDynamic): the lane names win.
void Reader::finishQueues()
{
    for (QueueRow &q : m_queueRows) {
        if (!requireAll("dma_queues_info", q.ok, {{1, "q_eng_idx"}, {2, "q_idx"}, {4, "q_name"}}, q.offset))
            continue;
        const NtffDmaQueue &d = q.queue;
        if (m_profile.dmaQueue(d.engine, d.queue))
            m_profile.diagnostics.warnAtByte("dma_queues_info rows for a queue already described (skipped)", q.offset);
        else if (d.engine >= 16 || d.queue >= 16 || !m_rowQueueSeen[d.engine * 16 + d.queue])
            m_profile.dmaQueues.push_back(std::move(q.queue));
    }
    for (size_t key = 0; key < m_rowQueueName.size(); ++key)
        if (!m_rowQueueName[key].empty())
            m_profile.dmaQueues.push_back(
                {uint32_t(key / 16), uint32_t(key % 16), 0, m_rowQueueName[key], m_rowQueueName[key]});
}

NtffProfile Reader::run()
{
    const std::string_view text = m_input.view();
    const size_t first = firstByte();
    if (first >= text.size())
        fail(0, "file is empty; expected neuron-profile's JSON export (a JSON object of arrays)");
    if (text[first] != '{')
        fail(first,
             std::string("expected '{' at the start of neuron-profile's JSON export, found '") + text[first] + "'");
    m_options.report(200);

    startDocument();
    sj::object top;
    if (auto err = m_doc.get_object().get(top))
        failJson(err, "expected a JSON object");
    for (auto fr : top) {
        sj::field f;
        if (auto err = std::move(fr).get(f))
            failJson(err, "expected a top-level key and value (\"instruction\": [...])");
        const std::string_view key = keyOf(f);
        sj::value v = f.value();
        if (key == "instruction") {
            m_sawInstruction = true;
            forEachRow(v, "instruction", [this](sj::object o, uint64_t at, size_t) { readInstruction(o, at); });
        } else if (key == "dma") {
            forEachRow(v, "dma", [this](sj::object o, uint64_t at, size_t) { readDma(o, at); });
        } else if (key == "semaphore_update") {
            forEachRow(v, "semaphore_update", [this](sj::object o, uint64_t at, size_t) { readSemaphore(o, at); });
        } else if (key == "ham") {
            forEachRow(v, "ham", [this](sj::object o, uint64_t at, size_t) { readThrottle(o, at); });
        } else if (key == "nc_mem_usage") {
            forEachRow(v, "nc_mem_usage", [this](sj::object o, uint64_t, size_t i) {
                NtffMemoryUsage u;
                u.index = i;
                uint32_t ok = 0;
                forEachField(o, "nc_mem_usage", [&u, &ok](std::string_view k, sj::value &val) {
                    std::string_view s;
                    if (k == "amount_bytes")
                        take(val, u.bytes, ok, 1);
                    else if (k == "usage_type" && stringOf(val, s))
                        u.category = std::string(s);
                });
                m_profile.memoryUsage.push_back(std::move(u));
            });
        } else {
            static constexpr std::pair<std::string_view, Table> reported[] = {
                {"metadata", Table::Metadata},        {"neff_header", Table::NeffHeader},
                {"profile_info", Table::ProfileInfo}, {"summary", Table::Summary},
                {"model_info", Table::ModelInfo},     {"layer_summary", Table::LayerSummary},
                {"dma_queues_info", Table::DmaQueues}};
            m_sawTraceEvents = m_sawTraceEvents || key == "traceEvents";
            for (const auto &[name, table] : reported)
                if (key == name) {
                    const char *tableName = name.data(); // literals: NUL-terminated
                    forEachRow(v, tableName, [this, table = table, tableName](sj::object o, uint64_t at, size_t i) {
                        readReported(table, tableName, i, o, at);
                    });
                }
        }
        progress();
    }
    const uint64_t rest = location(); // simdjson 3.0 has no document::at_end()
    if (rest < fileSize())
        fail(rest, "unexpected content after the top-level object; expected the end of the file");
    finish(first);
    m_options.report(900);
    return std::move(m_profile);
}

} // namespace

NtffProfile NeuronProfileJsonReader::read(InputBuffer &input, const std::string &name, const LoadOptions &options)
{
    Reader reader(input, name, options);
    return reader.run();
}

} // namespace lanescope
