#pragma once
// Where the shared real-trace corpus lives: $LANESCOPE_CORPUS, else ../shared/corpus next to the
// source tree. Tests that need a corpus file say so with LANESCOPE_REQUIRE_CORPUS_FILE(relative path):
// when the file is absent the test skips with a message naming it, or, with LANESCOPE_REQUIRE_CORPUS=1
// in the environment (CI), fails with that message, so a run with the corpus cannot pass by skipping.
// Every corpus-missing skip goes through LANESCOPE_SKIP_OR_FAIL, nothing else QSKIPs for the corpus;
// requiretool.h uses it the same way for the programs CI installs (the sqlite3 shell, ...).
#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QTest>
#include <QtGlobal>

namespace lanescope::test {

// LANESCOPE_REQUIRE_CORPUS set to anything but "" or "0": a missing corpus file fails the test.
inline bool corpusRequired()
{
    const QByteArray v = qgetenv("LANESCOPE_REQUIRE_CORPUS");
    return !v.isEmpty() && v != "0";
}

// The configured corpus folder, whether or not it exists.
inline QString corpusRoot()
{
    const QByteArray env = qgetenv("LANESCOPE_CORPUS");
    return env.isEmpty() ? QString::fromUtf8(LANESCOPE_CORPUS_DEFAULT) : QString::fromLocal8Bit(env);
}

// The corpus folder (absolute), or empty when it does not exist.
inline QString corpusDir()
{
    const QDir dir(corpusRoot());
    return dir.exists() ? dir.absolutePath() : QString();
}

inline QString corpusFile(const QString &relative)
{
    const QString dir = corpusDir();
    return dir.isEmpty() ? QString() : dir + QLatin1Char('/') + relative;
}

// Empty when `relative` (a file or folder of the corpus; empty: the corpus folder itself) exists,
// else the message that names what is missing and where it was looked for.
inline QString corpusMissing(const QString &relative)
{
    const QString path = relative.isEmpty() ? corpusRoot() : corpusRoot() + QLatin1Char('/') + relative;
    if (QFileInfo::exists(path))
        return QString();
    return QStringLiteral("real-trace corpus %1 not found: %2 (set LANESCOPE_CORPUS or place the corpus at "
                          "../shared/corpus)")
        .arg(relative.isEmpty() ? QStringLiteral("folder") : QStringLiteral("file ") + relative, path);
}

} // namespace lanescope::test

// Ends the current test function for a missing prerequisite (a corpus file, a program CI installs): QSKIP,
// or QFAIL when LANESCOPE_REQUIRE_CORPUS=1. `message` names what is missing.
#define LANESCOPE_SKIP_OR_FAIL(message)                                                                 \
    do {                                                                                                 \
        const QString lanescopeSkipMessage_ = (message);                                               \
        if (lanescope::test::corpusRequired())                                                           \
            QFAIL(qPrintable(lanescopeSkipMessage_ + QStringLiteral(" [LANESCOPE_REQUIRE_CORPUS=1]"))); \
        QSKIP(qPrintable(lanescopeSkipMessage_));                                                      \
    } while (0)

// Skips (or, under LANESCOPE_REQUIRE_CORPUS=1, fails) unless the corpus file or folder exists.
#define LANESCOPE_REQUIRE_CORPUS_FILE(relative)                                                        \
    do {                                                                                               \
        const QString lanescopeCorpusMissing_ = lanescope::test::corpusMissing(relative);              \
        if (!lanescopeCorpusMissing_.isEmpty())                                                        \
            LANESCOPE_SKIP_OR_FAIL(lanescopeCorpusMissing_);                                          \
    } while (0)

// In a data-driven test whose _data function lists a corpus folder (and adds no row when it is absent or
// empty; Qt then runs the test function once without data): skips or fails naming the folder when there
// is no row. Put it before QFETCH.
#define LANESCOPE_REQUIRE_CORPUS_ROWS(folder)                                                         \
    do {                                                                                              \
        LANESCOPE_REQUIRE_CORPUS_FILE(folder);                                                        \
        if (!QTest::currentDataTag())                                                                 \
            LANESCOPE_SKIP_OR_FAIL(QStringLiteral("real-trace corpus folder ") + (folder) +           \
                                   QStringLiteral(" holds no file for this test (in ") +              \
                                   lanescope::test::corpusRoot() + QLatin1Char(')'));                 \
    } while (0)

// The corpus folder itself (for tests that list a folder of it; prefer naming the file).
#define LANESCOPE_REQUIRE_CORPUS() LANESCOPE_REQUIRE_CORPUS_FILE(QString())
