#pragma once
// Runs the real lanescope or lanescope-cli headless (QT_QPA_PLATFORM=offscreen, no trace cache), as a
// review script or CI job renders pictures, and returns its exit status and output.
#include "clirun.h"

#include <QProcess>
#include <QProcessEnvironment>

namespace lanescope::test {

inline CliRun runOffscreen(const QString &program, const QStringList &args, int timeoutMs = 300000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LANESCOPE_NO_CACHE"), QStringLiteral("1"));
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.waitForFinished(timeoutMs);
    return CliRun{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace lanescope::test
