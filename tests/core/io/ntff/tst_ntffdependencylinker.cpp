// NtffDependencyLinker (through NtffImporter): semaphore waits and DMA triggers on the real NTFF
// samples; the NTFF decode (program bytes) and the neuron-profile JSON export of the same run (operand
// text) must give the same links.
#include "analysis/dependencygraph.h"
#include "corpus.h"
#include "io/ntff/ntffsync.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QDir>
#include <QtTest>

#include <algorithm>
#include <set>
#include <tuple>

using namespace lanescope;

namespace {

int64_t intArg(const Trace &t, SliceId id, std::string_view key)
{
    for (const Arg &a : t.args().args(t.slice(id).args))
        if (t.str(a.key) == key)
            return a.value.i;
    return -1;
}

// (lane, start, name) of both ends: comparable across the NTFF and the JSON trace of one run.
using End = std::tuple<std::string, int64_t, std::string>;
End endOf(const Trace &t, SliceId id)
{
    return {std::string(t.str(t.track(t.trackOfSlice(id)).name)), t.slice(id).start, std::string(t.str(t.slice(id).name))};
}

std::set<std::tuple<End, End, std::string>> links(const Trace &t)
{
    std::set<std::tuple<End, End, std::string>> out;
    for (const Flow &f : t.flows())
        out.emplace(endOf(t, f.from), endOf(t, f.to), std::string(t.str(f.category)) + " " + std::string(t.str(f.name)));
    return out;
}

} // namespace

