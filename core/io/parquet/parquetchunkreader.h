#pragma once
// Decodes one column chunk of a flat column: its pages (an optional dictionary page, then data pages
// v1 / v2) appended row by row to a ColumnData. Errors name the column and the file offset of the
// page (or page header) that is wrong.
#include "parquetfilereader.h"

#include <string>
#include <string_view>

namespace lanescope::parquet {

struct ChunkContext
{
    std::string file; // for messages
    std::string column;
    PhysicalType type = PhysicalType::Int64;
    int maxDefinition = 0; // 0 required, 1 optional
    Codec codec = Codec::Uncompressed;
    uint64_t rows = 0;       // the row group's rows: values this chunk must deliver
    uint64_t fileOffset = 0; // where `bytes` starts in the file
};

bool readColumnChunk(const ChunkContext &c, std::string_view bytes, ColumnData *out, std::string *error);

} // namespace lanescope::parquet
