#pragma once
// A small generated Chrome JSON trace for tests of the session jobs and the window: `events` X events,
// event i named "op<i % 50>" at ts = 2 i us (2000 i ns), 1 us long, on thread i % 4 of pid 1. So there
// are `events` slices, 4 threads, min(events, 50) names, and name "op<k>" occurs ceil((events - k) / 50)
// times.
#include "loadtrace.h"

#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace lanescope::test {

// Writes the trace as `name` in `dir`; its path, empty when it cannot be written.
inline QString writeSmallTrace(const QTemporaryDir &dir, const QString &name, int events)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("{\"traceEvents\":[");
    for (int i = 0; i < events; ++i)
        f.write(QStringLiteral("%1{\"ph\":\"X\",\"name\":\"op%2\",\"ts\":%3,\"dur\":1,\"pid\":1,\"tid\":%4}")
                    .arg(i ? QStringLiteral(",") : QString())
                    .arg(i % 50)
                    .arg(i * 2)
                    .arg(i % 4)
                    .toUtf8());
    f.write("]}");
    return f.fileName();
}

// The trace written as t.json in `dir` and loaded (null when either fails; the loader's error is logged).
inline std::shared_ptr<const Trace> loadSmallTrace(const QTemporaryDir &dir, int events)
{
    const QString path = writeSmallTrace(dir, QStringLiteral("t.json"), events);
    return path.isEmpty() ? nullptr : load(path);
}

} // namespace lanescope::test
