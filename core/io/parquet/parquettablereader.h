#pragma once
// A whole Parquet file as a table: every column read (FileReader), found by name. A column that
// cannot be read (unsupported encoding, nested, corrupt page) is left out and its error kept, so
// the rest of the table loads; a file whose footer cannot be read is an error.
#include "parquetfilereader.h"

#include <string>
#include <string_view>
#include <vector>

namespace lanescope::parquet {

struct Table
{
    std::string path;
    uint64_t rows = 0;
    std::vector<ColumnData> columns;
    std::vector<std::string> columnErrors; // one per column left out

    const ColumnData *column(std::string_view name) const;
};

class TableReader
{
public:
    // `maxRows`: see FileReader::setMaxRows.
    static bool read(const std::string &path, Table *out, std::string *error, uint64_t maxRows = uint64_t(1) << 31);
    static bool readBytes(const std::string &name, std::string bytes, Table *out, std::string *error,
                          uint64_t maxRows = uint64_t(1) << 31);

private:
    static bool readAll(FileReader &r, Table *out);
};

} // namespace lanescope::parquet
