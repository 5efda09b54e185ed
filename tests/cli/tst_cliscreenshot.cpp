// lanescope-cli screenshot, run as a user would: headless (no display, no QT_QPA_PLATFORM), the PNG
// has the requested size and really shows lanes; SVG output; lane filter and range; errors.
#include "corpus.h"
#include "imagecheck.h"

#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

using lanescope::test::distinctColors;
using lanescope::test::saturatedPixels;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out, err;
};

// Without a display and without QT_QPA_PLATFORM: the command must pick offscreen by itself.
Run cli(const QStringList &args, const QString &platform = QString())
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    if (!platform.isEmpty())
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(LANESCOPE_CLI), args);
    p.waitForFinished(300000);
    return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

const QString kResnet = QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz");

QString resnet()
{
    return lanescope::test::corpusFile(kResnet);
}

int lanesIn(const QByteArray &out)
{
    const QList<QByteArray> parts = out.split(' ');
    for (qsizetype i = 1; i < parts.size(); ++i)
        if (parts[i].startsWith("lanes"))
            return parts[i - 1].toInt();
    return -1;
}

void keep(const QString &path)
{
    if (!qEnvironmentVariableIsEmpty("LANESCOPE_KEEP_IMAGES"))
        QFile::copy(path, qEnvironmentVariable("LANESCOPE_KEEP_IMAGES") + QStringLiteral("/cli-") + QFileInfo(path).fileName());
}

} // namespace

