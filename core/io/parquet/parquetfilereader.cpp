#include "parquetfilereader.h"

#include "parquetchunkreader.h"
#include "parquetcompression.h"
#include "parquetencoding.h"

#include <cerrno>
#include <cstring>

namespace lanescope::parquet {

FileReader::~FileReader()
{
    if (m_file)
        std::fclose(m_file);
}

bool FileReader::open(const std::string &path, std::string *error)
{
    m_path = path;
    m_inMemory = false;
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file) {
        *error = path + ": cannot open: " + std::strerror(errno);
        return false;
    }
    if (std::fseek(m_file, 0, SEEK_END) != 0) {
        *error = path + ": cannot seek";
        return false;
    }
    m_size = uint64_t(ftello(m_file));
    return readFooter(error);
}

bool FileReader::openBytes(const std::string &name, std::string bytes, std::string *error)
{
    m_path = name;
    m_bytes = std::move(bytes);
    m_inMemory = true;
    m_size = m_bytes.size();
    return readFooter(error);
}

bool FileReader::readRange(uint64_t offset, uint64_t length, std::string *out) const
{
    if (offset > m_size || length > m_size - offset)
        return false;
    if (m_inMemory) {
        out->assign(m_bytes, size_t(offset), size_t(length));
        return true;
    }
    out->resize(size_t(length));
    return fseeko(m_file, off_t(offset), SEEK_SET) == 0 && std::fread(out->data(), 1, out->size(), m_file) == out->size();
}

bool FileReader::readFooter(std::string *error)
{
    std::string tail;
    if (m_size < 12 || !readRange(m_size - 8, 8, &tail)) {
        *error = m_path + ": not a Parquet file: " + std::to_string(m_size) + " bytes, fewer than the 12 of the smallest";
        return false;
    }
    std::string head;
    if (!readRange(0, 4, &head) || head != "PAR1") {
        *error = m_path + ": not a Parquet file: no \"PAR1\" at offset 0";
        return false;
    }
    if (tail.compare(4, 4, "PAR1") != 0) {
        *error = m_path + ": truncated or not a Parquet file: no \"PAR1\" at offset " + std::to_string(m_size - 4)
            + " (the end)";
        return false;
    }
    const uint32_t len = loadLe32(tail.data());
    if (uint64_t(len) > m_size - 12) {
        *error = m_path + ": truncated footer: its length " + std::to_string(len) + " at offset "
            + std::to_string(m_size - 8) + " exceeds the " + std::to_string(m_size - 12) + " bytes before it";
        return false;
    }
    const uint64_t at = m_size - 8 - len;
    std::string footer;
    if (!readRange(at, len, &footer)) {
        *error = m_path + ": cannot read the footer at offset " + std::to_string(at);
        return false;
    }
    ThriftReader r(footer, at);
    m_meta = FileMetaData();
    if (!decodeFileMetaData(r, &m_meta)) {
        *error = m_path + ": bad footer: " + r.error();
        return false;
    }
    if (m_meta.numRows < 0 || uint64_t(m_meta.numRows) > m_maxRows) {
        *error = m_path + ": footer claims " + std::to_string(m_meta.numRows) + " rows (limit "
            + std::to_string(m_maxRows) + ")";
        return false;
    }
    int64_t sum = 0;
    for (const RowGroup &g : m_meta.rowGroups) {
        if (g.numRows < 0 || g.numRows > m_meta.numRows - sum) {
            *error = m_path + ": row groups hold more rows than the footer's " + std::to_string(m_meta.numRows);
            return false;
        }
        sum += g.numRows;
    }
    if (sum != m_meta.numRows) {
        *error = m_path + ": the row groups hold " + std::to_string(sum) + " rows, the footer (at offset "
            + std::to_string(at) + ") says " + std::to_string(m_meta.numRows);
        return false;
    }
    return buildLeaves(error);
}

