#pragma once
// Writes one flat Parquet file, row by row: "PAR1", the column chunks of each row group (see
// ColumnWriter), the thrift-compact FileMetaData, its length and "PAR1". The file is written as
// PATH.partial and renamed to PATH by close(), so a failed or abandoned write leaves no PATH behind.
#include "parquetcolumnwriter.h"

#include <cstdio>
#include <string>
#include <vector>

namespace lanescope::parquet {

class FileWriter
{
public:
    FileWriter() = default;
    FileWriter(const FileWriter &) = delete;
    FileWriter &operator=(const FileWriter &) = delete;
    ~FileWriter() { abandon(); }

    // `keyValues`: the footer's key_value_metadata (e.g. the schema version of the writer).
    bool open(const std::string &path, std::vector<ColumnSpec> columns, const WriteOptions &options,
              std::vector<KeyValue> keyValues, std::string *error);

    // A row: one add* per column, in order, then endRow().
    ColumnWriter &column(size_t i) { return m_columns[i]; }
    size_t columnCount() const { return m_columns.size(); }
    bool endRow();

    uint64_t rows() const { return m_rows; }
    uint64_t bytesWritten() const { return m_offset; }
    bool close();
    void abandon(); // removes the partial file
    const std::string &error() const { return m_error; }

private:
    bool flushRowGroup();
    bool write(const std::string &bytes);
    bool fail(const std::string &what);

    std::string m_path, m_tmp;
    std::FILE *m_file = nullptr;
    std::vector<ColumnWriter> m_columns;
    WriteOptions m_options;
    FileMetaData m_meta;
    uint64_t m_offset = 0;
    uint64_t m_rows = 0;
    size_t m_groupRows = 0;
    std::string m_chunk;
    std::string m_error;
};

} // namespace lanescope::parquet
