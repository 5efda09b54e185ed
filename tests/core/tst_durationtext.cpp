// DurationText: the one duration formatter of the CLI and the GUI. The short human form and the
// aligned table-column form (widgets' DurationFormat wraps the same functions; tst_durationformat).
#include "util/durationtext.h"

#include <QtTest>

using namespace lanescope;

class TestDurationText : public QObject
{
    Q_OBJECT

private slots:
    void format_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0 ns");
        QTest::newRow("us") << qint64(12500) << QStringLiteral("12.5 µs");
        QTest::newRow("ms") << qint64(1'234'567) << QStringLiteral("1.235 ms");
        QTest::newRow("rounds up a unit") << qint64(999'999'9) << QStringLiteral("10 ms");
        QTest::newRow("just below 1 s") << qint64(999'999'999) << QStringLiteral("1 s");
        QTest::newRow("negative") << qint64(-1500) << QStringLiteral("-1.5 µs");
        QTest::newRow("int64 min") << qint64(INT64_MIN) << QStringLiteral("-9223372036.855 s");
    }
    void format()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(DurationText::format(ns)), text);
    }

    void precise()
    {
        QCOMPARE(DurationText::formatPrecise(2'000'000'001), std::string("2.000000001 s"));
        QCOMPARE(DurationText::formatPrecise(1'700'000'000'123'456'789), std::string("1700000000.123456789 s"));
        QCOMPARE(DurationText::formatInUnit(12'500'000, 1'000'000, 2), std::string("12.50 ms"));
        QCOMPARE(DurationText::formatInUnit(5, 0, 99), std::string("5.000000000 ns")); // clamped unit and decimals
        QCOMPARE(DurationText::unitFor(-2'000'000), int64_t(1'000'000));
    }

    // The CLI tables' column form: three decimals, ASCII unit, so printf widths line up.
    void column_data()
    {
        QTest::addColumn<double>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0.000 us");
        QTest::newRow("sub-us") << 250.0 << QStringLiteral("0.250 us");
        QTest::newRow("us") << 12500.0 << QStringLiteral("12.500 us");
        QTest::newRow("ms") << 3e6 << QStringLiteral("3.000 ms");
        QTest::newRow("s") << 2.5e9 << QStringLiteral("2.500 s");
    }
    void column()
    {
        QFETCH(double, ns);
        QFETCH(QString, text);
        const std::string s = DurationText::column(ns);
        QCOMPARE(QString::fromStdString(s), text);
        for (char c : s)
            QVERIFY(static_cast<unsigned char>(c) < 0x80);
    }
};

QTEST_GUILESS_MAIN(TestDurationText)
#include "tst_durationtext.moc"