bool FileReader::buildLeaves(std::string *error)
{
    // The schema is the tree in depth-first order; element 0 is the root.
    m_leaves.clear();
    struct Frame { int remaining; std::string path; int definition; bool repeated; std::vector<size_t> chain; };
    std::vector<Frame> stack{{m_meta.schema[0].numChildren, "", 0, false, {}}};
    if (m_meta.schema[0].numChildren < 0) {
        *error = m_path + ": schema root with a negative child count";
        return false;
    }
    for (size_t i = 1; i < m_meta.schema.size(); ++i) {
        while (!stack.empty() && stack.back().remaining == 0)
            stack.pop_back();
        if (stack.empty()) {
            *error = m_path + ": schema has more elements than its root's children";
            return false;
        }
        if (stack.size() > 64) {
            *error = m_path + ": schema nested deeper than 64";
            return false;
        }
        Frame &parent = stack.back();
        --parent.remaining;
        const SchemaElement &s = m_meta.schema[i];
        const std::string path = parent.path.empty() ? s.name : parent.path + "." + s.name;
        const int definition = parent.definition + (s.repetition != Repetition::Required ? 1 : 0);
        const bool repeated = parent.repeated || s.repetition == Repetition::Repeated;
        std::vector<size_t> chain = parent.chain;
        chain.push_back(i);
        if (s.numChildren > 0) {
            stack.push_back({s.numChildren, path, definition, repeated, std::move(chain)});
            continue;
        }
        Leaf l;
        l.name = path;
        l.type = s.type;
        l.optional = definition > 0; // any repetition but REQUIRED (on the path) makes nulls possible
        l.flat = stack.size() == 1 && !repeated;
        l.maxDefinition = definition;
        if (!l.flat)
            classifyList(l, chain);
        m_leaves.push_back(std::move(l));
    }
    for (const RowGroup &g : m_meta.rowGroups)
        if (g.columns.size() != m_leaves.size()) {
            *error = m_path + ": a row group has " + std::to_string(g.columns.size()) + " column chunks for "
                + std::to_string(m_leaves.size()) + " schema columns";
            return false;
        }
    return true;
}

// One level of repetition in one of the LIST shapes (parquet-format's LogicalTypes.md, "Lists" and its
// backward-compatibility rules), `chain` the schema elements from the top-level one to the leaf:
//   <opt|req> group f (LIST) { repeated group list { <opt|req> element } }   3-level
//   <opt|req> group f (LIST) { repeated element }                           legacy 2-level
//   repeated element                                                         bare repeated field
// The leaf then stands for the whole column under the top-level name.
void FileReader::classifyList(Leaf &leaf, const std::vector<size_t> &chain) const
{
    auto el = [&](size_t k) -> const SchemaElement & { return m_meta.schema[chain[k]]; };
    const auto repeatedAt = [&](size_t k) { return el(k).repetition == Repetition::Repeated; };
    int listLevel = 0, elementLevel = 0;
    if (chain.size() == 1 && repeatedAt(0)) {
        listLevel = 0;
        elementLevel = 1;
    } else if (chain.size() == 2 && !repeatedAt(0) && el(0).numChildren == 1 && repeatedAt(1)) {
        listLevel = el(0).repetition == Repetition::Optional ? 1 : 0;
        elementLevel = listLevel + 1;
    } else if (chain.size() == 3 && !repeatedAt(0) && el(0).numChildren == 1 && repeatedAt(1) && el(1).numChildren == 1 &&
               !repeatedAt(2)) {
        listLevel = el(0).repetition == Repetition::Optional ? 1 : 0;
        elementLevel = listLevel + 1;
    } else {
        return; // another nesting: stays unsupported
    }
    leaf.list = true;
    leaf.name = el(0).name;
    leaf.maxRepetition = 1;
    leaf.listLevel = listLevel;
    leaf.elementLevel = elementLevel;
    leaf.optional = listLevel > 0;
}

int FileReader::columnIndex(std::string_view name) const
{
    for (size_t i = 0; i < m_leaves.size(); ++i)
        if (m_leaves[i].name == name)
            return int(i);
    return -1;
}

