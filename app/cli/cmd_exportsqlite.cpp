// lanescope-cli export-sqlite PATH -o OUT.db: the loaded trace as a SQLite database (docs/sqlite-schema.md).
#include "commands.h"

#include "annotations/annotationstore.h"
#include "store/sqliteexporter.h"

#include <cstdio>

namespace lanescope::cli {

int cmdExportSqlite(const Args &args)
{
    const auto paths = positional(args, {"-o", "--output"});
    std::string out = flagValue(args, "-o");
    if (out.empty())
        out = flagValue(args, "--output");
    if (paths.size() != 1 || out.empty()) {
        std::fprintf(stderr, "usage: lanescope-cli export-sqlite PATH -o OUT.db [--no-cache]\n");
        return kExitUnreadable;
    }
    const LoadResult r = loadTrace(paths[0], args);
    if (!r.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", r.error.c_str());
        return kExitUnreadable;
    }
    const std::vector<Annotation> notes = notesForExport(paths[0], *r.trace);
    std::string error;
    if (!SqliteExporter::exportTo(*r.trace, out, {}, &error, notes)) {
        std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
        return kExitUnreadable;
    }
    std::printf("wrote %s: %s slices, %s instants, %s counter samples, %s flows, %zu tracks, %zu notes\n", out.c_str(),
                formatThousands(r.trace->allSlices().size()).c_str(), formatThousands(r.trace->allInstants().size()).c_str(),
                formatThousands(r.trace->allCounterSamples().size()).c_str(),
                formatThousands(r.trace->flows().size()).c_str(), r.trace->tracks().size(), notes.size());
    return kExitOk;
}

} // namespace lanescope::cli
