#include "neffdebugwriter.h"

#include "protobufwire.h"

#include <algorithm>

namespace lanescope {

namespace {

using pbwire::varint;
std::string field(uint32_t number, const std::string &bytes) { return pbwire::bytes(number, bytes); }
std::string fieldInt(uint32_t number, uint64_t v) { return pbwire::integer(number, v); }
std::string attr(const std::string &key, const std::string &value) { return field(7, field(1, key) + field(2, value)); }
// One entry: field 1 id (absent = 0), 2 name, 3 packed ids one level up, 7 attributes.
std::string entry(uint64_t id, const std::string &name, uint64_t up, bool hasUp, const std::string &attrs = {})
{
    return field(3, (id ? fieldInt(1, id) : std::string()) + field(2, name) + (hasUp ? field(3, varint(up)) : std::string()) + attrs);
}
std::string header(const std::string &what, const std::string &parent) { return field(1, what) + field(2, parent); }

} // namespace

uint32_t NeffDebugWriter::addHlo(const std::string &name, const std::string &opType, const std::string &sourceFile, uint32_t line,
                                 const std::string &scope, const std::string &penguinType)
{
    auto s = std::find(m_scopes.begin(), m_scopes.end(), scope);
    if (s == m_scopes.end())
        s = m_scopes.insert(m_scopes.end(), scope);
    m_hlo.push_back({name, opType, sourceFile, line, uint32_t(s - m_scopes.begin())});
    const uint32_t p = uint32_t(m_penguin.size());
    m_penguin.push_back({penguinType + " $" + std::to_string(p + 1), uint32_t(m_hlo.size() - 1)});
    return p;
}

uint32_t NeffDebugWriter::addKernelOp(const std::string &penguinType, const std::string &kernelFile, uint32_t line)
{
    auto f = std::find(m_files.begin(), m_files.end(), kernelFile);
    if (f == m_files.end())
        f = m_files.insert(m_files.end(), kernelFile);
    const uint32_t p = uint32_t(m_penguin.size());
    m_penguin.push_back({penguinType + " $" + std::to_string(p + 1), kNone, uint32_t(f - m_files.begin()), line});
    return p;
}

void NeffDebugWriter::addInstruction(const std::string &engine, uint32_t penguin)
{
    auto e = std::find_if(m_engines.begin(), m_engines.end(), [&](const auto &x) { return x.first == engine; });
    if (e == m_engines.end())
        e = m_engines.emplace(m_engines.end(), engine, std::vector<uint32_t>());
    e->second.push_back(penguin);
}

std::vector<std::pair<std::string, std::string>> NeffDebugWriter::members(const std::string &subgraph) const
{
    std::vector<std::pair<std::string, std::string>> out;
    if (m_engines.empty())
        return out;
    const std::string digits = std::string(6 - std::min<size_t>(6, subgraph.size() - 2), '0') + subgraph.substr(2);
    const std::string suffix = ".dbg_sg" + digits;
    // Ids: scopes, HLO and Penguin ops 1-based by index; BIR instructions 1-based per engine.
    if (!m_hlo.empty()) {
        std::string pttf = header("Debug info for PyTorch/Tensorflow operations", "");
        for (size_t i = 0; i < m_scopes.size(); ++i)
            pttf += entry(i + 1, m_scopes[i], 0, false);
        out.emplace_back("debug_info/debug_info_pttf" + suffix, pttf);
        std::string hlo = header("Debug info for XLA generated HLO instructions", "debug_info_pttf.dbg");
        for (size_t i = 0; i < m_hlo.size(); ++i) {
            const Hlo &h = m_hlo[i];
            hlo += entry(i + 1, h.name, h.scope + 1, true,
                         attr("op_type", h.opType) + attr("source_file", h.file) + attr("source_line", std::to_string(h.line)));
        }
        out.emplace_back("debug_info/debug_info_hlo" + suffix, hlo);
    }
    std::string penguin = header("Debug info for Penguin instructions", m_hlo.empty() ? "" : "debug_info_hlo.dbg");
    for (size_t i = 0; i < m_penguin.size(); ++i) {
        const Penguin &p = m_penguin[i];
        const std::string attrs = p.file == kNone ? std::string()
                                                  : attr("kernel_file", std::to_string(p.file)) + attr("kernel_line", std::to_string(p.line));
        penguin += entry(i + 1, p.name, p.hlo + 1, p.hlo != kNone, attrs);
    }
    for (const std::string &f : m_files)
        penguin += field(5, f);
    out.emplace_back("debug_info/debug_info_penguin" + suffix, penguin);
    for (const auto &[engine, instructions] : m_engines) {
        std::string backend = header("Debug info for one engine's BIR Instructions", "debug_info_penguin.dbg");
        std::string assembly = header("Debug info for one engine's assembly instructions", "debug_info_backend_" + engine + ".dbg");
        uint64_t bir = 0;
        for (const uint32_t p : instructions) {
            if (p == kNone || p >= m_penguin.size()) {
                assembly += entry(0, "", 0, false);
                continue;
            }
            ++bir;
            backend += entry(bir, "I-" + std::to_string(p + 1) + "-" + std::to_string(bir), p + 1, true);
            assembly += entry(0, "", bir, true);
        }
        out.emplace_back(subgraph + "/debug_info_backend_" + engine + ".dbg", backend);
        out.emplace_back(subgraph + "/debug_info_asm_" + engine + ".dbg", assembly);
    }
    return out;
}

} // namespace lanescope
