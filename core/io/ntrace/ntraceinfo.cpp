#include "ntraceinfo.h"

#include "io/input/importerror.h"
#include "io/protobuf/protobufreader.h"

#include <algorithm>

namespace lanescope {

namespace {

using Field = ProtobufReader::Field;
using Wire = ProtobufReader::WireType;

class InfoReader
{
public:
    InfoReader(const std::string &file, Diagnostics &d, NtraceInfo &out) : m_file(file), m_d(d), m_out(out) {}
    void run(std::string_view bytes);

private:
    bool expect(const Field &f, Wire type, const char *what)
    {
        if (f.type == type)
            return true;
        m_d.warn(m_file + ": fields of another wire type than documented (ignored)",
                 "byte " + std::to_string(f.offset) + ": field " + std::to_string(f.number) + " is " +
                     ProtobufReader::wireTypeName(f.type) + "; expected " + what);
        return false;
    }
    void sessionFile(const ProtobufReader &parent, const Field &f, NtraceSessionFile &out);
    void host(const ProtobufReader &parent, const Field &f);
    void table(const ProtobufReader &parent, const Field &f);
    void salvageTable(std::string_view bytes, uint64_t at);

    const std::string &m_file;
    Diagnostics &m_d;
    NtraceInfo &m_out;
};

void InfoReader::sessionFile(const ProtobufReader &parent, const Field &f, NtraceSessionFile &out)
{
    if (!expect(f, Wire::LengthDelimited, "a file entry {1 path, 2 kind, 3 records}"))
        return;
    ProtobufReader r = parent.nested(f);
    Field g;
    out.present = true;
    while (r.next(g)) {
        if (g.number == 1 && expect(g, Wire::LengthDelimited, "the file's path"))
            out.path = std::string(g.bytes);
        else if (g.number == 2 && expect(g, Wire::Varint, "the file's kind"))
            out.kind = g.value;
        else if (g.number == 3 && expect(g, Wire::Varint, "the file's record count"))
            out.records = g.value;
    }
}

void InfoReader::host(const ProtobufReader &parent, const Field &f)
{
    if (!expect(f, Wire::LengthDelimited, "the host {1 CPU count, 2 CPU model, 3 memory, 6 cpu_util, 7 host_mem}"))
        return;
    ProtobufReader r = parent.nested(f);
    Field g;
    while (r.next(g)) {
        switch (g.number) {
        case 1:
            if (expect(g, Wire::Varint, "the CPU count"))
                m_out.cpuCount = g.value;
            break;
        case 2:
            if (expect(g, Wire::LengthDelimited, "the CPU model"))
                m_out.cpuModel = std::string(g.bytes);
            break;
        case 3:
            if (expect(g, Wire::Varint, "the host memory in bytes"))
                m_out.hostMemoryBytes = g.value;
            break;
        case 6: sessionFile(r, g, m_out.cpuUtil); break;
        case 7: sessionFile(r, g, m_out.hostMem); break;
        default: break; // 4, 5: fixed32 floats 1.0 (sample periods? not used)
        }
    }
}

void InfoReader::table(const ProtobufReader &parent, const Field &f)
{
    if (!expect(f, Wire::LengthDelimited, "an enum table {1 name, 2 entries}"))
        return;
    ProtobufReader r = parent.nested(f);
    NtraceEnumTable t;
    Field g;
    while (r.next(g)) {
        if (g.number == 1 && expect(g, Wire::LengthDelimited, "the table's name")) {
            t.name = std::string(g.bytes);
        } else if (g.number == 2 && expect(g, Wire::LengthDelimited, "an entry {1 number, 2 name}")) {
            ProtobufReader e = r.nested(g);
            uint64_t number = 0; // proto3: an absent number is 0
            std::string name;
            Field h;
            while (e.next(h)) {
                if (h.number == 1 && expect(h, Wire::Varint, "the entry's number"))
                    number = h.value;
                else if (h.number == 2 && expect(h, Wire::LengthDelimited, "the entry's name (a string)"))
                    name = std::string(h.bytes);
            }
            if (!t.names.emplace(number, name).second)
                m_d.warn(m_file + ": enum entries whose number repeats in their table (the first kept)",
                         "byte " + std::to_string(g.offset) + ": " + std::to_string(number));
        }
    }
    if (m_out.table(t.name))
        m_d.warn(m_file + ": enum tables that repeat (the first kept)", t.name);
    else
        m_out.tables.push_back(std::move(t));
}

// A file cut inside an enum table (field 10): the entries before the cut are kept, so the record types
// they name can still be read.
void InfoReader::salvageTable(std::string_view bytes, uint64_t at)
{
    auto varint = [&](uint64_t &pos, uint64_t &v) {
        v = 0;
        for (int shift = 0; shift < 64 && pos < bytes.size(); shift += 7) {
            const uint8_t c = uint8_t(bytes[pos++]);
            v |= uint64_t(c & 0x7f) << shift;
            if (!(c & 0x80))
                return true;
        }
        return false;
    };
    uint64_t pos = at, key = 0, length = 0;
    if (!varint(pos, key) || key != (10u << 3 | 2) || !varint(pos, length) || pos >= bytes.size())
        return;
    ProtobufReader table(bytes.substr(pos), m_file, pos);
    NtraceEnumTable t;
    Field g;
    try {
        while (table.next(g)) {
            if (g.number == 1 && g.type == Wire::LengthDelimited) {
                t.name = std::string(g.bytes);
            } else if (g.number == 2 && g.type == Wire::LengthDelimited) {
                ProtobufReader e = table.nested(g);
                uint64_t number = 0;
                std::string name;
                Field h;
                while (e.next(h)) {
                    if (h.number == 1 && h.type == Wire::Varint)
                        number = h.value;
                    else if (h.number == 2 && h.type == Wire::LengthDelimited)
                        name = std::string(h.bytes);
                }
                t.names.emplace(number, name);
            }
        }
    } catch (const ImportError &) {
        // the cut: keep the entries before it
    }
    if (t.name.empty() || m_out.table(t.name))
        return;
    m_d.warn(m_file + ": enum tables cut short (the entries before the cut are used)",
             t.name + ": " + std::to_string(t.names.size()) + " entries before byte " + std::to_string(bytes.size()));
    m_out.tables.push_back(std::move(t));
}

void InfoReader::run(std::string_view bytes)
{
    m_out.bytes = bytes.size();
    ProtobufReader r(bytes, m_file, 0);
    Field f;
    for (;;) {
        try {
            if (!r.next(f))
                break;
        } catch (const ImportError &e) {
            m_out.damaged = true;
            m_d.warn(m_file + ": damaged or cut (what follows the damage is missing)",
                     "byte " + std::to_string(e.offset()) + ": " + e.problem());
            salvageTable(bytes, e.offset());
            break;
        }
        try {
            auto varint = [&](const char *what, auto &out) {
                if (expect(f, Wire::Varint, what))
                    out = static_cast<std::remove_reference_t<decltype(out)>>(f.value);
            };
            auto text = [&](const char *what, std::string &out) {
                if (expect(f, Wire::LengthDelimited, what))
                    out = std::string(f.bytes);
            };
            switch (f.number) {
            case 1: varint("the format number", m_out.format); break;
            case 2:
                varint("the process id", m_out.pid);
                m_out.hasPid = f.type == Wire::Varint;
                break;
            case 4: text("the instance id", m_out.instanceId); break;
            case 6: sessionFile(r, f, m_out.systemTrace); break;
            case 7: host(r, f); break;
            case 10: table(r, f); break;
            case 11: varint("the session start (Unix ns)", m_out.sessionStart); break;
            case 12: varint("the session end (Unix ns)", m_out.sessionEnd); break;
            case 13: text("the host IP address", m_out.hostIp); break;
            case 14: varint("the record count", m_out.recordCount); break;
            case 15: text("the instance type", m_out.instanceType); break;
            case 17: text("the host name", m_out.hostName); break;
            default: break; // 9, 16, 18: meaning unknown
            }
        } catch (const ImportError &e) { // inside one field: the fields after it are still read
            m_out.damaged = true;
            m_d.warn(m_file + ": fields whose content is not valid protobuf (the rest of the field skipped)",
                     "byte " + std::to_string(e.offset()) + ": " + e.problem());
        }
    }
    if (m_out.sessionStart < 0 || m_out.sessionEnd < 0) { // past 2^63: no Unix time
        m_out.sessionStart = m_out.sessionEnd = 0;
        m_d.warn(m_file + ": session start or end past 2^63 ns (ignored)");
    }
}

} // namespace

const NtraceEnumTable *NtraceInfo::table(std::string_view name) const
{
    for (const NtraceEnumTable &t : tables)
        if (t.name == name)
            return &t;
    return nullptr;
}

std::string_view NtraceInfo::name(std::string_view tableName, uint64_t number) const
{
    const NtraceEnumTable *t = table(tableName);
    if (!t)
        return {};
    auto it = t->names.find(number);
    return it == t->names.end() ? std::string_view() : std::string_view(it->second);
}

NtraceInfo NtraceInfoReader::read(std::string_view bytes, const std::string &file, Diagnostics &diagnostics)
{
    NtraceInfo info;
    InfoReader(file, diagnostics, info).run(bytes);
    return info;
}

} // namespace lanescope
