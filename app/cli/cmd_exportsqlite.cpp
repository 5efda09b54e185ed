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
    // The trace's notes (docs/notes.md) go into the notes table; an unreadable notes file is said, not fatal.
    AnnotationStore notes;
    if (!notes.open(paths[0]))
        std::fprintf(stderr, "lanescope-cli: %s (the notes table stays empty)\n", notes.error().c_str());
    notes.resolve(*r.trace);
    std::string error;
    if (!SqliteExporter::exportTo(*r.trace, out, {}, &error, notes.notes())) {
        std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
        return kExitUnreadable;
    }
    std::printf("wrote %s: %s slices, %s instants, %s counter samples, %s flows, %zu tracks, %zu notes\n", out.c_str(),
                formatThousands(r.trace->allSlices().size()).c_str(), formatThousands(r.trace->allInstants().size()).c_str(),
                formatThousands(r.trace->allCounterSamples().size()).c_str(),
                formatThousands(r.trace->flows().size()).c_str(), r.trace->tracks().size(), notes.notes().size());
    return kExitOk;
}

} // namespace lanescope::cli
