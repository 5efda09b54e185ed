// lanescope-cli export-parquet PATH -o DIR: the tables of the SQLite export as DIR/<table>.parquet
// (docs/parquet.md).
#include "commands.h"

#include "annotations/annotationstore.h"
#include "store/parquetexporter.h"

#include <cstdio>
#include <cstdlib>

namespace lanescope::cli {

int cmdExportParquet(const Args &args)
{
    const auto paths = positional(args, {"-o", "--output", "--codec", "--row-group-rows"});
    std::string out = flagValue(args, "-o");
    if (out.empty())
        out = flagValue(args, "--output");
    const char *usage = "usage: lanescope-cli export-parquet PATH -o DIR [--codec zstd|snappy|gzip|none] "
                        "[--row-group-rows N] [--no-cache]\n";
    if (paths.size() != 1 || out.empty()) {
        std::fprintf(stderr, "%s", usage);
        return kExitUnreadable;
    }
    parquet::WriteOptions write;
    const std::string codec = flagValue(args, "--codec", "zstd");
    if (codec == "zstd")
        write.codec = parquet::Codec::Zstd;
    else if (codec == "snappy")
        write.codec = parquet::Codec::Snappy;
    else if (codec == "gzip")
        write.codec = parquet::Codec::Gzip;
    else if (codec == "none")
        write.codec = parquet::Codec::Uncompressed;
    else {
        std::fprintf(stderr, "lanescope-cli: unknown --codec '%s' (zstd, snappy, gzip or none)\n", codec.c_str());
        return kExitUnreadable;
    }
    const std::string rg = flagValue(args, "--row-group-rows");
    if (!rg.empty()) {
        char *end = nullptr;
        const long long n = std::strtoll(rg.c_str(), &end, 10);
        if (!end || *end || n < 1) {
            std::fprintf(stderr, "lanescope-cli: --row-group-rows wants a positive number, not '%s'\n", rg.c_str());
            return kExitUnreadable;
        }
        write.rowGroupRows = size_t(n);
    }
    const LoadResult r = loadTrace(paths[0], args);
    if (!r.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", r.error.c_str());
        return kExitUnreadable;
    }
    const std::vector<Annotation> notes = notesForExport(paths[0], *r.trace);
    std::string error;
    ParquetExporter::Result result;
    if (!ParquetExporter::exportTo(*r.trace, out, {}, &error, notes, write, &result)) {
        std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
        return kExitUnreadable;
    }
    std::printf("wrote %zu Parquet files to %s (%s, %s rows, %s bytes): %s slices, %s instants, %s counter samples, "
                "%s flows, %zu tracks, %zu notes\n",
                result.files.size(), out.c_str(), codec.c_str(), formatThousands(result.rows).c_str(),
                formatThousands(result.bytes).c_str(), formatThousands(r.trace->allSlices().size()).c_str(),
                formatThousands(r.trace->allInstants().size()).c_str(),
                formatThousands(r.trace->allCounterSamples().size()).c_str(),
                formatThousands(r.trace->flows().size()).c_str(), r.trace->tracks().size(), notes.size());
    return kExitOk;
}

} // namespace lanescope::cli
