#pragma once
// Reads a Parquet file strictly: its thrift-compact footer, then flat columns chunk by chunk and page
// by page (dictionary pages, data pages v1 and v2; PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY, RLE
// (booleans), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT
// values; RLE definition levels; UNCOMPRESSED, SNAPPY, GZIP and ZSTD pages) of the physical types
// BOOLEAN, INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY, nullable or not. Anything else (nested
// columns, other encodings, codecs or types) is a clear "unsupported ... in column C of FILE" error
// for that column only; malformed input is an error naming the file, the column and the offset.
#include "parquetmetadata.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::parquet {

// One column's values, one entry per row; a null row holds 0 / 0.0 / "" and valid[row] == 0.
struct ColumnData
{
    std::string name;
    PhysicalType type = PhysicalType::Int64;
    bool optional = false;
    std::vector<uint8_t> valid;
    std::vector<int64_t> ints;       // BOOLEAN (0/1), INT32, INT64
    std::vector<double> reals;       // FLOAT, DOUBLE
    std::string text;                // BYTE_ARRAY: the values back to back
    std::vector<uint64_t> textEnds;  // end of row i's value in `text`

    size_t rows() const { return valid.size(); }
    bool isNull(size_t row) const { return !valid[row]; }
    std::string_view textAt(size_t row) const
    {
        const uint64_t begin = row ? textEnds[row - 1] : 0;
        return std::string_view(text).substr(begin, textEnds[row] - begin);
    }
};

class FileReader
{
public:
    // A leaf column of the schema.
    struct Leaf
    {
        std::string name; // dotted path for nested columns
        std::optional<PhysicalType> type;
        bool optional = false;
        bool flat = true; // a top-level, non-repeated column
        int maxDefinition = 0;
    };

    FileReader() = default;
    FileReader(const FileReader &) = delete;
    FileReader &operator=(const FileReader &) = delete;
    ~FileReader();

    bool open(const std::string &path, std::string *error);
    // The same from bytes in memory; `name` stands for the file in messages.
    bool openBytes(const std::string &name, std::string bytes, std::string *error);

    // Values a file may hold in all (its rows times its columns are bounded by the caller's memory):
    // a footer or page claiming more is an error, not an allocation.
    void setMaxRows(uint64_t rows) { m_maxRows = rows; }

    const FileMetaData &metadata() const { return m_meta; }
    const std::vector<Leaf> &columns() const { return m_leaves; }
    int columnIndex(std::string_view name) const; // -1 when absent
    uint64_t rows() const { return uint64_t(m_meta.numRows); }
    const std::string &path() const { return m_path; }

    // Every row group's values of leaf column `column`.
    bool readColumn(size_t column, ColumnData *out, std::string *error);

private:
    bool readFooter(std::string *error);
    bool readRange(uint64_t offset, uint64_t length, std::string *out) const;
    bool buildLeaves(std::string *error);

    std::string m_path;
    std::FILE *m_file = nullptr;
    std::string m_bytes; // openBytes
    bool m_inMemory = false;
    uint64_t m_size = 0;
    uint64_t m_maxRows = uint64_t(1) << 31;
    FileMetaData m_meta;
    std::vector<Leaf> m_leaves;
};

} // namespace lanescope::parquet
