#pragma once
// DuckDB, an independent Parquet implementation, for the Parquet tests: tests/parquet/setup-duckdb.sh
// installs its Node package into the build tree (once; needs node, npm and the npm registry) and
// tests/parquet/duckdb-run.mjs runs SQL through it, returning the last statement's rows as JSON.
// LANESCOPE_REQUIRE_DUCKDB() skips the test when that is impossible, or fails with
// LANESCOPE_REQUIRE_CORPUS=1 (CI). Needs LANESCOPE_BUILD_DIR and LANESCOPE_SOURCE_DIR defined.
#include "corpus.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace lanescope::test {

inline QString duckdbCacheDir() { return QStringLiteral(LANESCOPE_BUILD_DIR "/duckdb-node"); }

// Empty when DuckDB can run, else why not. Runs the set-up script once per test program.
inline QString duckdbUnavailable()
{
    static QString why = [] {
        if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
            return QStringLiteral("node is not installed (packaging/install-deps-debian.sh installs nodejs)");
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("bash"), {QStringLiteral(LANESCOPE_SOURCE_DIR "/tests/parquet/setup-duckdb.sh"),
                                         QStringLiteral(LANESCOPE_BUILD_DIR)});
        if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            return QStringLiteral("tests/parquet/setup-duckdb.sh failed: ") + QString::fromUtf8(p.readAll()).trimmed();
        return QString();
    }();
    return why;
}

#define LANESCOPE_REQUIRE_DUCKDB()                                                                   \
    do {                                                                                             \
        const QString whyNot = lanescope::test::duckdbUnavailable();                                 \
        if (!whyNot.isEmpty())                                                                       \
            LANESCOPE_SKIP_OR_FAIL(QStringLiteral("DuckDB unavailable: ") + whyNot);                \
    } while (0)

struct DuckResult
{
    QStringList columns;
    QJsonArray rows; // arrays, one per row, in column order
    QString error;
};

// Runs `sql` (statements separated by ";" at line ends) and returns the last one's rows.
inline DuckResult duckdb(const QString &sql)
{
    DuckResult r;
    QTemporaryDir dir;
    QFile in(dir.filePath(QStringLiteral("q.sql")));
    if (!in.open(QIODevice::WriteOnly) || in.write(sql.toUtf8() + ";\n") < 0) {
        r.error = QStringLiteral("cannot write the SQL file");
        return r;
    }
    in.close();
    const QString out = dir.filePath(QStringLiteral("out.json"));
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("node"), {QStringLiteral(LANESCOPE_SOURCE_DIR "/tests/parquet/duckdb-run.mjs"),
                                     duckdbCacheDir(), in.fileName(), out});
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        r.error = QStringLiteral("duckdb: ") + QString::fromUtf8(p.readAll()).trimmed();
        return r;
    }
    QFile f(out);
    if (!f.open(QIODevice::ReadOnly)) {
        r.error = QStringLiteral("duckdb wrote no result");
        return r;
    }
    QJsonParseError pe;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll(), &pe).object();
    if (pe.error != QJsonParseError::NoError) {
        r.error = QStringLiteral("duckdb result: ") + pe.errorString();
        return r;
    }
    for (const QJsonValue &c : o.value(QStringLiteral("columns")).toArray())
        r.columns << c.toString();
    r.rows = o.value(QStringLiteral("rows")).toArray();
    return r;
}

} // namespace lanescope::test
