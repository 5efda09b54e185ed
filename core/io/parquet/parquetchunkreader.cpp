#include "parquetchunkreader.h"

#include "parquetcompression.h"
#include "parquetdeltadecoding.h"
#include "parquetencoding.h"

#include <cstring>

namespace lanescope::parquet {

namespace {

// Decoded values of one page or of the dictionary, in the column's storage type.
struct Values
{
    std::vector<int64_t> ints;
    std::vector<double> reals;
    std::vector<std::string_view> texts; // into the page (or dictionary) buffer
    size_t size(PhysicalType t) const
    {
        return t == PhysicalType::ByteArray ? texts.size()
            : (t == PhysicalType::Float || t == PhysicalType::Double) ? reals.size()
                                                                      : ints.size();
    }
};

class Decoder
{
public:
    Decoder(const ChunkContext &c, ColumnData *out, std::string *error) : m_c(c), m_out(out), m_error(error) {}

    bool run(std::string_view bytes)
    {
        size_t pos = 0;
        uint64_t done = 0;
        // A LIST column reads on while pages follow: a v1 page may continue the last row of the one before.
        while (done < m_c.rows || (m_c.list && pos < bytes.size())) {
            if (pos >= bytes.size())
                return fail(m_c.fileOffset + pos, "column chunk ends after " + std::to_string(done) + " of "
                                                      + std::to_string(m_c.rows) + " values");
            ThriftReader r(bytes.substr(pos), m_c.fileOffset + pos);
            PageHeader h;
            if (!decodePageHeader(r, &h)) {
                if (done == m_c.rows)
                    break; // bytes after the last page of a LIST column (nothing a writer documents)
                return fail(m_c.fileOffset + pos, "bad page header: " + r.error());
            }
            const uint64_t headerAt = m_c.fileOffset + pos;
            pos += r.position();
            if (uint64_t(h.compressedPageSize) > bytes.size() - pos)
                return fail(headerAt, "page of " + std::to_string(h.compressedPageSize)
                                          + " bytes runs past the end of the column chunk");
            const std::string_view body = bytes.substr(pos, size_t(h.compressedPageSize));
            m_pageAt = m_c.fileOffset + pos;
            pos += size_t(h.compressedPageSize);
            switch (h.type) {
            case PageType::DictionaryPage:
                if (!h.dictionaryPage)
                    return fail(headerAt, "dictionary page without its header");
                if (!dictionary(h, body))
                    return false;
                break;
            case PageType::DataPage:
            case PageType::DataPageV2: {
                uint64_t n = 0;
                if (!dataPage(h, body, m_c.rows - done, &n))
                    return false;
                done += n;
                if (done > m_c.rows)
                    return fail(headerAt, "the column chunk holds more than the row group's " + std::to_string(m_c.rows) + " rows");
                break;
            }
            case PageType::IndexPage: break; // not used by readers
            default: return fail(headerAt, "unknown page type " + std::to_string(int(h.type)));
            }
        }
        return true;
    }

private:
    bool fail(uint64_t offset, const std::string &what)
    {
        *m_error = m_c.file + ": column " + m_c.column + ": " + what + " (offset " + std::to_string(offset) + ")";
        return false;
    }
    bool unsupported(const std::string &what)
    {
        *m_error = "unsupported " + what + " in column " + m_c.column + " of " + m_c.file + " (offset " + std::to_string(m_pageAt) + ")";
        return false;
    }

    bool decompress(std::string_view body, int32_t size, std::string *buffer, std::string_view *out)
    {
        if (size < 0)
            return fail(m_pageAt, "negative uncompressed page size");
        if (m_c.codec == Codec::Uncompressed) {
            if (body.size() != size_t(size))
                return fail(m_pageAt, "uncompressed page of " + std::to_string(body.size()) + " bytes, header says "
                                          + std::to_string(size));
            *out = body;
            return true;
        }
        std::string why;
        if (!decompressPage(m_c.codec, body, size_t(size), buffer, &why))
            return fail(m_pageAt, why);
        *out = *buffer;
        return true;
    }

