#include "ntffmetadatareader.h"

#include "io/protobuf/protobufreader.h"
#include "util/textutil.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

namespace lanescope {

namespace {

using Field = ProtobufReader::Field;
using WireType = ProtobufReader::WireType;

uint32_t u32(const ProtobufReader &m, uint32_t field)
{
    return static_cast<uint32_t>(m.integer(field));
}

// {1: major, 2: minor, 3: patch, 5: git sha} -> "2.29.40 (f954c)", as neuron-profile prints it.
std::string versionString(const ProtobufReader &m)
{
    const std::string_view sha = m.bytes(5);
    return std::to_string(m.integer(1)) + "." + std::to_string(m.integer(2)) + "." + std::to_string(m.integer(3))
        + " (" + std::string(sha.substr(0, 5)) + ")";
}

} // namespace

void NtffMetadataReader::read(const ProtobufReader &top, NtffProfile &profile, std::string_view payload, uint64_t payloadOffset)
{
    NtffMetadataReader(profile, payload, payloadOffset).readMetadata(top);
}

void NtffMetadataReader::readMetadata(const ProtobufReader &top)
{
    m_profile.neffName = std::string(top.bytes(1));
    const std::string_view uuid = top.bytes(2); // 16 bytes of uuid, then junk
    std::string raw(uuid.substr(0, 16));
    raw.resize(16, '\0');
    m_profile.uuid = text::hex(raw);
    if (top.find(7))
        m_profile.captureUnixTime = top.integer(7);
    if (auto m = top.message(8))
        m_profile.runtimeVersion = versionString(*m);
    m_profile.instanceType = std::string(top.bytes(9));
    if (auto m = top.message(11))
        m_profile.driverVersion = versionString(*m);
    if (auto m = top.message(12))
        m_profile.collectivesVersion = versionString(*m);
    m_profile.instanceId = std::string(top.bytes(17));
    if (auto w = top.message(15); w && w->find(2) && w->find(3)) { // v6: {1: uuid, 2: start ps, 3: end ps}
        const uint64_t start = w->integer(2), end = w->integer(3);
        if (start <= uint64_t(kNtffMaxPs) && end <= uint64_t(kNtffMaxPs) && start <= end) {
            m_profile.windowStartPs = int64_t(start);
            m_profile.windowEndPs = int64_t(end);
        } else {
            m_profile.diagnostics.warn("trace window of the metadata out of range (ignored: the start NOTIFY gives the origin)",
                                       "byte " + std::to_string(w->baseOffset()));
        }
    }

    // f4 { f4 { f1 <subgraph> }... }: one subgraph message per physical core.
    std::vector<ProtobufReader> subgraphs;
    uint64_t ignored = 0;
    ProtobufReader outer = top;
    Field f;
    while (outer.next(f)) {
        if (f.number != 4)
            continue;
        ProtobufReader mid = outer.nested(f);
        Field g;
        while (mid.next(g)) {
            if (g.number != 4)
                continue;
            ProtobufReader inner = mid.nested(g);
            Field h;
            while (inner.next(h)) {
                if (h.number != 1)
                    continue;
                if (subgraphs.size() < kNtffMaxCores)
                    subgraphs.push_back(inner.nested(h));
                else
                    ++ignored;
            }
        }
    }
    if (subgraphs.empty())
        throw ImportError(std::string(top.file()), kNtffMetadataOffset, "metadata has no subgraph (field 4.4.1); expected one NeuronCore subgraph per physical core");
    if (ignored)
        m_profile.diagnostics.warn("subgraphs beyond " + std::to_string(kNtffMaxCores) + " physical cores ignored", {}, ignored);
    for (size_t i = 0; i < subgraphs.size(); ++i) {
        m_profile.cores.emplace_back();
        readSubgraph(subgraphs[i], uint8_t(i));
    }
    readTopSections(top);
    for (auto &p : m_profile.programs)
        p.computeNeffIndices();
    std::sort(m_profile.programs.begin(), m_profile.programs.end(), [](const NtffProgram &a, const NtffProgram &b) {
        return std::tie(a.core, a.engine) < std::tie(b.core, b.engine);
    });
    m_profile.subgraphName = m_profile.cores.front().subgraphName;
    m_profile.totalTimePs = m_profile.cores.front().totalTimePs;
}

void NtffMetadataReader::readSubgraph(const ProtobufReader &sg, uint8_t core)
{
    NtffCore &c = m_profile.cores[core];
    ProtobufReader r = sg;
    Field f;
    std::vector<ProtobufReader> blockMessages;
    while (r.next(f)) {
        switch (f.number) {
        case 1:
            r.expectType(f, WireType::LengthDelimited);
            c.subgraphName = std::string(f.bytes);
            break;
        case 3: // the physical core (trn2: 4, 5)
            r.expectType(f, WireType::Varint);
            c.index = static_cast<uint32_t>(std::min<uint64_t>(f.value, 1u << 20));
            break;
        case 4:
            readProgram(r.nested(f), core);
            break;
        case 5:
            blockMessages.push_back(r.nested(f));
            break;
        case 6: { // v4/v5: {1: kind, 3: flag, 5: payload offset, 6: size}
            const ProtobufReader s = r.nested(f);
            m_profile.sections.push_back(NtffSection{.kind = u32(s, 1), .flag = u32(s, 3), .offset = s.integer(5),
                                                     .size = s.integer(6), .descriptorOffset = f.offset, .core = core});
            break;
        }
        case 7: { // {1: DMA engine, 2: queue, 3: type, 4: name}
            const ProtobufReader q = r.nested(f);
            const std::string name(q.bytes(4));
            m_profile.dmaQueues.push_back(NtffDmaQueue{u32(q, 1), u32(q, 2), u32(q, 3), name, ntffQueueDisplayName(name), core});
            break;
        }
        case 10:
            readClocks(r.nested(f), core);
            break;
        case 11: {
            const ProtobufReader m = r.nested(f);
            m_profile.memoryUsage.push_back(NtffMemoryUsage{m.integer(1), m.integer(2), std::string(m.bytes(3)), core});
            break;
        }
        case 14:
            r.expectType(f, WireType::Varint);
            c.totalTimePs = f.value;
            break;
        default:
            break;
        }
    }
    // Runtime blocks need the programs, which may come in any order.
    for (const auto &m : blockMessages)
        readRuntimeBlocks(m, core);
}

// v6: the section table is top-level field 16, {1: kind, 3: flag, 5: payload offset, 6: size, 7: physical
// core}; the core is the subgraph's field 3.
void NtffMetadataReader::readTopSections(const ProtobufReader &top)
{
    uint64_t unknownCore = 0;
    std::string firstUnknown;
    ProtobufReader r = top;
    Field f;
    while (r.next(f)) {
        if (f.number != 16)
            continue;
        const ProtobufReader s = r.nested(f);
        std::optional<uint8_t> core;
        if (const auto tag = s.find(7)) {
            for (size_t i = 0; i < m_profile.cores.size(); ++i)
                if (m_profile.cores[i].index && *m_profile.cores[i].index == s.integer(7))
                    core = uint8_t(i);
        } else if (m_profile.cores.size() == 1) {
            core = 0;
        }
        if (!core) {
            if (!unknownCore++)
                firstUnknown = "byte " + std::to_string(f.offset);
            continue;
        }
        m_profile.sections.push_back(NtffSection{.kind = u32(s, 1), .flag = u32(s, 3), .offset = s.integer(5),
                                                 .size = s.integer(6), .descriptorOffset = f.offset, .core = *core});
    }
    if (unknownCore)
        m_profile.diagnostics.warn("payload sections of a physical core no subgraph describes (skipped)", firstUnknown, unknownCore);
}

void NtffMetadataReader::readProgram(const ProtobufReader &msg, uint8_t core)
{
    const uint64_t stream = msg.integer(1);
    const auto where = "byte " + std::to_string(msg.baseOffset());
    if (stream >= kNtffEngineCount) {
        m_profile.diagnostics.warn("programs of an unknown engine index ignored", where);
        return;
    }
    const auto engine = static_cast<NtffEngine>(stream + 1); // program stream index = engine id - 1
    for (const auto &p : m_profile.programs)
        if (p.engine == engine && p.core == core) {
            m_profile.diagnostics.warn("duplicate programs of one engine ignored", where);
            return;
        }
    NtffProgram p;
    p.core = core;
    p.engine = engine;
    p.streamIndex = static_cast<uint32_t>(stream);
    p.address = msg.integer(2);
    std::string_view code = msg.bytes(3); // v4/v5: the bytes themselves
    if (!msg.find(3) && msg.find(8)) {    // v6: {7: payload offset, 8: size}
        const uint64_t offset = msg.integer(7), size = msg.integer(8);
        if (offset >= m_payload.size() || size > m_payload.size() - offset) {
            const uint64_t have = offset >= m_payload.size() ? 0 : m_payload.size() - offset;
            m_profile.diagnostics.warn("program bytes past the end of the file (the instructions present are used)",
                                       "byte " + std::to_string(m_payloadOffset + std::min<uint64_t>(offset, m_payload.size())),
                                       (size - std::min(size, have)) / kNtffInstructionBytes);
            code = have ? m_payload.substr(size_t(offset)) : std::string_view();
        } else {
            code = m_payload.substr(size_t(offset), size_t(size));
        }
        m_profile.programBytesInPayload += size;
    }
    const size_t n = code.size() / kNtffInstructionBytes;
    if (code.size() % kNtffInstructionBytes)
        m_profile.diagnostics.warn("program bytes not a multiple of 64 (partial instruction ignored)", where);
    if (n > 65536)
        m_profile.diagnostics.warn("program longer than 65,536 instructions: record addresses are ambiguous", where);
    p.opcodes.resize(n);
    p.notifyHints.resize(n);
    p.sync.resize(n);
    for (size_t pc = 0; pc < n; ++pc) {
        const auto byte = [&](size_t at) { return static_cast<uint8_t>(code[pc * kNtffInstructionBytes + at]); };
        p.opcodes[pc] = byte(0);
        p.notifyHints[pc] = byte(kNtffNotifyHintByte);
        NtffSync &s = p.sync[pc];
        constexpr size_t h = NtffSync::kHeaderByte;
        s.waitOp = byte(h);
        s.waitSemaphore = byte(h + 1);
        s.updateOp = byte(h + 2);
        s.updateSemaphore = byte(h + 3);
        s.waitValue = uint32_t(byte(h + 4)) | uint32_t(byte(h + 5)) << 8 | uint32_t(byte(h + 6)) << 16
            | uint32_t(byte(h + 7)) << 24;
        if (p.opcodes[pc] == NtffSync::kOpDmaDirect2d)
            s.dmaSemaphore = byte(NtffSync::kDmaSemaphoreByte);
    }
    m_profile.programs.push_back(std::move(p));
}

void NtffMetadataReader::readRuntimeBlocks(const ProtobufReader &msg, uint8_t core)
{
    const uint64_t stream = msg.integer(1);
    NtffProgram *program = nullptr;
    for (auto &p : m_profile.programs)
        if (p.streamIndex == stream && p.core == core)
            program = &p;
    if (!program) {
        m_profile.diagnostics.warn("runtime blocks of an engine without a program ignored", "byte " + std::to_string(msg.baseOffset()));
        return;
    }
    ProtobufReader r = msg;
    Field f;
    while (r.next(f)) {
        if (f.number != 2)
            continue;
        const ProtobufReader b = r.nested(f);
        const uint64_t pc = b.integer(1) / kNtffInstructionBytes;
        NtffRuntimeBlock block;
        block.pc = static_cast<uint32_t>(std::min<uint64_t>(pc, std::numeric_limits<uint32_t>::max()));
        block.count = b.integer(2);
        block.kind = static_cast<uint32_t>(b.integer(3));
        program->runtimeBlocks.push_back(block);
    }
}

void NtffMetadataReader::readClocks(const ProtobufReader &msg, uint8_t core)
{
    std::array<uint32_t, 32> repetitions{};
    ProtobufReader r = msg;
    Field f;
    while (r.next(f)) {
        const ProtobufReader c = r.nested(f);
        NtffClock clock;
        clock.core = core;
        clock.field = f.number;
        clock.index = f.number < repetitions.size() ? repetitions[f.number]++ : 0;
        clock.base = c.integer(1);
        clock.div = c.integer(2, 1);
        clock.mul = c.integer(3, 1);
        m_profile.clocks.push_back(clock);
    }
}

} // namespace lanescope
