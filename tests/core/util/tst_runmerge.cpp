// runmerge: merging the sorted runs of an index array gives std::sort's order (ties broken by index),
// with few and many runs, and splitRuns() cuts any runs into two halves that sort separately: every
// index of the first orders before every index of the second, and the halves merged give the same
// order. Values are drawn with many ties so the tie-break is exercised.
#include "util/runmerge.h"

#include <QTest>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

using namespace lanescope;

namespace {

struct Input
{
    std::vector<int64_t> values;  // by index
    std::vector<uint32_t> order;  // indices, in sorted runs
};

// `runs` sorted runs of indices over values in [0, range).
Input makeInput(unsigned seed, size_t n, size_t runs, int64_t range)
{
    std::mt19937_64 rng(seed);
    Input in;
    in.values.resize(n);
    for (auto &v : in.values)
        v = int64_t(rng() % uint64_t(range));
    in.order.resize(n);
    std::iota(in.order.begin(), in.order.end(), 0u);
    std::shuffle(in.order.begin(), in.order.end(), rng);
    const auto less = [&](uint32_t a, uint32_t b) { return in.values[a] != in.values[b] ? in.values[a] < in.values[b] : a < b; };
    for (size_t r = 0; r < runs; ++r)
        std::sort(in.order.begin() + long(r * n / runs), in.order.begin() + long((r + 1) * n / runs), less);
    return in;
}

} // namespace

class TestRunMerge : public QObject
{
    Q_OBJECT
private slots:
    void mergesLikeStdSort_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("runs");
        QTest::addColumn<int>("range");
        QTest::newRow("one run") << 1000 << 1 << 50;
        QTest::newRow("two runs") << 1000 << 2 << 50;
        QTest::newRow("52 runs, many ties") << 200000 << 52 << 1000;
        QTest::newRow("52 runs, few ties") << 200000 << 52 << 1000000000;
        QTest::newRow("many short runs") << 5000 << 2500 << 100;
        QTest::newRow("odd count") << 777 << 7 << 3;
    }

    void mergesLikeStdSort()
    {
        QFETCH(int, n);
        QFETCH(int, runs);
        QFETCH(int, range);
        for (unsigned seed = 1; seed <= 3; ++seed) {
            Input in = makeInput(seed, size_t(n), size_t(runs), range);
            const auto less = [&](uint32_t a, uint32_t b) { return in.values[a] != in.values[b] ? in.values[a] < in.values[b] : a < b; };
            std::vector<uint32_t> want = in.order;
            std::sort(want.begin(), want.end(), less);

            std::vector<uint32_t> buffer, merged = in.order;
            const bool changed = runmerge::sortRuns(merged.data(), merged.size(), less, buffer);
            QCOMPARE(changed, runs > 1);
            QVERIFY(merged == want);

            // Split by value, each half merged on its own: the same order.
            const std::vector<size_t> found = runmerge::findRuns(in.order.data(), in.order.size(), less);
            QVERIFY(found.size() <= size_t(runs) + 1); // neighbouring runs may happen to continue each other
            std::vector<uint32_t> split = in.order;
            runmerge::Halves h = runmerge::splitRuns(split.data(), found, less, buffer);
            QVERIFY(h.split > 0 && h.split < split.size());
            QCOMPARE(h.low.back(), h.split);
            QCOMPARE(h.high.back(), split.size() - h.split);
            const uint32_t lowMax = *std::max_element(split.begin(), split.begin() + long(h.split), less);
            const uint32_t highMin = *std::min_element(split.begin() + long(h.split), split.end(), less);
            QVERIFY(less(lowMax, highMin));
            runmerge::mergeRuns(split.data(), h.low, less, buffer);
            runmerge::mergeRuns(split.data() + h.split, h.high, less, buffer);
            QVERIFY(split == want);
        }
    }

    // A run that lies wholly on one side of the pivot leaves nothing on the other: no empty runs.
    void runsOnOneSide()
    {
        std::vector<int64_t> values;
        std::vector<uint32_t> order;
        // run 1: 10000..12999, wholly above the pivot; runs 2 and 3: 0..2999
        for (uint32_t i = 0; i < 3000; ++i)
            values.push_back(10000 + int64_t(i));
        for (int copy = 0; copy < 2; ++copy)
            for (uint32_t i = 0; i < 3000; ++i)
                values.push_back(int64_t(i));
        order.resize(values.size());
        std::iota(order.begin(), order.end(), 0u);
        const auto less = [&](uint32_t a, uint32_t b) { return values[a] != values[b] ? values[a] < values[b] : a < b; };
        std::vector<uint32_t> want = order, buffer;
        std::sort(want.begin(), want.end(), less);
        const std::vector<size_t> runs = runmerge::findRuns(order.data(), order.size(), less);
        QCOMPARE(runs.size(), size_t(4));
        runmerge::Halves h = runmerge::splitRuns(order.data(), runs, less, buffer);
        for (size_t k = 1; k < h.low.size(); ++k)
            QVERIFY(h.low[k] > h.low[k - 1]);
        for (size_t k = 1; k < h.high.size(); ++k)
            QVERIFY(h.high[k] > h.high[k - 1]);
        runmerge::mergeRuns(order.data(), h.low, less, buffer);
        runmerge::mergeRuns(order.data() + h.split, h.high, less, buffer);
        QVERIFY(order == want);
    }
};

QTEST_APPLESS_MAIN(TestRunMerge)
#include "tst_runmerge.moc"
