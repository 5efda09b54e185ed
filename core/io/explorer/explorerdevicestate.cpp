// The Neuron Explorer device reader's shared helpers (explorerdevicestate.h): columns by name, counted
// row problems, value text, and the state every table adds to (cores, opcode codes, names).
#include "explorerdevicestate.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace lanescope::explorer {

const parquet::ColumnData *TableColumns::get(std::string_view name, ValueKind kind)
{
    if (!m_table.find(name)) {
        if (std::find(m_missing.begin(), m_missing.end(), name) == m_missing.end())
            m_missing.emplace_back(name);
        return nullptr;
    }
    return m_table.column(name, kind, m_diag);
}

std::string TableColumns::where() const
{
    return m_table.files.empty() ? m_table.name + ".parquet" : std::filesystem::path(m_table.files.front()).filename().string();
}

void TableColumns::note(std::string_view consequence)
{
    if (m_missing.empty())
        return;
    std::string list;
    for (const std::string &m : m_missing)
        list += (list.empty() ? "" : ", ") + m;
    m_diag.note("Neuron Explorer table " + m_table.name + " without the column" + (m_missing.size() > 1 ? "s " : " ") + list +
                    " (" + std::string(consequence) + ")",
                where());
}

std::optional<std::string> valueText(const parquet::ColumnData &c, size_t row)
{
    if (row >= c.rows() || c.isNull(row))
        return std::nullopt;
    char buf[64];
    switch (c.type) {
    case parquet::PhysicalType::Boolean: return std::string(c.ints[row] ? "true" : "false");
    case parquet::PhysicalType::Int32:
    case parquet::PhysicalType::Int64: return std::to_string(c.ints[row]);
    case parquet::PhysicalType::Float: {
        const auto r = std::to_chars(buf, buf + sizeof buf, float(c.reals[row]));
        return std::string(buf, r.ptr);
    }
    case parquet::PhysicalType::Double: {
        const auto r = std::to_chars(buf, buf + sizeof buf, c.reals[row]);
        return std::string(buf, r.ptr);
    }
    case parquet::PhysicalType::ByteArray: return std::string(c.textAt(row));
    default: return std::nullopt;
    }
}

size_t RowProblems::index(std::string message)
{
    for (size_t i = 0; i < m_counts.size(); ++i)
        if (m_counts[i].first == message)
            return i;
    m_counts.emplace_back(std::move(message), 0);
    return m_counts.size() - 1;
}

void RowProblems::report(Diagnostics &diag, const std::string &where) const
{
    for (const auto &[message, count] : m_counts)
        diag.warn(message, where, count);
}

uint8_t DeviceState::core(std::optional<int64_t> pcore, RowProblems &problems)
{
    if (!pcore) {
        if (physicalCores.value_or(1) > 1)
            problems.add("rows without a pcore_idx in a profile of " + std::to_string(*physicalCores) +
                         " physical cores (expected 0.." + std::to_string(*physicalCores - 1) + "; the first core assumed)");
        return 0;
    }
    if (*pcore < 0 || *pcore >= int64_t(kNtffMaxCores)) {
        problems.add("rows with a pcore_idx outside 0.." + std::to_string(kNtffMaxCores - 1) + " (the first core assumed)");
        return 0;
    }
    coreCount = std::max<uint8_t>(coreCount, uint8_t(*pcore + 1));
    return uint8_t(*pcore);
}

void DeviceState::noteEngine(uint8_t c, int64_t engine)
{
    if (engine < 16 || engine > 255 || c >= kNtffMaxCores)
        return;
    const uint32_t number = uint32_t(engine / 16);
    if (!coreNumber[c])
        coreNumber[c] = number;
    else if (*coreNumber[c] != number)
        coreNumberConflict[c] = true;
}

