#pragma once
// Where the shared real-trace corpus lives: $LANESCOPE_CORPUS, else ../shared/corpus next to the
// source tree. Tests that need it skip with a clear message when it is absent.
#include <QDir>
#include <QString>
#include <QtGlobal>

namespace lanescope::test {

inline QString corpusDir()
{
    const QByteArray env = qgetenv("LANESCOPE_CORPUS");
    const QString dir = env.isEmpty() ? QString::fromUtf8(LANESCOPE_CORPUS_DEFAULT) : QString::fromLocal8Bit(env);
    return QDir(dir).exists() ? QDir(dir).absolutePath() : QString();
}

inline QString corpusFile(const QString &relative)
{
    const QString dir = corpusDir();
    return dir.isEmpty() ? QString() : dir + QLatin1Char('/') + relative;
}

} // namespace lanescope::test

#define LANESCOPE_REQUIRE_CORPUS()                                                                      \
    do {                                                                                                \
        if (lanescope::test::corpusDir().isEmpty())                                                     \
            QSKIP("real-trace corpus not found: set LANESCOPE_CORPUS or place it at ../shared/corpus"); \
    } while (0)
