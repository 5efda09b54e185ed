// The row tables of a processed Neuron Explorer profile: Instruction, DmaPacketAggregated, DmaPacket,
// SemaphoreUpdate, Throttle -> the NtffProfile rows neuron-profile's JSON export gives
// (explorerdevicereader.h has the mapping).
#include "explorerdevicestate.h"
#include "io/neuronprofile/neuronprofilevalues.h"
#include "util/textutil.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace lanescope::explorer {

namespace {

// "S[8] (qSyncSpillReload0)" -> 8, "qSyncSpillReload0"; "12" -> 12.
bool parseSemaphoreId(std::string_view s, uint8_t &id, std::string_view &name)
{
    s = text::trim(s);
    if (s.size() > 3 && s.substr(0, 2) == "S[" && s.find(']') != std::string_view::npos) {
        const std::string_view rest = text::trim(s.substr(s.find(']') + 1));
        if (rest.size() >= 2 && rest.front() == '(' && rest.back() == ')')
            name = rest.substr(1, rest.size() - 2);
        s = s.substr(2, s.find(']') - 2);
    }
    int64_t v = 0;
    if (!text::parseInt(s, v) || v < 0 || v > 255)
        return false;
    id = uint8_t(v);
    return true;
}

// "[SB]" -> "SB"; "[[\"WEIGHT\"]]" -> "WEIGHT": the first memory name of a source / dest text.
std::string_view memoryName(std::string_view s)
{
    while (!s.empty() && (s.front() == '[' || s.front() == '"' || s.front() == ' '))
        s.remove_prefix(1);
    const size_t end = s.find_first_of("]\",");
    return text::trim(s.substr(0, end));
}

} // namespace

