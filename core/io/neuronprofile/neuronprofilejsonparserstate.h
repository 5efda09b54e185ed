#pragma once
// The neuron-profile JSON reader's parser state, shared by its two halves: neuronprofilejsonparser.cpp
// (tables, windows, reported values, counters) and neuronprofilejsonrows.cpp (the instruction, DMA,
// semaphore and throttle rows). Internal to core/io/neuronprofile; include neuronprofilejsonparser.h elsewhere.
#include "neuronprofilejsonparser.h"
#include "io/input/inputbuffer.h"
#include "io/json/jsonobjectpieces.h"
#include "io/json/jsonreaderbase.h"
#include "neuronprofilejsonfields.h"
#include "neuronprofileopcodes.h"
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

namespace npjson {

constexpr size_t kMaxReportedValueBytes = size_t(1) << 16;

using text::parseInt;
using text::trim;

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
    void readPredecessors(sj::value &val, uint64_t offset);
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
    std::vector<NeuronProfileJsonPart::Predecessor> m_rowPredecessors; // of the instruction row being read
};

// What neuron-profile writes in a field the reader needs (the "expected" of a warning).
std::string_view expectation(std::string_view table, std::string_view field);

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

} // namespace npjson

} // namespace lanescope
