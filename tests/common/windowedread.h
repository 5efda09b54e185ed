#pragma once
// Helpers for the tests of the readers that parse JSON arrays in windows (tst_neuronjsonwindows,
// tst_systemprofilewindows): file bytes in and out (filebytes.h), a line-by-line comparison of two dumps that names
// the first differing line, the error of a gzip file cut inside its member, and the progress values a
// read reports until it is cancelled.
#include "compress.h"
#include "filebytes.h"

#include "io/input/importerror.h"
#include "io/input/inputstream.h"
#include "io/input/loadoptions.h"

#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::test {

// Empty when equal, else which line differs and how.
inline QString differingLine(const std::vector<std::string> &got, const std::vector<std::string> &want, const QString &what)
{
    for (size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
        const std::string g = i < got.size() ? got[i] : "(none)", w = i < want.size() ? want[i] : "(none)";
        if (g != w)
            return QStringLiteral("%1: line %2 differs:\n  got  %3\n  want %4")
                .arg(what)
                .arg(i)
                .arg(QString::fromStdString(g), QString::fromStdString(w));
    }
    return {};
}

struct CutGzip
{
    QString file;
    std::string error; // empty when the read did not fail
    uint64_t offset = 0;
    uint64_t written = 0; // compressed bytes in the file
};

// Writes the first half of `text` compressed with gzip to a file in `dir` and reads it with
// `read(stream, options)` (windows of 4 KiB), keeping the ImportError.
inline CutGzip readCutGzip(const QTemporaryDir &dir, const std::string &text,
                           const std::function<void(InputStream &, const LoadOptions &)> &read)
{
    const std::string gz = gzipOf(text);
    CutGzip r{dir.filePath(QStringLiteral("cut.json.gz")), {}, 0, gz.size() / 2};
    if (!writeFile(r.file, std::string_view(gz).substr(0, r.written)))
        return r;
    LoadOptions o;
    o.jsonWindowBytes = 4096;
    try {
        InputStream stream(r.file.toStdString(), o);
        read(stream, o);
    } catch (const ImportError &e) {
        r.error = e.what();
        r.offset = e.offset();
    }
    return r;
}

// The progress values reported by `read` over `text` in 64-byte windows until a value above
// `cancelAbove` makes it cancel; `cancelled` says whether it stopped with LoadCancelled.
inline std::vector<int> progressUntilCancel(const std::string &text, int cancelAbove, bool &cancelled,
                                            const std::function<void(InputStream &, const LoadOptions &)> &read)
{
    LoadOptions o;
    o.jsonWindowBytes = 64;
    std::vector<int> seen;
    std::atomic<bool> stop{false};
    o.cancel = &stop;
    o.progress = [&](int p) {
        seen.push_back(p);
        if (p > cancelAbove)
            stop = true;
    };
    InputStream stream(text, "test.json", o, 100);
    cancelled = false;
    try {
        read(stream, o);
    } catch (const LoadCancelled &) {
        cancelled = true;
    }
    return seen;
}

} // namespace lanescope::test
