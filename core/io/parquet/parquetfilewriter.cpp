#include "parquetfilewriter.h"

#include "parquetencoding.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace lanescope::parquet {

bool FileWriter::fail(const std::string &what)
{
    if (m_error.empty())
        m_error = m_path + ": " + what;
    abandon();
    return false;
}

bool FileWriter::open(const std::string &path, std::vector<ColumnSpec> columns, const WriteOptions &options,
                      std::vector<KeyValue> keyValues, std::string *error)
{
    abandon();
    m_path = path;
    m_tmp = path + ".partial";
    m_options = options;
    m_error.clear();
    m_offset = m_rows = 0;
    m_groupRows = 0;
    m_columns.clear();
    m_meta = FileMetaData();
    m_meta.createdBy = "lanescope";
    m_meta.keyValues = std::move(keyValues);
    SchemaElement root;
    root.name = "schema";
    root.numChildren = int32_t(columns.size());
    m_meta.schema.push_back(root);
    for (ColumnSpec &c : columns) {
        SchemaElement s;
        s.name = c.name;
        s.hasRepetition = true;
        s.repetition = c.optional ? Repetition::Optional : Repetition::Required;
        s.type = c.type == ColumnType::Int64 ? PhysicalType::Int64
            : c.type == ColumnType::Double   ? PhysicalType::Double
                                             : PhysicalType::ByteArray;
        if (c.type == ColumnType::String) {
            s.convertedType = kConvertedUtf8;
            s.logicalString = true;
        }
        m_meta.schema.push_back(s);
        m_columns.emplace_back(std::move(c));
    }
    m_file = std::fopen(m_tmp.c_str(), "wb");
    if (!m_file) {
        m_error = path + ": cannot create: " + std::strerror(errno);
        if (error)
            *error = m_error;
        return false;
    }
    if (!write("PAR1")) {
        if (error)
            *error = m_error;
        return false;
    }
    return true;
}

bool FileWriter::write(const std::string &bytes)
{
    if (!m_file)
        return false;
    if (std::fwrite(bytes.data(), 1, bytes.size(), m_file) != bytes.size())
        return fail(std::string("cannot write: ") + std::strerror(errno));
    m_offset += bytes.size();
    return true;
}

bool FileWriter::endRow()
{
    if (!m_file)
        return false;
    ++m_rows;
    ++m_groupRows;
    if (m_groupRows >= m_options.rowGroupRows)
        return flushRowGroup();
    if ((m_groupRows & 1023) == 0) {
        size_t bytes = 0;
        for (const ColumnWriter &c : m_columns)
            bytes += c.bufferedBytes();
        if (bytes >= m_options.rowGroupBytes)
            return flushRowGroup();
    }
    return true;
}

bool FileWriter::flushRowGroup()
{
    if (m_groupRows == 0)
        return true;
    RowGroup g;
    g.numRows = int64_t(m_groupRows);
    for (ColumnWriter &c : m_columns) {
        if (c.rows() != m_groupRows)
            return fail("column " + c.spec().name + " has " + std::to_string(c.rows()) + " values in a row group of "
                        + std::to_string(m_groupRows) + " rows");
        m_chunk.clear();
        ColumnChunk chunk;
        std::string why;
        if (!c.flush(m_options, m_offset, &m_chunk, &chunk, &why))
            return fail(why);
        if (!write(m_chunk))
            return false;
        g.totalByteSize += chunk.meta.totalUncompressedSize;
        g.columns.push_back(std::move(chunk));
    }
    m_meta.rowGroups.push_back(std::move(g));
    m_groupRows = 0;
    return true;
}

bool FileWriter::close()
{
    if (!m_file)
        return false;
    if (!flushRowGroup())
        return false;
    m_meta.numRows = int64_t(m_rows);
    std::string footer = encodeFileMetaData(m_meta);
    appendLe32(&footer, uint32_t(footer.size()));
    footer += "PAR1";
    if (!write(footer))
        return false;
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (!closed)
        return fail(std::string("cannot write: ") + std::strerror(errno));
    std::error_code ec;
    std::filesystem::rename(m_tmp, m_path, ec);
    if (ec)
        return fail("cannot write: " + ec.message());
    return true;
}

void FileWriter::abandon()
{
    if (m_file) {
        std::fclose(m_file);
        m_file = nullptr;
        std::error_code ec;
        std::filesystem::remove(m_tmp, ec);
    }
}

} // namespace lanescope::parquet
