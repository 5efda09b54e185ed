// CaptureBanner: hidden until a problem is shown; says the check's title and how many more; the
// link asks for the Summary; closing hides it and says so.
#include "summary/capturebanner.h"

#include <QLabel>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

using namespace lanescope;

class TestCaptureBanner : public QObject
{
    Q_OBJECT

private slots:
    void showLinkDismiss()
    {
        QWidget window;
        auto *banner = new CaptureBanner(&window);
        window.show();
        QVERIFY(!banner->isVisible());
        banner->showProblem(QStringLiteral("Device work missing at the end <last step>"), 3);
        QVERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("Device work missing at the end &lt;last step&gt;")));
        QVERIFY(banner->text().contains(QStringLiteral("(and 2 more)")));
        QVERIFY(banner->text().contains(QStringLiteral("href=\"summary\"")));
        QSignalSpy link(banner, &CaptureBanner::showRequested);
        emit banner->label()->linkActivated(QStringLiteral("summary"));
        QCOMPARE(link.count(), 1);
        QSignalSpy dismissed(banner, &CaptureBanner::dismissed);
        banner->closeButton()->click();
        QCOMPARE(dismissed.count(), 1);
        QVERIFY(!banner->isVisible());
        banner->showProblem(QStringLiteral("No warm-up"), 1);
        QVERIFY(!banner->text().contains(QStringLiteral("more")));
    }
};

QTEST_MAIN(TestCaptureBanner)
#include "tst_capturebanner.moc"
