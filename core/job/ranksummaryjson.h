#pragma once
// A RankSummary as JSON and back: the documented, versioned file of docs/job-summary.md. The writer
// puts {"format":"lanescope-rank-summary","version":1 first (the formats table recognises a summary by
// it), then the rest compact. The reader takes untrusted bytes: whatever it gets, it either returns a
// summary or an error naming the file, the position (a byte offset for JSON syntax, a JSON pointer
// such as /collectives/rows/12/2 for the schema) and what was expected; it never crashes
// (tests/fuzz/fuzz_ranksummary.cpp).
#include "ranksummary.h"

#include <QByteArray>

#include <string>

namespace lanescope {

class RankSummaryJson
{
public:
    static QByteArray write(const RankSummary &summary);

    struct Read
    {
        RankSummary summary;
        std::string error; // empty on success
        bool ok() const { return error.empty(); }
    };
    // `name` is the file named in errors (and kept as summaryPath).
    static Read read(const QByteArray &bytes, const std::string &name);
    // Reads the file at `path` (at most kMaxFileBytes).
    static Read readFile(const std::string &path);

    // A summary larger than this is not one lanescope wrote (they are a few hundred KiB at most).
    static constexpr qint64 kMaxFileBytes = qint64(512) << 20;

    // World size, backend and process groups of a distributedInfo object (PyTorch's fields world_size,
    // backend, pg_config[].pg_name / pg_desc / backend_config / pg_size / ranks), into `summary`.
    static void readDistributedInfo(const QJsonObject &info, RankSummary &summary);
};

} // namespace lanescope
