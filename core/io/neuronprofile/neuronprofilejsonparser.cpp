#include "neuronprofilejsonparser.h"
#include "neuronprofilejsonparserstate.h"

namespace lanescope {

namespace npjson {


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
        {"predecessors", "an array of {\"id\": the id of another instruction, \"type\": a name} objects"},
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
// value per group of 32 partitions ("partition_32_usage") or, for PSUM, per bank ("bank_3_usage"),
// each a fraction.
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
        } else if (key.starts_with("bank_") && key.ends_with("_usage") && !val.get_double().get(d)) {
            const std::string_view bank = key.substr(5, key.size() - 11);
            int64_t b = 0;
            if (parseInt(bank, b) && b >= 0 && b < 64)
                values.emplace_back("bank " + std::string(bank), d);
        }
    });
    if (!(ok & 1) || memory.empty())
        return warn("instruction_usage", "without a valid", !(ok & 1) ? "timestamp" : "type", "skipped", offset);
    // the average first, then the partition groups in partition order, then the banks in bank order,
    // whatever the key order
    std::stable_sort(values.begin(), values.end(), [](const auto &x, const auto &y) {
        const auto rank = [](const std::string &w) {
            int64_t p = -1;
            const std::string_view v(w);
            if (v.starts_with("partitions ") && !parseInt(v.substr(11, v.find('-') - 11), p))
                p = 1 << 20;
            if (v.starts_with("bank ") && parseInt(v.substr(5), p))
                p += 1 << 21;
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

} // namespace npjson

using npjson::Parser;

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
    instructionIds.clear();
    predecessors.clear();
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
