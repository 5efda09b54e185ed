#pragma once
// The data rows of the store tests (serializer, cache, SQLite export), which take every kind of input
// the same way: real corpus files, one row each, and the bundled sample folder (SampleFolderWriter),
// whose row has an empty `relative`. In the test function:
//     QFETCH(QString, relative);
//     LANESCOPE_REQUIRE_CORPUS_ROW(relative);
//     QTemporaryDir tmp;
//     const std::string path = test::corpusOrSample(relative, tmp);
#include "corpus.h"

#include "io/synthetic/samplefolderwriter.h"

#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <initializer_list>
#include <string>

namespace lanescope::test {

struct CorpusRow
{
    const char *tag;
    const char *relative; // in the corpus
};

// Adds the column "relative" and the rows: the two large Kineto traces every store test reads
// (kineto resnet50, tracelens xdit_sd35), then `more`, then "sample folder".
inline void addCorpusOrSampleRows(std::initializer_list<CorpusRow> more)
{
    QTest::addColumn<QString>("relative");
    QTest::newRow("kineto resnet50") << QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");
    QTest::newRow("tracelens xdit_sd35") << QStringLiteral("tracelens/xdit_sd35_rank0.json.gz");
    for (const CorpusRow &r : more)
        QTest::newRow(r.tag) << QString::fromLatin1(r.relative);
    QTest::newRow("sample folder") << QString();
}

// The row's input: the corpus file, or for the sample row the sample folder written into `tmp`.
inline std::string corpusOrSample(const QString &relative, const QTemporaryDir &tmp)
{
    return relative.isEmpty() ? SampleFolderWriter::write(tmp.path().toStdString()) : corpusFile(relative).toStdString();
}

} // namespace lanescope::test

// Skips (or under LANESCOPE_REQUIRE_CORPUS=1 fails) a row whose corpus file is missing; the sample row
// needs nothing.
#define LANESCOPE_REQUIRE_CORPUS_ROW(relative)          \
    do {                                                \
        if (!(relative).isEmpty())                      \
            LANESCOPE_REQUIRE_CORPUS_FILE(relative);    \
    } while (0)
