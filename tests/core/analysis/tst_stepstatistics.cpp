// StepStatistics: the one median / p90 / slowest of step times, shared by the rank step table and the
// step insight rules: lower middle for an even count, nearest-rank p90, the first of equal maxima;
// step durations read from ProfilerStep# slices of a Kineto trace through the real importer.
#include "analysis/stepstatistics.h"
#include "io/formats.h"
#include "io/input/inputbuffer.h"
#include "model/trace.h"

#include <QTest>

using namespace lanescope;

class TestStepStatistics : public QObject
{
    Q_OBJECT

private slots:
    void median()
    {
        QCOMPARE(StepStatistics::median({}), int64_t(0));
        QCOMPARE(StepStatistics::median({7}), int64_t(7));
        QCOMPARE(StepStatistics::median({5, 1, 4, 2, 3}), int64_t(3));
        QCOMPARE(StepStatistics::median({40, 10, 30, 20}), int64_t(20)); // lower middle, not 25
    }

    void percentile()
    {
        std::vector<int64_t> ten, twenty;
        for (int64_t i = 1; i <= 20; ++i)
            (i <= 10 ? ten : twenty).push_back(i * 100);
        twenty.insert(twenty.end(), ten.begin(), ten.end());
        QCOMPARE(StepStatistics::percentile(ten, 0.9), int64_t(900)); // rank ceil(9.0) = 9, not 10
        QCOMPARE(StepStatistics::percentile(twenty, 0.9), int64_t(1800));
        QCOMPARE(StepStatistics::percentile({3, 1, 2}, 0.9), int64_t(3));
        QCOMPARE(StepStatistics::percentile({3, 1, 2}, 0.0), int64_t(1));
        QCOMPARE(StepStatistics::percentile({3, 1, 2}, 1.0), int64_t(3));
        QCOMPARE(StepStatistics::percentile({}, 0.9), int64_t(0));
    }

    void summarize()
    {
        const StepStatistics::Summary s = StepStatistics::summarize({120, 100, 180, 110, 180, 105});
        QCOMPARE(s.count, uint64_t(6));
        QCOMPARE(s.median, int64_t(110));
        QCOMPARE(s.p90, int64_t(180));
        QCOMPARE(s.slowest, int64_t(180));
        QCOMPARE(s.slowestIndex, size_t(2)); // the first of the two
        QCOMPARE(StepStatistics::summarize({}).count, uint64_t(0));
    }

    // Durations of ProfilerStep# slices as PyTorch's profiler writes them (µs with sub-µs decimals).
    void durationsFromATrace()
    {
        const std::string json = R"({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 7, "tid": 7, "ts": 1000.000, "dur": 250.500},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 7, "tid": 7, "ts": 1300.000, "dur": 200.250},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#5", "pid": 7, "tid": 7, "ts": 1600.000, "dur": 210.000}
]})";
        InputBuffer in = InputBuffer::fromBytes(json, "steps.json", {});
        const Trace t = Formats::info(FileFormat::ChromeJson).import(in, "steps.json", {});
        std::vector<uint32_t> steps;
        for (uint32_t i = 0; i < t.allSlices().size(); ++i)
            if (t.str(t.allSlices()[i].name).starts_with("ProfilerStep#"))
                steps.push_back(i);
        QCOMPARE(steps.size(), size_t(3));
        std::vector<int64_t> d = StepStatistics::durations(t, steps);
        std::sort(d.begin(), d.end());
        QCOMPARE(d, (std::vector<int64_t>{200250, 210000, 250500}));
        const StepStatistics::Summary s = StepStatistics::summarize(d);
        QCOMPARE(s.median, int64_t(210000));
        QCOMPARE(s.p90, int64_t(250500));
    }
};

QTEST_GUILESS_MAIN(TestStepStatistics)
#include "tst_stepstatistics.moc"
