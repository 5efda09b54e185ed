#pragma once
// Reads a Parquet file strictly: its thrift-compact footer, then flat columns chunk by chunk and page
// by page (dictionary pages, data pages v1 and v2; PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY, RLE
// (booleans), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT
// values; RLE definition levels; UNCOMPRESSED, SNAPPY, GZIP and ZSTD pages) of the physical types
// BOOLEAN, INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY, nullable or not; and LIST columns of those
// types (one level of repetition: the standard 3-level LIST `<opt|req> group f (LIST) { repeated group
// list { <opt|req> element } }`, the legacy 2-level `group f (LIST) { repeated element }` and a bare
// top-level `repeated element`), with repetition and definition levels (RLE / bit-packed hybrid), nulls
// at the list and at the element level and empty lists. Anything else (structs, maps, lists of lists,
// other encodings, codecs or types) is a clear "unsupported ... column C of FILE" error for that column
// only; malformed input is an error naming the file, the column and the offset.
#include "parquetmetadata.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::parquet {

// One column's values, one entry per row; a null row holds 0 / 0.0 / "" and valid[row] == 0.
// A LIST column (`list`): valid[row] says whether the row's list is non-null (rows() counts rows); the
// row's elements are [listBegin(row), listEnd(row)) of the element arrays: elementValid (a null
// element holds 0 / 0.0 / "" there), ints / reals / text + textEnds indexed by element (textAt(e) takes
// an element index). A null list and an empty list both have no elements.
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
    bool list = false;
    std::vector<uint64_t> listEnds;    // LIST: per row, the end of its elements
    std::vector<uint8_t> elementValid; // LIST: per element

    size_t rows() const { return valid.size(); }
    size_t elements() const { return elementValid.size(); }
    size_t listBegin(size_t row) const { return row ? size_t(listEnds[row - 1]) : 0; }
    size_t listEnd(size_t row) const { return size_t(listEnds[row]); }
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
        std::string name; // dotted path for nested columns; a LIST column's top-level name
        std::optional<PhysicalType> type;
        bool optional = false;
        bool flat = true; // a top-level, non-repeated column
        int maxDefinition = 0;
        // A LIST column of one of the shapes above: definition level >= listLevel means the list is
        // non-null, >= elementLevel that an element is there (maxDefinition: a non-null element).
        bool list = false;
        int maxRepetition = 0, listLevel = 0, elementLevel = 0;
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
    void classifyList(Leaf &leaf, const std::vector<size_t> &chain) const;

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
