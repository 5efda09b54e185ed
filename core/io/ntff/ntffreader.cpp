#include "ntffreader.h"

#include "ntffmetadatareader.h"
#include "io/protobuf/protobufreader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>

namespace lanescope {

namespace {

__extension__ typedef __int128 Int128; // 128-bit intermediates: (raw - base) * mul can exceed int64

constexpr int64_t kMaxPs = kNtffMaxPs;
constexpr uint64_t kMaxClockFactor = uint64_t(1) << 62;

template <class T>
inline T load(const char *p) // little-endian
{
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big)
        v = sizeof(T) == 4 ? T(__builtin_bswap32(uint32_t(v))) : T(__builtin_bswap64(uint64_t(v)));
    return v;
}
inline uint32_t loadU32(const char *p) { return load<uint32_t>(p); }
inline uint64_t loadU64(const char *p) { return load<uint64_t>(p); }

// floor(a / b) for b > 0
inline int64_t floorDiv(int64_t a, int64_t b)
{
    const int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

// NTFF engine id (records, 1..5) -> clock field (pb sg.f10); the program stream index is id - 1.
constexpr std::array<uint32_t, kNtffEngineCount> kClockOfEngine = {1, 2, 4, 3, 5}; // GpSimd=4, Vector=3 (measured)
constexpr uint32_t kEventClockField = 6, kThrottleClockField = 7, kDmaClockField = 8;

const char *issueMessage(int issue)
{
    static constexpr const char *messages[] = {
        "instruction records with an unknown engine id (skipped)",
        "instruction records of an engine without a program or clock (skipped)",
        "instruction ends without a begin (skipped)",
        "instruction begins without an end (dropped)",
        "instruction begins replaced by another begin at the same address (dropped)",
        "instructions outside the current program, from a previous execution (skipped)",
        "instructions starting before the trace window (skipped)",
        "event records without a usable clock (skipped)",
        "events before the trace window (skipped)",
        "DMA records of a DMA engine without a usable clock (skipped)",
        "DMA completions without a start (skipped)",
        "DMA packet starts without a completion (dropped)",
        "DMA packets starting before the trace window (skipped)",
        "DMA records of an unknown type (skipped)",
        "throttle records without a usable clock (skipped)",
        "throttle rows before the trace window (skipped)",
        "records with a timestamp out of range (skipped)",
        "instructions begun after the last completed one of their engine, still running when the capture stopped (dropped)",
        "auxiliary instruction records (hdr bit 25, beside DMA_DIRECT2D; meaning unknown, skipped)",
        "instructions ending after the recorded trace window (the postamble, skipped)",
        "DMA packets whose completion precedes their start once the records before the window are dropped (skipped, as neuron-profile does)",
        "DMA completions left over after the records before the window were dropped (skipped)",
    };
    return messages[issue];
}

// raw tick -> picoseconds since the clock sync point: floor((raw - base) * mul / div), exact.
inline bool toPs(const auto &c, uint64_t raw, int64_t &out)
{
    if (raw >= c.base) {
        const uint64_t d = raw - c.base;
        if (d <= c.fastLimit) {
            out = static_cast<int64_t>(d * c.mul / c.div);
            return true;
        }
    } else {
        const uint64_t d = c.base - raw;
        if (d <= c.fastLimit) {
            out = -static_cast<int64_t>((d * c.mul + c.div - 1) / c.div);
            return true;
        }
    }
    const Int128 p = (static_cast<Int128>(raw) - static_cast<Int128>(c.base)) * static_cast<Int128>(c.mul);
    const Int128 div = static_cast<Int128>(c.div);
    Int128 q = p / div;
    if (p % div != 0 && p < 0)
        --q;
    if (q > kMaxPs || q < -kMaxPs)
        return false;
    out = static_cast<int64_t>(q);
    return true;
}

} // namespace

NtffReader::NtffReader(std::string_view data, std::string file, const LoadOptions &options)
    : m_data(data), m_file(std::move(file)), m_options(options)
{
}

NtffProfile NtffReader::read(std::string_view data, const std::string &file, const LoadOptions &options)
{
    return NtffReader(data, file, options).read();
}

NtffProfile NtffReader::read()
{
    readHeader();
    NtffMetadataReader::read(ProtobufReader(m_data.substr(kNtffMetadataOffset, m_metadataSize), m_file, kNtffMetadataOffset),
                             m_profile, m_data.substr(m_payloadOffset), m_payloadOffset);
    layoutSections();
    prepareDecoders();
    for (const auto &s : m_profile.sections)
        m_work += s.available / kNtffRecordBytes;
    m_work += recordCount(0); // instruction records are visited twice
    m_options.report(0);
    findOrigin();
    decodeInstructions();
    decodeEvents();
    decodeDma();
    decodeThrottle();
    flushIssues();
    m_options.report(1000);
    return std::move(m_profile);
}

void NtffReader::readHeader()
{
    if (m_data.empty())
        throw ImportError(m_file, 0, "file is empty; expected an NTFF (version byte, metadata length, protobuf)");
    const uint8_t version = static_cast<uint8_t>(m_data[0]);
    if (!isSupportedVersion(version))
        throw ImportError(m_file, 0, "NTFF version " + std::to_string(version) + " is not supported; this build reads versions "
                                         + kSupportedVersions + " (a newer Neuron profiler may have written it)");
    m_profile.version = version;
    m_profile.fileSize = m_data.size();
    if (m_data.size() < kNtffMetadataOffset)
        throw ImportError(m_file, m_data.size(), "file ends inside the 128-byte NTFF header; expected at least "
                                                     + std::to_string(kNtffMetadataOffset) + " bytes");
    m_metadataSize = loadU32(m_data.data() + 1);
    if (m_metadataSize > m_data.size() - kNtffMetadataOffset)
        throw ImportError(m_file, 1, "metadata length " + std::to_string(m_metadataSize) + " runs past the end of the file ("
                                         + std::to_string(m_data.size()) + " bytes); expected the protobuf message at byte 128 to fit");
    m_payloadOffset = kNtffMetadataOffset + m_metadataSize;
}

void NtffReader::layoutSections()
{
    auto &sections = m_profile.sections;
    const uint64_t payload = m_data.size() - m_payloadOffset;
    uint64_t maxEnd = 0, sum = 0;
    for (size_t i = 0; i < sections.size(); ++i) {
        const auto &s = sections[i];
        const std::string what = "payload section " + std::to_string(i) + " (kind " + std::to_string(s.kind) + ")";
        if (s.size % kNtffRecordBytes)
            throw ImportError(m_file, s.descriptorOffset, what + " has size " + std::to_string(s.size)
                                                              + ", not a multiple of 16; expected whole 16-byte records");
        if (s.offset > std::numeric_limits<uint64_t>::max() - s.size || s.offset + s.size > (uint64_t(1) << 56))
            throw ImportError(m_file, s.descriptorOffset, what + " offset " + std::to_string(s.offset) + " + size "
                                                              + std::to_string(s.size) + " is out of range; expected a section within the file");
        maxEnd = std::max(maxEnd, s.offset + s.size);
        sum += s.size;
    }
    std::vector<size_t> order(sections.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sections[a].offset < sections[b].offset; });
    const NtffSection *prev = nullptr;
    size_t prevIndex = 0;
    for (size_t i : order) {
        const auto &s = sections[i];
        if (s.size == 0)
            continue;
        if (prev && s.offset < prev->offset + prev->size)
            throw ImportError(m_file, s.descriptorOffset,
                              "payload section " + std::to_string(i) + " (offset " + std::to_string(s.offset) + ", size "
                                  + std::to_string(s.size) + ") overlaps section " + std::to_string(prevIndex) + " (offset "
                                  + std::to_string(prev->offset) + ", size " + std::to_string(prev->size)
                                  + "); expected disjoint sections");
        prev = &s;
        prevIndex = i;
    }
    if (maxEnd > payload) {
        // A file cut short still has contiguous sections starting at 0 (v6: after the programs; sum of sizes
        // == end). Anything else pointing past the end is a corrupt offset or size.
        if (maxEnd != sum + m_profile.programBytesInPayload) {
            for (size_t i = 0; i < sections.size(); ++i) {
                const auto &s = sections[i];
                if (s.offset + s.size > payload)
                    throw ImportError(m_file, s.descriptorOffset,
                                      "payload section " + std::to_string(i) + " (kind " + std::to_string(s.kind)
                                          + ") at payload offset " + std::to_string(s.offset) + " with "
                                          + std::to_string(s.size) + " bytes ends at file byte "
                                          + std::to_string(m_payloadOffset + s.offset + s.size) + ", past the end of the file ("
                                          + std::to_string(m_data.size()) + " bytes); expected sections inside the payload");
            }
        }
        uint64_t missing = 0;
        for (auto &s : sections) {
            s.available = s.offset >= payload ? 0 : std::min(s.size, (payload - s.offset) / kNtffRecordBytes * kNtffRecordBytes);
            missing += (s.size - s.available) / kNtffRecordBytes;
        }
        m_profile.diagnostics.warn("NTFF payload truncated: records missing at the end of the file (loaded what is complete)",
                                   "byte " + std::to_string(m_data.size()), missing);
        return;
    }
    for (auto &s : sections)
        s.available = s.size;
    if (maxEnd < payload)
        m_profile.diagnostics.warn("bytes after the last payload section ignored", "byte " + std::to_string(m_payloadOffset + maxEnd),
                                   payload - maxEnd);
}

