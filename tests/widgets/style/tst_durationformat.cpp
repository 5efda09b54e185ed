// DurationFormat: the text of times in the ruler, tooltips and details.
#include "style/durationformat.h"

#include <QTest>

using namespace lanescope;

class TestDurationFormat : public QObject
{
    Q_OBJECT

private slots:
    void format_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0 ns");
        QTest::newRow("ns") << qint64(15) << QStringLiteral("15 ns");
        QTest::newRow("999 ns") << qint64(999) << QStringLiteral("999 ns");
        QTest::newRow("us") << qint64(1000) << QStringLiteral("1 µs");
        QTest::newRow("us decimals") << qint64(1500) << QStringLiteral("1.5 µs");
        QTest::newRow("ms") << qint64(1'234'000) << QStringLiteral("1.234 ms");
        QTest::newRow("ms rounded") << qint64(1'234'567) << QStringLiteral("1.235 ms");
        QTest::newRow("rounds up a unit") << qint64(999'999'9) << QStringLiteral("10 ms");
        QTest::newRow("just below 1 ms") << qint64(999'999) << QStringLiteral("999.999 µs");
        QTest::newRow("just below 1 s") << qint64(999'999'999) << QStringLiteral("1 s");
        QTest::newRow("s") << qint64(2'500'000'000) << QStringLiteral("2.5 s");
        QTest::newRow("hours in s") << qint64(7'200'000'000'000) << QStringLiteral("7200 s");
        QTest::newRow("negative") << qint64(-1500) << QStringLiteral("-1.5 µs");
    }
    void format()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(DurationFormat::format(ns), text);
    }

    void formatPrecise_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("ns") << qint64(7) << QStringLiteral("7 ns");
        QTest::newRow("ms exact") << qint64(1'234'567) << QStringLiteral("1.234567 ms");
        QTest::newRow("s with ns") << qint64(2'000'000'001) << QStringLiteral("2.000000001 s");
        QTest::newRow("trailing zeros") << qint64(3'000'000'000) << QStringLiteral("3 s");
        QTest::newRow("epoch-sized") << qint64(1'700'000'000'123'456'789) << QStringLiteral("1700000000.123456789 s");
    }
    void formatPrecise()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(DurationFormat::formatPrecise(ns), text);
    }

    void formatInUnit()
    {
        QCOMPARE(DurationFormat::formatInUnit(12'500'000, 1'000'000, 2), QStringLiteral("12.50 ms"));
        QCOMPARE(DurationFormat::formatInUnit(0, 1'000'000'000, 3), QStringLiteral("0.000 s"));
        QCOMPARE(DurationFormat::formatInUnit(1'999'500, 1'000'000, 0), QStringLiteral("2 ms"));
        QCOMPARE(DurationFormat::formatInUnit(-250, 1000, 2), QStringLiteral("-0.25 µs"));
    }
};

QTEST_GUILESS_MAIN(TestDurationFormat)
#include "tst_durationformat.moc"