    // `count` PLAIN values from `in` (the rest of `in` may be unused). `used`: bytes taken.
    bool plain(std::string_view in, size_t count, Values *v, size_t *used = nullptr)
    {
        size_t pos = 0;
        auto need = [&](uint64_t bytes) {
            if (bytes > in.size() - pos)
                return fail(m_pageAt, "PLAIN values end early (" + std::to_string(count) + " values expected)");
            return true;
        };
        switch (m_c.type) {
        case PhysicalType::Boolean:
            if (!need((uint64_t(count) + 7) / 8))
                return false;
            for (size_t i = 0; i < count; ++i)
                v->ints.push_back((uint8_t(in[i / 8]) >> (i % 8)) & 1);
            pos = (count + 7) / 8;
            break;
        case PhysicalType::Int32:
            if (!need(uint64_t(count) * 4))
                return false;
            for (size_t i = 0; i < count; ++i)
                v->ints.push_back(int32_t(loadLe32(in.data() + 4 * i)));
            pos = count * 4;
            break;
        case PhysicalType::Int64:
            if (!need(uint64_t(count) * 8))
                return false;
            for (size_t i = 0; i < count; ++i)
                v->ints.push_back(int64_t(loadLe64(in.data() + 8 * i)));
            pos = count * 8;
            break;
        case PhysicalType::Float:
            if (!need(uint64_t(count) * 4))
                return false;
            for (size_t i = 0; i < count; ++i) {
                const uint32_t bits = loadLe32(in.data() + 4 * i);
                float f;
                std::memcpy(&f, &bits, 4);
                v->reals.push_back(double(f));
            }
            pos = count * 4;
            break;
        case PhysicalType::Double:
            if (!need(uint64_t(count) * 8))
                return false;
            for (size_t i = 0; i < count; ++i) {
                const uint64_t bits = loadLe64(in.data() + 8 * i);
                double d;
                std::memcpy(&d, &bits, 8);
                v->reals.push_back(d);
            }
            pos = count * 8;
            break;
        case PhysicalType::ByteArray:
            for (size_t i = 0; i < count; ++i) {
                if (!need(4))
                    return false;
                const uint32_t n = loadLe32(in.data() + pos);
                pos += 4;
                if (!need(n))
                    return false;
                v->texts.push_back(in.substr(pos, n));
                pos += n;
            }
            break;
        default: return unsupported(std::string("type ") + physicalTypeName(m_c.type));
        }
        if (used)
            *used = pos;
        return true;
    }

    bool dictionary(const PageHeader &h, std::string_view body)
    {
        if (h.dictionaryPage->encoding != Encoding::Plain && h.dictionaryPage->encoding != Encoding::PlainDictionary)
            return unsupported("dictionary encoding " + encodingName(h.dictionaryPage->encoding));
        if (h.dictionaryPage->numValues < 0)
            return fail(m_pageAt, "negative dictionary size");
        std::string_view data;
        if (!decompress(body, h.uncompressedPageSize, &m_dictBuffer, &data))
            return false;
        m_dict = Values();
        // Every dictionary value takes at least one bit (a boolean), so a count beyond 8 per byte is a lie.
        if (uint64_t(h.dictionaryPage->numValues) > uint64_t(data.size()) * 8 + 8)
            return fail(m_pageAt, "dictionary claims " + std::to_string(h.dictionaryPage->numValues)
                                      + " values in " + std::to_string(data.size()) + " bytes");
        if (!plain(data, size_t(h.dictionaryPage->numValues), &m_dict))
            return false;
        m_hasDict = true;
        return true;
    }