NtffReader::Clock NtffReader::makeClock(uint8_t core, uint32_t field, uint32_t index) const
{
    Clock c;
    for (const auto &e : m_profile.clocks) {
        if (e.core != core || e.field != field || e.index != index)
            continue;
        if (e.div == 0 || e.mul == 0 || e.div >= kMaxClockFactor || e.mul >= kMaxClockFactor)
            return c; // invalid: records using it are skipped and counted
        c.valid = true;
        c.base = e.base;
        c.mul = e.mul;
        c.div = e.div;
        c.fastLimit = uint64_t(kMaxPs) / e.mul;
        return c;
    }
    return c;
}

void NtffReader::prepareDecoders()
{
    m_cores.assign(m_profile.cores.size(), CoreState{});
    for (size_t k = 0; k < m_cores.size(); ++k) {
        CoreState &cs = m_cores[k];
        const uint8_t core = uint8_t(k);
        for (int i = 0; i < kNtffEngineCount; ++i) {
            EngineState &es = cs.engines[size_t(i)];
            const NtffEngine engine = static_cast<NtffEngine>(i + 1);
            es.clock = makeClock(core, kClockOfEngine[size_t(i)], 0);
            es.program = m_profile.program(engine, core);
            es.valid = es.program && es.clock.valid;
            if (!es.program)
                continue;
            es.base16 = static_cast<uint32_t>((es.program->address / kNtffInstructionBytes) & 0xffff);
            es.programSize = static_cast<uint32_t>(std::min<size_t>(es.program->size(), 65536));
            es.notifyKind.assign(es.programSize, 0);
            es.open.assign(es.valid ? es.programSize : 0, OpenInstruction{});
            es.openOutside.clear();
            for (uint32_t pc = 0; pc < es.programSize; ++pc) {
                const uint8_t hint = es.program->notifyHints[pc];
                if (es.program->opcodes[pc] == kNtffOpNotify && (hint == 2 || hint == 3))
                    es.notifyKind[pc] = hint;
            }
        }
        cs.eventClock = makeClock(core, kEventClockField, 0);
        cs.throttleClock = makeClock(core, kThrottleClockField, 0);
        for (uint32_t i = 0; i < cs.dmaClocks.size(); ++i)
            cs.dmaClocks[i] = makeClock(core, kDmaClockField, i);
        // neuron-profile numbers a trn2 core's DMA engines from 16 x its physical core (64.. for core 4)
        const uint32_t index = m_profile.cores[k].index.value_or(0);
        if (index <= 15)
            cs.dmaEngineBase = 16 * index;
        else
            m_profile.diagnostics.warn("physical core number " + std::to_string(index) + " too large for DMA engine numbers (its DMA engines numbered from 0)");
    }
    m_evtWaitGHz = m_profile.isNeuronCoreV3() ? 1.2f : 1.4f;
}

