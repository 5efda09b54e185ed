// RankClock: baseTimeNanoseconds when every rank has it (real skew kept), else first ProfilerStep#,
// else trace start; bases hours apart fall back to the first step, with a note.
#include "io/ranks/rankclock.h"

#include <QTest>

using namespace lanescope;

namespace {
constexpr int64_t kHour = int64_t(3600) * 1000000000;
}

class TestRankClock : public QObject
{
    Q_OBJECT

private slots:
    void baseTime()
    {
        const auto p = RankClock::align({{1, 1000007000000, 500, 0}, {0, 1000000000000, 400, 0}});
        QCOMPARE(p[1].offset, int64_t(0));
        QCOMPARE(p[1].note, std::string("reference clock (lowest rank)"));
        QCOMPARE(p[0].rule, RankClockRule::BaseTime);
        QCOMPARE(p[0].offset, int64_t(7000000));
    }

    void firstStepWithoutBases()
    {
        // rank 1's clock 3 hours ahead, no bases: its first step goes onto rank 0's
        const auto p = RankClock::align({{0, std::nullopt, 2000, 0}, {1, std::nullopt, 3 * kHour + 2500, 3 * kHour}});
        QCOMPARE(p[1].rule, RankClockRule::FirstStep);
        QCOMPARE(p[1].offset, -3 * kHour - 500);
        QVERIFY2(p[1].note.find("3.0 h apart") != std::string::npos, p[1].note.c_str());
        // one base missing: no rank uses the bases
        const auto q = RankClock::align({{0, 5, 2000, 0}, {1, std::nullopt, 2600, 0}});
        QCOMPARE(q[1].rule, RankClockRule::FirstStep);
        QCOMPARE(q[1].offset, int64_t(-600));
    }

    void basesHoursApart()
    {
        const auto p = RankClock::align({{0, 0, 1000, 0}, {1, 5 * kHour, 1200, 0}, {2, 3000, 1100, 0}});
        QCOMPARE(p[1].rule, RankClockRule::FirstStep);
        QCOMPARE(p[1].offset, int64_t(-200));
        QVERIFY2(p[1].note.starts_with("baseTimeNanoseconds would put it 5.0 h from rank 0"), p[1].note.c_str());
        QCOMPARE(p[2].rule, RankClockRule::BaseTime);
        QCOMPARE(p[2].offset, int64_t(3000));
    }

    // baseTimeNanoseconds is whatever a file says (std::stoll of the metadata): bases near both ends
    // of int64 once overflowed the base difference and the shifted anchor (UBSan, fuzz_ranks). Such
    // clocks are far apart: each rank is placed by its first step, with the distance saturated.
    void basesAtTheEndsOfInt64()
    {
        constexpr int64_t kLate = (int64_t(1) << 62) - (int64_t(1) << 60); // the latest time a trace keeps
        const auto p = RankClock::align({{0, INT64_MIN, 1000, 0}, {1, INT64_MAX, kLate, kLate}, {2, INT64_MIN + 5, 1500, 0}});
        QCOMPARE(p[0].offset, int64_t(0));
        QCOMPARE(p[1].rule, RankClockRule::FirstStep);
        QCOMPARE(p[1].offset, 1000 - kLate);
        QCOMPARE(p[1].apartNs, INT64_MAX);
        QVERIFY2(p[1].note.starts_with("baseTimeNanoseconds would put it "), p[1].note.c_str());
        QCOMPARE(p[2].rule, RankClockRule::BaseTime); // 5 ns from the reference's base: kept
        QCOMPARE(p[2].offset, int64_t(5));
        // one base near each end, anchors close: the difference alone is past int64
        const auto q = RankClock::align({{0, INT64_MAX, 0, 0}, {1, -2, 0, 0}});
        QCOMPARE(q[1].rule, RankClockRule::FirstStep);
        QCOMPARE(q[1].offset, int64_t(0));
        QVERIFY(q[1].apartNs < -RankClock::kFarApartNs);
    }

    void traceStartWithoutSteps()
    {
        const auto p = RankClock::align({{0, std::nullopt, std::nullopt, 100}, {1, std::nullopt, 900, 700}});
        QCOMPARE(p[1].rule, RankClockRule::TraceStart);
        QCOMPARE(p[1].offset, int64_t(-600));
        QVERIFY(p[1].note.find("no ProfilerStep# in rank 0") != std::string::npos);
        QCOMPARE(p[0].rule, RankClockRule::TraceStart);
        QVERIFY(RankClock::align({}).empty());
    }

    void distanceText()
    {
        QCOMPARE(RankClock::distanceText(-5 * kHour), std::string("5.0 h"));
        QCOMPARE(RankClock::distanceText(int64_t(41) * 60 * 1000000000), std::string("41 min"));
    }
};

QTEST_GUILESS_MAIN(TestRankClock)
#include "tst_rankclock.moc"