void readInstructions(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "Instruction");
    if (!c) {
        p.diagnostics.note("Neuron Explorer profile without an Instruction table (no engine lanes)", s.dir.path());
        return;
    }
    const auto *start = c.integer("start_ts");
    const auto *duration = c.integer("duration_ns");
    const auto *end = c.integer("end_ts");
    const auto *engine = c.text("engine");
    const auto *track = c.text("timeline_track");
    const auto *opcode = c.text("opcode");
    const auto *operands = c.text("operands");
    const auto *pc = c.integer("pc");
    const auto *compilerPc = c.integer("compiler_pc");
    const auto *crcIn = c.integer("crc_in");
    const auto *crcOut = c.integer("crc_out");
    const auto *wait = c.integer("evt_wait_time_ns");
    const auto *pcore = c.integer("pcore_idx");
    const auto *layer = c.text("layer");
    const auto *hlo = c.text("hlo_name");
    const auto *id = c.integer("id");
    // the compiler hierarchy's keys (explorerdevicehierarchy.cpp), when the table has them: not noted
    // when absent (the layer and HLO op names above are what the lanes need)
    const bool rawIds = c.loaded().find("raw_framework_id") || c.loaded().find("raw_hlo_id");
    const auto *rawFramework = rawIds ? c.integer("raw_framework_id") : nullptr;
    const auto *rawHlo = rawIds ? c.integer("raw_hlo_id") : nullptr;
    c.note("those values are absent from the instructions");
    RowProblems problems;
    const size_t rows = c.rows();
    p.instructions.reserve(rows);
    for (size_t row = 0; row < rows; ++row) {
        if ((row & 4095) == 4095 && s.options.cancelled())
            throw LoadCancelled();
        NtffInstructionRow r;
        const auto ts = intAt(start, row);
        const int64_t dur = durationOf(duration, end, ts, row);
        const auto pcv = intAt(pc, row);
        const auto name = textAt(opcode, row);
        if (!ts || dur < 0 || !pcv || *pcv < 0 || *pcv > std::numeric_limits<uint32_t>::max() || !name) {
            problems.add(std::string("Instruction rows without a valid ") +
                         (!ts ? "start_ts" : dur < 0 ? "duration_ns (or end_ts)" : !name ? "opcode" : "pc") +
                         " (skipped)");
            continue;
        }
        r.timestamp = *ts;
        r.duration = dur;
        r.pc = uint32_t(*pcv);
        const uint32_t code = s.opcodeCode(*name);
        r.opcode = code < 256 ? uint8_t(code) : uint8_t(0);
        r.extraOpcode = code < 256 ? uint16_t(0) : uint16_t(code - 255);
        const auto e = textAt(engine, row);
        const auto l = textAt(track, row);
        const bool hasEngine = e && NeuronProfileValues::engineFromName(*e, r.engine);
        const bool hasLane = l && NeuronProfileValues::laneFromName(*l, r.lane);
        if (!hasEngine && !hasLane) {
            // the schema's example spells engines in lower case ("tensor")
            std::string lowered(e.value_or(""));
            if (!lowered.empty())
                lowered[0] = char(std::toupper(static_cast<unsigned char>(lowered[0])));
            if (lowered == "Gpsimd")
                lowered = "GpSimd";
            if (!NeuronProfileValues::engineFromName(lowered, r.engine)) {
                problems.add("Instruction rows without a valid engine or timeline_track (expected Tensor, Vector, "
                             "Scalar, GpSimd or Sync; skipped)");
                continue;
            }
        }
        if (!hasEngine && hasLane && !NeuronProfileValues::engineFromName(std::string(ntffLaneName(r.lane)), r.engine))
            r.engine = NtffEngine::Tensor;
        if (!hasLane) {
            const bool matmul = r.engine == NtffEngine::Tensor && r.opcode == kNtffOpMatmul && !r.extraOpcode;
            r.lane = matmul ? NtffLane::TensorMatrix : ntffLaneOf(r.engine);
        }
        if (auto v = intAt(compilerPc, row); v && *v >= 0 && *v <= std::numeric_limits<int32_t>::max())
            r.compilerPc = int32_t(*v);
        if (auto v = intAt(crcIn, row); v && *v >= 0 && *v <= 65535)
            r.crcIn = uint16_t(*v);
        if (auto v = intAt(crcOut, row); v && *v >= 0 && *v <= 65535)
            r.crcOut = uint16_t(*v);
        if (auto v = intAt(wait, row); v && *v >= 0 && *v <= std::numeric_limits<uint32_t>::max())
            r.evtWaitTime = uint32_t(*v);
        r.core = s.core(intAt(pcore, row), problems);
        NtffInstructionOp op;
        if (auto v = textAt(layer, row))
            op.layer = s.nameIndex(*v);
        if (auto v = textAt(hlo, row))
            op.hlo = s.nameIndex(*v);
        const auto ops = textAt(operands, row);
        if (auto v = intAt(id, row))
            s.instructionIds.emplace_back(*v, uint32_t(p.instructions.size()));
        if (rawIds) {
            s.rawFrameworkId.push_back(intAt(rawFramework, row));
            s.rawHloId.push_back(intAt(rawHlo, row));
        }
        p.instructions.push_back(r);
        p.instructionSync.push_back(ops ? NtffSync::fromOperands(*ops) : NtffSync{});
        p.instructionOps.push_back(op);
    }
    std::sort(s.instructionIds.begin(), s.instructionIds.end());
    s.rowsRead += rows;
    problems.report(p.diagnostics, c.where());
}

