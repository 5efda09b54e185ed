// What a user sees first (issue 28): `lanescope --screenshot` prints one `visible lane: PATH` line per
// lane row on the rendered first screen. On a real GPU trace a GPU stream is on it, on the corpus NTFF
// every engine lane and the DMA summaries (the folded lane sets), on the bundled sample the NeuronCore's
// engines; at 1920x1080 and at 1366x768.
#include "corpus.h"
#include "offscreenrun.h"

#include "io/synthetic/samplefolderwriter.h"

#include <QTemporaryDir>
#include <QtTest>

using lanescope::test::CliRun;
using lanescope::test::runOffscreen;

namespace {

QStringList visibleLanes(const QString &path, const QString &size, const QString &out)
{
    const CliRun r = runOffscreen(QStringLiteral(LANESCOPE_GUI), {QStringLiteral("--screenshot"), out, QStringLiteral("--size"), size, path});
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    QStringList lanes;
    for (const QByteArray &line : r.out.split('\n'))
        if (line.startsWith("visible lane: "))
            lanes << QString::fromUtf8(line.mid(14));
    return lanes;
}

bool any(const QStringList &lanes, const QString &pattern)
{
    return !lanes.filter(QRegularExpression(pattern)).isEmpty();
}

} // namespace

class TestVisibleLanes : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void sizes_data()
    {
        QTest::addColumn<QString>("size");
        QTest::newRow("1920x1080") << QStringLiteral("1920x1080");
        QTest::newRow("1366x768") << QStringLiteral("1366x768");
    }

    void gpuTrace_data() { sizes_data(); }
    void gpuTrace()
    {
        const QString file = QStringLiteral("tracelens/sglang_decode_bs32_rank0.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        QFETCH(QString, size);
        const QStringList lanes = visibleLanes(lanescope::test::corpusFile(file), size, m_dir.filePath(QStringLiteral("gpu.png")));
        QVERIFY2(!lanes.isEmpty(), "no visible lane line");
        qInfo("%s: %s", qPrintable(size), qPrintable(lanes.join(QStringLiteral(" | "))));
        // the first lane on screen is a GPU stream
        QVERIFY2(lanes.front().contains(QLatin1String("stream"), Qt::CaseInsensitive), qPrintable(lanes.front()));
    }

    void ntff_data() { sizes_data(); }
    void ntff()
    {
        const QString file = QStringLiteral("neuron-profile-json/profile_128x128x256.ntff");
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        QFETCH(QString, size);
        const QStringList lanes = visibleLanes(lanescope::test::corpusFile(file), size, m_dir.filePath(QStringLiteral("ntff.png")));
        qInfo("%s: %s", qPrintable(size), qPrintable(lanes.join(QStringLiteral(" | "))));
        for (const char *engine : {"/ Tensor$", "/ Vector$", "/ Scalar$", "/ GpSimd$"})
            QVERIFY2(any(lanes, QLatin1String(engine)), engine);
        QVERIFY2(any(lanes, QStringLiteral("/ DMA · .* queues \\(collapsed: \\d+ lanes\\)$")), "no DMA summary row");
        QVERIFY2(!any(lanes, QStringLiteral("-Q\\d+-E\\d+$")), "a single DMA queue lane is on the first screen");
    }

    void sample_data() { sizes_data(); }
    void sample()
    {
        QFETCH(QString, size);
        const QString folder = QString::fromStdString(lanescope::SampleFolderWriter::write(m_dir.path().toStdString(), {}));
        const QStringList lanes = visibleLanes(folder, size, m_dir.filePath(QStringLiteral("sample.png")));
        qInfo("%s: %s", qPrintable(size), qPrintable(lanes.join(QStringLiteral(" | "))));
        QVERIFY2(any(lanes, QStringLiteral("NeuronCore .*/ executions$")), "no NeuronCore executions lane");
        QVERIFY2(any(lanes, QStringLiteral("NeuronCore .*/ Tensor$")), "no Tensor engine lane");
    }
};

QTEST_GUILESS_MAIN(TestVisibleLanes)
#include "tst_visiblelanes.moc"
