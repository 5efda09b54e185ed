// DmaQueueKinds: the kind of traffic each DMA queue lane carries, from the paired NEFF's DMA queue
// sets (the bundled sample folder, the corpus NEFF/NTFF pairs) and from lane names without one;
// KeyMetrics' DMA bytes by kind equal the engine table's queue bytes summed by those kinds.
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/enginebreakdown.h"
#include "analysis/insights/dmaqueuekinds.h"
#include "analysis/insights/insights.h"
#include "io/neff/neffreader.h"
#include "io/synthetic/samplefolderwriter.h"
#include "model/trace.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace lanescope;

namespace {

// Metrics' bytes per kind against the engine table's queues summed by the same kinds; returns how
// many lanes took their kind from the NEFF.
size_t checkMetrics(const Trace &trace)
{
    const DmaQueueKinds kinds = DmaQueueKinds::fromTrace(trace);
    const EngineBreakdownResult e = EngineBreakdown::compute(trace);
    std::map<std::string, uint64_t> expected;
    size_t fromNeff = 0;
    for (const auto &q : e.dma) {
        expected[dmaQueueKindName(kinds.of(q.queue))] += q.bytes;
        fromNeff += kinds.fromNeff(q.queue);
    }
    const auto r = Insights::run(trace, {});
    std::map<std::string, uint64_t> got;
    for (const auto &d : r.metrics.dma)
        got[d.kind] = d.bytes;
    for (auto it = expected.begin(); it != expected.end();)
        it = it->second ? std::next(it) : expected.erase(it);
    if (got != expected)
        qWarning("metrics and engine table disagree on DMA bytes by kind");
    return got == expected ? fromNeff : size_t(-1);
}

} // namespace

class TestInsightsQueueKinds : public QObject
{
    Q_OBJECT
private slots:
    void traffic()
    {
        QCOMPARE(DmaQueueKinds::fromTraffic("input->state-buffer"), DmaQueueKind::Io);
        QCOMPARE(DmaQueueKinds::fromTraffic("state-buffer->output"), DmaQueueKind::Io);
        QCOMPARE(DmaQueueKinds::fromTraffic("file->state-buffer"), DmaQueueKind::Weights);
        QCOMPARE(DmaQueueKinds::fromTraffic("state-buffer->virtual"), DmaQueueKind::SpillReload);
        QCOMPARE(DmaQueueKinds::fromTraffic("virtual->state-buffer"), DmaQueueKind::SpillReload);
        QCOMPARE(DmaQueueKinds::fromTraffic("state-buffer->state-buffer"), DmaQueueKind::Other);
        QCOMPARE(DmaQueueKinds::fromTraffic("garbage"), DmaQueueKind::Other);
    }

    // The sample folder's NEFFs name every queue its NTFFs use: input->state-buffer (qSPIO0) and
    // state-buffer->output (qActIO0), both io.
    void sampleFolder()
    {
        QTemporaryDir dir;
        const std::string folder = SampleFolderWriter::write(dir.path().toStdString(), {});
        const auto trace = lanescope::test::load(QString::fromStdString(folder));
        QVERIFY(trace);
        const DmaQueueKinds kinds = DmaQueueKinds::fromTrace(*trace);
        QVERIFY(kinds.fromNeff("qSyncIO0-Q1-E0"));
        QVERIFY(kinds.fromNeff("qScalarIO0-Q0-E4"));
        QCOMPARE(kinds.of("qSyncIO0-Q1-E0"), DmaQueueKind::Io);
        QVERIFY(!kinds.fromNeff("qNotThere0-Q0-E0"));
        const size_t fromNeff = checkMetrics(*trace);
        QVERIFY(fromNeff != size_t(-1));
        QVERIFY(fromNeff > 0);
        const auto r = Insights::run(*trace, {});
        QCOMPARE(r.metrics.dma.size(), size_t(1));
        QCOMPARE(r.metrics.dma.front().kind, std::string("io"));
    }

    // The corpus pairs (stream_256k NEFF + NTFF, read as a profile folder) take their kinds from the
    // NEFF; part2's qSPSpillReload0 carries a constant (file->state-buffer): weights, though its name
    // says spill / reload.
    void corpusPairs()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.ntff"));
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4")));
        QVERIFY(trace);
        const size_t fromNeff = checkMetrics(*trace);
        QVERIFY(fromNeff != size_t(-1));
        QVERIFY(fromNeff > 0);
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/part2_file_pool_1_float32.neff"));
        const NeffInfo neff = NeffReader::read(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/part2_file_pool_1_float32.neff")).toStdString());
        QCOMPARE(neff.subgraphs.size(), size_t(1));
        const std::string traffic = neff.subgraphs[0].queueTraffic("qSPSpillReload0");
        QCOMPARE(traffic, std::string("file->state-buffer"));
        QCOMPARE(DmaQueueKinds::fromTraffic(traffic), DmaQueueKind::Weights);
        QCOMPARE(dmaQueueKind("qSyncSpillReload0-Q0-E0"), DmaQueueKind::SpillReload);
        QCOMPARE(neff.subgraphs[0].queueTraffic("qSPIO0"), std::string("input->state-buffer"));
    }

    // A lone NTFF has no NEFF: kinds come from lane names.
    void loneNtff()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x1024.ntff"));
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x1024.ntff")));
        QVERIFY(trace);
        QCOMPARE(checkMetrics(*trace), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestInsightsQueueKinds)
#include "tst_insightsqueuekinds.moc"
