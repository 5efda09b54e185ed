// lanescope-cli cache --info [--json] | --clear: the per-user trace cache (core/store/tracecache.h).
#include "commands.h"
#include "tableoutput.h"

#include "store/tracecache.h"

#include <QJsonObject>

#include <cstdio>

namespace lanescope::cli {

int cmdCache(const Args &args)
{
    const bool clear = hasFlag(args, "--clear");
    const bool info = hasFlag(args, "--info");
    if (clear == info || !positional(args).empty()) {
        std::fprintf(stderr, "usage: lanescope-cli cache --info [--json] | --clear\n");
        return kExitUnreadable;
    }
    TraceCache cache(CacheOptions::fromEnvironment());
    std::string error;
    if (!cache.open(&error)) {
        std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
        return kExitUnreadable;
    }
    if (clear) {
        const CacheInfo before = cache.info();
        if (!cache.clear(&error)) {
            std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
            return kExitUnreadable;
        }
        std::printf("cleared %s: %s entries, %s bytes\n", before.path.c_str(), formatThousands(before.entries).c_str(),
                    formatThousands(before.storedBytes).c_str());
        return kExitOk;
    }
    const CacheInfo i = cache.info();
    if (hasFlag(args, "--json")) {
        QJsonObject o;
        o[QStringLiteral("path")] = QString::fromStdString(i.path);
        o[QStringLiteral("entries")] = qint64(i.entries);
        o[QStringLiteral("stored_bytes")] = qint64(i.storedBytes);
        o[QStringLiteral("file_bytes")] = qint64(i.fileBytes);
        o[QStringLiteral("cap_bytes")] = qint64(i.capBytes);
        printJson(o);
    } else {
        std::printf("path:         %s\nentries:      %s\nstored bytes: %s\nfile bytes:   %s\ncap bytes:    %s\n",
                    i.path.c_str(), formatThousands(i.entries).c_str(), formatThousands(i.storedBytes).c_str(),
                    formatThousands(i.fileBytes).c_str(), formatThousands(i.capBytes).c_str());
    }
    return kExitOk;
}

} // namespace lanescope::cli