void NtffReader::note(Issue issue, const char *record)
{
    IssueCounter &c = m_issues[issue];
    if (c.count++ == 0)
        c.firstOffset = static_cast<uint64_t>(record - m_data.data());
}

void NtffReader::advanceProgress(uint64_t records)
{
    m_done += records;
    const int permille = m_work ? static_cast<int>(std::min<uint64_t>(999, m_done * 1000 / m_work)) : 0;
    if (permille > m_lastPermille) { // never backwards, even when the fallback origin adds a pass
        m_lastPermille = permille;
        m_options.report(permille);
    }
}

template <class Fn>
void NtffReader::forEachRecord(uint32_t kind, Fn &&fn)
{
    for (const auto &s : m_profile.sections) {
        if (s.kind != kind || s.core >= m_cores.size())
            continue;
        const uint8_t core = s.core;
        const char *base = m_data.data() + m_payloadOffset + s.offset;
        const uint64_t n = s.available / kNtffRecordBytes;
        for (uint64_t chunk = 0; chunk < n; chunk += kChunkRecords) {
            if (m_options.cancelled())
                throw LoadCancelled();
            const uint64_t end = std::min<uint64_t>(n, chunk + kChunkRecords);
            for (const char *p = base + chunk * kNtffRecordBytes, *e = base + end * kNtffRecordBytes; p != e;
                 p += kNtffRecordBytes)
                fn(core, loadU32(p), loadU32(p + 4), loadU64(p + 8), p);
            advanceProgress(end - chunk);
        }
    }
}

