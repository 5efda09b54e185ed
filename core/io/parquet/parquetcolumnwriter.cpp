#include "parquetcolumnwriter.h"

#include "parquetcompression.h"
#include "parquetencoding.h"

#include <cstring>
#include <unordered_map>

namespace lanescope::parquet {

void ColumnWriter::addInt(int64_t v)
{
    if (m_spec.type == ColumnType::Double) {
        addReal(double(v));
        return;
    }
    if (m_spec.type != ColumnType::Int64) {
        if (m_misuse.empty())
            m_misuse = "integer value for text column " + m_spec.name;
        addNull();
        return;
    }
    m_defined.push_back(1);
    m_ints.push_back(v);
}

void ColumnWriter::addReal(double v)
{
    if (m_spec.type != ColumnType::Double) {
        if (m_misuse.empty())
            m_misuse = "real value for non-real column " + m_spec.name;
        addNull();
        return;
    }
    m_defined.push_back(1);
    m_reals.push_back(v);
}

void ColumnWriter::addText(std::string_view v)
{
    if (m_spec.type != ColumnType::String) {
        if (m_misuse.empty())
            m_misuse = "text value for non-text column " + m_spec.name;
        addNull();
        return;
    }
    m_defined.push_back(1);
    m_text.append(v);
    m_textEnds.push_back(uint32_t(m_text.size()));
}

void ColumnWriter::addNull()
{
    if (!m_spec.optional && m_misuse.empty())
        m_misuse = "null in required column " + m_spec.name;
    m_defined.push_back(0);
}

void ColumnWriter::plainValue(size_t i, std::string *out) const
{
    switch (m_spec.type) {
    case ColumnType::Int64: appendLe64(out, uint64_t(m_ints[i])); return;
    case ColumnType::Double: {
        uint64_t bits;
        std::memcpy(&bits, &m_reals[i], 8);
        appendLe64(out, bits);
        return;
    }
    case ColumnType::String: {
        const uint32_t begin = i ? m_textEnds[i - 1] : 0;
        appendLe32(out, m_textEnds[i] - begin);
        out->append(m_text, begin, m_textEnds[i] - begin);
        return;
    }
    }
}

bool ColumnWriter::buildDictionary(const WriteOptions &o, std::vector<uint32_t> *indices, std::string *dictPage,
                                   uint32_t *count) const
{
    std::unordered_map<std::string_view, uint32_t> ids;
    indices->reserve(m_textEnds.size());
    for (size_t i = 0; i < m_textEnds.size(); ++i) {
        const uint32_t begin = i ? m_textEnds[i - 1] : 0;
        const std::string_view v(m_text.data() + begin, m_textEnds[i] - begin);
        auto [it, fresh] = ids.try_emplace(v, uint32_t(ids.size()));
        if (fresh) {
            plainValue(i, dictPage);
            if (dictPage->size() > o.dictionaryBytes)
                return false;
        }
        indices->push_back(it->second);
    }
    *count = uint32_t(ids.size());
    return true;
}

bool ColumnWriter::writePage(const WriteOptions &o, PageHeader h, std::string_view body, uint64_t fileOffset,
                             std::string *out, ColumnChunk *chunk, std::string *error)
{
    m_compressed.clear();
    if (!compressPage(o.codec, body, &m_compressed, error)) {
        *error = "column " + m_spec.name + ": " + *error;
        return false;
    }
    h.uncompressedPageSize = int32_t(body.size());
    h.compressedPageSize = int32_t(m_compressed.size());
    const std::string header = encodePageHeader(h);
    const uint64_t at = fileOffset + out->size();
    if (h.type == PageType::DictionaryPage)
        chunk->meta.dictionaryPageOffset = int64_t(at);
    else if (chunk->meta.dataPageOffset == 0)
        chunk->meta.dataPageOffset = int64_t(at);
    out->append(header);
    out->append(m_compressed);
    chunk->meta.totalUncompressedSize += int64_t(header.size() + body.size());
    chunk->meta.totalCompressedSize += int64_t(header.size() + m_compressed.size());
    return true;
}

bool ColumnWriter::flush(const WriteOptions &o, uint64_t fileOffset, std::string *out, ColumnChunk *chunk,
                         std::string *error)
{
    if (!m_misuse.empty()) {
        *error = m_misuse;
        return false;
    }
    *chunk = ColumnChunk();
    chunk->hasMetaData = true;
    ColumnMetaData &m = chunk->meta;
    m.type = m_spec.type == ColumnType::Int64 ? PhysicalType::Int64
        : m_spec.type == ColumnType::Double   ? PhysicalType::Double
                                              : PhysicalType::ByteArray;
    m.path = {m_spec.name};
    m.codec = o.codec;
    m.numValues = int64_t(m_defined.size());
    const uint64_t chunkStart = fileOffset + out->size();

    // Dictionary for text, while it stays small.
    std::vector<uint32_t> indices;
    std::string dict;
    uint32_t dictCount = 0;
    bool useDict = m_spec.type == ColumnType::String && o.dictionary && !m_textEnds.empty()
        && buildDictionary(o, &indices, &dict, &dictCount);
    if (useDict) {
        PageHeader h;
        h.type = PageType::DictionaryPage;
        h.dictionaryPage = DictionaryPageHeader{int32_t(dictCount), Encoding::Plain};
        if (!writePage(o, h, dict, fileOffset, out, chunk, error))
            return false;
        m.encodings = {Encoding::Plain, Encoding::Rle, Encoding::RleDictionary};
    } else {
        m.encodings = {Encoding::Plain, Encoding::Rle};
    }
    const int indexWidth = useDict ? std::max(1, bitWidth(dictCount - 1)) : 0;

    // Data pages of about pageBytes of values each.
    std::vector<uint32_t> levels;
    size_t row = 0, value = 0;
    const size_t rows = m_defined.size();
    do {
        const size_t firstRow = row, firstValue = value;
        size_t bytes = 0;
        while (row < rows && bytes < o.pageBytes) {
            if (m_defined[row]) {
                bytes += m_spec.type == ColumnType::String
                    ? 4 + m_textEnds[value] - (value ? m_textEnds[value - 1] : 0)
                    : 8;
                ++value;
            }
            ++row;
            if (bytes == 0 && row - firstRow >= (o.pageBytes > 0 ? o.pageBytes : 1))
                break; // a page of nulls
        }
        m_page.clear();
        if (m_spec.optional) {
            levels.assign(m_defined.begin() + ptrdiff_t(firstRow), m_defined.begin() + ptrdiff_t(row));
            std::string rle;
            encodeRleHybrid(levels.data(), levels.size(), 1, &rle);
            appendLe32(&m_page, uint32_t(rle.size()));
            m_page += rle;
        }
        if (useDict) {
            m_page.push_back(char(indexWidth));
            encodeRleHybrid(indices.data() + firstValue, value - firstValue, indexWidth, &m_page);
        } else {
            for (size_t v = firstValue; v < value; ++v)
                plainValue(v, &m_page);
        }
        PageHeader h;
        h.type = PageType::DataPage;
        h.dataPage = DataPageHeader{int32_t(row - firstRow), useDict ? Encoding::RleDictionary : Encoding::Plain,
                                    Encoding::Rle, Encoding::Rle};
        if (!writePage(o, h, m_page, fileOffset, out, chunk, error))
            return false;
    } while (row < rows);
    chunk->fileOffset = int64_t(chunkStart);

    m_defined.clear();
    m_ints.clear();
    m_reals.clear();
    m_text.clear();
    m_textEnds.clear();
    return true;
}

} // namespace lanescope::parquet
