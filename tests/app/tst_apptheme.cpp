// AppTheme (widgets/style/apptheme.h) on the real window, offscreen: View > Dark Theme and --screenshot
// --dark darken the whole window, not only the timeline: the application palette, every dock (Details,
// Summary, Statistics, Notes), the capture banner; light brings the style's own palette and the style
// back. Checked on the rendered pixels of the window.
#include "mainwindow.h"
#include "style/apptheme.h"
#include "summary/capturebanner.h"
#include "summarypanel.h"

#include "timeline/timelinepalette.h"
#include "timeline/timelineview.h"

#include <QApplication>
#include <QDockWidget>
#include <QStandardPaths>
#include <QStyle>
#include <QTest>

using namespace lanescope;

namespace {

int lightness(const QColor &c)
{
    return c.toHsl().lightness();
}

// The average lightness of a widget's rendered pixels.
int renderedLightness(QWidget *w)
{
    const QImage img = w->grab().toImage();
    qint64 sum = 0, n = 0;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3) {
            sum += lightness(img.pixelColor(x, y));
            ++n;
        }
    return n ? int(sum / n) : -1;
}

} // namespace

class TestAppTheme : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void darkPaletteIsReadable()
    {
        const QPalette p = AppTheme::darkPalette();
        QVERIFY(lightness(p.color(QPalette::Window)) < 60);
        QVERIFY(lightness(p.color(QPalette::Base)) < 60);
        for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            QVERIFY(lightness(p.color(role)) - lightness(p.color(QPalette::Window)) > 120);
        QVERIFY(lightness(p.color(QPalette::Link)) > 140); // links on the dark banner
    }

    void wholeWindow()
    {
        const QString styleBefore = QApplication::style()->name();
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *details = w.findChild<QDockWidget *>(QStringLiteral("detailsDock"));
        QVERIFY(details);
        const QStringList docks{QStringLiteral("detailsDock"), QStringLiteral("summaryDock"),
                                QStringLiteral("statisticsDock"), QStringLiteral("notesDock")};
        CaptureBanner *banner = w.summaryPanel()->banner();
        banner->showProblem(QStringLiteral("Too few steps to trust"), 1);

        w.applyTheme(true);
        QTest::qWait(20); // palette change events
        QVERIFY(AppTheme::isDark());
        QCOMPARE(w.timeline()->colors().theme, TimelinePalette::Theme::Dark);
        QVERIFY(lightness(QApplication::palette().color(QPalette::Window)) < 60);
        for (const QString &name : docks) {
            auto *dock = w.findChild<QDockWidget *>(name);
            QVERIFY2(dock, qPrintable(name));
            QVERIFY2(lightness(dock->palette().color(QPalette::Window)) < 60, qPrintable(name));
            QVERIFY2(lightness(dock->palette().color(QPalette::Base)) < 60, qPrintable(name));
        }
        QVERIFY2(renderedLightness(details) < 70, qPrintable(QString::number(renderedLightness(details))));
        QVERIFY2(renderedLightness(banner) < 90, qPrintable(QString::number(renderedLightness(banner))));

        w.applyTheme(false);
        QVERIFY(!AppTheme::isDark());
        QCOMPARE(QApplication::style()->name(), styleBefore);
        QCOMPARE(QApplication::palette().color(QPalette::Window), QApplication::style()->standardPalette().color(QPalette::Window));
        QTest::qWait(20);
        QVERIFY2(renderedLightness(details) > 180, qPrintable(QString::number(renderedLightness(details))));
        QVERIFY2(renderedLightness(banner) > 180, qPrintable(QString::number(renderedLightness(banner))));
    }
};

QTEST_MAIN(TestAppTheme)
#include "tst_apptheme.moc"