// Pass 1, per physical core: the latest end of its start NOTIFYs (hint 2), the earliest begin of a start
// NOTIFY and the latest begin of an end NOTIFY (hint 3). The origin is the window the file records (v6),
// else the first core's latest start-NOTIFY end; the decoded total time is the first core's latest
// end-NOTIFY begin minus its earliest start-NOTIFY begin.
void NtffReader::findOrigin()
{
    struct Notifies
    {
        std::optional<int64_t> startEnd, firstStart, lastEnd;
        std::optional<int64_t> tensorStartEnd, tensorEndEnd; // the Tensor engine's start / end NOTIFY ends
    };
    std::vector<Notifies> seen(m_cores.size());
    forEachRecord(0, [&](uint8_t core, uint32_t hdr, uint32_t, uint64_t ts, const char *) {
        const uint32_t engine = (hdr >> 26) & 0x1f;
        if (engine - 1 >= uint32_t(kNtffEngineCount) || ((hdr >> 25) & 1))
            return;
        EngineState &es = m_cores[core].engines[engine - 1];
        if (!es.valid)
            return;
        const uint32_t addr16 = hdr & 0xffff;
        const uint32_t pc = (addr16 - es.base16) & 0xffff;
        if (pc >= es.programSize || !es.notifyKind[pc])
            return;
        int64_t t;
        if (!toPs(es.clock, ts, t))
            return;
        OpenInstruction &o = es.open[pc];
        if (!((hdr >> 24) & 1)) {
            o = OpenInstruction{t, 0, 0, 1};
            return;
        }
        if (!o.open)
            return;
        o.open = 0;
        Notifies &n = seen[core];
        const bool tensor = engine == uint32_t(NtffEngine::Tensor);
        if (es.notifyKind[pc] == 2) {
            n.startEnd = std::max(n.startEnd.value_or(t), t);
            n.firstStart = std::min(n.firstStart.value_or(o.t0), o.t0);
            if (tensor)
                n.tensorStartEnd = std::max(n.tensorStartEnd.value_or(t), t);
        } else {
            n.lastEnd = std::max(n.lastEnd.value_or(o.t0), o.t0);
            if (tensor)
                n.tensorEndEnd = std::max(n.tensorEndEnd.value_or(t), t);
        }
    });
    for (CoreState &cs : m_cores)
        for (EngineState &es : cs.engines)
            std::fill(es.open.begin(), es.open.end(), OpenInstruction{});
    for (size_t k = 0; k < seen.size(); ++k)
        m_profile.cores[k].startNotifyEndPs = seen[k].startEnd;
    // The runtime's total time (sg.f14): v4/v5 the latest end-NOTIFY begin minus the earliest start-NOTIFY
    // begin; v6 (trn2) the Tensor engine's end-NOTIFY end minus its start-NOTIFY end (docs/ntff.md).
    if (!seen.empty() && m_profile.version >= 6 && seen[0].tensorStartEnd && seen[0].tensorEndEnd)
        m_profile.decodedTotalTimePs = *seen[0].tensorEndEnd - *seen[0].tensorStartEnd;
    else if (!seen.empty() && seen[0].firstStart && seen[0].lastEnd)
        m_profile.decodedTotalTimePs = *seen[0].lastEnd - *seen[0].firstStart;
    if (m_profile.windowStartPs) {
        m_profile.originPs = *m_profile.windowStartPs;
        m_profile.originFromNotify = true;
        return;
    }
    for (const Notifies &n : seen)
        if (n.startEnd) {
            m_profile.originPs = *n.startEnd;
            m_profile.originFromNotify = true;
            return;
        }
    findFallbackOrigin();
}

