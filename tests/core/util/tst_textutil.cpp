// text:: helpers (core/util/textutil.h): the edge cases every former copy relied on.
#include "util/textutil.h"

#include <QtTest>

using namespace lanescope;

class TstTextUtil : public QObject
{
    Q_OBJECT
private slots:
    void trimAndLower()
    {
        QCOMPARE(text::trim(" \t\r\nab c\n "), std::string_view("ab c"));
        QCOMPARE(text::trim("   "), std::string_view());
        QCOMPARE(text::lower("NeuronCore_0.NTFF"), std::string("neuroncore_0.ntff"));
        QVERIFY(text::endsWithNoCase("x.NTFF", ".ntff"));
        QVERIFY(!text::endsWithNoCase("ntff", ".ntff"));
    }
    void tokens()
    {
        QVERIFY(text::hasToken("nrt_execute neff_abc12 run", "neff_abc12"));
        QVERIFY(text::hasToken("neff_abc12", "neff_abc12"));
        QVERIFY(!text::hasToken("neff_abc123", "neff_abc12"));
        QVERIFY(!text::hasToken("xneff_abc12", "neff_abc12"));
        QVERIFY(text::hasToken("a/neff_abc12.ntff", "neff_abc12"));
        QVERIFY(!text::hasToken("anything", ""));
    }
    void hexDigits()
    {
        QCOMPARE(text::hex(std::string_view("\x00\x0f\xa5\xff", 4)), std::string("000fa5ff"));
        const uint8_t b[] = {0xde, 0xad};
        QCOMPARE(text::hex(b, 2), std::string("dead"));
    }
    void integers()
    {
        int64_t v = 7;
        QVERIFY(text::parseInt(" -42 ", v));
        QCOMPARE(v, int64_t(-42));
        QVERIFY(!text::parseInt("12x", v));
        QVERIFY(!text::parseInt("", v));
        QVERIFY(!text::parseInt("99999999999999999999", v));
        QCOMPARE(v, int64_t(-42)); // unchanged on failure
    }
    void generatorIsDeterministic()
    {
        text::SplitMix64 a(42), b(42);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(a.next(), b.next());
        text::SplitMix64 c(1);
        QCOMPARE(c.next(), uint64_t(0x910a2dec89025cc1ull)); // splitmix64's published first output for seed 1
        for (int i = 0; i < 1000; ++i) {
            const int64_t v = c.vary(1000, 50);
            QVERIFY(v >= 950 && v <= 1050);
        }
        QCOMPARE(c.vary(0, 50), int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TstTextUtil)
#include "tst_textutil.moc"
