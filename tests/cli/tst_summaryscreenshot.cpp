// The Summary page rendered headless for reviews (issue 17): `lanescope --screenshot OUT --view
// summary PATH` and `lanescope-cli screenshot PATH --view summary -o OUT` write a PNG of the requested
// size that shows the page (coloured severity badges and bars, not a blank widget); bad --view values
// are usage errors.
#include "imagecheck.h"
#include "offscreenrun.h"

#include "io/synthetic/samplefolderwriter.h"

#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

using lanescope::test::CliRun;
using lanescope::test::runOffscreen;
using lanescope::test::saturatedPixels;

class TestSummaryScreenshot : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_naive;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        lanescope::SampleFolderWriter::Options options;
        options.variant = "naive";
        m_naive = QString::fromStdString(lanescope::SampleFolderWriter::write(m_dir.path().toStdString(), options));
    }

    void guiScreenshot_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void guiScreenshot()
    {
        QFETCH(bool, dark);
        const QString out = m_dir.filePath(dark ? QStringLiteral("gui-dark.png") : QStringLiteral("gui.png"));
        QStringList args{QStringLiteral("--screenshot"), out, QStringLiteral("--view"), QStringLiteral("summary"),
                         QStringLiteral("--size"), QStringLiteral("1366x768"), m_naive};
        if (dark)
            args << QStringLiteral("--dark");
        const CliRun r = runOffscreen(QStringLiteral(LANESCOPE_GUI), args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QImage image(out);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1366, 768));
        QVERIFY(QFileInfo(out).size() > 10000);
    }

    void cliScreenshot()
    {
        const QString out = m_dir.filePath(QStringLiteral("cli.png"));
        const CliRun r = runOffscreen(QStringLiteral(LANESCOPE_CLI), {QStringLiteral("screenshot"), m_naive, QStringLiteral("--view"),
                                                                      QStringLiteral("summary"), QStringLiteral("-o"), out,
                                                                      QStringLiteral("--width"), QStringLiteral("1200")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // host-device-copy and fusion-candidate; no capture check (three steps, synchronized). dma-bound and
        // semaphore-wait no longer fire here: over three steps the device idles while the host copies x in and y out.
        QVERIFY2(r.out.contains("summary, 2 findings, 1200x900"), r.out.constData());
        const QImage image(out);
        QCOMPARE(image.size(), QSize(1200, 900));
        QVERIFY(saturatedPixels(image) > 500); // the HIGH / MEDIUM badges, the card edges, the bars
    }

    void unknownViewIsAUsageError()
    {
        const CliRun gui = runOffscreen(QStringLiteral(LANESCOPE_GUI), {QStringLiteral("--screenshot"), m_dir.filePath(QStringLiteral("x.png")),
                                                                        QStringLiteral("--view"), QStringLiteral("nonsense"), m_naive});
        QCOMPARE(gui.exitCode, 2);
        QVERIFY(gui.err.contains("--view expects summary"));
        const CliRun cli = runOffscreen(QStringLiteral(LANESCOPE_CLI), {QStringLiteral("screenshot"), m_naive, QStringLiteral("--view"),
                                                                        QStringLiteral("nonsense"), QStringLiteral("-o"), m_dir.filePath(QStringLiteral("y.png"))});
        QCOMPARE(cli.exitCode, 2);
        QVERIFY(cli.err.contains("summary"));
    }
};

QTEST_GUILESS_MAIN(TestSummaryScreenshot)
#include "tst_summaryscreenshot.moc"
