// TimeRange: the one --range syntax. Units after the trace start, Nabs on the trace clock, open
// ends, the deprecated unit-less forms with their per-command meaning, and clear errors.
#include "analysis/timerange.h"

#include <QtTest>

using namespace lanescope;

Q_DECLARE_METATYPE(TimeRange::BareNumber)

class TestTimeRange : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<TimeRange::BareNumber>("bare");
        // Resolved against a trace from 1000000 to 5000000000 ns.
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<bool>("deprecated");
        const auto abs = TimeRange::BareNumber::AbsoluteNs;
        const auto ms = TimeRange::BareNumber::MsAfterStart;
        QTest::newRow("ms") << QStringLiteral("10ms:12.5ms") << abs << qint64(11000000) << qint64(13500000) << false;
        QTest::newRow("us") << QStringLiteral("200us:350us") << abs << qint64(1200000) << qint64(1350000) << false;
        QTest::newRow("µs") << QStringLiteral("200µs:350µs") << abs << qint64(1200000) << qint64(1350000) << false;
        QTest::newRow("ns") << QStringLiteral("5ns:9ns") << ms << qint64(1000005) << qint64(1000009) << false;
        QTest::newRow("s, open end") << QStringLiteral("1.5s:") << abs << qint64(1501000000) << qint64(5000000000) << false;
        QTest::newRow("open start") << QStringLiteral(":2ms") << abs << qint64(1000000) << qint64(3000000) << false;
        QTest::newRow("both open") << QStringLiteral(":") << abs << qint64(1000000) << qint64(5000000000) << false;
        QTest::newRow("spaces") << QStringLiteral(" 1ms : 2 ms ") << abs << qint64(2000000) << qint64(3000000) << false;
        QTest::newRow("abs") << QStringLiteral("1500000abs:2500000abs") << ms << qint64(1500000) << qint64(2500000) << false;
        QTest::newRow("abs and relative") << QStringLiteral("1500000abs:2ms") << abs << qint64(1500000) << qint64(3000000) << false;
        QTest::newRow("equal") << QStringLiteral("1ms:1ms") << abs << qint64(2000000) << qint64(2000000) << false;
        QTest::newRow("exponent") << QStringLiteral("1e-3s:2e3us") << abs << qint64(2000000) << qint64(3000000) << false;
        // Deprecated: unit-less numbers keep their old per-command meaning.
        QTest::newRow("bare tables") << QStringLiteral("150000:300000") << abs << qint64(150000) << qint64(300000) << true;
        QTest::newRow("bare screenshot") << QStringLiteral("10:12.5") << ms << qint64(11000000) << qint64(13500000) << true;
        QTest::newRow("bare mixed") << QStringLiteral("0:1s") << ms << qint64(1000000) << qint64(1001000000) << true;
        QTest::newRow("bare open") << QStringLiteral("2000000:") << abs << qint64(2000000) << qint64(5000000000) << true;
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(TimeRange::BareNumber, bare);
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(bool, deprecated);
        std::string error;
        const auto range = TimeRange::parse(text.toStdString(), bare, &error);
        QVERIFY2(range, error.c_str());
        QCOMPARE(range->usedBareNumber, deprecated);
        int64_t a = -1, b = -1;
        QVERIFY2(range->resolve(1000000, 5000000000, true, &a, &b, &error), error.c_str());
        QCOMPARE(qint64(a), t0);
        QCOMPARE(qint64(b), t1);
    }

    void openEnds()
    {
        std::string error;
        const auto range = TimeRange::parse("1ms:", TimeRange::BareNumber::AbsoluteNs, &error);
        QVERIFY(range);
        QCOMPARE(range->absoluteFrom(100), std::optional<int64_t>(1000100));
        QVERIFY(!range->absoluteTo(100));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<TimeRange::BareNumber>("bare");
        QTest::addColumn<QString>("message");
        const auto abs = TimeRange::BareNumber::AbsoluteNs;
        const auto ms = TimeRange::BareNumber::MsAfterStart;
        QTest::newRow("no colon") << QStringLiteral("12ms") << abs << QStringLiteral("'12ms': expected FROM:TO after the trace start");
        QTest::newRow("empty") << QStringLiteral("") << abs << QStringLiteral("'': expected FROM:TO");
        QTest::newRow("bad from") << QStringLiteral("abc:2ms") << abs << QStringLiteral("'abc:2ms': FROM 'abc' is not a time");
        QTest::newRow("bad to") << QStringLiteral("1ms:xyz") << abs << QStringLiteral("'1ms:xyz': TO 'xyz' is not a time");
        QTest::newRow("bad unit") << QStringLiteral("1h:2h") << ms << QStringLiteral("FROM '1h' is not a time: expected a number with a unit ns, us, ms or s");
        QTest::newRow("unit only") << QStringLiteral("ms:2ms") << abs << QStringLiteral("FROM 'ms' is not a time");
        QTest::newRow("fraction abs") << QStringLiteral("1.5abs:2abs") << abs << QStringLiteral("FROM '1.5abs' is not a trace-clock time: Nabs takes whole nanoseconds");
        QTest::newRow("bare fraction as ns") << QStringLiteral("1.5:2") << abs << QStringLiteral("FROM '1.5' is not a time: give a unit");
        QTest::newRow("reversed") << QStringLiteral("3ms:2ms") << abs << QStringLiteral("'3ms:2ms': TO must be after FROM");
        QTest::newRow("reversed abs") << QStringLiteral("30abs:20abs") << ms << QStringLiteral("TO must be after FROM");
        QTest::newRow("reversed bare") << QStringLiteral("5:1") << abs << QStringLiteral("'5:1': TO must be after FROM");
        QTest::newRow("huge") << QStringLiteral("0ms:1e300ms") << abs << QStringLiteral("TO '1e300ms' is too large");
        QTest::newRow("two colons") << QStringLiteral("1ms:2ms:3ms") << abs << QStringLiteral("TO '2ms:3ms' is not a time");
        QTest::newRow("nan") << QStringLiteral("nanms:1ms") << abs << QStringLiteral("FROM 'nanms' is not a time");
    }
    void errors()
    {
        QFETCH(QString, text);
        QFETCH(TimeRange::BareNumber, bare);
        QFETCH(QString, message);
        std::string error;
        QVERIFY(!TimeRange::parse(text.toStdString(), bare, &error));
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
    }

    void resolveChecksMixedAndEmpty()
    {
        std::string error;
        int64_t a = -1, b = -1;
        // 2ms after a start at 10 ms is 12 ms on the clock: before FROM at 20 ms, found only when resolved.
        auto range = TimeRange::parse("20000000abs:2ms", TimeRange::BareNumber::AbsoluteNs, &error);
        QVERIFY(range);
        QVERIFY(!range->resolve(10000000, 50000000, true, &a, &b, &error));
        QVERIFY2(QString::fromStdString(error).contains(QStringLiteral("'20000000abs:2ms': TO must be after FROM")), error.c_str());
        QCOMPARE(a, int64_t(-1)); // untouched
        range = TimeRange::parse("1ms:1ms", TimeRange::BareNumber::AbsoluteNs, &error);
        QVERIFY(range);
        QVERIFY(range->resolve(0, 5000000, true, &a, &b, &error));
        QVERIFY(!range->resolve(0, 5000000, false, &a, &b, &error)); // an empty span where one is not allowed
    }

    void notes()
    {
        QVERIFY(QString::fromStdString(TimeRange::deprecationNote(TimeRange::BareNumber::AbsoluteNs)).contains(QStringLiteral("abs")));
        QVERIFY(QString::fromStdString(TimeRange::deprecationNote(TimeRange::BareNumber::MsAfterStart)).contains(QStringLiteral("ms after")));
        QVERIFY(QByteArray(TimeRange::syntaxSummary()).contains("Nabs"));
    }
};

QTEST_GUILESS_MAIN(TestTimeRange)
#include "tst_timerange.moc"
