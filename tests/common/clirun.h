#pragma once
// Runs the real lanescope-cli (LANESCOPE_CLI, set by tests/CMakeLists.txt for tests/cli) as a user
// or a CI job would, and returns its exit status and output.
#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace lanescope::test {

struct CliRun
{
    int exitCode = -1;
    QByteArray out, err;
};

inline CliRun runCli(const QStringList &args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(QStringLiteral(LANESCOPE_CLI), args);
    p.waitForFinished(timeoutMs);
    return CliRun{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace lanescope::test