// Without a start NOTIFY (a cut file, an unknown runtime): time 0 is the earliest instruction begin.
void NtffReader::findFallbackOrigin()
{
    bool have = false;
    int64_t first = 0;
    m_work += recordCount(0);
    forEachRecord(0, [&](uint8_t core, uint32_t hdr, uint32_t, uint64_t ts, const char *) {
        const uint32_t engine = (hdr >> 26) & 0x1f;
        if (((hdr >> 24) & 1) || ((hdr >> 25) & 1) || engine - 1 >= uint32_t(kNtffEngineCount)
            || !m_cores[core].engines[engine - 1].valid)
            return;
        const EngineState &es = m_cores[core].engines[engine - 1];
        int64_t t;
        if ((((hdr & 0xffff) - es.base16) & 0xffff) < es.programSize && toPs(es.clock, ts, t) && (!have || t < first)) {
            first = t;
            have = true;
        }
    });
    m_profile.originPs = have ? first : 0;
    m_profile.originFromNotify = false;
    m_profile.diagnostics.warn("no start NOTIFY found: time 0 is the first instruction instead of the execution start");
}

uint64_t NtffReader::recordCount(uint32_t kind) const
{
    uint64_t n = 0;
    for (const auto &s : m_profile.sections)
        n += s.kind == kind ? s.available / kNtffRecordBytes : 0;
    return n;
}

