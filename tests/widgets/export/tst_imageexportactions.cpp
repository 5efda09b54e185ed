// ImageExportActions on a real window: timeline (all lanes, lanes on screen, matching lanes), the
// whole window and a dock's table, to PNG, SVG and the clipboard.
#include "export/imageexportactions.h"
#include "imagecheck.h"
#include "timeline/timelineview.h"

#include "io/synthetic/kinetosamplewriter.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QAction>
#include <QClipboard>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMainWindow>
#include <QPainter>
#include <QStandardItemModel>
#include <QSvgRenderer>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;
using lanescope::test::distinctColors;
using lanescope::test::saturatedPixels;
using Choice = ImageExportDialog::Choice;
using Target = ImageExportDialog::Target;
using Output = ImageExportDialog::Output;

Q_DECLARE_METATYPE(ImageExportDialog::Target)
Q_DECLARE_METATYPE(ImageExportDialog::Output)

class TestImageExportActions : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<const Trace> m_trace;
    QMainWindow *m_window = nullptr;
    TimelineView *m_timeline = nullptr;
    QDockWidget *m_dock = nullptr;
    ImageExportActions *m_actions = nullptr;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString path = m_dir.filePath(QStringLiteral("sample.json"));
        std::string error;
        QVERIFY(KinetoSampleWriter::writeFile(path.toStdString(), KinetoSampleWriter::Options{}, &error));
        m_trace = TraceLoader::load(path.toStdString()).trace;
        QVERIFY(m_trace);
        m_window = new QMainWindow;
        m_timeline = new TimelineView(m_window);
        m_window->setCentralWidget(m_timeline);
        auto *model = new QStandardItemModel(3, 2, m_window);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 2; ++c)
                model->setItem(r, c, new QStandardItem(QStringLiteral("cell %1,%2").arg(r).arg(c)));
        auto *table = new QTableView;
        table->setModel(model);
        m_dock = new QDockWidget(QStringLiteral("Table"), m_window);
        m_dock->setWidget(table);
        m_window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
        m_actions = new ImageExportActions(m_window, m_timeline);
        m_actions->setSourcePath(path);
        m_window->resize(1000, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
        m_timeline->setTrace(m_trace);
        QCOMPARE(m_actions->exportAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
        QCOMPARE(m_actions->copyAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    }

    void cleanupTestCase() { delete m_window; }

    void visibleDocks()
    {
        QCOMPARE(m_actions->visibleDocks(), QList<QDockWidget *>{m_dock});
        m_dock->hide();
        QVERIFY(m_actions->visibleDocks().isEmpty());
        m_dock->show();
    }

    void timelineTargets_data()
    {
        QTest::addColumn<Target>("target");
        QTest::addColumn<QString>("regex");
        QTest::newRow("all lanes") << Target::TimelineAllLanes << QString();
        QTest::newRow("lanes on screen") << Target::TimelineLanesOnScreen << QString();
        QTest::newRow("matching") << Target::TimelineMatchingLanes << QStringLiteral("NeuronCore");
    }

    // The visible range and width of the window's timeline; height fitted to the lanes kept.
    void timelineTargets()
    {
        QFETCH(Target, target);
        QFETCH(QString, regex);
        const int64_t t0 = m_trace->startNs() + (m_trace->endNs() - m_trace->startNs()) / 4;
        m_timeline->setVisibleRange(t0, t0 + (m_trace->endNs() - m_trace->startNs()) / 4);
        Choice c;
        c.target = target;
        c.laneRegex = regex;
        c.caption = false;
        QString error;
        const QImage image = m_actions->renderImage(c, &error);
        QVERIFY2(!image.isNull(), qPrintable(error));
        QCOMPARE(image.width(), m_timeline->width());
        QVERIFY(saturatedPixels(image) > 1000);
        if (target == Target::TimelineLanesOnScreen)
            QVERIFY(image.height() <= m_timeline->height() + m_timeline->layout().metrics().rowHeight * 8);
        c.caption = true;
        const QImage captioned = m_actions->renderImage(c, &error);
        // a fitted height grows by the band: the same lanes, with the caption below
        QCOMPARE(captioned.width(), image.width());
        QCOMPARE(captioned.height(), image.height() + ImageExporter::captionHeight(m_timeline));
    }

    void windowAndDock_data()
    {
        QTest::addColumn<Target>("target");
        QTest::addColumn<Output>("output");
        QTest::newRow("window png") << Target::Window << Output::PngScale1;
        QTest::newRow("window 2x") << Target::Window << Output::PngScale2;
        QTest::newRow("window svg") << Target::Window << Output::Svg;
        QTest::newRow("dock png") << Target::Dock << Output::PngScale1;
        QTest::newRow("dock svg") << Target::Dock << Output::Svg;
    }

    void windowAndDock()
    {
        QFETCH(Target, target);
        QFETCH(Output, output);
        Choice c;
        c.target = target;
        c.dock = target == Target::Dock ? 0 : -1;
        c.output = output;
        c.caption = true;
        const QString path = m_dir.filePath(QStringLiteral("%1.%2").arg(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')),
                                                                         output == Output::Svg ? QStringLiteral("svg") : QStringLiteral("png")));
        QString error;
        QVERIFY2(m_actions->exportTo(c, path, &error), qPrintable(error));
        QWidget *w = target == Target::Window ? static_cast<QWidget *>(m_window) : m_dock->widget();
        const QSize expected(w->width(), w->height() + ImageExporter::captionHeight(w));
        QImage image;
        if (output == Output::Svg) {
            QSvgRenderer renderer(path);
            QVERIFY(renderer.isValid());
            QCOMPARE(renderer.defaultSize(), expected);
            image = QImage(expected, QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter p(&image);
            renderer.render(&p);
        } else {
            QVERIFY(image.load(path));
            QCOMPARE(image.size(), expected * (output == Output::PngScale2 ? 2 : 1));
        }
        QVERIFY(distinctColors(image) > 10);
        if (target == Target::Window)
            QVERIFY(saturatedPixels(image) > 1000); // the timeline's slices are in it
        if (!qEnvironmentVariableIsEmpty("LANESCOPE_KEEP_IMAGES"))
            image.save(qEnvironmentVariable("LANESCOPE_KEEP_IMAGES") + QStringLiteral("/actions-") +
                       QFileInfo(path).completeBaseName() + QStringLiteral(".png"));
    }

    void errors()
    {
        Choice c;
        c.target = Target::Dock;
        c.dock = 5;
        QString error;
        QVERIFY(m_actions->renderImage(c, &error).isNull());
        QVERIFY(!error.isEmpty());
        c.target = Target::TimelineMatchingLanes;
        c.laneRegex = QStringLiteral("^nothing$");
        QVERIFY(m_actions->renderImage(c, &error).isNull());
        QVERIFY2(error.contains(QStringLiteral("matches no lane")), qPrintable(error));
    }

    void clipboard()
    {
        Choice c;
        c.caption = false;
        QString error;
        QVERIFY2(m_actions->copyToClipboard(c, &error), qPrintable(error));
        const QImage copied = QGuiApplication::clipboard()->image();
        QVERIFY(!copied.isNull());
        QCOMPARE(copied.width(), m_timeline->width());
        QVERIFY(saturatedPixels(copied) > 1000);
        // the shortcut's action copies the last choice without asking
        QGuiApplication::clipboard()->clear();
        m_actions->setLastChoice(c);
        m_actions->copyAction()->trigger();
        QCOMPARE(QGuiApplication::clipboard()->image().size(), copied.size());
    }
};

QTEST_MAIN(TestImageExportActions)
#include "tst_imageexportactions.moc"