void readDmaBlocks(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "DmaPacketAggregated");
    if (!c)
        return;
    const auto *start = c.integer("start_ts");
    const auto *duration = c.integer("duration_ns");
    const auto *end = c.integer("end_ts");
    const auto *id = c.integer("id");
    const auto *bytes = c.integer("transfer_bytes");
    const auto *queue = c.text("queue_name");
    const auto *variable = c.text("variable");
    const auto *source = c.text("source");
    const auto *dest = c.text("dest");
    const auto *type = c.text("queue_type");
    const auto *semaphore = c.text("semaphore_id");
    c.note("those values are absent from the DMA transfers");
    RowProblems problems;
    for (size_t row = 0; row < c.rows(); ++row) {
        const auto ts = intAt(start, row);
        const int64_t dur = durationOf(duration, end, ts, row);
        if (!ts || dur < 0) {
            problems.add(std::string("DmaPacketAggregated rows without a valid ") + (!ts ? "start_ts" : "duration_ns (or end_ts)") +
                         " (skipped)");
            continue;
        }
        NtffDmaBlock b;
        b.timestamp = *ts;
        b.duration = dur;
        b.transferSize = uint64_t(std::max<int64_t>(0, intAt(bytes, row).value_or(0)));
        b.queue = std::string(textAt(queue, row).value_or(""));
        if (auto v = textAt(variable, row))
            b.tag.variable = s.nameIndex(*v);
        if (auto v = textAt(source, row))
            b.tag.source = s.nameIndex(memoryName(*v));
        if (auto v = textAt(dest, row))
            b.tag.dest = s.nameIndex(memoryName(*v));
        if (auto v = textAt(type, row))
            b.tag.queueType = s.nameIndex(*v);
        if (auto blockId = intAt(id, row)) {
            s.blockIds.emplace_back(*blockId, uint32_t(p.dmaBlocks.size())); // Flow's "dma_block" ends
            if (auto v = textAt(semaphore, row)) {
                const NtffSync parsed = NtffSync::fromOperands(std::string(*v) + "++");
                if (parsed.updatesSemaphore())
                    s.blockSemaphore.emplace_back(*blockId, parsed.updateSemaphore);
            }
        }
        p.dmaBlocks.push_back(std::move(b));
    }
    std::sort(s.blockSemaphore.begin(), s.blockSemaphore.end());
    std::sort(s.blockIds.begin(), s.blockIds.end());
    s.rowsRead += c.rows();
    problems.report(p.diagnostics, c.where());
}

void readDmaPackets(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "DmaPacket");
    if (!c)
        return;
    const auto *start = c.integer("start_ts");
    const auto *duration = c.integer("duration_ns");
    const auto *end = c.integer("end_ts");
    const auto *engine = c.integer("engine_idx");
    const auto *queue = c.integer("queue_idx");
    const auto *queueName = c.text("queue_name");
    const auto *bytes = c.integer("transfer_bytes");
    const auto *crc = c.integer("crc");
    const auto *type = c.text("queue_type");
    const auto *variable = c.text("variable");
    const auto *pcore = c.integer("pcore_idx");
    const auto *block = c.integer("packet_aggregation_id");
    c.note("those values are absent from the DMA packets");
    RowProblems problems;
    const size_t rows = c.rows();
    p.dma.reserve(rows);
    for (size_t row = 0; row < rows; ++row) {
        if ((row & 4095) == 4095 && s.options.cancelled())
            throw LoadCancelled();
        const auto ts = intAt(start, row);
        const int64_t dur = durationOf(duration, end, ts, row);
        const auto e = intAt(engine, row);
        const auto q = intAt(queue, row);
        if (!ts || dur < 0 || !e || *e < 0 || *e > 255 || !q || *q < 0 || *q > 15) {
            problems.add(std::string("DmaPacket rows without a valid ") +
                         (!ts ? "start_ts" : dur < 0 ? "duration_ns (or end_ts)" : !e || *e < 0 || *e > 255 ? "engine_idx (0..255)" : "queue_idx (0..15)") +
                         " (skipped)");
            continue;
        }
        NtffDmaRow r;
        r.timestamp = *ts;
        r.duration = dur;
        r.engine = uint8_t(*e);
        r.queue = uint8_t(*q);
        if (auto v = intAt(bytes, row); v && *v >= 0 && *v <= std::numeric_limits<uint32_t>::max())
            r.transferSize = uint32_t(*v);
        else
            problems.add("DmaPacket rows without a valid transfer_bytes (0 assumed)");
        if (auto v = intAt(crc, row); v && *v >= 0 && *v <= 65535)
            r.crc = uint16_t(*v);
        r.core = s.core(intAt(pcore, row), problems);
        s.noteEngine(r.core, *e);
        NtffDmaTag tag;
        if (auto v = textAt(variable, row))
            tag.variable = s.nameIndex(*v);
        if (auto v = textAt(type, row))
            tag.queueType = s.nameIndex(*v);
        int16_t semaphore = -1;
        if (auto b = intAt(block, row); b && !s.blockSemaphore.empty()) {
            const auto it = std::lower_bound(s.blockSemaphore.begin(), s.blockSemaphore.end(), std::make_pair(*b, int16_t(-1)));
            if (it != s.blockSemaphore.end() && it->first == *b)
                semaphore = it->second;
        }
        const size_t key = size_t(r.engine) * 16 + r.queue;
        if (auto lane = textAt(queueName, row); lane && !s.queueSeen[key]) {
            // "qSyncSpillReload0-Q1-E64": the queue's name; "Q0-E64": none (as neuron-profile's lane names)
            s.queueSeen[key] = true;
            s.queueCore[key] = r.core;
            const std::string suffix = "-Q" + std::to_string(r.queue) + "-E" + std::to_string(r.engine);
            if (lane->size() > suffix.size() && lane->substr(lane->size() - suffix.size()) == suffix)
                s.queueLane[key] = std::string(lane->substr(0, lane->size() - suffix.size()));
        }
        p.dma.push_back(r);
        p.dmaSemaphore.push_back(semaphore);
        p.dmaTags.push_back(tag);
    }
    s.rowsRead += rows;
    problems.report(p.diagnostics, c.where());
}

