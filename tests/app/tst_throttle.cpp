// Throttle: pokes within one interval fold into one run at its end; a poke after it starts a new one.
#include "throttle.h"

#include <QElapsedTimer>
#include <QTest>

using namespace lanescope;

class TestThrottle : public QObject
{
    Q_OBJECT
private slots:
    void foldsPokesIntoOneRun()
    {
        int runs = 0;
        QObject owner;
        Throttle throttle([&runs] { ++runs; }, &owner, 40);
        QVERIFY(!throttle.isPending());
        QElapsedTimer clock;
        clock.start();
        throttle.poke();
        throttle.poke();
        throttle.poke();
        QVERIFY(throttle.isPending());
        QCOMPARE(runs, 0); // never at once
        QTRY_COMPARE(runs, 1);
        QVERIFY(clock.elapsed() >= 35);
        QTest::qWait(100);
        QCOMPARE(runs, 1);
        throttle.poke();
        QTRY_COMPARE(runs, 2);
    }

    void runsWhileKeptBusy()
    {
        // Poked continuously (a drag), it still runs once per interval instead of waiting for a pause.
        int runs = 0;
        QObject owner;
        Throttle throttle([&runs] { ++runs; }, &owner, 30);
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 200) {
            throttle.poke();
            QTest::qWait(5);
        }
        QVERIFY2(runs >= 2, qPrintable(QString::number(runs)));
    }
};

QTEST_MAIN(TestThrottle)
#include "tst_throttle.moc"
