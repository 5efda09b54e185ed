#pragma once
// Decodes one column chunk of a flat or LIST column: its pages (an optional dictionary page, then data
// pages v1 / v2) appended row by row to a ColumnData (a LIST column's rows begin where the repetition
// level is 0). Errors name the column and the file offset of the page (or page header) that is wrong.
#include "parquetfilereader.h"

#include <string>
#include <string_view>

namespace lanescope::parquet {

struct ChunkContext
{
    std::string file; // for messages
    std::string column;
    PhysicalType type = PhysicalType::Int64;
    int maxDefinition = 0; // flat: 0 required, 1 optional
    // LIST columns (FileReader::Leaf): repetition level 0 or 1, the definition levels of a non-null
    // list and of a present element; level entries the chunk may hold at most (its metadata's count).
    bool list = false;
    int listLevel = 0, elementLevel = 0;
    uint64_t maxEntries = 0;
    Codec codec = Codec::Uncompressed;
    uint64_t rows = 0;       // the row group's rows: values this chunk must deliver
    uint64_t fileOffset = 0; // where `bytes` starts in the file
};

bool readColumnChunk(const ChunkContext &c, std::string_view bytes, ColumnData *out, std::string *error);

} // namespace lanescope::parquet