void NtffReader::decodeInstructions()
{
    const uint64_t records = recordCount(0);
    m_profile.instructions.reserve(records / 2);
    m_profile.instructionSubNsPs.reserve(records / 2);
    const int64_t origin = m_profile.originPs;
    const int64_t windowEnd = m_profile.windowEndPs.value_or(INT64_MAX);
    const float waitGHz = m_evtWaitGHz;
    int64_t lastEnd = 0;
    bool haveLastEnd = false;
    auto &rows = m_profile.instructions;
    forEachRecord(0, [&](uint8_t core, uint32_t hdr, uint32_t arg, uint64_t ts, const char *rec) {
        if ((hdr >> 25) & 1)
            return note(InstrAuxiliary, rec);
        const uint32_t engine = (hdr >> 26) & 0x1f;
        if (engine - 1 >= uint32_t(kNtffEngineCount))
            return note(InstrUnknownEngine, rec);
        EngineState &es = m_cores[core].engines[engine - 1];
        if (!es.valid)
            return note(InstrNoProgram, rec);
        int64_t t;
        if (!toPs(es.clock, ts, t))
            return note(TimeOutOfRange, rec);
        const uint32_t pc = ((hdr & 0xffff) - es.base16) & 0xffff;
        OpenInstruction &o = es.openAt(pc);
        if (!((hdr >> 24) & 1)) {
            if (o.open)
                note(InstrBeginReplaced, rec);
            o = OpenInstruction{t, arg, static_cast<uint8_t>(hdr >> 16), 1};
            return;
        }
        if (!o.open)
            return note(InstrEndWithoutBegin, rec);
        o.open = 0;
        if (pc >= es.programSize)
            return note(InstrOutsideProgram, rec);
        if (o.t0 < origin)
            return note(InstrBeforeOrigin, rec);
        es.lastBeginPs = std::max(es.lastBeginPs, o.t0);
        if (pc < es.notifyKind.size() && es.notifyKind[pc] == 3)
            es.endNotifyBeginPs = std::min(es.endNotifyBeginPs, o.t0);
        if (t > windowEnd)
            return note(InstrAfterWindow, rec);
        NtffInstructionRow row;
        row.timestamp = (o.t0 - origin) / 1000;
        row.duration = floorDiv(t - o.t0, 1000);
        // the ps both floors drop: neuron-profile's times are ps sums floored once (ntffprofile.h)
        m_profile.instructionSubNsPs.push_back(
            uint32_t((o.t0 - origin) - row.timestamp * 1000) * 1000u + uint32_t((t - o.t0) - row.duration * 1000));
        row.pc = pc;
        row.compilerPc = es.program->neffIndex[pc];
        // cycles / the engine clock in single precision, truncated, as neuron-profile computes it (in
        // double precision 1 row in 20 of a trn2 export comes out one higher)
        row.evtWaitTime = static_cast<uint32_t>(static_cast<float>(o.arg >> 16) / waitGHz);
        row.crcIn = static_cast<uint16_t>(arg & 0xffff);
        row.crcOut = static_cast<uint16_t>(arg >> 16);
        row.engine = static_cast<NtffEngine>(engine);
        row.opcode = es.program->opcodes[pc];
        row.lane = row.engine == NtffEngine::Tensor && row.opcode == kNtffOpMatmul ? NtffLane::TensorMatrix
                                                                                   : ntffLaneOf(row.engine);
        row.flags = o.flags;
        row.core = core;
        rows.push_back(row);
        const int64_t end = t - origin;
        lastEnd = haveLastEnd ? std::max(lastEnd, end) : end;
        haveLastEnd = true;
    });
    // A begin without its end: after its engine's end NOTIFY and last completed instruction, it is the
    // postamble still running when the capture stopped (neuron-profile drops it too); else a lost record.
    for (CoreState &cs : m_cores) {
        for (EngineState &es : cs.engines) {
            const auto countOpen = [&](const OpenInstruction &o) {
                if (o.open)
                    ++m_issues[o.t0 > es.lastBeginPs && o.t0 > es.endNotifyBeginPs ? InstrRunningAtEnd : InstrBeginWithoutEnd].count;
            };
            for (const auto &o : es.open)
                countOpen(o);
            for (const auto &[pc, o] : es.openOutside)
                countOpen(o);
            std::vector<OpenInstruction>().swap(es.open);
            es.openOutside = {};
        }
    }
    m_lastEndPs = lastEnd;
    m_haveLastEnd = haveLastEnd;
    if (m_profile.windowStartPs && m_profile.windowEndPs) // v6: the window the runtime recorded
        m_profile.lastHwTimestamp = floorDiv(*m_profile.windowEndPs - *m_profile.windowStartPs, 1000);
    else
        m_profile.lastHwTimestamp = haveLastEnd ? floorDiv(lastEnd, 1000) : 0;
    m_profile.recordsRead += records;
}

void NtffReader::decodeEvents()
{
    const int64_t origin = m_profile.originPs;
    // neuron-profile's event_count: every event record in v4/v5 exports, those inside the window in v6
    const bool countInWindowOnly = m_profile.windowStartPs.has_value();
    uint64_t records = 0;
    m_profile.semaphores.reserve(recordCount(1));
    forEachRecord(1, [&](uint8_t core, uint32_t hdr, uint32_t arg, uint64_t ts, const char *rec) {
        ++records;
        if (!countInWindowOnly)
            ++m_profile.eventRecordCount;
        const Clock &clock = m_cores[core].eventClock;
        if (!clock.valid)
            return note(EventNoClock, rec);
        int64_t t;
        if (!toPs(clock, ts, t))
            return note(TimeOutOfRange, rec);
        t -= origin;
        if (t < 0)
            return note(EventBeforeOrigin, rec);
        if (countInWindowOnly)
            ++m_profile.eventRecordCount;
        if (!((hdr >> 8) & 1)) {
            ++m_profile.otherEventCount;
            return;
        }
        NtffSemaphoreRow row;
        row.timestamp = t / 1000;
        row.value = arg;
        row.id = static_cast<uint8_t>(hdr & 0xff);
        row.op = static_cast<uint8_t>(hdr >> 16);
        row.source = static_cast<uint8_t>((hdr >> 26) & 0xf);
        row.flags = static_cast<uint8_t>((hdr >> 30) & 1);
        row.core = core;
        m_profile.semaphores.push_back(row);
    });
    m_profile.recordsRead += records;
}

