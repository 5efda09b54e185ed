// The inputs the fuzzers of tests/fuzz once failed on (tests/data/fuzz-regressions/<harness>/), replayed
// in every `make test` / `make test-asan`, with or without clang: first on the harness's own path through
// the readers, then through TraceLoader from a file, as a user would open it. Folder inputs
// (fuzz_profilefolder) are written out as the harness does (tests/fuzz/folderspec.h) and opened as a folder. Each must end within the time
// bound with a load or an error naming the file (rules and helpers: tests/common/hostile.h).
#include "../../fuzz/folderspec.h"
#include "hostiletestcase.h"
#include "traceequal.h"

#include "io/chrome/chromejsonimporter.h"
#include "io/folder/profilefolder.h"
#include "io/folder/profilefolderloader.h"
#include "io/input/inputbuffer.h"
#include "io/neff/neffreader.h"
#include "io/neuronprofile/neuronprofilejsonimporter.h"
#include "io/ntff/ntffimporter.h"
#include "io/protobuf/protobufreader.h"
#include "io/ranks/rankdetection.h"
#include "io/systemprofile/systemprofileimporter.h"
#include "io/traceloader.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTest>

#include <optional>
#include <utility>

using namespace lanescope;
using namespace lanescope::test;

class TestFuzzRegressions : public HostileTestCase
{
    Q_OBJECT

private slots:
    // ---- inputs the fuzzers once failed on ----

