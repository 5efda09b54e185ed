#include "neffdebuginfo.h"

#include "io/input/importerror.h"
#include "io/protobuf/protobufreader.h"

#include <algorithm>
#include <unordered_map>

namespace lanescope {

namespace {

// One entry of a debug member: field 1 id, 2 name, 3 packed ids one level up, 7 {1: key, 2: value}.
struct Entry
{
    uint64_t id = 0;
    std::string name;
    std::vector<uint64_t> up;
    std::string file;
    uint32_t line = 0;
    std::string opType;
    std::string fileIndex; // kernel_file: an index into the member's file names (field 5)
};

std::vector<uint64_t> packed(const ProtobufReader &outer, const ProtobufReader::Field &f)
{
    std::vector<uint64_t> out;
    if (f.type == ProtobufReader::WireType::Varint) {
        out.push_back(f.value);
        return out;
    }
    // Packed varints: read as a message of varints would not work (no keys), so decode by hand.
    const std::string_view b = f.bytes;
    uint64_t v = 0;
    int shift = 0;
    for (size_t i = 0; i < b.size(); ++i) {
        const auto c = uint8_t(b[i]);
        if (shift >= 64)
            outer.fail(f.valueOffset + i, "a packed varint longer than 10 bytes in a NEFF debug entry");
        v |= uint64_t(c & 0x7f) << shift;
        shift += 7;
        if (!(c & 0x80)) {
            out.push_back(v);
            v = 0;
            shift = 0;
        }
    }
    if (shift)
        outer.fail(f.valueOffset + b.size(), "a packed varint cut off at the end of a NEFF debug entry");
    return out;
}

uint32_t lineOf(std::string_view text)
{
    uint64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9' || v > 100'000'000)
            return 0;
        v = v * 10 + uint64_t(c - '0');
    }
    return uint32_t(v);
}

struct Member
{
    std::vector<Entry> entries;
    std::vector<std::string> files; // field 5
    bool present = false;
};

Member readMember(std::string_view bytes, const std::string &where)
{
    Member m;
    m.present = true;
    ProtobufReader r(bytes, where);
    ProtobufReader::Field f;
    while (r.next(f)) {
        if (f.number == 5 && f.type == ProtobufReader::WireType::LengthDelimited) {
            m.files.emplace_back(f.bytes);
            continue;
        }
        if (f.number != 3 || f.type != ProtobufReader::WireType::LengthDelimited)
            continue;
        Entry e;
        ProtobufReader er = r.nested(f);
        ProtobufReader::Field g;
        while (er.next(g)) {
            if (g.number == 1 && g.type == ProtobufReader::WireType::Varint)
                e.id = g.value;
            else if (g.number == 2 && g.type == ProtobufReader::WireType::LengthDelimited)
                e.name = std::string(g.bytes);
            else if (g.number == 3 && (g.type == ProtobufReader::WireType::LengthDelimited || g.type == ProtobufReader::WireType::Varint))
                for (uint64_t id : packed(er, g))
                    e.up.push_back(id);
            else if (g.number == 7 && g.type == ProtobufReader::WireType::LengthDelimited) {
                const ProtobufReader kv = er.nested(g);
                const std::string_view key = kv.bytes(1), value = kv.bytes(2);
                if (key == "source_file")
                    e.file = std::string(value);
                else if (key == "source_line" || key == "kernel_line")
                    e.line = lineOf(value);
                else if (key == "kernel_file")
                    e.fileIndex = std::string(value);
                else if (key == "op_type")
                    e.opType = std::string(value);
            }
        }
        m.entries.push_back(std::move(e));
    }
    for (Entry &e : m.entries) // kernel_file names a file of the member by its index
        if (e.file.empty() && !e.fileIndex.empty())
            if (const uint32_t i = lineOf(e.fileIndex); (i > 0 || e.fileIndex == "0") && i < m.files.size())
                e.file = m.files[i];
    return m;
}

// One level's ops, stored once each, found by id.
struct Level
{
    Member member;
    std::unordered_map<uint64_t, size_t> byId; // id -> entry index
    std::vector<uint32_t> stored;              // entry index -> table index (kNone until stored)
};

Level levelOf(const std::function<std::optional<std::string_view>(std::string_view)> &member, const std::string &name,
              const std::string &file, Diagnostics &diagnostics)
{
    Level l;
    const std::optional<std::string_view> bytes = member(name);
    if (!bytes)
        return l;
    try {
        l.member = readMember(*bytes, file + ":" + name);
    } catch (const ImportError &e) {
        diagnostics.warn("NEFF debug member does not parse; the op names it holds are left out", e.what());
        l.member = {};
        return l;
    }
    for (size_t i = 0; i < l.member.entries.size(); ++i)
        l.byId.emplace(l.member.entries[i].id, i);
    l.stored.assign(l.member.entries.size(), NeffDebugInstruction::kNone);
    return l;
}

// The table index of the op `id` of a level (added on first use), kNone when the level lacks it.
uint32_t take(Level &level, std::vector<NeffDebugOp> &table, uint64_t id, const Entry **entry)
{
    *entry = nullptr;
    const auto it = level.byId.find(id);
    if (it == level.byId.end())
        return NeffDebugInstruction::kNone;
    const Entry &e = level.member.entries[it->second];
    *entry = &e;
    uint32_t &slot = level.stored[it->second];
    if (slot == NeffDebugInstruction::kNone) {
        slot = uint32_t(table.size());
        table.push_back(NeffDebugOp{e.name, e.file, e.line, e.opType});
    }
    return slot;
}

// debug_info/<kind>.dbg_sg0000NN for subgraph sgNN, else the NEFF's only one (sg000000).
std::string globalMember(const std::function<std::optional<std::string_view>(std::string_view)> &member, const std::string &kind,
                         const std::string &subgraph)
{
    std::string digits = subgraph.substr(2);
    while (digits.size() < 6)
        digits.insert(digits.begin(), '0');
    const std::string own = "debug_info/" + kind + ".dbg_sg" + digits;
    return member(own) ? own : "debug_info/" + kind + ".dbg_sg000000";
}

} // namespace