uint32_t DeviceState::opcodeCode(std::string_view name)
{
    const npjson::OpcodeTable &builtin = npjson::builtinOpcodes();
    if (const auto it = builtin.find(name); it != builtin.end())
        return it->second;
    if (const auto it = m_extraOpcodes.find(name); it != m_extraOpcodes.end())
        return it->second;
    if (profile.extraOpcodeNames.size() >= 65535)
        return 0;
    profile.extraOpcodeNames.emplace_back(name);
    const uint32_t code = 256 + uint32_t(profile.extraOpcodeNames.size() - 1);
    m_extraOpcodes.emplace(std::string(name), code);
    return code;
}

uint32_t DeviceState::nameIndex(std::string_view name)
{
    return name == "unknown" ? 0 : textIndex(name);
}

uint32_t DeviceState::textIndex(std::string_view name)
{
    if (name.empty())
        return 0;
    if (const auto it = m_names.find(name); it != m_names.end())
        return it->second;
    profile.names.emplace_back(name);
    const uint32_t index = uint32_t(profile.names.size());
    m_names.emplace(std::string(name), index);
    return index;
}

uint32_t DeviceState::eventLane(std::string_view name, std::string_view category, uint8_t c, int64_t sortIndex)
{
    for (size_t i = 0; i < profile.eventLanes.size(); ++i)
        if (profile.eventLanes[i].name == name && profile.eventLanes[i].core == c)
            return uint32_t(i);
    profile.eventLanes.push_back(NtffEventLane{std::string(name), std::string(category), c, sortIndex});
    return uint32_t(profile.eventLanes.size() - 1);
}

void DeviceState::argInt(std::string_view key, std::optional<int64_t> v)
{
    if (!v)
        return;
    NtffEventArg a;
    a.key = textIndex(key);
    a.integer = *v;
    profile.eventArgs.push_back(a);
}

void DeviceState::argReal(std::string_view key, std::optional<double> v)
{
    if (!v)
        return;
    NtffEventArg a;
    a.key = textIndex(key);
    a.kind = NtffEventArg::Kind::Real;
    a.real = *v;
    profile.eventArgs.push_back(a);
}

void DeviceState::argText(std::string_view key, std::optional<std::string_view> v)
{
    if (!v || v->empty())
        return;
    NtffEventArg a;
    a.key = textIndex(key);
    a.kind = NtffEventArg::Kind::Text;
    a.text = textIndex(*v);
    profile.eventArgs.push_back(a);
}

void DeviceState::addEvent(uint32_t lane, int64_t ts, int64_t duration, std::string_view name)
{
    NtffLaneEvent e;
    e.timestamp = ts;
    e.duration = duration;
    e.lane = lane;
    e.name = textIndex(name);
    e.firstArg = m_firstArg;
    e.argCount = uint32_t(profile.eventArgs.size() - m_firstArg);
    profile.laneEvents.push_back(e);
    m_firstArg = uint32_t(profile.eventArgs.size());
}

DeviceTable::DeviceTable(DeviceState &s, std::string_view name) : LoadedTableHolder{}, TableColumns(table, s.profile.diagnostics)
{
    m_ok = s.dir.read(name, &table, s.profile.diagnostics);
}

void DeviceState::noteSemaphoreName(uint8_t c, uint8_t id, std::string_view name, const std::string &where)
{
    const auto [it, inserted] = profile.semaphoreNames.emplace(uint32_t(c) * 256u + id, std::string(name));
    if (!inserted && it->second != name)
        profile.diagnostics.warn("semaphores shown under two names (the first kept)", where);
}

void DeviceState::keepRows(LoadedTable &table, const std::string &prefix, bool indexed)
{
    for (size_t row = 0; row < table.rows; ++row) {
        if (!indexed && row > 0)
            break;
        const std::string p = prefix + (indexed ? "[" + std::to_string(row) + "]." : std::string("."));
        for (const parquet::ColumnData &c : table.columns)
            if (auto v = valueText(c, row))
                profile.reportedMetadata.emplace_back(p + c.name, std::move(*v));
    }
}

} // namespace lanescope::explorer
