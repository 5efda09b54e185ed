#pragma once
// Writes a loaded trace as a folder of Parquet files, one `<table>.parquet` per table of the SQLite
// export (ExportTables: same table and column names, units and values; docs/parquet.md), for pandas,
// DuckDB, Spark or Trino. Each file is written as `<table>.parquet.partial` and renamed when complete.
#include "annotations/annotation.h"
#include "io/input/loadoptions.h"
#include "io/parquet/parquetcolumnwriter.h"

#include <string>
#include <vector>

namespace lanescope {

class Trace;

class ParquetExporter
{
public:
    struct Result
    {
        std::vector<std::string> files; // written, in table order
        uint64_t rows = 0;
        uint64_t bytes = 0;
    };

    // `dir` is created when missing. Progress 0..1000 and cancel from `options`. False with a message
    // naming the file.
    static bool exportTo(const Trace &trace, const std::string &dir, const LoadOptions &options, std::string *error,
                         const std::vector<Annotation> &notes = {},
                         const parquet::WriteOptions &write = parquet::WriteOptions(), Result *result = nullptr);
};

} // namespace lanescope