    bool dataPage(const PageHeader &h, std::string_view body, uint64_t remaining, uint64_t *rowsRead)
    {
        const bool v2 = h.type == PageType::DataPageV2;
        if ((v2 && !h.dataPageV2) || (!v2 && !h.dataPage))
            return fail(m_pageAt, "data page without its header");
        const int32_t numValues = v2 ? h.dataPageV2->numValues : h.dataPage->numValues;
        const Encoding encoding = v2 ? h.dataPageV2->encoding : h.dataPage->encoding;
        if (!m_c.list && (numValues < 0 || uint64_t(numValues) > remaining))
            return fail(m_pageAt, "data page of " + std::to_string(numValues) + " values where "
                                      + std::to_string(remaining) + " remain in the row group");
        if (m_c.list && (numValues < 0 || uint64_t(numValues) > m_c.maxEntries - m_entries))
            return fail(m_pageAt, "data page of " + std::to_string(numValues) + " list entries where the column chunk's "
                                      "metadata leaves " + std::to_string(m_c.maxEntries - m_entries));
        const size_t n = size_t(numValues);
        m_entries += n;
        const int defWidth = bitWidth(uint64_t(m_c.maxDefinition));
        const int repWidth = m_c.list ? 1 : 0;

        // Levels and the values' bytes.
        std::string_view data, values;
        std::vector<uint32_t> &levels = m_levels;
        std::vector<uint32_t> &reps = m_reps;
        levels.clear();
        reps.clear();
        std::string why;
        if (v2) {
            const DataPageHeaderV2 &p = *h.dataPageV2;
            if (p.repetitionLevelsByteLength != 0 && !m_c.list)
                return unsupported("repeated (nested) values");
            if (p.repetitionLevelsByteLength < 0 || p.definitionLevelsByteLength < 0
                || uint64_t(p.repetitionLevelsByteLength) + uint64_t(p.definitionLevelsByteLength) > body.size())
                return fail(m_pageAt, "levels of " + std::to_string(p.repetitionLevelsByteLength) + " + "
                                          + std::to_string(p.definitionLevelsByteLength) + " bytes in a page of "
                                          + std::to_string(body.size()));
            const std::string_view repBytes = body.substr(0, size_t(p.repetitionLevelsByteLength));
            const std::string_view levelBytes = body.substr(repBytes.size(), size_t(p.definitionLevelsByteLength));
            if (repWidth && !decodeRleHybrid(repBytes, repWidth, n, &reps, &why))
                return fail(m_pageAt, "repetition levels: " + why);
            if (m_c.maxDefinition > 0 && !decodeRleHybrid(levelBytes, defWidth, n, &levels, &why))
                return fail(m_pageAt, "definition levels: " + why);
            const std::string_view rest = body.substr(repBytes.size() + levelBytes.size());
            const int64_t valuesSize =
                int64_t(h.uncompressedPageSize) - p.definitionLevelsByteLength - p.repetitionLevelsByteLength;
            if (valuesSize < 0)
                return fail(m_pageAt, "page's uncompressed size is smaller than its levels");
            if (p.isCompressed && m_c.codec != Codec::Uncompressed) {
                if (!decompress(rest, int32_t(valuesSize), &m_pageBuffer, &values))
                    return false;
            } else {
                values = rest;
            }
        } else {
            if (!decompress(body, h.uncompressedPageSize, &m_pageBuffer, &data))
                return false;
            values = data;
            // v1: repetition levels, then definition levels, each a 4-byte length and the RLE hybrid.
            auto levelRun = [&](Encoding e, int width, const char *what, std::vector<uint32_t> *out) {
                if (e != Encoding::Rle)
                    return unsupported(std::string(what) + " level encoding " + encodingName(e));
                if (values.size() < 4)
                    return fail(m_pageAt, std::string(what) + " levels' length missing");
                const uint32_t len = loadLe32(values.data());
                if (len > values.size() - 4)
                    return fail(m_pageAt, std::string(what) + " levels of " + std::to_string(len) + " bytes run past the page");
                if (!decodeRleHybrid(values.substr(4, len), width, n, out, &why))
                    return fail(m_pageAt, std::string(what) + " levels: " + why);
                values = values.substr(4 + len);
                return true;
            };
            if (repWidth && !levelRun(h.dataPage->repetitionLevelEncoding, repWidth, "repetition", &reps))
                return false;
            if (m_c.maxDefinition > 0 && !levelRun(h.dataPage->definitionLevelEncoding, defWidth, "definition", &levels))
                return false;
        }
        size_t present = n;
        if (m_c.maxDefinition > 0) {
            present = 0;
            for (uint32_t l : levels) {
                if (l > uint32_t(m_c.maxDefinition))
                    return fail(m_pageAt, "definition level " + std::to_string(l) + " above the column's "
                                              + std::to_string(m_c.maxDefinition));
                present += l == uint32_t(m_c.maxDefinition);
            }
        }

        // The values.
        m_values = Values();
        switch (encoding) {
        case Encoding::Plain:
            if (!plain(values, present, &m_values))
                return false;
            break;
        case Encoding::PlainDictionary:
        case Encoding::RleDictionary: {
            if (!m_hasDict)
                return fail(m_pageAt, "dictionary-encoded page without a dictionary page");
            if (present > 0) {
                if (values.empty())
                    return fail(m_pageAt, "dictionary indices' bit width missing");
                const int width = uint8_t(values[0]);
                m_indices.clear();
                if (!decodeRleHybrid(values.substr(1), width, present, &m_indices, &why))
                    return fail(m_pageAt, "dictionary indices: " + why);
                const size_t dictSize = m_dict.size(m_c.type);
                for (uint32_t i : m_indices) {
                    if (i >= dictSize)
                        return fail(m_pageAt, "dictionary index " + std::to_string(i) + " out of range (dictionary of "
                                                  + std::to_string(dictSize) + " values)");
                    if (m_c.type == PhysicalType::ByteArray)
                        m_values.texts.push_back(m_dict.texts[i]);
                    else if (m_c.type == PhysicalType::Float || m_c.type == PhysicalType::Double)
                        m_values.reals.push_back(m_dict.reals[i]);
                    else
                        m_values.ints.push_back(m_dict.ints[i]);
                }
            }
            break;
        }
        case Encoding::Rle: {
            if (m_c.type != PhysicalType::Boolean)
                return unsupported("encoding RLE for type " + std::string(physicalTypeName(m_c.type)));
            // A 4-byte length first (parquet-format's RLE layout); accepted without it too.
            std::string_view rle = values;
            if (rle.size() >= 4 && loadLe32(rle.data()) <= rle.size() - 4)
                rle = rle.substr(4, loadLe32(rle.data()));
            m_indices.clear();
            if (!decodeRleHybrid(rle, 1, present, &m_indices, &why))
                return fail(m_pageAt, "RLE booleans: " + why);
            for (uint32_t b : m_indices)
                m_values.ints.push_back(b);
            break;
        }
        case Encoding::DeltaBinaryPacked: {
            if (m_c.type != PhysicalType::Int32 && m_c.type != PhysicalType::Int64)
                return unsupported("encoding DELTA_BINARY_PACKED for type " + std::string(physicalTypeName(m_c.type)));
            size_t used = 0;
            if (!decodeDeltaBinaryPacked(values, present, m_c.type == PhysicalType::Int32, &m_values.ints, &used, &why))
                return fail(m_pageAt, why);
            break;
        }
        case Encoding::DeltaLengthByteArray:
        case Encoding::DeltaByteArray:
            if (m_c.type != PhysicalType::ByteArray)
                return unsupported("encoding " + encodingName(encoding) + " for type " + physicalTypeName(m_c.type));
            if (!(encoding == Encoding::DeltaLengthByteArray
                      ? decodeDeltaLengthByteArray(values, present, &m_values.texts, &why)
                      : decodeDeltaByteArray(values, present, &m_deltaStorage, &m_values.texts, &why)))
                return fail(m_pageAt, why);
            break;
        case Encoding::ByteStreamSplit: {
            const int width = m_c.type == PhysicalType::Float || m_c.type == PhysicalType::Int32 ? 4
                : m_c.type == PhysicalType::Double || m_c.type == PhysicalType::Int64          ? 8
                                                                                               : 0;
            if (!width)
                return unsupported("encoding BYTE_STREAM_SPLIT for type " + std::string(physicalTypeName(m_c.type)));
            m_deltaStorage.clear();
            if (!decodeByteStreamSplit(values, present, width, &m_deltaStorage, &why))
                return fail(m_pageAt, why);
            if (!plain(m_deltaStorage, present, &m_values))
                return false;
            break;
        }
        default: return unsupported("encoding " + encodingName(encoding));
        }

        if (m_c.list)
            return appendList(n, rowsRead);

        // Row by row into the column.
        size_t k = 0;
        for (size_t row = 0; row < n; ++row) {
            const bool valid = m_c.maxDefinition == 0 || levels[row] == 1;
            m_out->valid.push_back(valid ? 1 : 0);
            switch (m_c.type) {
            case PhysicalType::ByteArray:
                if (valid)
                    m_out->text.append(m_values.texts[k]);
                m_out->textEnds.push_back(m_out->text.size());
                break;
            case PhysicalType::Float:
            case PhysicalType::Double: m_out->reals.push_back(valid ? m_values.reals[k] : 0.0); break;
            default: m_out->ints.push_back(valid ? m_values.ints[k] : 0); break;
            }
            k += valid;
        }
        *rowsRead = n;
        return true;
    }

