#include "ntffmetadatareader.h"

#include "io/protobuf/protobufreader.h"
#include "util/textutil.h"

#include <algorithm>
#include <limits>
#include <optional>
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

void NtffMetadataReader::read(const ProtobufReader &top, NtffProfile &profile)
{
    NtffMetadataReader(profile).readMetadata(top);
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

    // f4 { f4 { f1 <subgraph> } }: one core / subgraph in every sample.
    uint64_t subgraphs = 0;
    std::optional<ProtobufReader> first;
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
                if (!subgraphs++)
                    first = inner.nested(h);
            }
        }
    }
    if (!first)
        throw ImportError(std::string(top.file()), kNtffMetadataOffset, "metadata has no subgraph (field 4.4.1); expected one NeuronCore subgraph");
    if (subgraphs > 1)
        m_profile.diagnostics.warn("additional subgraphs in the metadata ignored (only the first is decoded)", {}, subgraphs - 1);
    readSubgraph(*first);
}

void NtffMetadataReader::readSubgraph(const ProtobufReader &sg)
{
    ProtobufReader r = sg;
    Field f;
    std::vector<ProtobufReader> blockMessages;
    while (r.next(f)) {
        switch (f.number) {
        case 1:
            r.expectType(f, WireType::LengthDelimited);
            m_profile.subgraphName = std::string(f.bytes);
            break;
        case 4:
            readProgram(r.nested(f));
            break;
        case 5:
            blockMessages.push_back(r.nested(f));
            break;
        case 6: { // {1: kind, 3: flag, 5: payload offset, 6: size}
            const ProtobufReader s = r.nested(f);
            m_profile.sections.push_back(NtffSection{.kind = u32(s, 1), .flag = u32(s, 3), .offset = s.integer(5),
                                                     .size = s.integer(6), .descriptorOffset = f.offset});
            break;
        }
        case 7: { // {1: DMA engine, 2: queue, 3: type, 4: name}
            const ProtobufReader q = r.nested(f);
            const std::string name(q.bytes(4));
            m_profile.dmaQueues.push_back(
                NtffDmaQueue{u32(q, 1), u32(q, 2), u32(q, 3), name, ntffQueueDisplayName(name)});
            break;
        }
        case 10:
            readClocks(r.nested(f));
            break;
        case 11: {
            const ProtobufReader m = r.nested(f);
            m_profile.memoryUsage.push_back(NtffMemoryUsage{m.integer(1), m.integer(2), std::string(m.bytes(3))});
            break;
        }
        case 14:
            r.expectType(f, WireType::Varint);
            m_profile.totalTimePs = f.value;
            break;
        default:
            break;
        }
    }
    // Runtime blocks need the programs, which may come in any order.
    for (const auto &m : blockMessages)
        readRuntimeBlocks(m);
    for (auto &p : m_profile.programs)
        p.computeNeffIndices();
    std::sort(m_profile.programs.begin(), m_profile.programs.end(),
              [](const NtffProgram &a, const NtffProgram &b) { return a.engine < b.engine; });
}

void NtffMetadataReader::readProgram(const ProtobufReader &msg)
{
    const uint64_t stream = msg.integer(1);
    const auto where = "byte " + std::to_string(msg.baseOffset());
    if (stream >= kNtffEngineCount) {
        m_profile.diagnostics.warn("programs of an unknown engine index ignored", where);
        return;
    }
    const auto engine = static_cast<NtffEngine>(stream + 1); // program stream index = engine id - 1
    for (const auto &p : m_profile.programs)
        if (p.engine == engine) {
            m_profile.diagnostics.warn("duplicate programs of one engine ignored", where);
            return;
        }
    NtffProgram p;
    p.engine = engine;
    p.streamIndex = static_cast<uint32_t>(stream);
    p.address = msg.integer(2);
    const std::string_view code = msg.bytes(3);
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

void NtffMetadataReader::readRuntimeBlocks(const ProtobufReader &msg)
{
    const uint64_t stream = msg.integer(1);
    NtffProgram *program = nullptr;
    for (auto &p : m_profile.programs)
        if (p.streamIndex == stream)
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

void NtffMetadataReader::readClocks(const ProtobufReader &msg)
{
    std::array<uint32_t, 32> repetitions{};
    ProtobufReader r = msg;
    Field f;
    while (r.next(f)) {
        const ProtobufReader c = r.nested(f);
        NtffClock clock;
        clock.field = f.number;
        clock.index = f.number < repetitions.size() ? repetitions[f.number]++ : 0;
        clock.base = c.integer(1);
        clock.div = c.integer(2, 1);
        clock.mul = c.integer(3, 1);
        m_profile.clocks.push_back(clock);
    }
}

} // namespace lanescope
