#include "explorerdirectory.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace lanescope::explorer {

namespace {

// Tables named in the 7.4.0 schema reference (explorer-parquet.md section 2); a directory holding one
// of them (plain or split) is taken for a processed profile.
constexpr std::array<std::string_view, 24> kKnownTables = {
    "Metadata",      "SchemaFields",        "Instruction",     "DmaPacket",        "DmaPacketAggregated",
    "SemaphoreUpdate", "CcOp",              "CcInstruction",   "ActiveTime",       "Summary",
    "ExecutionInfo", "TensorInfo",          "Flow",            "FrameworkInstruction", "HloInstruction",
    "Throttle",      "DmaQueuesInfo",       "SystemProfileEvents", "CpuUsage",      "HostMemUsage",
    "SystemProfileHbmUsage", "SystemProfileMetadata", "DeviceProfileList", "OpcodeSummary",
};

// "Instruction_12.parquet" -> ("Instruction", 12); "Instruction.parquet" -> ("Instruction", -1).
std::optional<std::pair<std::string, int64_t>> tableOfFile(std::string_view file)
{
    constexpr std::string_view ext = ".parquet";
    if (file.size() <= ext.size() || file.substr(file.size() - ext.size()) != ext)
        return std::nullopt;
    std::string_view stem = file.substr(0, file.size() - ext.size());
    const size_t us = stem.rfind('_');
    if (us != std::string_view::npos && us + 1 < stem.size() && us > 0 && stem.size() - us - 1 <= 9) {
        const std::string_view digits = stem.substr(us + 1);
        if (std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            int64_t n = 0;
            for (char c : digits)
                n = n * 10 + (c - '0');
            return std::make_pair(std::string(stem.substr(0, us)), n);
        }
    }
    return std::make_pair(std::string(stem), int64_t(-1));
}

bool kindAccepts(ValueKind kind, parquet::PhysicalType t)
{
    using P = parquet::PhysicalType;
    switch (kind) {
    case ValueKind::Integer: return t == P::Int32 || t == P::Int64;
    case ValueKind::Real: return t == P::Float || t == P::Double || t == P::Int32 || t == P::Int64;
    case ValueKind::Text: return t == P::ByteArray;
    case ValueKind::Boolean: return t == P::Boolean;
    }
    return false;
}

// Appends `rows` null values to `c`.
void appendNulls(parquet::ColumnData &c, uint64_t rows)
{
    c.valid.resize(c.valid.size() + rows, 0);
    if (c.list) { // null lists: no elements
        c.listEnds.resize(c.listEnds.size() + rows, c.elementValid.size());
        c.optional = true;
        return;
    }
    switch (c.type) {
    case parquet::PhysicalType::Float:
    case parquet::PhysicalType::Double: c.reals.resize(c.reals.size() + rows, 0.0); break;
    case parquet::PhysicalType::ByteArray: c.textEnds.resize(c.textEnds.size() + rows, c.text.size()); break;
    default: c.ints.resize(c.ints.size() + rows, 0); break;
    }
    c.optional = true;
}

void appendColumn(parquet::ColumnData &to, parquet::ColumnData &&from)
{
    const uint64_t elementBase = to.elementValid.size();
    for (uint64_t e : from.listEnds)
        to.listEnds.push_back(elementBase + e);
    to.elementValid.insert(to.elementValid.end(), from.elementValid.begin(), from.elementValid.end());
    to.valid.insert(to.valid.end(), from.valid.begin(), from.valid.end());
    to.ints.insert(to.ints.end(), from.ints.begin(), from.ints.end());
    to.reals.insert(to.reals.end(), from.reals.begin(), from.reals.end());
    const uint64_t base = to.text.size();
    to.text += from.text;
    to.textEnds.reserve(to.textEnds.size() + from.textEnds.size());
    for (uint64_t e : from.textEnds)
        to.textEnds.push_back(base + e);
    to.optional = to.optional || from.optional;
}

std::string fileName(const std::string &path)
{
    return fs::path(path).filename().string();
}

} // namespace

const char *valueKindName(ValueKind kind)
{
    switch (kind) {
    case ValueKind::Integer: return "an integer (INT32 or INT64)";
    case ValueKind::Real: return "a number (FLOAT or DOUBLE)";
    case ValueKind::Text: return "a string (BYTE_ARRAY)";
    case ValueKind::Boolean: return "a boolean (BOOLEAN)";
    }
    return "?";
}

const parquet::ColumnData *LoadedTable::find(std::string_view columnName) const
{
    for (const parquet::ColumnData &c : columns)
        if (c.name == columnName)
            return &c;
    return nullptr;
}

const parquet::ColumnData *LoadedTable::column(std::string_view columnName, ValueKind kind, Diagnostics &diag)
{
    for (size_t i = 0; i < columns.size(); ++i) {
        parquet::ColumnData &c = columns[i];
        if (c.name != columnName)
            continue;
        if (!kindAccepts(kind, c.type)) {
            diag.warn("column " + c.name + " of " + fileName(columnFile[i]) + " is " + parquet::physicalTypeName(c.type) +
                          "; expected " + valueKindName(kind) + " (column ignored)",
                      "byte " + std::to_string(columnOffset[i]));
            return nullptr;
        }
        if (kind == ValueKind::Real && (c.type == parquet::PhysicalType::Int32 || c.type == parquet::PhysicalType::Int64)) {
            c.reals.assign(c.ints.begin(), c.ints.end());
            c.ints.clear();
            c.type = parquet::PhysicalType::Double;
        }
        return &c;
    }
    return nullptr;
}

