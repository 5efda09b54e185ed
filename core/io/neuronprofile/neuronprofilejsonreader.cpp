#include "neuronprofilejsonreader.h"

#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/json/jsonobjectpieces.h"
#include "io/json/jsonobjectwindows.h"
#include "io/json/jsonwindowsplitter.h"
#include "neuronprofilecores.h"
#include "neuronprofilejsonparser.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <limits>

namespace lanescope {

namespace {

using Piece = NeuronProfileJsonParser::Piece;

template <class T> void append(std::vector<T> &to, std::vector<T> &from)
{
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

// Reads the export from a stream: the row arrays in windows parsed on the cores, merged in file
// order with the top-level text around them (the small tables).
class Reader
{
public:
    Reader(InputStream &input, const LoadOptions &options)
        : m_input(input), m_name(input.name()), m_options(options), m_tables{m_profile}
    {
        m_profile.sourceFormat = "neuron-profile-json";
    }

    NtffProfile run();

private:
    void piece(InputBuffer text, uint64_t offset, Piece kind);
    void merge(NeuronProfileJsonPart &part);
    uint32_t opcodeCode(const std::string &name, uint64_t offset);
    void noteQueueName(uint32_t engine, uint32_t queue, uint8_t core, std::string_view lane);
    void finish(uint64_t objectOffset);
    void finishQueues(const std::array<uint8_t, 256> &coreOf);
    void finishDependencies();

    InputStream &m_input;
    const std::string &m_name;
    const LoadOptions &m_options;
    NtffProfile m_profile;
    NeuronProfileJsonTables m_tables;
    NeuronProfileJsonPart m_piece;
    std::unordered_map<std::string, uint32_t> m_opcodes; // names the built-in table lacks -> 256 + index
    std::unordered_map<std::string, uint32_t> m_names; // layer / HLO op / tensor names -> 1 + index in names
    NeuronProfileCores m_cores;
    std::vector<std::string> m_rowQueueName = std::vector<std::string>(kNeuronProfileQueueKeys); // engine * 16 + queue
    std::vector<bool> m_rowQueueSeen = std::vector<bool>(kNeuronProfileQueueKeys);
    std::vector<uint8_t> m_rowQueueCore = std::vector<uint8_t>(kNeuronProfileQueueKeys, kNoSubgraph); // provisional
    uint64_t m_rows = 0;
    bool m_cut = false; // the input ended inside a windowed array (warned once)
    uint64_t m_modelBytes = 0; // the rows merged so far
    std::vector<uint64_t> m_instructionIds;                       // parallel to m_profile.instructions
    std::vector<NeuronProfileJsonPart::Predecessor> m_predecessors; // positions in m_profile.instructions
};

uint32_t Reader::opcodeCode(const std::string &name, uint64_t offset)
{
    const auto it = m_opcodes.find(name);
    if (it != m_opcodes.end())
        return it->second;
    if (m_profile.extraOpcodeNames.size() >= std::numeric_limits<uint16_t>::max()) {
        m_profile.diagnostics.warnAtByte(
            "more than 65,535 distinct unknown opcode names (the rest shown as \"op 0x00\")", offset);
        return 0;
    }
    m_profile.extraOpcodeNames.push_back(name);
    const uint32_t code = 256 + uint32_t(m_profile.extraOpcodeNames.size() - 1);
    m_opcodes.emplace(name, code);
    return code;
}

void Reader::noteQueueName(uint32_t engine, uint32_t queue, uint8_t core, std::string_view lane)
{
    // neuron-profile names a queue's lane "qSyncSpillReload0-Q1-E0", or "Q0-E15" without a descriptor
    const size_t key = engine * 16 + queue;
    m_rowQueueSeen[key] = true;
    m_rowQueueCore[key] = core;
    const std::string suffix = "-Q" + std::to_string(queue) + "-E" + std::to_string(engine);
    if (lane.size() > suffix.size() && lane.substr(lane.size() - suffix.size()) == suffix)
        m_rowQueueName[key] = std::string(lane.substr(0, lane.size() - suffix.size()));
}

// A part joins the profile as if its rows had been read here: its opcode names get the next codes,
// its semaphore names and queue lanes count where they are the first, its warnings keep their order.
void Reader::merge(NeuronProfileJsonPart &part)
{
    if (part.error)
        std::rethrow_exception(part.error);
    if (!part.lead.empty())
        piece(JsonObjectPieces::between(part.lead), part.leadOffset, Piece::Between);
    m_cores.adopt(part); // the part's subgraphs -> the profile's
    std::vector<uint32_t> codes(part.opcodeNames.size());
    for (size_t i = 0; i < codes.size(); ++i)
        codes[i] = opcodeCode(part.opcodeNames[i], part.opcodeOffsets[i]);
    NtffProfile &rows = part.rows;
    for (NtffInstructionRow &r : rows.instructions)
        if (r.extraOpcode) {
            const uint32_t code = codes[r.extraOpcode - 1u];
            r.opcode = code < 256 ? uint8_t(code) : uint8_t(0);
            r.extraOpcode = code < 256 ? uint16_t(0) : uint16_t(code - 255);
        }
    m_modelBytes += rows.instructions.size() * (sizeof(NtffInstructionRow) + sizeof(NtffSync) + sizeof(NtffInstructionOp)) +
                    rows.dma.size() * (sizeof(NtffDmaRow) + sizeof(int16_t) + sizeof(NtffDmaTag)) + rows.semaphores.size() * sizeof(NtffSemaphoreRow) +
                    rows.throttle.size() * sizeof(NtffThrottleRow) + part.instructionIds.size() * sizeof(uint64_t) +
                    part.predecessors.size() * sizeof(NeuronProfileJsonPart::Predecessor);
    JsonObjectPieces::requireModel(m_modelBytes, m_options.memoryBudget, m_name, part.end, m_rows + part.rowCount);
    const auto base = uint32_t(m_profile.instructions.size());
    append(m_profile.instructions, rows.instructions);
    append(m_profile.instructionSync, rows.instructionSync);
    append(m_instructionIds, part.instructionIds);
    if (!rows.names.empty()) { // the part's names -> the profile's, in order of first use
        std::vector<uint32_t> index(rows.names.size() + 1, 0);
        for (size_t i = 0; i < rows.names.size(); ++i) {
            const auto [it, inserted] = m_names.emplace(rows.names[i], uint32_t(m_profile.names.size() + 1));
            if (inserted)
                m_profile.names.push_back(rows.names[i]);
            index[i + 1] = it->second;
        }
        const auto map = [&index](uint32_t &n) { n = n < index.size() ? index[n] : 0; };
        for (NtffInstructionOp &op : rows.instructionOps) {
            map(op.layer);
            map(op.hlo);
        }
        for (NeuronProfileJsonPart::Predecessor &d : part.predecessors)
            map(d.type);
        for (NtffDmaTag &t : rows.dmaTags) {
            map(t.variable);
            map(t.source);
            map(t.dest);
            map(t.queueType);
        }
        for (NtffDmaBlock &b : rows.dmaBlocks) {
            map(b.tag.variable);
            map(b.tag.source);
            map(b.tag.dest);
            map(b.tag.queueType);
        }
    }
    append(m_profile.instructionOps, rows.instructionOps);
    for (NeuronProfileJsonPart::Predecessor &d : part.predecessors)
        d.instruction += base;
    append(m_predecessors, part.predecessors);
    append(m_profile.dmaTags, rows.dmaTags);
    append(m_profile.dmaBlocks, rows.dmaBlocks);
    for (NtffCounterSeries &c : rows.counters) { // pieces only: few rows, merged by name
        auto it = std::find_if(m_profile.counters.begin(), m_profile.counters.end(),
                               [&c](const NtffCounterSeries &x) { return x.name == c.name && x.core == c.core; });
        if (it == m_profile.counters.end())
            m_profile.counters.push_back(std::move(c));
        else
            append(it->samples, c.samples);
    }
    append(m_profile.dma, rows.dma);
    append(m_profile.dmaSemaphore, rows.dmaSemaphore);
    append(m_profile.semaphores, rows.semaphores);
    append(m_profile.throttle, rows.throttle);
    append(m_profile.memoryUsage, rows.memoryUsage);
    for (const auto &q : part.queueLanes)
        if (!m_rowQueueSeen[q.key])
            noteQueueName(q.key / 16u, q.key % 16u, q.core, q.lane);
    const std::vector<Warning> &warnings = rows.diagnostics.warnings();
    size_t merged = 0;
    const auto mergeWarnings = [&](size_t upTo) {
        for (; merged < upTo; ++merged)
            m_profile.diagnostics.report(warnings[merged].severity, warnings[merged].message, warnings[merged].firstSeen,
                                         warnings[merged].count);
    };
    static constexpr const char *kTwoNames = "semaphores shown under two names (the first kept)";
    for (const auto &s : part.semaphoreNames) {
        mergeWarnings(s.warningsBefore);
        const auto [it, inserted] = m_profile.semaphoreNames.emplace(uint32_t(s.core) * 256u + s.id, s.name);
        if (!inserted && it->second != s.name) {
            m_profile.diagnostics.warnAtByte(kTwoNames, s.offset);
            if (s.rows > 1)
                m_profile.diagnostics.warn(kTwoNames, {}, s.rows - 1);
        }
    }
    mergeWarnings(warnings.size());
    m_rows += part.rowCount;
}

void Reader::piece(InputBuffer text, uint64_t offset, Piece kind)
{
    NeuronProfileJsonParser::parsePiece(text, offset, kind, m_name, m_options, m_tables, m_piece);
    merge(m_piece);
}

// The instructions' predecessors as dependency edges (predecessor -> instruction), the same
// NtffProfile::dependencies a Neuron Explorer profile's Flow table gives. An id no instruction of the
// export has (the instruction ran outside the captured window) is counted in a note.
void Reader::finishDependencies()
{
    if (m_predecessors.empty())
        return;
    std::unordered_map<uint64_t, uint32_t> position;
    position.reserve(m_instructionIds.size());
    for (size_t i = 0; i < m_instructionIds.size(); ++i)
        if (m_instructionIds[i])
            position.emplace(m_instructionIds[i], uint32_t(i)); // the first row of an id
    uint64_t unknown = 0;
    m_profile.dependencies.reserve(m_predecessors.size());
    for (const NeuronProfileJsonPart::Predecessor &d : m_predecessors) {
        const auto it = position.find(d.id);
        if (it == position.end()) {
            ++unknown;
            continue;
        }
        NtffDependency dep;
        dep.from = it->second;
        dep.to = d.instruction;
        dep.type = d.type;
        m_profile.dependencies.push_back(dep);
    }
    if (unknown)
        m_profile.diagnostics.note(std::to_string(unknown) + " instruction predecessors name an id no instruction of the "
                                   "export has (ran outside the captured window): no dependency flow drawn for them");
    m_predecessors = {};
    m_instructionIds = {};
}

void Reader::finish(uint64_t objectOffset)
{
    if (!m_tables.sawInstruction)
        throw ImportError(
            m_name, objectOffset,
            std::string("this JSON object has no \"instruction\" array; expected neuron-profile's JSON export "
                        "(neuron-profile view --output-format json), an object of arrays such as "
                        "\"instruction\", \"dma\" and \"semaphore_update\"") +
                (m_tables.sawTraceEvents ? " (this one has \"traceEvents\": a Chrome/Kineto trace)" : ""));
    finishQueues(m_cores.place(m_profile, m_tables, m_cut));
    finishDependencies();
    if (!m_tables.sawLastHw) {
        int64_t last = 0;
        for (const auto &r : m_profile.instructions) {
            int64_t end = 0;
            if (__builtin_add_overflow(r.timestamp, r.duration, &end)) // hostile values: saturate
                end = r.duration > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
            last = std::max(last, end);
        }
        m_profile.lastHwTimestamp = last;
        // A cut file (warned) may have lost its metadata: then this follows from the cut.
        m_profile.diagnostics.report(m_cut ? DiagnosticSeverity::Note : DiagnosticSeverity::Warning,
                                     "metadata without \"last_hw_timestamp\" (the latest instruction end used)");
    }
    // Sections older neuron-profile versions do not write: what is missing without them (notes).
    static constexpr std::pair<const char *, const char *> kSections[] = {
        {"layer_summary", "no per-layer FLOPs, MFU or HFU"},
        {"neff_node", "no tensor types, shapes or sizes"},
        {"nc_mem_usage", "no static memory table"},
        {"instruction_usage", "no SBUF / PSUM usage counters"},
        {"dma_throughput", "no DMA / HBM throughput counters"},
        {"summary", "no HBM / SBUF traffic, MBU, MFU or total time as neuron-profile reported them"},
    };
    for (const auto &[section, consequence] : kSections)
        if (std::find(m_tables.sawTables.begin(), m_tables.sawTables.end(), section) == m_tables.sawTables.end())
            m_profile.diagnostics.note(std::string("neuron-profile JSON without \"") + section + "\" (" + consequence + ")");
    std::stable_sort(m_profile.reportedMetadata.begin(), m_profile.reportedMetadata.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    m_profile.fileSize = m_input.position();
    m_profile.recordsRead = m_rows;
}

// DMA queue descriptors from dma_queues_info; but a queue with packets is named as neuron-profile named
// its lane on those rows ("qSyncSpillReload0-Q1-E0"), which may be no name at all ("Q0-E15" for the
// software DGE queue that dma_queues_info calls qGpSimdDynamic): the lane names win.
void Reader::finishQueues(const std::array<uint8_t, 256> &coreOf)
{
    for (NeuronProfileJsonTables::QueueRow &q : m_tables.queueRows) {
        static constexpr std::pair<uint32_t, const char *> kRequired[] = {{1, "q_eng_idx"}, {2, "q_idx"}, {4, "q_name"}};
        const auto missing = std::find_if(std::begin(kRequired), std::end(kRequired), [&](const auto &f) { return !(q.ok & f.first); });
        if (missing != std::end(kRequired)) {
            m_profile.diagnostics.warnAtByte(std::string("dma_queues_info rows without a valid \"") + missing->second + "\" (skipped)",
                                             q.offset);
            continue;
        }
        bool known = false;
        q.queue.core = NeuronProfileCores::coreOf(m_profile, q.subgraph, known);
        if (!known && m_profile.cores.size() > 1)
            m_profile.diagnostics.warnAtByte("dma_queues_info rows whose \"subgraph\" is no physical core of the export "
                                             "(expected a model_info sg_name; the first core assumed)", q.offset);
        const NtffDmaQueue &d = q.queue;
        if (m_profile.dmaQueue(d.engine, d.queue))
            m_profile.diagnostics.warnAtByte("dma_queues_info rows for a queue already described (expected one row per "
                                             "DMA engine and queue; skipped)", q.offset);
        else if (d.engine >= 256 || d.queue >= 16 || !m_rowQueueSeen[d.engine * 16 + d.queue])
            m_profile.dmaQueues.push_back(std::move(q.queue));
    }
    for (size_t key = 0; key < m_rowQueueName.size(); ++key)
        if (!m_rowQueueName[key].empty()) {
            NtffDmaQueue q{uint32_t(key / 16), uint32_t(key % 16), 0, m_rowQueueName[key], m_rowQueueName[key]};
            q.core = coreOf[m_rowQueueCore[key]];
            m_profile.dmaQueues.push_back(std::move(q));
        }
}

NtffProfile Reader::run()
{
    JsonWindowSplitter splitter(m_input, NeuronProfileJsonParser::windowedKeys(), JsonObjectPieces::windowBytes(m_input, m_options),
                                m_options.memoryBudget / 4);
    const JsonWindowSplitter::Shape shape = splitter.start();
    const std::string &prefix = splitter.prefix();
    const uint64_t first = JsonObjectPieces::firstByte(prefix, splitter.prefixOffset());
    if (shape != JsonWindowSplitter::Shape::Array)
        m_options.report(200);
    if (shape == JsonWindowSplitter::Shape::Other) {
        piece(InputBuffer::ofText({prefix}), splitter.prefixOffset(), Piece::Whole);
    } else if (shape == JsonWindowSplitter::Shape::Array) {
        throw ImportError(m_name, first, "expected '{' at the start of neuron-profile's JSON export, found '['");
    } else {
        piece(JsonObjectPieces::before(prefix), splitter.prefixOffset(), Piece::Before);
        readObjectWindows<NeuronProfileJsonPart>(
            splitter, m_input, m_options, 200, 700,
            [&](JsonWindow &w, simdjson::ondemand::parser *parser, NeuronProfileJsonPart &part) {
                NeuronProfileJsonParser::parseWindow(w, m_name, m_options, parser, part);
            },
            [&](NeuronProfileJsonPart &part) { merge(part); });
        m_cut = !splitter.terminated();
        if (m_cut)
            JsonObjectPieces::reportCut(splitter, m_profile.diagnostics, "", "row");
        else
            piece(JsonObjectPieces::after(splitter.suffix()), splitter.arrayEnd(), Piece::After);
    }
    finish(first);
    m_options.report(900);
    return std::move(m_profile);
}

} // namespace

NtffProfile NeuronProfileJsonReader::read(InputStream &input, const LoadOptions &options)
{
    Reader reader(input, options);
    return reader.run();
}

NtffProfile NeuronProfileJsonReader::read(InputBuffer &input, const std::string &name, const LoadOptions &options)
{
    InputStream stream(input.view(), name, options);
    return read(stream, options);
}

} // namespace lanescope
