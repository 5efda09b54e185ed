// NtraceSync: which physical core each timestamp_sync_point serves (none says it) and the host time of a
// device timestamp. On the numbers of the real capture (NTRACE_VERIFIED.md E3/E4): two sync points of
// exec_id 1 at one cpu_timestamp_ns, 1,500 ns apart on the device clock; the first reproduces the host
// timestamps of core 4's records exactly, the second core 5's. Without an exact match the points go to the
// cores in order; a core without a point of its own takes those of its NeuronCore that serve none.
#include "io/ntrace/ntracesync.h"

#include <QTest>

using namespace lanescope;

namespace {

constexpr int64_t kCpu = 1773237645757022494;
constexpr int64_t kSync4 = 257063241489802, kSync5 = 257063241488302;

NtraceSyncPoint point(int64_t device, int64_t exec = 1, int64_t nc = 0)
{
    NtraceSyncPoint p;
    p.nc = nc;
    p.execId = exec;
    p.cpu = kCpu;
    p.device = device;
    return p;
}

// A device record of `core` at device time `device`, its host timestamp written by `sync`'s rule.
NtraceDeviceRecord record(int64_t core, int64_t device, int64_t sync)
{
    return {0, 1, core, kCpu + (device - sync), device};
}

} // namespace

class TestNtraceSync : public QObject
{
    Q_OBJECT

private slots:
    void realCaptureNumbers()
    {
        std::vector<NtraceSyncPoint> points{point(kSync4), point(kSync5)};
        // core 5 first in time, as on the real capture (15,021.4 us vs 15,023.2 us)
        const std::vector<NtraceDeviceRecord> records{record(5, kSync5 - 999'000, kSync5), record(4, kSync4 - 997'200, kSync4),
                                                      record(5, kSync5 - 999'000 + 14'763, kSync5),
                                                      record(4, kSync4 - 997'200 + 982'590, kSync4)};
        NtraceSync::assignCores(points, records);
        QCOMPARE(points[0].deviceCore, int64_t(4));
        QCOMPARE(points[1].deviceCore, int64_t(5));
        QVERIFY2(points[0].rule.find("2 of 2 device records of core 4 exactly") != std::string::npos, points[0].rule.c_str());
        const NtraceClock clock(points);
        const NtraceSyncPoint *used = nullptr;
        QCOMPARE(clock.toHost(0, 4, kSync4 - 997'200, &used), std::optional<int64_t>(kCpu - 997'200));
        QCOMPARE(used, &points[0]);
        QCOMPARE(clock.toHost(0, 5, kSync4), std::optional<int64_t>(kCpu + 1500));
        QCOMPARE(clock.toHost(1, 4, kSync4), std::nullopt); // another NeuronCore
    }

    void byOrderWithoutExactMatch()
    {
        std::vector<NtraceSyncPoint> points{point(100), point(200)};
        const std::vector<NtraceDeviceRecord> records{{0, 1, 7, 5, 1000}, {0, 1, 3, 6, 1000}}; // no host timestamp fits either
        NtraceSync::assignCores(points, records);
        QCOMPARE(points[0].deviceCore, int64_t(7)); // the first core to appear
        QCOMPARE(points[1].deviceCore, int64_t(3));
        QVERIFY2(points[1].rule.starts_with("by order"), points[1].rule.c_str());
    }

    void pointsOfAnotherExecution()
    {
        // a sync point of exec_id 0 (none of the device records): it serves no physical core, so the
        // cores without one use it
        std::vector<NtraceSyncPoint> points{point(kSync4, 0)};
        NtraceSync::assignCores(points, {record(4, kSync4 + 10, kSync4)});
        QCOMPARE(points[0].deviceCore, int64_t(-1));
        const NtraceClock clock(points);
        QCOMPARE(clock.toHost(0, 4, kSync4 + 10), std::optional<int64_t>(kCpu + 10));
    }

    void lastPointAtOrBefore()
    {
        std::vector<NtraceSyncPoint> points{point(1000, 1), point(5000, 2)};
        points[1].cpu = kCpu + 10'000;
        NtraceSync::assignCores(points, {record(4, 1000, 1000), {0, 2, 4, kCpu + 10'000, 5000}});
        const NtraceClock clock(points);
        QCOMPARE(clock.toHost(0, 4, 500), std::optional<int64_t>(kCpu - 500));          // before every point: the first
        QCOMPARE(clock.toHost(0, 4, 6000), std::optional<int64_t>(kCpu + 10'000 + 1000)); // the later point
        QCOMPARE(NtraceSync::rule(points[0], INT64_MAX), INT64_MAX);                      // saturates
    }
};

QTEST_GUILESS_MAIN(TestNtraceSync)
#include "tst_ntracesync.moc"
