#include "ntffwriter.h"

#include <optional>

#include "protobufwire.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace lanescope {

namespace {

__extension__ typedef __int128 Int128;

constexpr std::array<uint32_t, kNtffEngineCount> kClockOfEngine = {1, 2, 4, 3, 5}; // by engine id - 1
constexpr std::array<uint32_t, 5> kSectionKind = {0, 1, 2, 4, 5};
constexpr uint64_t kDefaultProgramAddress = 0x3c0200000;

// Minimal protobuf encoder for the metadata message.
class PbOut
{
public:
    void integer(uint32_t field, uint64_t v) { pbwire::appendInteger(m_buf, field, v); }
    void bytes(uint32_t field, std::string_view b) { pbwire::appendBytes(m_buf, field, b); }
    void message(uint32_t field, const PbOut &m) { bytes(field, m.m_buf); }
    const std::string &str() const { return m_buf; }

private:
    std::string m_buf;
};

void putU32(char *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

void putU64(char *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// "2.29.40 (f954c)" -> {1: 2, 2: 29, 3: 40, 5: "f954c"}
PbOut versionMessage(const std::string &text)
{
    PbOut m;
    uint64_t parts[3] = {0, 0, 0};
    size_t i = 0;
    for (int p = 0; p < 3 && i < text.size(); ++p) {
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            parts[p] = parts[p] * 10 + uint64_t(text[i++] - '0');
        if (i < text.size() && text[i] == '.')
            ++i;
    }
    m.integer(1, parts[0]);
    m.integer(2, parts[1]);
    m.integer(3, parts[2]);
    const size_t open = text.find('('), close = text.find(')');
    if (open != std::string::npos && close != std::string::npos && close > open + 1)
        m.bytes(5, std::string_view(text).substr(open + 1, close - open - 1));
    return m;
}

std::string uuidBytes(const std::string &hex)
{
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return 0;
    };
    std::string out(16, '\0');
    for (size_t i = 0; i < 16 && 2 * i + 1 < hex.size(); ++i)
        out[i] = static_cast<char>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    return out + std::string("\x24\x54\x05\x38", 4); // trailing junk, as the runtime writes it
}

} // namespace

NtffWriter::NtffWriter(const NtffProfile &layout)
{
    m_layout.version = layout.version == 6 ? 6 : 5;
    m_layout.cores = layout.cores;
    m_layout.windowStartPs = layout.windowStartPs;
    m_layout.windowEndPs = layout.windowEndPs;
    m_layout.uuid = layout.uuid;
    m_layout.neffName = layout.neffName;
    m_layout.runtimeVersion = layout.runtimeVersion;
    m_layout.driverVersion = layout.driverVersion;
    m_layout.collectivesVersion = layout.collectivesVersion;
    m_layout.instanceType = layout.instanceType;
    m_layout.subgraphName = layout.subgraphName;
    m_layout.totalTimePs = layout.totalTimePs;
    m_layout.programs = layout.programs;
    m_layout.dmaQueues = layout.dmaQueues;
    m_layout.clocks = layout.clocks.empty() ? defaultClocks() : layout.clocks;
    m_layout.memoryUsage = layout.memoryUsage;
    for (int i = 0; i < kNtffEngineCount; ++i) {
        m_engineClock[size_t(i)] = clock(kClockOfEngine[size_t(i)], 0);
        if (const NtffProgram *p = m_layout.program(static_cast<NtffEngine>(i + 1)))
            m_engineBase16[size_t(i)] = static_cast<uint32_t>((p->address / kNtffInstructionBytes) & 0xffff);
    }
    m_eventClock = clock(6, 0);
    m_throttleClock = clock(7, 0);
    for (uint32_t i = 0; i < m_dmaClock.size(); ++i)
        m_dmaClock[i] = clock(8, i);
}

std::vector<NtffClock> NtffWriter::defaultClocks()
{
    std::vector<NtffClock> c;
    c.push_back({1, 0, 683844786667682, 731428, 731408});
    c.push_back({2, 0, 683844786626976, 731428, 731408});
    c.push_back({3, 0, 683845364799739, 914286, 914260});
    c.push_back({4, 0, 683844786646254, 731428, 731408});
    c.push_back({5, 0, 683844787049111, 731428, 731408});
    c.push_back({6, 0, 683844787099111, 731428, 731408});
    c.push_back({7, 0, 155928382712159, 1024, 731408});
    for (uint32_t i = 0; i < 16; ++i)
        c.push_back({8, i, 155637646984396ull + (i * 7) % 19, 1024, 1204672});
    c.push_back({9, 0, 155637941947589, 1024, 1204672});
    return c;
}

NtffProgram NtffWriter::makeProgram(NtffEngine engine, std::vector<uint8_t> opcodes, std::vector<uint8_t> notifyHints)
{
    NtffProgram p;
    p.engine = engine;
    p.streamIndex = static_cast<uint32_t>(engine) - 1;
    p.address = kDefaultProgramAddress + uint64_t(p.streamIndex) * 0x8000;
    notifyHints.resize(opcodes.size(), 0);
    p.opcodes = std::move(opcodes);
    p.notifyHints = std::move(notifyHints);
    return p;
}

NtffWriter::Conv NtffWriter::clock(uint32_t field, uint32_t index) const
{
    Conv c;
    for (const auto &e : m_layout.clocks)
        if (e.field == field && e.index == index && e.div && e.mul && e.div < (uint64_t(1) << 62)
            && e.mul < (uint64_t(1) << 62)) { // |ps * div| < 2^125: the 128-bit math cannot overflow
            c.valid = true;
            c.base = e.base;
            c.mul = e.mul;
            c.div = e.div;
        }
    return c;
}

// The smallest tick whose time (floor((raw - base) * mul / div)) is >= ps.
uint64_t NtffWriter::toRaw(const Conv &c, int64_t ps) const
{
    if (!c.valid)
        throw std::invalid_argument("NtffWriter: no clock for this record type in the clock table");
    const Int128 num = Int128(ps) * Int128(c.div);
    Int128 q = num / Int128(c.mul);
    if (num % Int128(c.mul) != 0 && num > 0)
        ++q;
    const Int128 raw = Int128(c.base) + q;
    if (raw < 0 || raw > Int128(UINT64_MAX))
        throw std::invalid_argument("NtffWriter: time out of the clock's range");
    return static_cast<uint64_t>(raw);
}

void NtffWriter::append(Section s, uint32_t hdr, uint32_t arg, uint64_t ts)
{
    char rec[kNtffRecordBytes];
    putU32(rec, hdr);
    putU32(rec + 4, arg);
    putU64(rec + 8, ts);
    m_sections[s].append(rec, sizeof rec);
}

void NtffWriter::addInstructionRecord(NtffEngine engine, uint32_t pc, bool end, int64_t ps, uint32_t arg)
{
    const size_t e = static_cast<size_t>(engine) - 1;
    if (e >= size_t(kNtffEngineCount))
        throw std::invalid_argument("NtffWriter: engine id out of range");
    const uint32_t addr16 = (m_engineBase16[e] + pc) & 0xffff;
    const uint32_t hdr = 0x80000000u | uint32_t(e + 1) << 26 | uint32_t(end) << 24 | addr16;
    append(SecInstructions, hdr, arg, toRaw(m_engineClock[e], ps));
}

void NtffWriter::addInstruction(NtffEngine engine, uint32_t pc, int64_t beginPs, int64_t endPs, uint32_t waitCycles,
                                uint16_t crcIn, uint16_t crcOut, uint8_t flags)
{
    const size_t e = static_cast<size_t>(engine) - 1;
    if (e >= size_t(kNtffEngineCount))
        throw std::invalid_argument("NtffWriter: engine id out of range");
    const uint32_t addr16 = (m_engineBase16[e] + pc) & 0xffff;
    const uint32_t hdr = 0x80000000u | uint32_t(e + 1) << 26 | uint32_t(flags) << 16 | addr16;
    append(SecInstructions, hdr, (waitCycles & 0xffff) << 16, toRaw(m_engineClock[e], beginPs));
    append(SecInstructions, hdr | 1u << 24, uint32_t(crcOut) << 16 | crcIn, toRaw(m_engineClock[e], endPs));
}

void NtffWriter::addDmaRecord(uint32_t engine, uint32_t queue, uint32_t type, int64_t ps, uint32_t transferSize,
                              uint16_t crc)
{
    if (engine > 15 || queue > 15)
        throw std::invalid_argument("NtffWriter: DMA engine and queue must be 0..15");
    const uint32_t hdr = 0x80000000u | engine << 24 | (type == 5 ? transferSize & 0xffffff : 0);
    const uint32_t arg = (type & 0xf) | queue << 4 | (type == 5 ? uint32_t(crc) << 16 : 0);
    append(SecDma, hdr, arg, toRaw(m_dmaClock[engine], ps));
}

void NtffWriter::addDmaPacket(uint32_t engine, uint32_t queue, int64_t startPs, int64_t endPs, uint32_t transferSize,
                              uint16_t crc, bool withLateCompletion)
{
    addDmaRecord(engine, queue, 1, startPs);
    addDmaRecord(engine, queue, 5, endPs, transferSize, crc);
    if (withLateCompletion)
        addDmaRecord(engine, queue, 6, endPs);
}

void NtffWriter::addSemaphoreUpdate(uint8_t id, int64_t ps, uint32_t value, uint8_t source, uint8_t op)
{
    const uint32_t hdr = uint32_t(id) | 1u << 8 | uint32_t(op) << 16 | 3u << 24 | uint32_t(source & 0xf) << 26;
    append(SecEvents, hdr, value, toRaw(m_eventClock, ps));
}

void NtffWriter::addOtherEvent(uint8_t id, int64_t ps)
{
    append(SecEvents, uint32_t(id) | 0xf1u << 16 | 3u << 24 | 1u << 26, 0, toRaw(m_eventClock, ps));
}

void NtffWriter::addThrottle(int64_t ps, uint32_t k, uint32_t n, uint32_t type, uint8_t reason)
{
    const uint32_t hdr = uint32_t(reason) | (n & 0xff) << 16;
    const uint32_t arg = type == 99 ? 0x80 : (k & 0x7f);
    append(SecThrottle, hdr, arg, toRaw(m_throttleClock, ps));
}

uint64_t NtffWriter::recordCount() const
{
    uint64_t n = 0;
    for (const auto &s : m_sections)
        n += s.size() / kNtffRecordBytes;
    return n;
}

uint64_t NtffWriter::fileSize() const
{
    uint64_t n = kNtffMetadataOffset + metadata().size();
    for (const auto &s : m_sections)
        n += s.size();
    return n;
}

std::string NtffWriter::metadata() const
{
    PbOut sg;
    sg.bytes(1, m_layout.subgraphName);
    uint32_t firstCore = 0; // the physical core of a v6 section
    if (!m_layout.cores.empty() && m_layout.cores.front().index) {
        firstCore = *m_layout.cores.front().index;
        sg.integer(3, firstCore);
    }
    for (const auto &p : m_layout.programs) {
        std::string code(p.opcodes.size() * kNtffInstructionBytes, '\0');
        for (size_t pc = 0; pc < p.opcodes.size(); ++pc) {
            code[pc * kNtffInstructionBytes] = static_cast<char>(p.opcodes[pc]);
            code[pc * kNtffInstructionBytes + 1] = 0x10;
            if (pc < p.notifyHints.size())
                code[pc * kNtffInstructionBytes + kNtffNotifyHintByte] = static_cast<char>(p.notifyHints[pc]);
        }
        PbOut m;
        m.integer(1, p.streamIndex);
        m.integer(2, p.address);
        m.bytes(3, code);
        sg.message(4, m);
    }
    for (const auto &p : m_layout.programs) {
        if (p.runtimeBlocks.empty())
            continue;
        PbOut m;
        m.integer(1, p.streamIndex);
        for (const auto &b : p.runtimeBlocks) {
            PbOut block;
            block.integer(1, uint64_t(b.pc) * kNtffInstructionBytes);
            block.integer(2, b.count);
            if (b.kind)
                block.integer(3, b.kind);
            m.message(2, block);
        }
        sg.message(5, m);
    }
    // v5: the sections in the subgraph; v6: at the top level, each tagged with its physical core
    std::vector<PbOut> sections;
    uint64_t offset = 0;
    for (size_t s = 0; s < m_sections.size(); ++s) {
        PbOut m;
        m.integer(1, kSectionKind[s]);
        if (kSectionKind[s] == 4)
            m.integer(3, 1);
        m.integer(5, offset);
        m.integer(6, m_sections[s].size());
        if (m_layout.version >= 6)
            m.integer(7, firstCore);
        if (m_layout.version < 6)
            sg.message(6, m);
        sections.push_back(m);
        offset += m_sections[s].size();
    }
    for (const auto &q : m_layout.dmaQueues) {
        PbOut m;
        m.integer(1, q.engine);
        m.integer(2, q.queue);
        m.integer(3, q.type);
        m.bytes(4, q.name);
        m.integer(5, UINT64_MAX); // -1, as in the real files
        sg.message(7, m);
    }
    PbOut clocks;
    for (const auto &c : m_layout.clocks) {
        PbOut m;
        m.integer(1, c.base);
        m.integer(2, c.div);
        m.integer(3, c.mul);
        clocks.message(c.field, m);
    }
    sg.message(10, clocks);
    for (const auto &u : m_layout.memoryUsage) {
        PbOut m;
        m.integer(2, u.bytes);
        m.bytes(3, u.category);
        sg.message(11, m);
    }
    if (m_layout.totalTimePs)
        sg.integer(14, *m_layout.totalTimePs);

    PbOut inner, mid, top;
    inner.message(1, sg);
    mid.message(4, inner);
    top.bytes(1, m_layout.neffName);
    top.bytes(2, uuidBytes(m_layout.uuid));
    top.integer(3, 10001);
    top.message(4, mid);
    top.integer(5, 1);
    top.message(8, versionMessage(m_layout.runtimeVersion));
    top.bytes(9, m_layout.instanceType);
    top.integer(10, 2);
    top.message(11, versionMessage(m_layout.driverVersion));
    top.message(12, versionMessage(m_layout.collectivesVersion));
    PbOut f14;
    f14.integer(4, 0xffffffff);
    top.message(14, f14);
    if (m_layout.windowStartPs && m_layout.windowEndPs) { // v6: {1: uuid, 2: start, 3: end}, ps
        PbOut window;
        window.bytes(1, uuidBytes(m_layout.uuid).substr(0, 16));
        window.integer(2, uint64_t(*m_layout.windowStartPs));
        window.integer(3, uint64_t(*m_layout.windowEndPs));
        top.message(15, window);
    }
    if (m_layout.version >= 6)
        for (const PbOut &m : sections)
            top.message(16, m);
    return top.str();
}

std::string NtffWriter::header(size_t metadataSize) const
{
    if (metadataSize > UINT32_MAX)
        throw std::length_error("NtffWriter: metadata larger than 4 GiB");
    std::string h(kNtffMetadataOffset, '\0');
    h[0] = static_cast<char>(m_layout.version);
    putU32(h.data() + 1, static_cast<uint32_t>(metadataSize));
    putU64(h.data() + 8, 0x656700);
    return h;
}

std::string NtffWriter::bytes() const
{
    const std::string md = metadata();
    std::string out = header(md.size());
    out.reserve(fileSize());
    out += md;
    for (const auto &s : m_sections)
        out += s;
    return out;
}

void NtffWriter::writeAll(std::FILE *f, const std::string &path) const
{
    const std::string md = metadata();
    const std::string h = header(md.size());
    auto put = [&](const std::string &b) {
        if (!b.empty() && std::fwrite(b.data(), 1, b.size(), f) != b.size())
            throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
    };
    put(h);
    put(md);
    for (const auto &s : m_sections)
        put(s);
}

void NtffWriter::save(const std::string &path) const
{
    struct Closer
    {
        void operator()(std::FILE *f) const { std::fclose(f); }
    };
    std::unique_ptr<std::FILE, Closer> f(std::fopen(path.c_str(), "wb"));
    if (!f)
        throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
    writeAll(f.get(), path);
    if (std::fclose(f.release()) != 0)
        throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
}

} // namespace lanescope