class TestNtffDependencyLinker : public QObject
{
    Q_OBJECT
private slots:
    void operands_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("waitSemaphore"); // -1: no semaphore wait
        QTest::addColumn<int>("waitValue");
        QTest::addColumn<int>("updateSemaphore");
        QTest::addColumn<int>("dmaSemaphore");
        QTest::newRow("wait") << QStringLiteral("S[8] (qSyncSpillReload0)>=16 setter=0   ") << 8 << 16 << -1 << -1;
        QTest::newRow("update") << QStringLiteral("S[5] (Tensor)++@complete acc_flags=3") << -1 << 0 << 5 << -1;
        QTest::newRow("wait and update") << QStringLiteral("S[5] (Tensor)>=2 S[4] (Scalar)++@complete COPY") << 5 << 2 << 4 << -1;
        QTest::newRow("dma trigger") << QStringLiteral("S[4] (Scalar)>=2 semaphore=26 sem_increment=16") << 4 << 2 << -1 << 26;
        QTest::newRow("preamble barrier") << QStringLiteral(" setter=0 $S[2]==8 $S[2]=0@complete ") << -1 << 0 << -1 << -1;
        QTest::newRow("event wait") << QStringLiteral("$E[4]==1- cycle=1 ") << -1 << 0 << -1 << -1;
        QTest::newRow("no name") << QStringLiteral("S[24]>=16") << 24 << 16 << -1 << -1;
        QTest::newRow("id too large") << QStringLiteral("S[300]>=1") << -1 << 0 << -1 << -1;
        QTest::newRow("unclosed") << QStringLiteral("S[8") << -1 << 0 << -1 << -1;
        QTest::newRow("empty") << QString() << -1 << 0 << -1 << -1;
    }
    void operands()
    {
        QFETCH(QString, text);
        QFETCH(int, waitSemaphore);
        QFETCH(int, waitValue);
        QFETCH(int, updateSemaphore);
        QFETCH(int, dmaSemaphore);
        const QByteArray utf8 = text.toUtf8();
        const NtffSync s = NtffSync::fromOperands(std::string_view(utf8.constData(), size_t(utf8.size())));
        QCOMPARE(s.waitsOnSemaphore() ? int(s.waitSemaphore) : -1, waitSemaphore);
        QCOMPARE(s.waitsOnSemaphore() ? int(s.waitValue) : 0, waitValue);
        QCOMPARE(s.updatesSemaphore() ? int(s.updateSemaphore) : -1, updateSemaphore);
        QCOMPARE(int(s.dmaSemaphore), dmaSemaphore);
    }

    void ntffFiles_data()
    {
        QTest::addColumn<QString>("file");
        const QString corpus = lanescope::test::corpusDir();
        if (corpus.isEmpty())
            return;
        for (const char *dir : {"neuron-profile-json", "neuron-cs149-asst4"}) { // neuron-nkipy holds NEFFs only
            const QDir d(corpus + QLatin1Char('/') + QLatin1String(dir));
            const QStringList ntffs = d.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name);
            for (const QString &f : ntffs)
                QTest::newRow(qPrintable(QLatin1String(dir) + QLatin1Char('/') + f)) << d.filePath(f);
            if (ntffs.isEmpty()) // every folder is needed: a row that says which one is missing
                QTest::newRow(qPrintable(QLatin1String(dir) + QStringLiteral(" (no NTFF)"))) << QString();
        }
    }
    // Every instruction that waited (non-zero evt_wait_time) on a semaphore links to the update that
    // released it, through that update's producer. Waits that are not on a semaphore (an event flag
    // "$E[n]", or no sync field at all: pipeline stalls such as ACT_TABLE_LOAD) are counted apart.
    void ntffFiles()
    {
        LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
        QFETCH(QString, file);
        if (file.isEmpty())
            LANESCOPE_SKIP_OR_FAIL(QStringLiteral("real-trace corpus folder %1 holds no NTFF (in %2)")
                                       .arg(QString::fromUtf8(QTest::currentDataTag()), lanescope::test::corpusRoot()));
        const LoadResult r = TraceLoader::load(file.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        const DependencyGraph g = DependencyGraph::build(t);
        size_t waited = 0, linked = 0, notOnSemaphore = 0;
        for (uint32_t i = 0; i < t.allSlices().size(); ++i) {
            const SliceId id(i);
            if (t.str(t.slice(id).category) != "instruction" || intArg(t, id, "evt_wait_time") <= 0)
                continue;
            ++waited;
            bool semaphore = false;
            g.forEachPredecessor(id, [&](const DependencyEdge &e) {
                semaphore |= e.kind == DependencyKind::Semaphore;
                return true;
            });
            if (semaphore) {
                ++linked;
                continue;
            }
            // not linked: it must be a wait the program does not put on a semaphore
            const int64_t waitedOn = intArg(t, id, "wait_semaphore");
            QVERIFY2(waitedOn < 0, qPrintable(QStringLiteral("%1 (id %2) waited on S[%3] but links to no update")
                                                  .arg(QString::fromUtf8(t.str(t.slice(id).name).data(), qsizetype(t.str(t.slice(id).name).size())))
                                                  .arg(i)
                                                  .arg(waitedOn)));
            ++notOnSemaphore;
        }
        QCOMPARE(linked + notOnSemaphore, waited);
        qInfo("%zu instructions waited: %zu linked to a semaphore update, %zu waited on no semaphore", waited, linked,
              notOnSemaphore);
        QCOMPARE(t.diagnostics().count("semaphore waits with no releasing update or no known producer (not linked)"),
                 uint64_t(0));
    }

    // The NTFF and neuron-profile's JSON export of the same run give the same links, although one
    // decodes program bytes and the other parses operand text.
    void ntffAndJsonAgree_data()
    {
        QTest::addColumn<QString>("stem");
        const QString corpus = lanescope::test::corpusDir();
        if (corpus.isEmpty())
            return;
        const QDir d(corpus + QStringLiteral("/neuron-profile-json"));
        for (const QString &f : d.entryList({QStringLiteral("*.ntff")}, QDir::Files, QDir::Name))
            if (d.exists(f.chopped(5) + QStringLiteral(".json")))
                QTest::newRow(qPrintable(f)) << d.filePath(f.chopped(5));
    }
    void ntffAndJsonAgree()
    {
        LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
        QFETCH(QString, stem);
        const LoadResult ntff = TraceLoader::load((stem + QStringLiteral(".ntff")).toStdString());
        const LoadResult json = TraceLoader::load((stem + QStringLiteral(".json")).toStdString());
        QVERIFY2(ntff.ok(), ntff.error.c_str());
        QVERIFY2(json.ok(), json.error.c_str());
        auto a = links(*ntff.trace), b = links(*json.trace);
        // The JSON's own dependency edges (its instructions' "predecessors", the compiler's; flows of
        // category "dependency") have no counterpart in an NTFF: set aside, the linker's links agree.
        const size_t before = b.size();
        std::erase_if(b, [](const auto &link) { return std::get<2>(link).starts_with("dependency "); });
        QVERIFY(b.size() < before); // every corpus export names predecessors (17 or 21 each)
        QVERIFY(std::none_of(a.begin(), a.end(), [](const auto &link) { return std::get<2>(link).starts_with("dependency "); }));
        QVERIFY(!a.empty());
        QCOMPARE(a.size(), b.size());
        QVERIFY(a == b);
    }
};

QTEST_GUILESS_MAIN(TestNtffDependencyLinker)
#include "tst_ntffdependencylinker.moc"
