// DurationText: the one duration formatter of the CLI and the GUI. The short human form and the
// aligned table-column form (widgets' DurationFormat wraps the same functions; tst_durationformat).
#include "util/durationtext.h"

#include <QtTest>

using namespace lanescope;

class TestDurationText : public QObject
{
    Q_OBJECT

private slots:
    // The short human form, std::string in and out (DurationFormat's QString rows are in tst_durationformat).
    void format()
    {
        const std::pair<int64_t, const char *> cases[] = {
            {0, "0 ns"},
            {12500, "12.5 \u00b5s"},
            {1'234'567, "1.235 ms"},
            {999'999'9, "10 ms"},
            {999'999'999, "1 s"},
            {-1500, "-1.5 \u00b5s"},
            {INT64_MIN, "-9223372036.855 s"},
        };
        for (const auto &[ns, text] : cases)
            QCOMPARE(DurationText::format(ns), std::string(text));
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