bool FileReader::readColumn(size_t column, ColumnData *out, std::string *error)
{
    const Leaf &leaf = m_leaves.at(column);
    *out = ColumnData();
    out->name = leaf.name;
    out->optional = leaf.optional;
    out->list = leaf.list;
    // "unsupported X in column C of FILE", or "FILE: column C: what"
    auto failWith = [&](const std::string &what) {
        *error = what.rfind("unsupported ", 0) == 0 ? what + " of " + m_path : m_path + ": " + what;
        return false;
    };
    if (!leaf.flat && !leaf.list)
        return failWith("unsupported nested column " + leaf.name + " (a struct, map or list of lists)");
    if (!leaf.type)
        return failWith("column " + leaf.name + " without a physical type");
    switch (*leaf.type) {
    case PhysicalType::Boolean:
    case PhysicalType::Int32:
    case PhysicalType::Int64:
    case PhysicalType::Float:
    case PhysicalType::Double:
    case PhysicalType::ByteArray: break;
    default: return failWith(std::string("unsupported type ") + physicalTypeName(*leaf.type) + " in column " + leaf.name);
    }
    out->type = *leaf.type;
    std::string chunkBytes;
    for (size_t gi = 0; gi < m_meta.rowGroups.size(); ++gi) {
        const RowGroup &g = m_meta.rowGroups[gi];
        const ColumnChunk &cc = g.columns[column];
        const ColumnMetaData &m = cc.meta;
        if (!cc.hasMetaData)
            return failWith("column " + leaf.name + ": row group " + std::to_string(gi) + " without column metadata");
        if (cc.externalFile)
            return failWith("unsupported column chunk in another file in column " + leaf.name);
        if (!codecSupported(m.codec))
            return failWith("unsupported codec " + codecName(m.codec) + " in column " + leaf.name);
        if (m.type != *leaf.type)
            return failWith("column " + leaf.name + ": chunk type " + physicalTypeName(m.type) + " differs from the schema's "
                            + physicalTypeName(*leaf.type));
        if (leaf.list && (m.numValues < g.numRows || uint64_t(m.numValues) > m_maxRows))
            return failWith("column " + leaf.name + ": row group " + std::to_string(gi) + " has "
                            + std::to_string(m.numValues) + " list entries for " + std::to_string(g.numRows)
                            + " rows (at least one per row, at most " + std::to_string(m_maxRows) + ")");
        if (!leaf.list && m.numValues != g.numRows)
            return failWith("column " + leaf.name + ": row group " + std::to_string(gi) + " has "
                            + std::to_string(m.numValues) + " values for " + std::to_string(g.numRows) + " rows");
        int64_t start = m.dataPageOffset;
        if (m.dictionaryPageOffset && *m.dictionaryPageOffset > 0 && *m.dictionaryPageOffset < start)
            start = *m.dictionaryPageOffset;
        if (start < 4 || m.totalCompressedSize < 0 || uint64_t(start) > m_size
            || uint64_t(m.totalCompressedSize) > m_size - uint64_t(start)) {
            return failWith("column " + leaf.name + ": chunk of " + std::to_string(m.totalCompressedSize)
                            + " bytes at offset " + std::to_string(start) + " lies outside the file's "
                            + std::to_string(m_size) + " bytes");
        }
        if (!readRange(uint64_t(start), uint64_t(m.totalCompressedSize), &chunkBytes))
            return failWith("column " + leaf.name + ": cannot read offset " + std::to_string(start));
        ChunkContext c;
        c.file = m_path;
        c.column = leaf.name;
        c.type = *leaf.type;
        c.maxDefinition = leaf.maxDefinition;
        c.list = leaf.list;
        c.listLevel = leaf.listLevel;
        c.elementLevel = leaf.elementLevel;
        c.maxEntries = uint64_t(m.numValues);
        c.codec = m.codec;
        c.rows = uint64_t(g.numRows);
        c.fileOffset = uint64_t(start);
        std::string why;
        if (!readColumnChunk(c, chunkBytes, out, &why))
            {
            *error = why;
            return false;
        }
    }
    return true;
}

} // namespace lanescope::parquet
