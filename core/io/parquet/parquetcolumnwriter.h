#pragma once
// One column of a Parquet file being written: buffers the values of the current row group and turns
// them into a column chunk (an optional dictionary page and data pages v1, PLAIN values or
// RLE_DICTIONARY indices for strings, RLE definition levels for a nullable column, each page
// compressed with the file's codec).
#include "parquetmetadata.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::parquet {

enum class ColumnType { Int64, Double, String };

struct ColumnSpec
{
    std::string name;
    ColumnType type = ColumnType::Int64;
    bool optional = true; // nullable
};

struct WriteOptions
{
    Codec codec = Codec::Zstd;
    size_t rowGroupRows = size_t(1) << 20;
    size_t rowGroupBytes = size_t(128) << 20; // buffered value bytes (all columns) that end a row group
    size_t pageBytes = size_t(1) << 20;       // uncompressed value bytes per data page (about)
    bool dictionary = true;                   // strings dictionary-encoded while the dictionary stays small
    size_t dictionaryBytes = size_t(1) << 20;
};

class ColumnWriter
{
public:
    explicit ColumnWriter(ColumnSpec spec) : m_spec(std::move(spec)) {}

    const ColumnSpec &spec() const { return m_spec; }
    // One value of the current row. A value of another type than the column's is an error
    // (typeMismatch() is set); null on a required column too.
    void addInt(int64_t v);
    void addReal(double v);
    void addText(std::string_view v);
    void addNull();

    size_t rows() const { return m_defined.size(); }
    size_t bufferedBytes() const { return m_ints.size() * 8 + m_reals.size() * 8 + m_text.size() + m_textEnds.size() * 4; }
    const std::string &misuse() const { return m_misuse; }

    // Appends the column chunk of the buffered rows to `out` (which starts at file offset `fileOffset`
    // + out->size() on entry) and fills `chunk`; the buffer is then empty.
    bool flush(const WriteOptions &o, uint64_t fileOffset, std::string *out, ColumnChunk *chunk, std::string *error);

private:
    bool writePage(const WriteOptions &o, PageHeader h, std::string_view body, uint64_t fileOffset, std::string *out,
                   ColumnChunk *chunk, std::string *error);
    bool buildDictionary(const WriteOptions &o, std::vector<uint32_t> *indices, std::string *dictPage, uint32_t *count) const;
    void plainValue(size_t valueIndex, std::string *out) const;

    ColumnSpec m_spec;
    std::vector<uint8_t> m_defined; // per row
    std::vector<int64_t> m_ints;
    std::vector<double> m_reals;
    std::string m_text;
    std::vector<uint32_t> m_textEnds; // end of each text value in m_text
    std::string m_misuse;
    std::string m_page, m_compressed; // reused buffers
};

} // namespace lanescope::parquet