std::vector<std::string> LoadedTable::missing(const std::vector<std::string_view> &expected) const
{
    std::vector<std::string> out;
    for (std::string_view e : expected)
        if (!find(e))
            out.emplace_back(e);
    return out;
}

bool ProfileDirectory::open(const std::string &dir, std::string *error)
{
    m_dir = dir;
    m_tables.clear();
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
        *error = dir + ": cannot list the directory: " + ec.message();
        return false;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) {
            *error = dir + ": cannot list the directory: " + ec.message();
            return false;
        }
        std::error_code fec;
        if (!it->is_regular_file(fec))
            continue;
        const std::string name = it->path().filename().string();
        if (auto t = tableOfFile(name))
            m_tables[t->first].push_back(Split{t->second, it->path().string()});
    }
    for (auto &[name, splits] : m_tables)
        std::sort(splits.begin(), splits.end(), [](const Split &a, const Split &b) { return a.index < b.index; });
    return true;
}

bool ProfileDirectory::looksLikeProfile(const std::string &dir)
{
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec)
        return false;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec)
            return false;
        if (auto t = tableOfFile(it->path().filename().string()))
            if (std::find(kKnownTables.begin(), kKnownTables.end(), t->first) != kKnownTables.end())
                return true;
    }
    return false;
}

std::vector<std::string> ProfileDirectory::tableNames() const
{
    std::vector<std::string> out;
    for (const auto &[name, splits] : m_tables)
        out.push_back(name);
    return out;
}

bool ProfileDirectory::has(std::string_view table) const
{
    return m_tables.find(table) != m_tables.end();
}

std::vector<std::string> ProfileDirectory::files(std::string_view table) const
{
    std::vector<std::string> out;
    if (auto it = m_tables.find(table); it != m_tables.end())
        for (const Split &s : it->second)
            out.push_back(s.file);
    return out;
}

bool ProfileDirectory::read(std::string_view table, LoadedTable *out, Diagnostics &diag, uint64_t maxRows) const
{
    *out = LoadedTable();
    out->name = std::string(table);
    const auto it = m_tables.find(table);
    if (it == m_tables.end())
        return false;
    const std::vector<Split> &splits = it->second;
    // Numbering: a plain file beside numbered ones, gaps in the numbers.
    const bool plain = splits.front().index < 0;
    int64_t expect = 0;
    for (const Split &s : splits) {
        if (s.index < 0)
            continue;
        if (s.index != expect)
            diag.warn(std::string(table) + "_" + std::to_string(expect) + ".parquet is missing: the numbered splits of " +
                          std::string(table) + " skip from " + std::to_string(expect) + " to " + std::to_string(s.index) +
                          " (its rows are absent)",
                      m_dir);
        expect = s.index + 1;
    }
    if (plain && splits.size() > 1)
        diag.note(std::string(table) + ".parquet and numbered splits " + std::string(table) +
                      "_N.parquet side by side: both read, the plain file first",
                  m_dir);

    for (const Split &s : splits) {
        parquet::FileReader r;
        r.setMaxRows(maxRows);
        std::string why;
        if (!r.open(s.file, &why)) {
            diag.warn("a table file that cannot be read (skipped): " + why, fileName(s.file));
            continue;
        }
        const uint64_t before = out->rows;
        std::vector<uint8_t> filled(out->columns.size(), 0);
        for (size_t ci = 0; ci < r.columns().size(); ++ci) {
            parquet::ColumnData c;
            if (!r.readColumn(ci, &c, &why)) {
                diag.warn("a column that cannot be read (left out): " + why, fileName(s.file));
                continue;
            }
            int64_t offset = 0;
            if (!r.metadata().rowGroups.empty() && ci < r.metadata().rowGroups.front().columns.size())
                offset = r.metadata().rowGroups.front().columns[ci].meta.dataPageOffset;
            const auto known = std::find_if(out->columns.begin(), out->columns.end(),
                                            [&](const parquet::ColumnData &k) { return k.name == c.name; });
            if (known == out->columns.end()) {
                if (before > 0) { // a column the earlier splits lacked: null there
                    parquet::ColumnData head;
                    head.name = c.name;
                    head.type = c.type;
                    head.list = c.list;
                    appendNulls(head, before);
                    appendColumn(head, std::move(c));
                    c = std::move(head);
                }
                out->columns.push_back(std::move(c));
                out->columnFile.push_back(s.file);
                out->columnOffset.push_back(offset);
                filled.push_back(1);
                continue;
            }
            const size_t k = size_t(known - out->columns.begin());
            if (known->type != c.type || known->list != c.list) {
                diag.warn("column " + c.name + " is " + (c.list ? "a LIST of " : "") + parquet::physicalTypeName(c.type) +
                              " here but " + (known->list ? "a LIST of " : "") + parquet::physicalTypeName(known->type) +
                              " in " + fileName(out->columnFile[k]) +
                              " (this split's values are null)",
                          fileName(s.file) + " byte " + std::to_string(offset));
                continue;
            }
            appendColumn(*known, std::move(c));
            filled[k] = 1;
        }
        out->rows += r.rows();
        out->files.push_back(s.file);
        for (size_t k = 0; k < out->columns.size(); ++k)
            if (!filled[k]) {
                if (before > 0 || out->files.size() > 1)
                    diag.warn("column " + out->columns[k].name + " is absent from this split (its rows are null)",
                              fileName(s.file));
                appendNulls(out->columns[k], out->rows - out->columns[k].rows());
            }
    }
    return !out->files.empty();
}

} // namespace lanescope::explorer
