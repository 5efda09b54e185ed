#pragma once
// Parquet's footer (FileMetaData) and page headers, as far as a flat-table writer and reader need
// them, with their thrift-compact encoding and a strict decoding (unknown fields skipped; what a
// reader needs but is missing is an error). Field ids and enum values: parquet-format's parquet.thrift.
#include "thriftcompact.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope::parquet {

enum class PhysicalType : int32_t {
    Boolean = 0, Int32 = 1, Int64 = 2, Int96 = 3, Float = 4, Double = 5, ByteArray = 6, FixedLenByteArray = 7,
};
enum class Repetition : int32_t { Required = 0, Optional = 1, Repeated = 2 };
enum class Codec : int32_t { Uncompressed = 0, Snappy = 1, Gzip = 2, Lzo = 3, Brotli = 4, Lz4 = 5, Zstd = 6, Lz4Raw = 7 };
enum class Encoding : int32_t {
    Plain = 0, PlainDictionary = 2, Rle = 3, BitPacked = 4, DeltaBinaryPacked = 5, DeltaLengthByteArray = 6,
    DeltaByteArray = 7, RleDictionary = 8, ByteStreamSplit = 9,
};
enum class PageType : int32_t { DataPage = 0, IndexPage = 1, DictionaryPage = 2, DataPageV2 = 3 };
constexpr int32_t kConvertedUtf8 = 0;

const char *physicalTypeName(PhysicalType t);
std::string codecName(Codec c);
std::string encodingName(Encoding e);

struct SchemaElement
{
    std::optional<PhysicalType> type;
    Repetition repetition = Repetition::Required;
    bool hasRepetition = false;
    std::string name;
    int32_t numChildren = 0;
    std::optional<int32_t> convertedType;
    bool logicalString = false; // LogicalType STRING
};

struct ColumnMetaData
{
    PhysicalType type = PhysicalType::Int64;
    std::vector<Encoding> encodings;
    std::vector<std::string> path;
    Codec codec = Codec::Uncompressed;
    int64_t numValues = 0;
    int64_t totalUncompressedSize = 0;
    int64_t totalCompressedSize = 0;
    int64_t dataPageOffset = 0;
    std::optional<int64_t> dictionaryPageOffset;
};

struct ColumnChunk
{
    int64_t fileOffset = 0;
    bool hasMetaData = false;
    bool externalFile = false; // file_path set: the chunk lives in another file (not supported)
    ColumnMetaData meta;
};

struct RowGroup
{
    std::vector<ColumnChunk> columns;
    int64_t totalByteSize = 0;
    int64_t numRows = 0;
};

struct KeyValue
{
    std::string key, value;
};

struct FileMetaData
{
    int32_t version = 1;
    std::vector<SchemaElement> schema; // depth-first, [0] is the root
    int64_t numRows = 0;
    std::vector<RowGroup> rowGroups;
    std::vector<KeyValue> keyValues;
    std::string createdBy;
};

struct DataPageHeader
{
    int32_t numValues = 0;
    Encoding encoding = Encoding::Plain;
    Encoding definitionLevelEncoding = Encoding::Rle;
    Encoding repetitionLevelEncoding = Encoding::Rle;
};

struct DataPageHeaderV2
{
    int32_t numValues = 0;
    int32_t numNulls = 0;
    int32_t numRows = 0;
    Encoding encoding = Encoding::Plain;
    int32_t definitionLevelsByteLength = 0;
    int32_t repetitionLevelsByteLength = 0;
    bool isCompressed = true;
};

struct DictionaryPageHeader
{
    int32_t numValues = 0;
    Encoding encoding = Encoding::Plain;
};

struct PageHeader
{
    PageType type = PageType::DataPage;
    int32_t uncompressedPageSize = 0;
    int32_t compressedPageSize = 0;
    std::optional<DataPageHeader> dataPage;
    std::optional<DictionaryPageHeader> dictionaryPage;
    std::optional<DataPageHeaderV2> dataPageV2;
};

std::string encodeFileMetaData(const FileMetaData &md);
std::string encodePageHeader(const PageHeader &h);

// Decoding: false with `error` set (what, at which offset) on malformed input.
bool decodeFileMetaData(ThriftReader &r, FileMetaData *md);
bool decodePageHeader(ThriftReader &r, PageHeader *h);

} // namespace lanescope::parquet