// DMA packets: type 1 = start, 5 = data complete (size, crc), 6 = later completion. Per (DMA engine,
// queue) the records before the trace window are dropped first, then the k-th start pairs with the k-th
// completion, and a pair whose completion comes before its start is skipped: neuron-profile does the
// same, which drops whole streams whose first packet straddles the origin (docs/ntff.md).
void NtffReader::decodeDma()
{
    // Starts and completions waiting for their other half; the k-th start pairs with the k-th completion
    // in record order, whichever comes first.
    struct Half
    {
        int64_t t = 0;
        uint32_t size = 0; // completions: transfer size and crc
        uint16_t crc = 0;
    };
    struct Fifo
    {
        std::vector<Half> waiting;
        size_t head = 0;
        bool completions = false; // what `waiting` holds
        bool droppedBeforeOrigin = false;
        size_t pending() const { return waiting.size() - head; }
        Half pop()
        {
            const Half t = waiting[head++];
            if (head == waiting.size()) {
                waiting.clear();
                head = 0;
            } else if (head >= 4096 && head * 2 >= waiting.size()) {
                waiting.erase(waiting.begin(), waiting.begin() + static_cast<ptrdiff_t>(head));
                head = 0;
            }
            return t;
        }
    };
    std::vector<Fifo> fifos(256 * 16); // (neuron-profile's engine number 0..255, queue 0..15)
    const int64_t origin = m_profile.originPs;
    m_profile.dma.reserve(recordCount(4) / 2); // a packet is at least a start and a completion
    uint64_t records = 0;
    forEachRecord(4, [&](uint8_t core, uint32_t hdr, uint32_t arg, uint64_t ts, const char *rec) {
        ++records;
        const CoreState &cs = m_cores[core];
        const uint32_t local = (hdr >> 24) & 0xf; // bit 28: the physical core's parity on trn2 (the section says which)
        const uint32_t engine = cs.dmaEngineBase + local;
        const uint32_t type = arg & 0xf;
        const uint32_t queue = (arg >> 4) & 0xf;
        if (type != 1 && type != 5) {
            if (type != 6)
                note(DmaUnknownType, rec);
            return;
        }
        const Clock &clock = cs.dmaClocks[local];
        if (!clock.valid)
            return note(DmaNoClock, rec);
        int64_t t;
        if (!toPs(clock, ts, t))
            return note(TimeOutOfRange, rec);
        Fifo &q = fifos[engine * 16 + queue];
        if (t < origin) {
            q.droppedBeforeOrigin = true;
            if (type == 1)
                note(DmaBeforeOrigin, rec);
            return;
        }
        const bool completion = type == 5;
        const Half half{t, completion ? hdr & 0xffffff : 0, static_cast<uint16_t>(completion ? arg >> 16 : 0)};
        if (!q.pending() || q.completions == completion) {
            q.completions = completion;
            q.waiting.push_back(half);
            return;
        }
        const Half other = q.pop();
        const Half &start = completion ? other : half, &end = completion ? half : other;
        if (end.t < start.t)
            return note(DmaCompletionBeforeStart, rec);
        NtffDmaRow row;
        row.timestamp = (start.t - origin) / 1000;
        row.duration = floorDiv(end.t - start.t, 1000);
        row.transferSize = end.size; // size and crc are on the completion
        row.crc = end.crc;
        row.engine = static_cast<uint8_t>(engine);
        row.queue = static_cast<uint8_t>(queue);
        row.core = core;
        m_profile.dma.push_back(row);
    });
    for (const auto &q : fifos) {
        if (!q.completions)
            m_issues[DmaStartWithoutCompletion].count += q.pending();
        else
            m_issues[q.droppedBeforeOrigin ? DmaCompletionAfterDroppedStart : DmaCompletionWithoutStart].count += q.pending();
    }
    m_profile.recordsRead += records;
}

