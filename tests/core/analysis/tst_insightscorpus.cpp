// Insights on real traces (the corpus): every rule runs without failing on GPU traces with and
// without steps, CPU-only traces (no device work), device-only NTFF / neuron-profile JSON (no
// framework ops); and the numbers of each finding equal the op, kernel, device and engine tables
// for the same events.
#include "corpus.h"
#include "findings.h"
#include "loadtrace.h"

#include "analysis/devicesummary.h"
#include "analysis/enginebreakdown.h"
#include "analysis/insights/hostrules.h"
#include "analysis/insights/insights.h"
#include "analysis/insights/insighttext.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "model/dmaqueuekind.h"
#include "model/trace.h"

#include <QFileInfo>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <unordered_map>

using namespace lanescope;

namespace {

using lanescope::test::near;
const auto find = lanescope::test::findRule;

const std::string kDeviceRules[] = {"engine-bottleneck", "semaphore-wait", "dma-bound", "small-dma", "spill-reload",
                                     "throttling", "mfu-below-hfu", "tensor-transpose"};

// The thresholds docs/insights.md gives: spill-reload above 25 % of the DMA bytes, small-dma below
// 2 KiB a packet over at least 100 packets, fusion-candidate from 3 executions and 0.5 % of the window.
constexpr double kSpillPercent = 25.0;
constexpr double kSmallDmaBytes = 2048.0;
constexpr uint64_t kSmallDmaMinPackets = 100;
constexpr double kFusionMinExecutions = 3;
constexpr double kFusionMinIdlePercent = 0.5;

} // namespace