    // The page's level entries into a LIST column: a repetition level 0 starts a row (a null list below
    // listLevel, an empty one below elementLevel), every entry from elementLevel on is an element.
    bool appendList(size_t n, uint64_t *rowsRead)
    {
        ColumnData &o = *m_out;
        uint64_t rows = 0;
        size_t k = 0;
        for (size_t j = 0; j < n; ++j) {
            const uint32_t rep = m_reps[j];
            const uint32_t def = m_c.maxDefinition > 0 ? m_levels[j] : 0;
            if (rep > 1)
                return fail(m_pageAt, "repetition level " + std::to_string(rep) + " above the column's 1 (entry "
                                          + std::to_string(j) + ")");
            if (rep == 0) {
                o.valid.push_back(def >= uint32_t(m_c.listLevel) ? 1 : 0);
                o.listEnds.push_back(o.elementValid.size());
                ++rows;
                ++m_rowsInChunk;
            } else if (m_rowsInChunk == 0) {
                return fail(m_pageAt, "the column chunk's first list entry continues a row (repetition level 1)");
            } else if (def < uint32_t(m_c.elementLevel)) {
                return fail(m_pageAt, "a repeated list entry (repetition level 1) without an element (definition level "
                                          + std::to_string(def) + ", entry " + std::to_string(j) + ")");
            }
            if (def < uint32_t(m_c.elementLevel))
                continue;
            const bool valid = def == uint32_t(m_c.maxDefinition);
            o.elementValid.push_back(valid ? 1 : 0);
            switch (m_c.type) {
            case PhysicalType::ByteArray:
                if (valid)
                    o.text.append(m_values.texts[k]);
                o.textEnds.push_back(o.text.size());
                break;
            case PhysicalType::Float:
            case PhysicalType::Double: o.reals.push_back(valid ? m_values.reals[k] : 0.0); break;
            default: o.ints.push_back(valid ? m_values.ints[k] : 0); break;
            }
            k += valid;
            o.listEnds.back() = o.elementValid.size();
        }
        *rowsRead = rows;
        return true;
    }

    const ChunkContext &m_c;
    ColumnData *m_out;
    std::string *m_error;
    uint64_t m_pageAt = 0;
    std::string m_dictBuffer, m_pageBuffer, m_deltaStorage;
    Values m_dict, m_values;
    bool m_hasDict = false;
    std::vector<uint32_t> m_levels, m_reps, m_indices;
    uint64_t m_entries = 0;     // LIST: level entries read so far
    uint64_t m_rowsInChunk = 0; // LIST: rows begun in this chunk
};

} // namespace

bool readColumnChunk(const ChunkContext &c, std::string_view bytes, ColumnData *out, std::string *error)
{
    return Decoder(c, out, error).run(bytes);
}

} // namespace lanescope::parquet