class TestCliScreenshot : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_sample;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_sample = m_dir.filePath(QStringLiteral("sample.json"));
        const Run r = cli({QStringLiteral("generate-sample"), QStringLiteral("-o"), m_sample});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void sizeAndContent_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("scale");
        QTest::newRow("1600x900") << 1600 << 900 << 1;
        QTest::newRow("800x400") << 800 << 400 << 1;
        QTest::newRow("1000x600 at 2x") << 1000 << 600 << 2;
    }

    // The real trace: exact size, many colours, lane names at the left, slices at the right.
    void sizeAndContent()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kResnet);
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, scale);
        const QString out = m_dir.filePath(QStringLiteral("resnet-%1x%2-%3.png").arg(width).arg(height).arg(scale));
        const Run r = cli({QStringLiteral("screenshot"), resnet(), QStringLiteral("-o"), out, QStringLiteral("--width"),
                           QString::number(width), QStringLiteral("--height"), QString::number(height),
                           QStringLiteral("--scale"), QString::number(scale)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(lanesIn(r.out) > 3);
        QImage image(out);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(width * scale, height * scale));
        QVERIFY(distinctColors(image) > 30);
        // the header column (at least the first 120 px) holds lane names below the ruler
        QVERIFY(distinctColors(image, QRect(0, 40 * scale, 110 * scale, (height - 60) * scale)) > 5);
        // the time area is mostly right of width/4 (at most 300 px): slices there
        const QRect time(std::min(width / 4, 300) * scale + 4, 40 * scale, width * scale * 2 / 3, (height - 60) * scale);
        QVERIFY2(saturatedPixels(image, time) > time.width() * time.height() / 100,
                 qPrintable(QString::number(saturatedPixels(image, time))));
        keep(out);
    }

    // No --height: tall enough for every lane; --lanes keeps fewer; --range and --caption.
    void filtersAndCaption()
    {
        const QString all = m_dir.filePath(QStringLiteral("sample-all.png"));
        Run r = cli({QStringLiteral("screenshot"), m_sample, QStringLiteral("-o"), all});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const int lanesAll = lanesIn(r.out);
        QVERIFY(lanesAll > 2);
        const QImage full(all);
        QCOMPARE(full.width(), 1600);
        QVERIFY(full.height() > 100);
        keep(all);

        const QString device = m_dir.filePath(QStringLiteral("sample-device.png"));
        r = cli({QStringLiteral("screenshot"), m_sample, QStringLiteral("-o"), device, QStringLiteral("--lanes"),
                 QStringLiteral("NeuronCore"), QStringLiteral("--range"), QStringLiteral("0:2"), QStringLiteral("--caption"),
                 QStringLiteral("--width"), QStringLiteral("1000")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // A unit-less range is the deprecated form (ms after the start): it works and says so, once.
        QVERIFY2(r.err.contains("deprecated") && r.err.contains("ms after the trace start"), r.err.constData());
        QVERIFY(lanesIn(r.out) >= 1);
        QVERIFY(lanesIn(r.out) < lanesAll);
        const QImage filtered(device);
        QCOMPARE(filtered.width(), 1000);
        QVERIFY(filtered.height() < full.height() + 40);
        // the caption band at the bottom holds text
        QVERIFY(distinctColors(filtered, QRect(0, filtered.height() - 16, 500, 10)) > 3);
        keep(device);
    }

    void svg()
    {
        const QString out = m_dir.filePath(QStringLiteral("sample.svg"));
        const Run r = cli({QStringLiteral("screenshot"), m_sample, QStringLiteral("-o"), out, QStringLiteral("--width"),
                           QStringLiteral("900"), QStringLiteral("--height"), QStringLiteral("500"), QStringLiteral("--dark")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QSvgRenderer renderer(out);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.defaultSize(), QSize(900, 500));
        QImage back(900, 500, QImage::Format_ARGB32);
        back.fill(Qt::white);
        QPainter p(&back);
        renderer.render(&p);
        p.end();
        QVERIFY(distinctColors(back) > 20);
        QVERIFY(saturatedPixels(back) > 2000);
    }

    // The Engines panel of a Neuron profile folder (the synthetic sample: NTFF + NEFF + trace.json).
    void enginesView()
    {
        const QString folder = m_dir.filePath(QStringLiteral("folder"));
        Run r = cli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), folder});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString profile = folder + QStringLiteral("/synthetic_rmsnorm_profile");
        const QString out = m_dir.filePath(QStringLiteral("engines.png"));
        r = cli({QStringLiteral("screenshot"), profile, QStringLiteral("-o"), out, QStringLiteral("--view"),
                 QStringLiteral("engines"), QStringLiteral("--width"), QStringLiteral("1200"), QStringLiteral("--height"),
                 QStringLiteral("800"), QStringLiteral("--caption")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains(" engines, "), r.out.constData());
        QImage image(out);
        QCOMPARE(image.size(), QSize(1200, 800));
        QVERIFY(distinctColors(image) > 30);
        QVERIFY(saturatedPixels(image) > 5000); // bars and pie slices
        keep(out);
        // a trace without NeuronCores has no engines to chart
        r = cli({QStringLiteral("screenshot"), m_sample, QStringLiteral("-o"), out, QStringLiteral("--view"),
                 QStringLiteral("engines")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no NeuronCore engines"), r.err.constData());
    }

    // The Analysis panel's operator table of the real rmsnorm trace.
    void opsView()
    {
        const QString out = m_dir.filePath(QStringLiteral("ops.png"));
        const Run r = cli({QStringLiteral("screenshot"), m_sample, QStringLiteral("-o"), out, QStringLiteral("--view"),
                           QStringLiteral("ops"), QStringLiteral("--width"), QStringLiteral("1100"), QStringLiteral("--height"),
                           QStringLiteral("600")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QImage image(out);
        QCOMPARE(image.size(), QSize(1100, 600));
        QVERIFY(distinctColors(image) > 10);
        // rows of text: many non-background pixels in the upper half
        QVERIFY(distinctColors(image, QRect(0, 60, 1100, 240)) > 10);
        keep(out);
    }

    // Other commands never start a GUI: a platform that cannot work does not bother them.
    void otherCommandsStayHeadless()
    {
        const Run r = cli({QStringLiteral("info"), m_sample}, QStringLiteral("xcb"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("slices"));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString o = QStringLiteral("-o");
        QTest::newRow("no output") << QStringList{QStringLiteral("SAMPLE")} << QStringLiteral("-o OUT.png is required");
        QTest::newRow("no path") << QStringList{o, QStringLiteral("x.png")} << QStringLiteral("expected one PATH");
        QTest::newRow("bad regex") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--lanes"), QStringLiteral("(")}
                                   << QStringLiteral("lane filter '('");
        QTest::newRow("no lane") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--lanes"), QStringLiteral("^zzz$")}
                                 << QStringLiteral("matches no lane");
        QTest::newRow("bad range") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--range"), QStringLiteral("5:1")}
                                   << QStringLiteral("TO must be after FROM");
        QTest::newRow("bad range side") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--range"), QStringLiteral("1ms:later")}
                                        << QStringLiteral("--range '1ms:later': TO 'later' is not a time");
        QTest::newRow("empty range") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--range"), QStringLiteral("2ms:2ms")}
                                     << QStringLiteral("TO must be after FROM");
        QTest::newRow("bad width") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--width"), QStringLiteral("wide")}
                                   << QStringLiteral("--width expects");
        QTest::newRow("tiny") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--width"), QStringLiteral("10")}
                              << QStringLiteral("width 10 is outside");
        QTest::newRow("unknown view") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--view"), QStringLiteral("pie")}
                                      << QStringLiteral("unknown view 'pie' (timeline, engines, ops, summary)");
        QTest::newRow("lanes with engines") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--view"), QStringLiteral("engines"), QStringLiteral("--lanes"), QStringLiteral("x")}
                                            << QStringLiteral("--lanes applies to the timeline view only");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("x.png"), QStringLiteral("--fancy")}
                                        << QStringLiteral("unknown option --fancy");
        QTest::newRow("unreadable") << QStringList{QStringLiteral("/nonexistent/trace.json"), o, QStringLiteral("x.png")}
                                    << QStringLiteral("/nonexistent/trace.json");
        QTest::newRow("unwritable") << QStringList{QStringLiteral("SAMPLE"), o, QStringLiteral("/nonexistent/dir/x.png")}
                                    << QStringLiteral("cannot write /nonexistent/dir/x.png");
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        args.replaceInStrings(QStringLiteral("SAMPLE"), m_sample);
        for (QString &a : args)
            if (a == QStringLiteral("x.png"))
                a = m_dir.filePath(a);
        const Run r = cli(QStringList{QStringLiteral("screenshot")} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }
};

QTEST_MAIN(TestCliScreenshot)
#include "tst_cliscreenshot.moc"