// Throttle ("ham") rows, per physical core: each lasts until the next row; the last one until the
// latest instruction end.
void NtffReader::decodeThrottle()
{
    const int64_t origin = m_profile.originPs;
    struct Pending
    {
        bool have = false;
        int64_t t = 0;
        NtffThrottleRow row;
    };
    std::vector<Pending> pending(m_cores.size());
    uint64_t records = 0;
    auto flush = [&](Pending &p, int64_t nextT) {
        p.row.duration = std::max<int64_t>(0, floorDiv(nextT - p.t, 1000));
        m_profile.throttle.push_back(p.row);
    };
    forEachRecord(5, [&](uint8_t core, uint32_t hdr, uint32_t arg, uint64_t ts, const char *rec) {
        ++records;
        const Clock &clock = m_cores[core].throttleClock;
        if (!clock.valid)
            return note(ThrottleNoClock, rec);
        int64_t t;
        if (!toPs(clock, ts, t))
            return note(TimeOutOfRange, rec);
        t -= origin;
        Pending &p = pending[core];
        if (p.have)
            flush(p, t);
        p.have = t >= 0;
        if (!p.have)
            return note(ThrottleBeforeOrigin, rec);
        p.t = t;
        p.row = NtffThrottleRow{};
        p.row.timestamp = t / 1000;
        p.row.reason = static_cast<uint8_t>(hdr & 0xff);
        p.row.core = core;
        if (arg & 0x80) {
            p.row.k = 1;
            p.row.n = 1;
            p.row.type = 99;
        } else {
            p.row.k = arg & 0x7f;
            p.row.n = (hdr >> 16) & 0xff;
            p.row.type = (arg >> 8) & 0xff; // 0 on inf2; 0 or 1 on trn2
        }
    });
    for (Pending &p : pending)
        if (p.have)
            flush(p, m_haveLastEnd ? m_lastEndPs : p.t);
    m_profile.recordsRead += records;
}

// Records before the trace window and the tail of the previous execution are in every capture, and
// neuron-profile drops them as well (docs/ntff.md, "Trace window"): notes, not warnings.
bool NtffReader::isExpectedFiltering(int issue)
{
    switch (issue) {
    case InstrOutsideProgram:
    case InstrBeforeOrigin:
    case EventBeforeOrigin:
    case DmaBeforeOrigin:
    case ThrottleBeforeOrigin:
    case InstrRunningAtEnd: // the Tensor postamble (docs/ntff.md, "Trace window")
    case InstrAuxiliary:    // beside every DMA_DIRECT2D of a v6 capture
    case InstrAfterWindow:  // the postamble after the v6 window
    case DmaCompletionBeforeStart: // streams straddling the origin, dropped by neuron-profile too
    case DmaCompletionAfterDroppedStart:
        return true;
    default:
        return false;
    }
}

void NtffReader::flushIssues()
{
    for (int i = 0; i < IssueCount; ++i) {
        const IssueCounter &c = m_issues[size_t(i)];
        if (c.count)
            m_profile.diagnostics.report(isExpectedFiltering(i) ? DiagnosticSeverity::Note : DiagnosticSeverity::Warning, issueMessage(i),
                                         c.firstOffset ? "byte " + std::to_string(c.firstOffset) : std::string(), c.count);
    }
    uint64_t unknown = 0;
    for (const auto &s : m_profile.sections)
        if (s.kind != 0 && s.kind != 1 && s.kind != 4 && s.kind != 5)
            unknown += s.available / kNtffRecordBytes;
    if (unknown)
        m_profile.diagnostics.warn("records in sections of an unknown kind (skipped)", {}, unknown);
}

} // namespace lanescope
