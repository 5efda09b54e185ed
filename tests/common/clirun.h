#pragma once
// Runs the real lanescope-cli (LANESCOPE_CLI, set by tests/CMakeLists.txt for tests/cli) as a user
// or a CI job would, and returns its exit status and output; jsonOf / rowNamed read its --json.
#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QtGlobal>

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

// The run's standard output as a JSON object; a parse error is logged and leaves it empty, so the
// checks on it fail.
inline QJsonObject jsonOf(const CliRun &r)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(r.out, &e);
    if (e.error != QJsonParseError::NoError)
        qWarning("lanescope-cli output is not JSON: %s", qPrintable(e.errorString()));
    return d.object();
}

// The row of a --json table whose "name" is `name`, or an empty object.
inline QJsonObject rowNamed(const QJsonArray &rows, const QString &name)
{
    for (const auto &v : rows)
        if (v.toObject()[QStringLiteral("name")].toString() == name)
            return v.toObject();
    return {};
}

} // namespace lanescope::test
