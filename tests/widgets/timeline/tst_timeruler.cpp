// TimeRuler: tick steps, spacing and labels in one adaptive unit.
#include "timeline/timeruler.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QTest>

using namespace lanescope;

class TestTimeRuler : public QObject
{
    Q_OBJECT

private:
    static QStringList labels(const std::vector<TimeRuler::Tick> &ticks)
    {
        QStringList out;
        for (const auto &t : ticks)
            if (t.major)
                out << t.label;
        return out;
    }

private slots:
    void niceStep()
    {
        QCOMPARE(TimeRuler::niceStep(0.3), int64_t(1));
        QCOMPARE(TimeRuler::niceStep(1.5), int64_t(2));
        QCOMPARE(TimeRuler::niceStep(3), int64_t(5));
        QCOMPARE(TimeRuler::niceStep(90'000), int64_t(100'000));
        QCOMPARE(TimeRuler::niceStep(150'001), int64_t(200'000));
        QCOMPARE(TimeRuler::niceStep(4e9), int64_t(5'000'000'000));
    }

    void millisecondTrace()
    {
        const QFontMetrics fm(QGuiApplication::font());
        const int64_t origin = 1'700'000'000'000'000'000;
        int64_t step = 0;
        const auto ticks = TimeRuler::ticks(origin, origin + 1'000'000, origin, 1000, fm, &step);
        QCOMPARE(step, int64_t(100'000));
        const QStringList l = labels(ticks);
        QCOMPARE(l.first(), QStringLiteral("0.0 ms"));
        QCOMPARE(l.at(1), QStringLiteral("0.1 ms"));
        QCOMPARE(l.last(), QStringLiteral("1.0 ms"));
        QCOMPARE(ticks.front().x, 0.0);
        QCOMPARE(ticks.back().x, 1000.0);
        for (size_t i = 1; i < ticks.size(); ++i)
            QVERIFY(ticks[i].x > ticks[i - 1].x);
        QVERIFY(qsizetype(ticks.size()) > l.size()); // minor ticks between the majors
    }

    void unitsFollowZoom_data()
    {
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<QString>("firstLabel");
        QTest::newRow("ns") << qint64(0) << qint64(800) << QStringLiteral("0 ns");
        QTest::newRow("us") << qint64(10'000) << qint64(20'000) << QStringLiteral("10 µs");
        QTest::newRow("s") << qint64(0) << qint64(20'000'000'000) << QStringLiteral("0 s");
        // Deep inside a long trace: the offset keeps its unit and gains decimals.
        QTest::newRow("deep") << qint64(1'500'000'000) << qint64(1'500'001'000) << QStringLiteral("1.5000000 s");
    }
    void unitsFollowZoom()
    {
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(QString, firstLabel);
        const QFontMetrics fm(QGuiApplication::font());
        const auto ticks = TimeRuler::ticks(t0, t1, 0, 1000, fm);
        const QStringList l = labels(ticks);
        QVERIFY(!l.isEmpty());
        QCOMPARE(l.first(), firstLabel);
        // Labels never collide.
        double lastRight = -1e9;
        for (const auto &t : ticks) {
            if (!t.major)
                continue;
            QVERIFY2(t.x > lastRight, qPrintable(t.label));
            lastRight = t.x + fm.horizontalAdvance(t.label) + 4;
        }
    }
};

QTEST_MAIN(TestTimeRuler)
#include "tst_timeruler.moc"
