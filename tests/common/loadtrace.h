#pragma once
// Loads a trace file or folder for a test through the real loader; on failure the error is logged
// and the result is null (the test then fails on its own QVERIFY).
#include "io/traceloader.h"
#include "model/trace.h"

#include <QString>
#include <QtGlobal>

#include <memory>

namespace lanescope::test {

inline std::shared_ptr<const Trace> load(const QString &path)
{
    const LoadResult r = TraceLoader::load(path.toStdString());
    if (!r.ok())
        qWarning("%s", r.error.c_str());
    return r.trace;
}

} // namespace lanescope::test