void readSemaphores(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "SemaphoreUpdate");
    if (!c)
        return;
    const auto *ts = c.integer("timestamp");
    const auto *id = c.text("id");
    const auto *value = c.integer("value");
    const auto *pcore = c.integer("pcore_idx");
    c.note("those values are absent from the semaphore updates");
    RowProblems problems;
    const std::string where = c.where();
    for (size_t row = 0; row < c.rows(); ++row) {
        NtffSemaphoreRow r;
        const auto time = intAt(ts, row);
        const auto v = intAt(value, row);
        const auto text = textAt(id, row);
        std::string_view name;
        if (!time || !text || !parseSemaphoreId(*text, r.id, name) || !v || *v < 0 || *v > std::numeric_limits<uint32_t>::max()) {
            problems.add(std::string("SemaphoreUpdate rows without a valid ") +
                         (!time ? "timestamp" : !text || !parseSemaphoreId(*text, r.id, name) ? "id (expected 0..255 or \"S[n] (name)\")" : "value") +
                         " (skipped)");
            continue;
        }
        r.timestamp = *time;
        r.value = uint32_t(*v);
        r.core = s.core(intAt(pcore, row), problems);
        if (!name.empty())
            s.noteSemaphoreName(r.core, r.id, name, where);
        p.semaphores.push_back(r);
    }
    s.rowsRead += c.rows();
    problems.report(p.diagnostics, where);
}

void readThrottle(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "Throttle");
    if (!c)
        return;
    const auto *ts = c.integer("timestamp");
    const auto *duration = c.integer("duration");
    const auto *k = c.integer("k");
    const auto *n = c.integer("n");
    const auto *type = c.text("type");
    const auto *pcore = c.integer("pcore_idx");
    c.note("those values are absent from the throttle rows");
    RowProblems problems;
    for (size_t row = 0; row < c.rows(); ++row) {
        const auto time = intAt(ts, row);
        const int64_t dur = intAt(duration, row).value_or(-1);
        const auto kv = intAt(k, row);
        const auto nv = intAt(n, row);
        if (!time || dur < 0 || !kv || *kv < 0 || !nv || *nv < 0) {
            problems.add(std::string("Throttle rows without a valid ") +
                         (!time ? "timestamp" : dur < 0 ? "duration" : !kv || *kv < 0 ? "k" : "n") + " (skipped)");
            continue;
        }
        NtffThrottleRow r;
        r.timestamp = *time;
        r.duration = dur;
        r.k = uint32_t(std::min<int64_t>(*kv, std::numeric_limits<uint32_t>::max()));
        r.n = uint32_t(std::min<int64_t>(*nv, std::numeric_limits<uint32_t>::max()));
        r.type = 255;
        int64_t number = 0;
        if (auto v = textAt(type, row); v && v->substr(0, 9) == "activity_" && text::parseInt(v->substr(9), number) && number >= 0 &&
                                            number < 255)
            r.type = uint32_t(number);
        r.core = s.core(intAt(pcore, row), problems);
        p.throttle.push_back(r);
    }
    s.rowsRead += c.rows();
    problems.report(p.diagnostics, c.where());
}

} // namespace lanescope::explorer