const std::vector<std::string> &NeffDebugInfo::engineNames()
{
    static const std::vector<std::string> kNames = {"PE", "Activation", "Pool", "DVE", "SP"};
    return kNames;
}

NeffDebugInfo::Coverage NeffDebugInfo::coverage(const NeffEngineDebug &engine)
{
    Coverage c;
    c.instructions = engine.instructions.size();
    for (const NeffDebugInstruction &i : engine.instructions) {
        c.bir += i.bir != NeffDebugInstruction::kNone;
        c.penguin += i.penguin != NeffDebugInstruction::kNone;
        c.hlo += i.hlo != NeffDebugInstruction::kNone;
    }
    return c;
}

std::vector<std::pair<uint32_t, uint64_t>> NeffDebugInfo::instructionsPerHlo(const NeffSubgraphDebug &subgraph)
{
    std::vector<uint64_t> count(subgraph.hlo.size(), 0);
    for (const NeffEngineDebug &e : subgraph.engines)
        for (const NeffDebugInstruction &i : e.instructions)
            if (i.hlo < count.size())
                ++count[i.hlo];
    std::vector<std::pair<uint32_t, uint64_t>> out;
    for (uint32_t h = 0; h < count.size(); ++h)
        if (count[h])
            out.emplace_back(h, count[h]);
    std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    return out;
}

std::vector<NeffSubgraphDebug> NeffDebugInfo::parse(const std::function<std::optional<std::string_view>(std::string_view)> &member,
                                                    const std::vector<std::string> &subgraphs, const std::string &file,
                                                    Diagnostics &diagnostics)
{
    std::vector<NeffSubgraphDebug> out;
    for (const std::string &sg : subgraphs) {
        if (sg.size() < 3)
            continue;
        NeffSubgraphDebug d;
        d.subgraph = sg;
        Level penguin = levelOf(member, globalMember(member, "debug_info_penguin", sg), file, diagnostics);
        Level hlo = levelOf(member, globalMember(member, "debug_info_hlo", sg), file, diagnostics);
        Level pttf = levelOf(member, globalMember(member, "debug_info_pttf", sg), file, diagnostics);
        for (const std::string &engine : engineNames()) {
            Level asmLevel = levelOf(member, sg + "/debug_info_asm_" + engine + ".dbg", file, diagnostics);
            if (!asmLevel.member.present)
                continue;
            Level backend = levelOf(member, sg + "/debug_info_backend_" + engine + ".dbg", file, diagnostics);
            NeffEngineDebug e;
            e.engine = engine;
            e.instructions.reserve(asmLevel.member.entries.size());
            for (const Entry &a : asmLevel.member.entries) {
                NeffDebugInstruction i;
                const Entry *b = nullptr, *p = nullptr, *h = nullptr, *s = nullptr;
                if (!a.up.empty())
                    i.bir = take(backend, d.bir, a.up.front(), &b);
                if (b && !b->up.empty())
                    i.penguin = take(penguin, d.penguin, b->up.front(), &p);
                if (p && !p->up.empty())
                    i.hlo = take(hlo, d.hlo, p->up.front(), &h);
                if (h && !h->up.empty())
                    i.scope = take(pttf, d.scopes, h->up.front(), &s);
                e.instructions.push_back(i);
            }
            d.engines.push_back(std::move(e));
        }
        if (!d.engines.empty())
            out.push_back(std::move(d));
    }
    return out;
}

} // namespace lanescope