class TestInsightsCorpus : public QObject
{
    Q_OBJECT
private slots:
    // Issue 46, done when: no host-side finding on a device busy >= 95 % of its span, on real
    // saturated traces. Busy % counted by tools' method, independently (python over the raw JSON:
    // per GPU the union of kernel / gpu_memcpy / gpu_memset X events over their first start .. last
    // end): ns_resolution V100 472462.5 of 480029.25 us (98.42 %);
    // mi300 GPU 2 84002.069 of 86567.708 us (97.04 %); gpumodel A100 78588.479 of 78593.790 us
    // (99.99 %); hta-2022 V100 717943 of 745239 us (96.34 %). Before: ns_resolution had sync-stall
    // (high, 14.9 %), launch-bound (high) and launch-latency (medium, 97.3 %); mi300 sync-stall (high,
    // 34.5 %) and launch-latency (medium, 100 %); gpumodel sync-stall (high, 93.0 %); hta-2022
    // launch-bound (high), launch-latency (medium) and two fusion candidates. (No H800 trace is in the
    // corpus; these are its kind: a device that is never starved, a host that waits on it.)
    void saturatedDevicesQuiet_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("busyPercent");
        QTest::newRow("ns_resolution V100") << "hta/ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" << 98.42;
        QTest::newRow("mi300 resnet") << "tracelens/mi300_resnet_act_checkpoint.json.gz" << 97.04;
        QTest::newRow("gpumodel A100") << "gpumodel/trace.json" << 99.99;
        QTest::newRow("hta-2022 V100") << "hta-2022/trace_diff_test.json.gz" << 96.34;
    }

    void saturatedDevicesQuiet()
    {
        QFETCH(QString, file);
        QFETCH(double, busyPercent);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(file));
        QVERIFY(trace);
        const Insights::Result r = Insights::run(*trace, {});
        QCOMPARE(r.metrics.devices.size(), size_t(1));
        QVERIFY2(std::abs(r.metrics.devices[0].busyPercent - busyPercent) < 0.01, QByteArray::number(r.metrics.devices[0].busyPercent));
        for (const char *rule : {"fusion-candidate", "sync-stall", "launch-bound", "launch-latency", "host-device-copy", "device-idle"})
            QVERIFY2(!find(r.findings, rule), rule);
    }

    // The device-idle advice in the device's own terms: CUDA graphs for a GPU, fewer and larger compiled
    // graphs (NEFF executions) for a NeuronCore (the real trn2 capture: NeuronCore 0 idle 28.7 %).
    void deviceIdleAdvice_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("neuron");
        QTest::newRow("trn2 capture") << "neuron-trn2-capture/i-0af76a70a6d3864dd_pid_713479" << true;
        QTest::newRow("b200 eager") << "tracelens/b200_eager_trace.json.gz" << false;
    }

    void deviceIdleAdvice()
    {
        QFETCH(QString, file);
        QFETCH(bool, neuron);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(file));
        QVERIFY(trace);
        const Insights::Result r = Insights::run(*trace, {});
        const Finding *f = find(r.findings, "device-idle");
        QVERIFY(f);
        QCOMPARE(f->action.find("CUDA") == std::string::npos, neuron);
        QCOMPARE(f->action.find("NEFF executions") != std::string::npos, neuron);
    }

    void tablesAgree_data()
    {
        QTest::addColumn<QString>("file");
        const char *files[] = {
            "tracelens/mi300_resnet_act_checkpoint.json.gz",
            "tracelens/b200_eager_trace.json.gz",
            "tracelens/sglang_decode_bs32_rank0.json.gz",
            "hta/critical_path__cuda_event_sync__event_sync_trace.json.gz",
            "hta/critical_path__cuda_event_sync_multi_stream__event_sync_trace.json.gz",
            "hta/negative_queue_length_values_check__rank0.json.gz",
            "hta/cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
            "hta/with_gpu_user_annotation__step_based_trace_2543932.json.gz",
            "hta/amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz",
            "kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
            "generated-torch-cpu/rmsnorm_naive.trace.json",
            "neuron-profile-json/profile_128x128x1024.ntff",
            "neuron-profile-json/profile_128x128x1024.json",
            "neuron-profile-json/profile_bucketed_128x128x256.json",
        };
        for (const char *f : files)
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    void tablesAgree()
    {
        QFETCH(QString, file);
        LANESCOPE_REQUIRE_CORPUS_FILE(file); // a missing file fails under LANESCOPE_REQUIRE_CORPUS=1
        const QString path = lanescope::test::corpusFile(file);
        const auto trace = lanescope::test::load(path);
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const Insights::Result r = Insights::run(*trace, index, {});
        const auto ops = OpTable::compute(*trace, index, {});
        const auto kernels = KernelTable::compute(*trace, index, {});
        const auto devices = DeviceSummary::compute(*trace, index, {});
        const auto engines = EngineBreakdown::compute(*trace);
        const int64_t span = trace->endNs() - trace->startNs();

        // Key metrics are the tables' numbers.
        QCOMPARE(r.metrics.devices.size(), devices.size());
        int64_t busy = 0, idle = 0;
        for (const auto &d : devices) {
            busy += d.busy;
            idle += d.idle;
        }
        QCOMPARE(r.metrics.deviceBusyNs, busy);
        QCOMPARE(r.metrics.deviceIdleNs, idle);
        QCOMPARE(r.metrics.frameworkCpuNs, ops.cpuSelfTotal);
        QCOMPARE(r.metrics.deviceNs, ops.deviceTime);
        QCOMPARE(r.metrics.engines.size(), engines.engines.size());
        const OpTable::Row *stepRow = nullptr;
        for (const auto &row : ops.rows)
            if (row.name == "ProfilerStep*")
                stepRow = &row;
        QCOMPARE(r.metrics.steps, stepRow ? stepRow->calls : 0);

        for (const Finding &f : r.findings) {
            QVERIFY(f.events.size() <= Finding::kMaxEvents);
            for (uint32_t e : f.events)
                QVERIFY(e < trace->allSlices().size());
            QVERIFY(std::isfinite(f.value));
            qInfo("%s [%s] %s", f.rule.c_str(), Finding::severityName(f.severity), f.title.c_str());
        }
        if (const Finding *f = find(r.findings, "device-idle"); f && !stepRow) {
            QVERIFY(near(f->value, 100.0 * double(idle) / double(r.metrics.deviceTotalNs)));
            QCOMPARE(*f->recoverableNs, idle);
        }
        if (const Finding *f = find(r.findings, "sync-stall")) {
            int64_t t = 0;
            for (const auto &row : ops.rows)
                if (HostRules::isSyncCall(row.name))
                    t += row.cpuTotal;
            QVERIFY(near(f->value, 100.0 * double(t) / double(span)));
            // Recoverable: the device idle after the syncs, part of the device table's idle time.
            QVERIFY(*f->recoverableNs > 0 && *f->recoverableNs <= idle);
        }
        // Host-side rules fire only where a device starved (busy < 95 % of its span).
        bool anyStarved = false;
        for (const auto &d : devices)
            anyStarved = anyStarved || (d.total > 0 && d.busyPercent() < 95.0);
        if (!anyStarved)
            for (const char *rule : {"fusion-candidate", "sync-stall", "launch-bound", "launch-latency", "host-device-copy"})
                QVERIFY2(!find(r.findings, rule), rule);
        if (const Finding *f = find(r.findings, "host-device-copy")) {
            int64_t t = 0;
            for (const auto &row : kernels.rows)
                if (row.kind == LaunchIndex::WorkKind::Memcpy && HostRules::isHostDeviceCopy(row.name))
                    t += row.total;
            for (const auto &row : ops.rows)
                if (row.runtime && HostRules::isHostDeviceCopy(row.name))
                    t += row.cpuTotal;
            QCOMPARE(*f->recoverableNs, t);
        }
        if (const Finding *f = find(r.findings, "step-outlier")) {
            QVERIFY(stepRow);
            QVERIFY(f->value >= 1.5);
        }
        if (const Finding *f = find(r.findings, "engine-bottleneck")) {
            bool matched = false;
            for (const auto &e : engines.engines)
                matched = matched || near(e.activePercent, f->value);
            QVERIFY(matched);
        }
        // Device rules fire exactly when the engine table's numbers pass their thresholds.
        uint64_t dmaBytes = 0, spill = 0, packets = 0;
        for (const auto &q : engines.dma) {
            dmaBytes += q.bytes;
            packets += q.packetCount;
            if (dmaQueueKind(q.queue) == DmaQueueKind::SpillReload)
                spill += q.bytes;
        }
        const bool spills = dmaBytes > 0 && 100.0 * double(spill) / double(dmaBytes) > kSpillPercent;
        QCOMPARE(find(r.findings, "spill-reload") != nullptr, spills && !engines.empty());
        if (const Finding *f = find(r.findings, "spill-reload"))
            QVERIFY(near(f->value, 100.0 * double(spill) / double(dmaBytes)));
        const bool small = packets >= kSmallDmaMinPackets && double(dmaBytes) / double(packets) < kSmallDmaBytes;
        QCOMPARE(find(r.findings, "small-dma") != nullptr, small && engines.denominatorNs > 0);
        if (const Finding *f = find(r.findings, "small-dma"))
            QVERIFY(near(f->value, double(dmaBytes) / double(packets)));
        QCOMPARE(r.metrics.dmaBytes, dmaBytes);
        if (packets)
            QVERIFY(near(r.metrics.averageDmaBytes, double(dmaBytes) / double(packets)));
        if (engines.empty()) {
            for (const char *rule : {"engine-bottleneck", "semaphore-wait", "dma-bound", "small-dma", "spill-reload", "throttling",
                                     "mfu-below-hfu", "tensor-transpose"})
                QVERIFY2(!find(r.findings, rule), rule);
        }
        if (ops.rows.empty() || kernels.rows.empty())
            QVERIFY(!find(r.findings, "fusion-candidate") && !find(r.findings, "launch-bound"));
        std::unordered_map<uint32_t, uint32_t> deviceOfSlice; // execution slice -> device index
        for (const auto &w : index.work())
            if (LaunchIndex::isExecutionLevel(w.kind))
                deviceOfSlice.emplace(w.slice.value, w.device);
        for (const Finding &f : r.findings) {
            if (f.rule != "fusion-candidate")
                continue;
            QVERIFY(f.value >= kFusionMinExecutions);
            QCOMPARE(f.threshold, kFusionMinExecutions);
            const std::string title = f.title.substr(std::string("Fusion candidate: ").size());
            if (title.find(" adjacent ops under ") == std::string::npos) {
                // One op: its device total is the op table's.
                const std::string name = title.substr(0, title.find(" makes "));
                bool matched = false;
                for (const auto &row : ops.rows)
                    if (row.name == name)
                        matched = f.detail.find("device total " + insighttext::ns(row.deviceTotal) + " (op table)") != std::string::npos;
                QVERIFY2(matched, name.c_str());
            }
            // Every gap is idle in the device table on the executions' device, and (up to 50 of
            // them) they add up to the recoverable time.
            uint32_t device = UINT32_MAX;
            for (uint32_t e : f.events)
                if (auto it = deviceOfSlice.find(e); it != deviceOfSlice.end() && device == UINT32_MAX)
                    device = it->second;
            QVERIFY(device != UINT32_MAX);
            int64_t gaps = 0;
            for (const auto &[g0, g1] : f.ranges) {
                gaps += g1 - g0;
                DeviceSummary::Options o;
                o.hasRange = true;
                o.t0 = g0;
                o.t1 = g1;
                for (const auto &row : DeviceSummary::compute(*trace, index, o))
                    if (row.device == index.devices()[device].name)
                        QCOMPARE(row.busy, int64_t(0));
            }
            QVERIFY(gaps > 0);
            if (f.ranges.size() < Finding::kMaxEvents)
                QCOMPARE(*f.recoverableNs, gaps);
            QVERIFY(100.0 * double(*f.recoverableNs) >= kFusionMinIdlePercent * double(span));
        }
        // Device findings point at slices of engine / DMA lanes inside the trace.
        std::vector<TrackId> deviceLanes;
        for (const auto &row : engines.engines)
            deviceLanes.insert(deviceLanes.end(), row.tracks.begin(), row.tracks.end());
        for (const auto &q : engines.dma)
            deviceLanes.push_back(q.track);
        for (const Finding &f : r.findings) {
            if (!std::count(std::begin(kDeviceRules), std::end(kDeviceRules), f.rule))
                continue;
            QVERIFY2(!f.events.empty() && !f.ranges.empty(), f.rule.c_str());
            for (uint32_t e : f.events) {
                const Slice &s = trace->slice(SliceId(e));
                QVERIFY(std::count(deviceLanes.begin(), deviceLanes.end(), trace->trackOfSlice(SliceId(e))));
                QVERIFY(s.start >= trace->startNs() && s.end() <= trace->endNs());
            }
            for (const auto &[s0, s1] : f.ranges)
                QVERIFY(s0 < s1 && s0 >= engines.startNs && s1 <= engines.endNs);
        }
    }
};

QTEST_GUILESS_MAIN(TestInsightsCorpus)
#include "tst_insightscorpus.moc"
