// UnitText: byte sizes, rates, percentages and counts as human text, the formatter of counter values
// in the timeline's lanes and tooltips and of byte totals in the CLI's text output.
#include "util/unittext.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace lanescope;

class TestUnitText : public QObject
{
    Q_OBJECT

private slots:
    void bytes_data()
    {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0 B");
        QTest::newRow("bytes") << 512.0 << QStringLiteral("512 B");
        QTest::newRow("999 stays bytes") << 999.0 << QStringLiteral("999 B");
        // 1000 B would read "1000 B": four digits, so 0.977 KiB instead.
        QTest::newRow("1000") << 1000.0 << QStringLiteral("0.977 KiB");
        QTest::newRow("KiB") << 1024.0 << QStringLiteral("1 KiB");
        QTest::newRow("1.5 KiB") << 1536.0 << QStringLiteral("1.5 KiB");
        // The lane header of a system_profile mem_usage counter (was "max 1.29106e+07 bytes").
        QTest::newRow("MiB") << 12'910'592.0 << QStringLiteral("12.3 MiB");
        QTest::newRow("hundreds of MiB") << 300.0 * 1024 * 1024 << QStringLiteral("300 MiB");
        QTest::newRow("GiB") << 4.0 * 1024 * 1024 * 1024 << QStringLiteral("4 GiB");
        QTest::newRow("TiB") << 2.5 * 1024 * 1024 * 1024 * 1024 << QStringLiteral("2.5 TiB");
        QTest::newRow("negative") << -2048.0 << QStringLiteral("-2 KiB");
        QTest::newRow("fraction of a byte") << 0.5 << QStringLiteral("0.5 B");
    }
    void bytes()
    {
        QFETCH(double, bytes);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(UnitText::bytes(bytes)), text);
    }

    void rates()
    {
        QCOMPARE(UnitText::byteRate(1.5e9), std::string("1.4 GiB/s"));
        QCOMPARE(UnitText::byteRate(100.0 * 1024 * 1024), std::string("100 MiB/s"));
        QCOMPARE(UnitText::byteRate(0), std::string("0 B/s"));
    }

    void percent()
    {
        QCOMPARE(UnitText::percent(12.345), std::string("12.3 %"));
        QCOMPARE(UnitText::percent(100), std::string("100 %"));
        QCOMPARE(UnitText::percent(5.678), std::string("5.68 %"));
        QCOMPARE(UnitText::percent(0), std::string("0 %"));
        QCOMPARE(UnitText::percent(0.00123), std::string("0.00123 %")); // small, never "0 %"
        QCOMPARE(UnitText::percent(12345.6), std::string("12,346 %"));
    }

    void counts_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0");
        QTest::newRow("small") << 42.0 << QStringLiteral("42");
        QTest::newRow("fraction") << 0.25 << QStringLiteral("0.25");
        QTest::newRow("decimal") << 3.14159 << QStringLiteral("3.14");
        QTest::newRow("thousands") << 12'345.0 << QStringLiteral("12,345");
        QTest::newRow("below a million") << 999'999.0 << QStringLiteral("999,999");
        QTest::newRow("rounds to a million") << 999'999.7 << QStringLiteral("1 M");
        QTest::newRow("M") << 4'560'000.0 << QStringLiteral("4.56 M");
        QTest::newRow("G") << 12'300'000'000.0 << QStringLiteral("12.3 G");
        QTest::newRow("E") << 2e18 << QStringLiteral("2 E");
        QTest::newRow("beyond E") << 5e21 << QStringLiteral("5000 E");
        QTest::newRow("negative") << -12'345.0 << QStringLiteral("-12,345");
    }
    void counts()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(UnitText::count(value)), text);
    }

    void thousands()
    {
        QCOMPARE(UnitText::thousands(12'910'592), std::string("12,910,592"));
        QCOMPARE(UnitText::thousands(999), std::string("999"));
        QCOMPARE(UnitText::thousands(-1024), std::string("-1,024"));
        QCOMPARE(UnitText::thousands(-0.2), std::string("0"));
        QCOMPARE(UnitText::thousands(1e20), std::string("100,000,000,000,000,000,000"));
    }

    // A counter track's unit picks the form; unknown units follow the number.
    void byUnit()
    {
        QCOMPARE(UnitText::value(12'910'592, "bytes"), std::string("12.3 MiB"));
        QCOMPARE(UnitText::value(2048, "B"), std::string("2 KiB"));
        QCOMPARE(UnitText::value(2048, "Bytes"), std::string("2 KiB"));
        QCOMPARE(UnitText::value(3 * 1024.0 * 1024 * 1024, "B/s"), std::string("3 GiB/s"));
        QCOMPARE(UnitText::value(87.5, "%"), std::string("87.5 %"));
        QCOMPARE(UnitText::value(12, "packets"), std::string("12 packets"));
        QCOMPARE(UnitText::value(1'500'000, "packets"), std::string("1.5 M packets"));
        QCOMPARE(UnitText::value(0.5, "fraction"), std::string("0.5 fraction"));
        QCOMPARE(UnitText::value(12'345, ""), std::string("12,345"));
    }

    void notFinite()
    {
        const double inf = std::numeric_limits<double>::infinity();
        QCOMPARE(UnitText::bytes(std::nan("")), std::string("nan"));
        QCOMPARE(UnitText::count(-inf), std::string("-inf"));
        QCOMPARE(UnitText::percent(inf), std::string("inf %"));
        QCOMPARE(UnitText::thousands(inf), std::string("inf"));
    }

    // ASCII only: the CLI's printf widths count bytes.
    void ascii()
    {
        for (const std::string &s : {UnitText::bytes(5e12), UnitText::byteRate(7e9), UnitText::count(-3e9),
                                     UnitText::percent(0.5), UnitText::value(1e6, "bytes")})
            for (char c : s)
                QVERIFY2(static_cast<unsigned char>(c) < 0x80, s.c_str());
    }
};

QTEST_APPLESS_MAIN(TestUnitText)
#include "tst_unittext.moc"
