// The Statistics dock rendered headless: `lanescope --screenshot OUT --dock statistics --select NAME
// PATH` on the bundled sample shows the statistics of NAME (the GUI prints what the dock shows: count,
// bins, where the histogram is). The count and the bins equal what `lanescope-cli stats --name
// '^NAME$' --json` prints for the same trace, and the picture has the histogram's bars where the GUI
// says the histogram is, in the light and the dark theme, at 1366x768 and 1920x1080.
#include "imagecheck.h"
#include "offscreenrun.h"

#include "io/synthetic/samplefolderwriter.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope::test; // CliRun, runOffscreen, saturatedPixels

class TestStatisticsScreenshot : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(m_dir.isValid(), qPrintable(m_dir.errorString()));
        m_sample = QString::fromStdString(lanescope::SampleFolderWriter::write(m_dir.path().toStdString()));
    }

    void statisticsDock_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("dark");
        // a runtime call (the framework trace's and the system trace's), a Neuron opcode
        QTest::newRow("nrt_execute light 1366x768") << QStringLiteral("nrt_execute") << QSize(1366, 768) << false;
        QTest::newRow("EVENT_SEMAPHORE dark 1920x1080") << QStringLiteral("EVENT_SEMAPHORE") << QSize(1920, 1080) << true;
    }

    void statisticsDock()
    {
        QFETCH(QString, name);
        QFETCH(QSize, size);
        QFETCH(bool, dark);
        const QString out = m_dir.filePath(QStringLiteral("stats-%1-%2.png").arg(name).arg(dark));
        QStringList args{QStringLiteral("--screenshot"), out, QStringLiteral("--dock"), QStringLiteral("statistics"),
                         QStringLiteral("--select"), name, QStringLiteral("--size"),
                         QStringLiteral("%1x%2").arg(size.width()).arg(size.height()), m_sample};
        if (dark)
            args << QStringLiteral("--dark");
        const CliRun gui = runOffscreen(QStringLiteral(LANESCOPE_GUI), args);
        QVERIFY2(gui.exitCode == 0, gui.err.constData());
        const QRegularExpression line(QStringLiteral("statistics: (.+): (\\d+) occurrences, (\\d+) bins, histogram at (\\d+),(\\d+) (\\d+)x(\\d+)"));
        const QRegularExpressionMatch m = line.match(QString::fromUtf8(gui.out));
        QVERIFY2(m.hasMatch(), gui.out.constData());
        QCOMPARE(m.captured(1), name);

        // The same numbers as the CLI's.
        const CliRun cli = runOffscreen(QStringLiteral(LANESCOPE_CLI), {QStringLiteral("stats"), m_sample, QStringLiteral("--name"),
                                                                        QLatin1Char('^') + name + QLatin1Char('$'), QStringLiteral("--json")});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const QJsonArray names = QJsonDocument::fromJson(cli.out).object().value(QStringLiteral("names")).toArray();
        QCOMPARE(names.size(), 1);
        const QJsonObject row = names[0].toObject();
        QCOMPARE(row.value(QStringLiteral("name")).toString(), name);
        QVERIFY(row.value(QStringLiteral("count")).toInteger() > 1);
        QCOMPARE(m.captured(2).toLongLong(), row.value(QStringLiteral("count")).toInteger());
        QCOMPARE(m.captured(3).toLongLong(), qint64(row.value(QStringLiteral("histogram")).toArray().size()));

        // The picture: the window at the asked size, the histogram on it with its bars drawn.
        const QImage image(out);
        QCOMPARE(image.size(), size);
        const QRect histogram(m.captured(4).toInt(), m.captured(5).toInt(), m.captured(6).toInt(), m.captured(7).toInt());
        QVERIFY2(image.rect().contains(histogram), gui.out.constData());
        QVERIFY(histogram.width() >= 200 && histogram.height() >= 110); // at least its minimum size: not squeezed away
        QVERIFY2(saturatedPixels(image, histogram) > 300, qPrintable(QString::number(saturatedPixels(image, histogram))));
    }

    void statisticsOfAnUnknownNameSaysNone()
    {
        // --select of a name that is in no slice: nothing is selected, the window is saved without a statistics line
        const QString out = m_dir.filePath(QStringLiteral("none.png"));
        const CliRun gui = runOffscreen(QStringLiteral(LANESCOPE_GUI), {QStringLiteral("--screenshot"), out, QStringLiteral("--dock"),
                                                                        QStringLiteral("statistics"), QStringLiteral("--select"),
                                                                        QStringLiteral("no such slice"), m_sample});
        QCOMPARE(gui.exitCode, 0);
        QVERIFY(!gui.out.contains("statistics:"));
        QVERIFY(!QImage(out).isNull());
    }

private:
    QTemporaryDir m_dir;
    QString m_sample; // the bundled sample profile folder (generate-sample)
};

QTEST_GUILESS_MAIN(TestStatisticsScreenshot)
#include "tst_statisticsscreenshot.moc"
