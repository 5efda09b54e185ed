#include "parquetmetadata.h"

namespace lanescope::parquet {

const char *physicalTypeName(PhysicalType t)
{
    switch (t) {
    case PhysicalType::Boolean: return "BOOLEAN";
    case PhysicalType::Int32: return "INT32";
    case PhysicalType::Int64: return "INT64";
    case PhysicalType::Int96: return "INT96";
    case PhysicalType::Float: return "FLOAT";
    case PhysicalType::Double: return "DOUBLE";
    case PhysicalType::ByteArray: return "BYTE_ARRAY";
    case PhysicalType::FixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
    }
    return "unknown type";
}

std::string codecName(Codec c)
{
    switch (c) {
    case Codec::Uncompressed: return "UNCOMPRESSED";
    case Codec::Snappy: return "SNAPPY";
    case Codec::Gzip: return "GZIP";
    case Codec::Lzo: return "LZO";
    case Codec::Brotli: return "BROTLI";
    case Codec::Lz4: return "LZ4";
    case Codec::Zstd: return "ZSTD";
    case Codec::Lz4Raw: return "LZ4_RAW";
    }
    return "codec " + std::to_string(int(c));
}

std::string encodingName(Encoding e)
{
    switch (e) {
    case Encoding::Plain: return "PLAIN";
    case Encoding::PlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::Rle: return "RLE";
    case Encoding::BitPacked: return "BIT_PACKED";
    case Encoding::DeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::DeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::DeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::RleDictionary: return "RLE_DICTIONARY";
    case Encoding::ByteStreamSplit: return "BYTE_STREAM_SPLIT";
    }
    return "encoding " + std::to_string(int(e));
}

// ---- encoding

namespace {

void writeSchemaElement(ThriftWriter &w, const SchemaElement &s)
{
    w.beginStruct();
    if (s.type)
        w.fieldI32(1, int32_t(*s.type));
    if (s.hasRepetition)
        w.fieldI32(3, int32_t(s.repetition));
    w.fieldBinary(4, s.name);
    if (s.numChildren > 0)
        w.fieldI32(5, s.numChildren);
    if (s.convertedType)
        w.fieldI32(6, *s.convertedType);
    if (s.logicalString) {
        w.fieldStruct(10); // LogicalType (a union)
        w.fieldStruct(1);  // STRING: StringType {}
        w.endStruct();
        w.endStruct();
    }
    w.endStruct();
}

void writeColumnChunk(ThriftWriter &w, const ColumnChunk &c)
{
    const ColumnMetaData &m = c.meta;
    w.beginStruct();
    w.fieldI64(2, c.fileOffset);
    w.fieldStruct(3);
    w.fieldI32(1, int32_t(m.type));
    w.fieldList(2, ThriftType::I32, uint32_t(m.encodings.size()));
    for (Encoding e : m.encodings)
        w.i32(int32_t(e));
    w.fieldList(3, ThriftType::Binary, uint32_t(m.path.size()));
    for (const std::string &p : m.path)
        w.binary(p);
    w.fieldI32(4, int32_t(m.codec));
    w.fieldI64(5, m.numValues);
    w.fieldI64(6, m.totalUncompressedSize);
    w.fieldI64(7, m.totalCompressedSize);
    w.fieldI64(9, m.dataPageOffset);
    if (m.dictionaryPageOffset)
        w.fieldI64(11, *m.dictionaryPageOffset);
    w.endStruct();
    w.endStruct();
}

} // namespace

std::string encodeFileMetaData(const FileMetaData &md)
{
    ThriftWriter w;
    w.beginStruct();
    w.fieldI32(1, md.version);
    w.fieldList(2, ThriftType::Struct, uint32_t(md.schema.size()));
    for (const SchemaElement &s : md.schema)
        writeSchemaElement(w, s);
    w.fieldI64(3, md.numRows);
    w.fieldList(4, ThriftType::Struct, uint32_t(md.rowGroups.size()));
    for (const RowGroup &g : md.rowGroups) {
        w.beginStruct();
        w.fieldList(1, ThriftType::Struct, uint32_t(g.columns.size()));
        for (const ColumnChunk &c : g.columns)
            writeColumnChunk(w, c);
        w.fieldI64(2, g.totalByteSize);
        w.fieldI64(3, g.numRows);
        w.endStruct();
    }
    if (!md.keyValues.empty()) {
        w.fieldList(5, ThriftType::Struct, uint32_t(md.keyValues.size()));
        for (const KeyValue &kv : md.keyValues) {
            w.beginStruct();
            w.fieldBinary(1, kv.key);
            w.fieldBinary(2, kv.value);
            w.endStruct();
        }
    }
    if (!md.createdBy.empty())
        w.fieldBinary(6, md.createdBy);
    w.endStruct();
    return w.take();
}

std::string encodePageHeader(const PageHeader &h)
{
    ThriftWriter w;
    w.beginStruct();
    w.fieldI32(1, int32_t(h.type));
    w.fieldI32(2, h.uncompressedPageSize);
    w.fieldI32(3, h.compressedPageSize);
    if (h.dataPage) {
        w.fieldStruct(5);
        w.fieldI32(1, h.dataPage->numValues);
        w.fieldI32(2, int32_t(h.dataPage->encoding));
        w.fieldI32(3, int32_t(h.dataPage->definitionLevelEncoding));
        w.fieldI32(4, int32_t(h.dataPage->repetitionLevelEncoding));
        w.endStruct();
    }
    if (h.dictionaryPage) {
        w.fieldStruct(7);
        w.fieldI32(1, h.dictionaryPage->numValues);
        w.fieldI32(2, int32_t(h.dictionaryPage->encoding));
        w.endStruct();
    }
    if (h.dataPageV2) {
        const DataPageHeaderV2 &v = *h.dataPageV2;
        w.fieldStruct(8);
        w.fieldI32(1, v.numValues);
        w.fieldI32(2, v.numNulls);
        w.fieldI32(3, v.numRows);
        w.fieldI32(4, int32_t(v.encoding));
        w.fieldI32(5, v.definitionLevelsByteLength);
        w.fieldI32(6, v.repetitionLevelsByteLength);
        w.fieldBool(7, v.isCompressed);
        w.endStruct();
    }
    w.endStruct();
    return w.take();
}

// ---- decoding

namespace {

// Calls `field(f)` for each field of a struct; `field` returns false for fields it does not read,
// which are skipped.
template <typename F> bool readStruct(ThriftReader &r, F &&field)
{
    r.beginStruct();
    for (ThriftReader::Field f = r.nextField(); r.ok() && f.type != ThriftType::Stop; f = r.nextField())
        if (!field(f))
            r.skip(f.type);
    r.endStruct();
    return r.ok();
}

int32_t readI32(ThriftReader &r, const ThriftReader::Field &f)
{
    const int64_t v = r.readInt(f.type);
    if (v < INT32_MIN || v > INT32_MAX)
        r.fail("thrift i32 out of range");
    return int32_t(v);
}

template <typename T> bool readList(ThriftReader &r, ThriftType expect, std::vector<T> *out, const auto &element)
{
    ThriftType t;
    const uint32_t n = r.readListHeader(&t);
    if (r.ok() && n > 0 && t != expect) {
        r.fail("thrift list of type " + std::to_string(int(t)) + " where " + std::to_string(int(expect)) + " was expected");
        return false;
    }
    out->clear();
    for (uint32_t i = 0; i < n && r.ok(); ++i)
        out->push_back(element());
    return r.ok();
}

bool readSchemaElement(ThriftReader &r, SchemaElement *s)
{
    bool named = false;
    readStruct(r, [&](const ThriftReader::Field &f) {
        switch (f.id) {
        case 1: s->type = PhysicalType(readI32(r, f)); return true;
        case 3:
            s->repetition = Repetition(readI32(r, f));
            s->hasRepetition = true;
            return true;
        case 4:
            if (f.type != ThriftType::Binary)
                return false;
            s->name = std::string(r.readBinary());
            named = true;
            return true;
        case 5: s->numChildren = readI32(r, f); return true;
        case 6: s->convertedType = readI32(r, f); return true;
        case 10:
            if (f.type != ThriftType::Struct)
                return false;
            readStruct(r, [&](const ThriftReader::Field &u) {
                if (u.id == 1)
                    s->logicalString = true;
                return false;
            });
            return true;
        default: return false;
        }
    });
    if (r.ok() && !named)
        r.fail("schema element without a name");
    return r.ok();
}

bool readColumnMetaData(ThriftReader &r, ColumnMetaData *m)
{
    return readStruct(r, [&](const ThriftReader::Field &f) {
        switch (f.id) {
        case 1: m->type = PhysicalType(readI32(r, f)); return true;
        case 2:
            if (f.type != ThriftType::List)
                return false;
            readList(r, ThriftType::I32, &m->encodings, [&] { return Encoding(int32_t(r.readInt(ThriftType::I32))); });
            return true;
        case 3:
            if (f.type != ThriftType::List)
                return false;
            readList(r, ThriftType::Binary, &m->path, [&] { return std::string(r.readBinary()); });
            return true;
        case 4: m->codec = Codec(readI32(r, f)); return true;
        case 5: m->numValues = r.readInt(f.type); return true;
        case 6: m->totalUncompressedSize = r.readInt(f.type); return true;
        case 7: m->totalCompressedSize = r.readInt(f.type); return true;
        case 9: m->dataPageOffset = r.readInt(f.type); return true;
        case 11: m->dictionaryPageOffset = r.readInt(f.type); return true;
        default: return false;
        }
    });
}

bool readColumnChunk(ThriftReader &r, ColumnChunk *c)
{
    return readStruct(r, [&](const ThriftReader::Field &f) {
        switch (f.id) {
        case 1: c->externalFile = true; return false;
        case 2: c->fileOffset = r.readInt(f.type); return true;
        case 3:
            if (f.type != ThriftType::Struct)
                return false;
            c->hasMetaData = true;
            return readColumnMetaData(r, &c->meta);
        default: return false;
        }
    });
}

bool readRowGroup(ThriftReader &r, RowGroup *g)
{
    return readStruct(r, [&](const ThriftReader::Field &f) {
        switch (f.id) {
        case 1:
            if (f.type != ThriftType::List)
                return false;
            readList(r, ThriftType::Struct, &g->columns, [&] {
                ColumnChunk c;
                readColumnChunk(r, &c);
                return c;
            });
            return true;
        case 2: g->totalByteSize = r.readInt(f.type); return true;
        case 3: g->numRows = r.readInt(f.type); return true;
        default: return false;
        }
    });
}

} // namespace

bool decodeFileMetaData(ThriftReader &r, FileMetaData *md)
{
    readStruct(r, [&](const ThriftReader::Field &f) {
        switch (f.id) {
        case 1: md->version = readI32(r, f); return true;
        case 2:
            if (f.type != ThriftType::List)
                return false;
            readList(r, ThriftType::Struct, &md->schema, [&] {
                SchemaElement s;
                readSchemaElement(r, &s);
                return s;
            });
            return true;
        case 3: md->numRows = r.readInt(f.type); return true;
        case 4:
            if (f.type != ThriftType::List)
                return false;
            readList(r, ThriftType::Struct, &md->rowGroups, [&] {
                RowGroup g;
                readRowGroup(r, &g);
                return g;
            });
            return true;
        case 5:
            if (f.type != ThriftType::List)
                return false;
            readList(r, ThriftType::Struct, &md->keyValues, [&] {
                KeyValue kv;
                readStruct(r, [&](const ThriftReader::Field &k) {
                    if (k.type != ThriftType::Binary || (k.id != 1 && k.id != 2))
                        return false;
                    (k.id == 1 ? kv.key : kv.value) = std::string(r.readBinary());
                    return true;
                });
                return kv;
            });
            return true;
        case 6:
            if (f.type != ThriftType::Binary)
                return false;
            md->createdBy = std::string(r.readBinary());
            return true;
        default: return false;
        }
    });
    if (r.ok() && md->schema.empty())
        r.fail("file metadata without a schema");
    return r.ok();
}

bool decodePageHeader(ThriftReader &r, PageHeader *h)
{
    bool typed = false;
    readStruct(r, [&](const ThriftReader::Field &f) {
        switch (f.id) {
        case 1:
            h->type = PageType(readI32(r, f));
            typed = true;
            return true;
        case 2: h->uncompressedPageSize = readI32(r, f); return true;
        case 3: h->compressedPageSize = readI32(r, f); return true;
        case 5:
            if (f.type != ThriftType::Struct)
                return false;
            h->dataPage.emplace();
            return readStruct(r, [&](const ThriftReader::Field &d) {
                switch (d.id) {
                case 1: h->dataPage->numValues = readI32(r, d); return true;
                case 2: h->dataPage->encoding = Encoding(readI32(r, d)); return true;
                case 3: h->dataPage->definitionLevelEncoding = Encoding(readI32(r, d)); return true;
                case 4: h->dataPage->repetitionLevelEncoding = Encoding(readI32(r, d)); return true;
                default: return false;
                }
            });
        case 7:
            if (f.type != ThriftType::Struct)
                return false;
            h->dictionaryPage.emplace();
            return readStruct(r, [&](const ThriftReader::Field &d) {
                switch (d.id) {
                case 1: h->dictionaryPage->numValues = readI32(r, d); return true;
                case 2: h->dictionaryPage->encoding = Encoding(readI32(r, d)); return true;
                default: return false;
                }
            });
        case 8:
            if (f.type != ThriftType::Struct)
                return false;
            h->dataPageV2.emplace();
            return readStruct(r, [&](const ThriftReader::Field &d) {
                DataPageHeaderV2 &v = *h->dataPageV2;
                switch (d.id) {
                case 1: v.numValues = readI32(r, d); return true;
                case 2: v.numNulls = readI32(r, d); return true;
                case 3: v.numRows = readI32(r, d); return true;
                case 4: v.encoding = Encoding(readI32(r, d)); return true;
                case 5: v.definitionLevelsByteLength = readI32(r, d); return true;
                case 6: v.repetitionLevelsByteLength = readI32(r, d); return true;
                case 7:
                    if (d.type != ThriftType::True && d.type != ThriftType::False)
                        return false;
                    v.isCompressed = d.boolValue;
                    return true;
                default: return false;
                }
            });
        default: return false;
        }
    });
    if (r.ok() && !typed)
        r.fail("page header without a page type");
    if (r.ok() && (h->compressedPageSize < 0 || h->uncompressedPageSize < 0))
        r.fail("page header with a negative page size");
    return r.ok();
}

} // namespace lanescope::parquet
