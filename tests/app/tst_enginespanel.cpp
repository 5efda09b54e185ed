// The utilization strip under the timeline, in the real window offscreen (issue 28): it is on the
// timeline's time axis. A time is at the same window x in the strip's chart as in the timeline, the
// strip's time labels are the ruler's labels at the ruler's x, and the plot ends where the timeline's
// time area ends, with data to its right edge (no empty band) - for the whole trace, after a zoom,
// after a pan and after the window is resized. Pictures go to $LANESCOPE_TEST_SHOTS when it is set.
#include "openinwindow.h"
#include "enginespanel.h"
#include "mainwindow.h"
#include "session.h"

#include "io/synthetic/samplefolderwriter.h"
#include "timeline/timelineview.h"
#include "timeline/timeruler.h"
#include "timeline/utilizationstrip.h"
#include "session/viewstate.h"

#include "model/trace.h"

#include <QChart>
#include <QDir>
#include <QLineSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

void saveShot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SHOTS");
    if (!dir.isEmpty() && QDir().mkpath(dir))
        widget->grab().save(dir + QLatin1Char('/') + name);
}

// The window x of `t` as the timeline draws it.
double timelineX(const TimelineView &timeline, QWidget &window, int64_t t)
{
    return timeline.frame().xOf(t) + timeline.mapTo(&window, QPoint(0, 0)).x();
}

double stripX(const UtilizationStrip &strip, QWidget &window, int64_t t)
{
    return strip.xForTime(t) + strip.mapTo(&window, QPoint(0, 0)).x();
}

// Once the strip (throttled) shows the timeline's visible range.
bool stripFollows(const UtilizationStrip &strip, const TimelineView &timeline)
{
    const auto range = timeline.visibleRange(); // not a structured binding: clang 14 does not capture those
    return QTest::qWaitFor([&] { return strip.result().startNs == range.first && strip.result().endNs == range.second; }, 5000);
}

} // namespace

class TestEnginesPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        SampleFolderWriter::write(m_dir.path().toStdString());
    }

    void stripIsOnTheTimelinesTimeAxis()
    {
        MainWindow w;
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(test::openInWindow(w, m_dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder()))));
        auto *panel = w.findChild<EnginesPanel *>();
        QVERIFY(panel);
        UtilizationStrip *strip = panel->strip();
        TimelineView *timeline = w.timeline();
        QTRY_VERIFY(strip->isVisible());
        QVERIFY(strip->seriesCount() > 0);

        const auto check = [&](const char *what) {
            QVERIFY2(stripFollows(*strip, *timeline), what);
            QCoreApplication::processEvents();
            const auto [t0, t1] = timeline->visibleRange();
            // The same x for the same time, across the visible range.
            for (int i = 0; i <= 10; ++i) {
                const int64_t t = t0 + (t1 - t0) * i / 10;
                const double a = timelineX(*timeline, w, t), b = stripX(*strip, w, t);
                QVERIFY2(std::abs(a - b) <= 1.0, qPrintable(QStringLiteral("%1: t=%2 timeline x %3, strip x %4")
                                                                .arg(QLatin1String(what)).arg(t - t0).arg(a).arg(b)));
            }
            // The plot spans the time area: no band past its data.
            const QRect area = timeline->timeArea();
            const QRectF plot = strip->plotRect().translated(QPointF(strip->mapTo(&w, QPoint(0, 0))));
            const double areaLeft = area.left() + timeline->mapTo(&w, QPoint(0, 0)).x();
            QVERIFY2(std::abs(plot.left() - areaLeft) <= 1.0, what);
            QVERIFY2(std::abs(plot.width() - area.width()) <= 1.0, what);
            // Every engine's line reaches the right edge of the plot.
            for (QAbstractSeries *s : strip->chart()->series()) {
                auto *line = qobject_cast<QLineSeries *>(s);
                QVERIFY(line && line->count() > 0);
                const QPointF last = strip->chart()->mapToPosition(line->at(line->count() - 1), line);
                QVERIFY2(std::abs(last.x() - strip->chart()->plotArea().right()) <= 1.0, what);
            }
            // Its time labels are the ruler's, at the ruler's x.
            const auto ruler = TimeRuler::ticks(t0, t1, w.session()->trace()->startNs(), area.width(), timeline->fontMetrics());
            const auto ticks = strip->timeTicks();
            QCOMPARE(ticks.size(), ruler.size());
            int labels = 0;
            for (size_t i = 0; i < ticks.size(); ++i) {
                QCOMPARE(ticks[i].label, ruler[i].label);
                QCOMPARE(ticks[i].t, ruler[i].t);
                QVERIFY(std::abs((plot.left() + ticks[i].x) - (areaLeft + ruler[i].x)) <= 1.0);
                labels += ticks[i].major ? 1 : 0;
            }
            QVERIFY2(labels >= 2, what);
        };

        check("whole trace");
        saveShot(&w, QStringLiteral("engines_strip_whole.png"));
        const int64_t start = timeline->visibleRange().first, span = timeline->visibleRange().second - start;
        w.session()->setVisibleRange(start + span / 4, start + span / 2); // zoom in
        check("zoomed");
        timeline->viewState()->pan(span / 10);
        check("panned");
        saveShot(&w, QStringLiteral("engines_strip_zoomed.png"));
        w.resize(1366, 768);
        QTRY_COMPARE(timeline->width(), strip->width());
        check("resized");
        saveShot(&w, QStringLiteral("engines_strip_1366.png"));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestEnginesPanel)
#include "tst_enginespanel.moc"