    void fuzzRegressions_data()
    {
        QTest::addColumn<QString>("harness");
        QTest::addColumn<QString>("file");
        const QString base = QStringLiteral(LANESCOPE_TEST_DATA "/fuzz-regressions");
        for (const QFileInfo &h : QDir(base).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            for (const QFileInfo &f : QDir(h.filePath()).entryInfoList(QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(h.fileName() + QLatin1Char('/') + f.fileName())) << h.fileName() << f.filePath();
    }

    void fuzzRegressions()
    {
        QFETCH(QString, harness);
        QFETCH(QString, file);
        const std::string bytes = readFile(file);
        // the harness's own path through the readers, on the bytes as the fuzzer saw them
        LoadOptions options;
        options.memoryBudget = uint64_t(64) << 20;
        QElapsedTimer t;
        t.start();
        std::string outcome = "ok";
        try {
            if (harness == QLatin1String("fuzz_neff")) {
                NeffReader::readBytes(bytes, "regression", options);
            } else if (harness == QLatin1String("fuzz_protobuf")) {
                ProtobufReader r(bytes, "regression", 128);
                ProtobufReader::Field f;
                while (r.next(f))
                    if (f.type == ProtobufReader::WireType::LengthDelimited)
                        (void)r.nested(f).find(1);
            } else if (harness == QLatin1String("fuzz_ranks")) {
                // a path line, then the head of a trace
                const size_t eol = std::min(bytes.find('\n'), bytes.size());
                const std::string_view head = eol < bytes.size() ? std::string_view(bytes).substr(eol + 1) : std::string_view();
                (void)RankDetection::fromPath(std::string_view(bytes).substr(0, std::min<size_t>(eol, 4096)));
                outcome = "rank " + std::to_string(RankDetection::fromHead(head)) + ", " + std::to_string(RankDetection::fromDistributedInfo(head));
            } else if (harness == QLatin1String("fuzz_jsonwindows")) {
                // byte 0 bit 3: two parse threads; byte 1 bits 0-2: the window size; then the text. The
                // harness's oracle: the windowed import equals the one-window import, or both fail.
                QVERIFY(bytes.size() >= 2);
                constexpr size_t kWindows[8] = {1, 2, 5, 64, 100, 1000, 4096, 65536}; // as fuzz_jsonwindows.cpp
                const std::string text = bytes.substr(2);
                LoadOptions windowed = options, one = options;
                windowed.jsonWindowBytes = kWindows[uint8_t(bytes[1]) & 7];
                windowed.jsonThreads = (uint8_t(bytes[0]) & 8) ? 2 : 1;
                one.jsonWindowBytes = text.size() + 64;
                one.jsonThreads = 1;
                const auto importWith = [&text](const LoadOptions &o) -> std::pair<std::optional<Trace>, std::string> {
                    try {
                        InputBuffer in = InputBuffer::fromBytes(text, "regression", o);
                        return {ChromeJsonImporter::import(in, "regression", o), std::string()};
                    } catch (const ImportError &e) {
                        return {std::nullopt, e.what()};
                    }
                };
                const auto [a, aError] = importWith(windowed);
                const auto [b, bError] = importWith(one);
                QVERIFY2(a.has_value() == b.has_value(), qPrintable(QString::fromStdString(aError + " | " + bError)));
                if (a)
                    QVERIFY2(traceDifference(*a, *b).empty(), traceDifference(*a, *b).c_str());
                outcome = a ? "ok, " + std::to_string(windowed.jsonWindowBytes) + "-byte windows as one" : aError;
                QVERIFY2(a || contains(aError, "regression"), aError.c_str());
            } else if (harness == QLatin1String("fuzz_profilefolder")) {
                // the tree the harness would have made, scanned and loaded as the harness does
                const QString root = m_scratch.path(QStringLiteral("folder-") + QFileInfo(file).fileName());
                QDir(root).removeRecursively();
                QVERIFY(QDir().mkpath(root));
                fuzz::materialise(root.toStdString(), bytes);
                const ProfileFolder folder = ProfileFolder::scan(root.toStdString(), options);
                outcome = std::to_string(folder.files().size()) + " files";
                (void)ProfileFolderLoader::load(folder, options); // may throw: no file with a timeline
            } else {
                InputBuffer in = InputBuffer::fromBytes(bytes, "regression", options);
                if (harness == QLatin1String("fuzz_chromejson"))
                    (void)ChromeJsonImporter::import(in, "regression", options);
                else if (harness == QLatin1String("fuzz_ntff"))
                    (void)NtffImporter::import(in, "regression", options);
                else if (harness == QLatin1String("fuzz_neuronprofilejson"))
                    (void)NeuronProfileJsonImporter::import(in, "regression", options);
                else if (harness == QLatin1String("fuzz_systemprofile"))
                    (void)SystemProfileImporter::import(in, "regression", options);
                else if (harness != QLatin1String("fuzz_inputbuffer"))
                    QFAIL(qPrintable(QStringLiteral("no replay for the inputs of harness %1").arg(harness)));
            }
        } catch (const ImportError &e) {
            outcome = e.what();
            QVERIFY2(contains(outcome, "regression") || harness == QLatin1String("fuzz_profilefolder"), e.what());
        }
        QVERIFY2(t.elapsed() < boundMs(10), qPrintable(QStringLiteral("took %1 ms").arg(t.elapsed())));
        // and through TraceLoader from a file (a folder), as a user would open it
        if (harness == QLatin1String("fuzz_profilefolder")) {
            const QString root = m_scratch.path(QStringLiteral("folder-") + QFileInfo(file).fileName());
            const Outcome o = loadTrace(root, options);
            VERIFY_OUTCOME(o, root, boundMs(10), false);
            QVERIFY(QDir(root).removeRecursively());
        } else if (harness != QLatin1String("fuzz_protobuf") && harness != QLatin1String("fuzz_ranks")) {
            const QString p = m_scratch.fresh(QStringLiteral("regression.bin"));
            QVERIFY(writeFile(p, harness == QLatin1String("fuzz_jsonwindows") ? bytes.substr(2) : bytes)); // its text
            const Outcome o = harness == QLatin1String("fuzz_neff") ? loadNeff(p, options) : loadTrace(p, options);
            VERIFY_OUTCOME(o, p, boundMs(10), false);
        }
        qInfo("%s", outcome.c_str());
    }

    // ---- the folder harnesses' scratch trees ----

    // Links that resolve out of the tree once something is made through them: the harness must make
    // nothing next to its scratch folder (a fuzz_profilefolder input once wrote a link into /dev this way,
    // and the scan then walked the whole machine).
    void folderSpecStaysInside()
    {
        const QString outer = m_scratch.path(QStringLiteral("outer"));
        QDir(outer).removeRecursively();
        const QString root = outer + QStringLiteral("/tree");
        QVERIFY(QDir().mkpath(root));
        const std::string spec = readFile(QStringLiteral(LANESCOPE_TEST_DATA "/fuzz-regressions/fuzz_profilefolder/link_through_link_escape"));
        QVERIFY(contains(spec, "x/y/p/q -> ../../"));
        std::vector<std::string> created;
        fuzz::materialise(root.toStdString(), spec, &created);

        QCOMPARE(QDir(outer).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
                 QStringList{QStringLiteral("tree")});
        QVERIFY(QFileInfo(root + QStringLiteral("/x/y")).isSymLink()); // the first link is made...
        QVERIFY(QFileInfo(root + QStringLiteral("/inside")).isFile());  // ...and entries that do not pass through it
        for (const std::string &path : created) {
            const QString p = QString::fromStdString(path);
            QVERIFY2(p.startsWith(root + QLatin1Char('/')), qPrintable(p));
            const QStringList parts = p.mid(root.size() + 1).split(QLatin1Char('/'));
            QString level = root;
            for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
                level += QLatin1Char('/') + parts[i];
                QVERIFY2(!QFileInfo(level).isSymLink(), qPrintable(p + QStringLiteral(": made through a link")));
            }
        }
        QCOMPARE(created.size(), size_t(3)); // x/, x/y, inside

        // the scan follows the link (back to the tree's root) and finds nothing outside the tree, by
        // the path it lists and by where that path leads
        const ProfileFolder folder = ProfileFolder::scan(root.toStdString(), LoadOptions());
        const QString realRoot = QFileInfo(root).canonicalFilePath(); // x/y leads here
        QVERIFY(!folder.files().empty());
        for (const FolderFile &f : folder.files()) {
            QVERIFY2(f.path.compare(0, size_t(root.size()) + 1, root.toStdString() + "/") == 0, f.path.c_str());
            const QString real = QFileInfo(QString::fromStdString(f.path)).canonicalFilePath();
            QVERIFY2(real.isEmpty() || real == realRoot || real.startsWith(realRoot + QLatin1Char('/')), qPrintable(real));
        }
        QVERIFY(QDir(outer).removeRecursively());
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzzregressions.moc"
