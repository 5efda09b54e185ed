// ImageExporter: timeline pictures at a size and scale, lane filters, the caption band, SVG, and
// the range syntax. Inputs: a real Kineto trace from the corpus and the synthetic sample.
#include "corpus.h"
#include "export/imageexporter.h"
#include "imagecheck.h"
#include "timeline/timelineview.h"

#include "io/synthetic/kinetosamplewriter.h"
#include "io/traceloader.h"
#include "model/trace.h"
#include "util/pngencoder.h"

#include <QDateTime>
#include <QFile>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace lanescope;
using lanescope::test::distinctColors;
using lanescope::test::saturatedPixels;

class TestImageExporter : public QObject
{
    Q_OBJECT

    std::shared_ptr<const Trace> m_sample; // synthetic, always there
    QTemporaryDir m_dir;

    std::shared_ptr<const Trace> load(const QString &path)
    {
        const LoadResult r = TraceLoader::load(path.toStdString());
        if (!r.ok())
            qWarning("%s", r.error.c_str());
        return r.trace;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("sample.json"));
        std::string error;
        QVERIFY(KinetoSampleWriter::writeFile(path.toStdString(), KinetoSampleWriter::Options{}, &error));
        m_sample = load(path);
        QVERIFY(m_sample);
    }

    void parseRange_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::newRow("ms") << QStringLiteral("10:12.5") << true << qint64(10000000) << qint64(12500000);
        QTest::newRow("units") << QStringLiteral("200us:350us") << true << qint64(200000) << qint64(350000);
        QTest::newRow("mixed") << QStringLiteral("0:1s") << true << qint64(0) << qint64(1000000000);
        QTest::newRow("ns") << QStringLiteral("5ns:9ns") << true << qint64(5) << qint64(9);
        QTest::newRow("spaces") << QStringLiteral(" 1 : 2 ") << true << qint64(1000000) << qint64(2000000);
        QTest::newRow("reversed") << QStringLiteral("3:2") << false << qint64(0) << qint64(0);
        QTest::newRow("empty span") << QStringLiteral("2:2") << false << qint64(0) << qint64(0);
        QTest::newRow("no colon") << QStringLiteral("12") << false << qint64(0) << qint64(0);
        QTest::newRow("garbage") << QStringLiteral("a:b") << false << qint64(0) << qint64(0);
        QTest::newRow("bad unit") << QStringLiteral("1h:2h") << false << qint64(0) << qint64(0);
        QTest::newRow("huge") << QStringLiteral("0:1e300") << false << qint64(0) << qint64(0);
        // The one range syntax (core/analysis/timerange.h): units; no open ends or Nabs without a trace.
        QTest::newRow("units everywhere") << QStringLiteral("10ms:12.5ms") << true << qint64(10000000) << qint64(12500000);
        QTest::newRow("µs") << QStringLiteral("1µs:2µs") << true << qint64(1000) << qint64(2000);
        QTest::newRow("open end") << QStringLiteral("1ms:") << false << qint64(0) << qint64(0);
        QTest::newRow("abs") << QStringLiteral("100abs:200abs") << false << qint64(0) << qint64(0);
    }

    void parseRange()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        int64_t fromNs = -1, toNs = -1;
        QString error;
        QCOMPARE(ImageExporter::parseRange(text, &fromNs, &toNs, &error), ok);
        if (ok) {
            QCOMPARE(qint64(fromNs), from);
            QCOMPARE(qint64(toNs), to);
            QVERIFY(error.isEmpty());
        } else {
            QVERIFY2(error.contains(text), qPrintable(error));
            QCOMPARE(fromNs, int64_t(-1)); // untouched
        }
    }

    void timelineAtScale_data()
    {
        QTest::addColumn<qreal>("scale");
        QTest::newRow("1x") << qreal(1);
        QTest::newRow("2x") << qreal(2);
    }

    // The real trace: the picture has the requested size, lane names in the header column and
    // coloured slices in the time area.
    void timelineAtScale()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz"));
        QFETCH(qreal, scale);
        const auto trace = load(lanescope::test::corpusFile(
            QStringLiteral("kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz")));
        QVERIFY(trace);
        ImageExporter::TimelineRequest request;
        request.trace = trace;
        request.width = 1200;
        request.height = 700;
        QString error;
        const auto view = ImageExporter::createTimeline(request, false, &error);
        QVERIFY2(view, qPrintable(error));
        QVERIFY(view->laneCount() > 3);
        const QImage image = ImageExporter::renderImage(view.get(), scale, {});
        QCOMPARE(image.size(), QSize(int(1200 * scale), int(700 * scale)));
        QCOMPARE(image.devicePixelRatio(), scale);
        image.save(m_dir.filePath(QStringLiteral("resnet-%1x.png").arg(scale)));
        const QRect area = view->timeArea();
        const auto physical = [scale](const QRect &r) {
            return QRect(int(r.x() * scale), int(r.y() * scale), int(r.width() * scale), int(r.height() * scale));
        };
        QVERIFY(distinctColors(image) > 30);
        // lane names: text in the header column below the ruler
        QVERIFY(distinctColors(image, physical(QRect(0, area.top(), area.left() - 2, area.height()))) > 5);
        // slices: at least 1% of the time area in slice colours
        const QRect timePx = physical(area);
        QVERIFY2(saturatedPixels(image, timePx) > timePx.width() * timePx.height() / 100,
                 qPrintable(QString::number(saturatedPixels(image, timePx))));
        if (!qEnvironmentVariableIsEmpty("LANESCOPE_KEEP_IMAGES"))
            image.save(qEnvironmentVariable("LANESCOPE_KEEP_IMAGES") + QStringLiteral("/exporter-resnet-%1x.png").arg(scale));
    }

    // Without a height the picture is tall enough for every lane.
    void fitsAllLanes()
    {
        ImageExporter::TimelineRequest request;
        request.trace = m_sample;
        request.width = 900;
        QString error;
        const auto view = ImageExporter::createTimeline(request, false, &error);
        QVERIFY2(view, qPrintable(error));
        QCOMPARE(view->height(), view->timeArea().top() + view->layout().totalHeight());
        QCOMPARE(view->width(), 900);
        const auto [t0, t1] = view->visibleRange();
        QCOMPARE(t0, m_sample->startNs());
        QCOMPARE(t1, m_sample->endNs());
    }

    void laneFilter_data()
    {
        QTest::addColumn<QString>("regex");
        QTest::newRow("device") << QStringLiteral("NeuronCore");
        QTest::newRow("host") << QStringLiteral("python3");
        QTest::newRow("case") << QStringLiteral("(?i)neuroncore");
    }

    void laneFilter()
    {
        QFETCH(QString, regex);
        ImageExporter::TimelineRequest all;
        all.trace = m_sample;
        QString error;
        const auto full = ImageExporter::createTimeline(all, false, &error);
        QVERIFY(full);
        ImageExporter::TimelineRequest filtered = all;
        filtered.laneRegex = regex;
        const auto view = ImageExporter::createTimeline(filtered, false, &error);
        QVERIFY2(view, qPrintable(error));
        QVERIFY(view->laneCount() > 0);
        QVERIFY(view->laneCount() < full->laneCount());
        const QRegularExpression re(regex);
        for (const auto &row : view->layout().rows())
            if (row.isTrack())
                QVERIFY2(re.match(QString::fromStdString(m_sample->trackPath(row.track()))).hasMatch(),
                         m_sample->trackPath(row.track()).c_str());
        QVERIFY(view->height() < full->height());
    }

    void badRequests_data()
    {
        QTest::addColumn<QString>("regex");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<QString>("message");
        QTest::newRow("invalid regex") << QStringLiteral("(unclosed") << 800 << 0 << QStringLiteral("lane filter '(unclosed'");
        QTest::newRow("no lane") << QStringLiteral("^no such lane$") << 800 << 0 << QStringLiteral("matches no lane");
        QTest::newRow("narrow") << QString() << 20 << 0 << QStringLiteral("width 20");
        QTest::newRow("flat") << QString() << 800 << 10 << QStringLiteral("height 10");
        QTest::newRow("huge") << QString() << 800 << 90000 << QStringLiteral("height 90000");
    }

    void badRequests()
    {
        QFETCH(QString, regex);
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(QString, message);
        ImageExporter::TimelineRequest request;
        request.trace = m_sample;
        request.laneRegex = regex;
        request.width = width;
        request.height = height;
        QString error;
        QVERIFY(!ImageExporter::createTimeline(request, false, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void onlyTracks()
    {
        const auto tracks = m_sample->tracks();
        uint32_t first = 0;
        while (first < tracks.size() && !tracks[first].sliceCount)
            ++first;
        QVERIFY(first < tracks.size());
        int kept = 0;
        const TimelineLayout::State state = ImageExporter::keepOnly(*m_sample, {}, {first}, &kept);
        QCOMPARE(kept, 1);
        QVERIFY(!state.hidden.count(first));
        for (uint32_t t = 0; t < tracks.size(); ++t)
            if (t != first && (tracks[t].sliceCount || tracks[t].instantCount || tracks[t].counterCount))
                QVERIFY(state.hidden.count(t));
    }

    // The caption is part of the requested height: the band holds text, the timeline gives way.
    void caption()
    {
        ImageExporter::TimelineRequest request;
        request.trace = m_sample;
        request.width = 1000;
        request.height = 500;
        QString error;
        const auto view = ImageExporter::createTimeline(request, true, &error);
        QVERIFY(view);
        const int band = ImageExporter::captionHeight(view.get());
        QCOMPARE(view->height(), 500 - band);
        const QDateTime when(QDate(2026, 11, 29), QTime(19, 20));
        const auto [t0, t1] = view->visibleRange();
        const QString text = ImageExporter::captionText(QStringLiteral("/tmp/x/sample.json"), *m_sample, t0, t1, when);
        QVERIFY2(text.startsWith(QStringLiteral("sample.json")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("2026-11-29 19:20")));
        QVERIFY(text.contains(QStringLiteral("0 ns")) || text.contains(QStringLiteral("0.000")));
        const QImage image = ImageExporter::renderImage(view.get(), 1, text);
        QCOMPARE(image.size(), QSize(1000, 500));
        QVERIFY(distinctColors(image, QRect(0, 500 - band + 2, 400, band - 4)) > 3);
        const QImage plain = ImageExporter::renderImage(view.get(), 1, {});
        QCOMPARE(plain.size(), QSize(1000, 500 - band));
        if (!qEnvironmentVariableIsEmpty("LANESCOPE_KEEP_IMAGES"))
            image.save(qEnvironmentVariable("LANESCOPE_KEEP_IMAGES") + QStringLiteral("/exporter-caption.png"));
    }

    // SVG renders back to a picture like the PNG; slice names are text in it.
    void svg()
    {
        ImageExporter::TimelineRequest request;
        request.trace = m_sample;
        request.width = 1000;
        request.height = 600;
        request.theme = TimelinePalette::Theme::Dark;
        QString error;
        const auto view = ImageExporter::createTimeline(request, true, &error);
        QVERIFY(view);
        const QByteArray svg = ImageExporter::renderSvg(view.get(), QStringLiteral("caption text"), QStringLiteral("t"));
        QVERIFY(svg.startsWith("<?xml"));
        QVERIFY(svg.contains("ProfilerStep#"));
        QVERIFY(svg.contains("caption text"));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.defaultSize(), QSize(1000, 600));
        QImage back(renderer.defaultSize(), QImage::Format_ARGB32);
        back.fill(Qt::transparent);
        QPainter p(&back);
        renderer.render(&p);
        p.end();
        QVERIFY(distinctColors(back) > 30);
        QVERIFY(saturatedPixels(back, view->timeArea()) > 1000);
        const QString path = m_dir.filePath(QStringLiteral("x.svg"));
        QVERIFY(ImageExporter::save(view.get(), path, ImageExporter::formatForPath(path), 1, {}, &error));
        QCOMPARE(QFileInfo(path).size() > 1000, true);
        if (!qEnvironmentVariableIsEmpty("LANESCOPE_KEEP_IMAGES"))
            back.save(qEnvironmentVariable("LANESCOPE_KEEP_IMAGES") + QStringLiteral("/exporter-svg-back.png"));
    }

    void saveErrors()
    {
        ImageExporter::TimelineRequest request;
        request.trace = m_sample;
        QString error;
        const auto view = ImageExporter::createTimeline(request, false, &error);
        QVERIFY(view);
        const QString bad = m_dir.filePath(QStringLiteral("no/such/dir/x.png"));
        QVERIFY(!ImageExporter::save(view.get(), bad, ImageExporter::Format::Png, 1, {}, &error));
        QVERIFY(error.contains(bad));
        QCOMPARE(ImageExporter::formatForPath(QStringLiteral("a.SVG")), ImageExporter::Format::Svg);
        QCOMPARE(ImageExporter::formatForPath(QStringLiteral("a.png")), ImageExporter::Format::Png);
    }

    // Any widget, e.g. a shown one with children: rendered as it is on screen.
    void shownWidget()
    {
        QWidget w;
        w.resize(320, 200);
        auto *child = new TimelineView(&w);
        child->setTrace(m_sample);
        child->setGeometry(0, 0, 320, 200);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QImage image = ImageExporter::renderImage(&w, 2, QStringLiteral("c"));
        QCOMPARE(image.size(), QSize(640, 2 * (200 + ImageExporter::captionHeight(&w))));
        QVERIFY(saturatedPixels(image) > 100);
    }

    // util/pngencoder.h, read back by Qt's own PNG reader (libpng): every pixel as drawn, for pictures
    // small (one deflate part), tall (two parts joined: rows split at height / 2) and with rows that
    // repeat (the Up filter) beside rows of noise (Sub) and a stride wider than the row.
    void pngEncoderRoundTrip_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::newRow("1x1") << 1 << 1;
        QTest::newRow("small") << 37 << 20;
        QTest::newRow("tall, two parts") << 301 << 613;
    }

    void pngEncoderRoundTrip()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QImage image(width, height, QImage::Format_RGB888);
        uint32_t seed = 12345;
        for (int y = 0; y < height; ++y) {
            uchar *row = image.scanLine(y);
            if (y % 7 == 3 && y > 0) { // a repeated row
                std::memcpy(row, image.constScanLine(y - 1), size_t(width) * 3);
                continue;
            }
            for (int x = 0; x < width * 3; ++x) {
                seed = seed * 1103515245u + 12345u;
                row[x] = x < width * 3 / 2 ? uchar(40 * (y / 10)) : uchar(seed >> 24); // a flat half, a noisy half
            }
        }
        QVERIFY(image.bytesPerLine() >= width * 3);
        const std::string png = png::encodeRgb(image.constBits(), width, height, size_t(image.bytesPerLine()));
        QVERIFY(!png.empty());
        QImage back;
        QVERIFY(back.loadFromData(reinterpret_cast<const uchar *>(png.data()), int(png.size()), "PNG"));
        QCOMPARE(back.size(), image.size());
        QCOMPARE(back.convertToFormat(QImage::Format_RGB888), image);
        QVERIFY(png::encodeRgb(image.constBits(), 0, height, size_t(image.bytesPerLine())).empty());

        // The same picture as a window holds it (32-bit 0xffRRGGBB words, native endian), read as it is.
        const QImage words = image.convertToFormat(QImage::Format_RGB32);
        const std::string fromWords =
            png::encodeRgb(words.constBits(), width, height, size_t(words.bytesPerLine()), png::Pixels::Rgb32);
        QImage backFromWords;
        QVERIFY(backFromWords.loadFromData(reinterpret_cast<const uchar *>(fromWords.data()), int(fromWords.size()), "PNG"));
        QCOMPARE(backFromWords.convertToFormat(QImage::Format_RGB888), image);
        QCOMPARE(fromWords, png); // the same rows, filtered and deflated alike
        // savePng takes either without converting the 32-bit one first: the files are the same.
        QTemporaryDir dir;
        QString error;
        QVERIFY2(ImageExporter::savePng(words, dir.filePath(QStringLiteral("w.png")), &error), qPrintable(error));
        QFile written(dir.filePath(QStringLiteral("w.png")));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), QByteArray(png.data(), qsizetype(png.size())));
    }
};

QTEST_MAIN(TestImageExporter)
#include "tst_imageexporter.moc"
