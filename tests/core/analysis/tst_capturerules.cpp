// Capture checks (issue 20; CaptureRules, CaptureCheck): for each check a case that fires with the
// expected numbers (thresholds as docs/insights.md gives them) and one that must not, written the way PyTorch's
// profiler (Kineto JSON) and TorchNeuron (profile folders from SampleFolderWriter, edited where a
// capture goes wrong) write them and read through the real loader; the bundled sample and its two
// capture variants ("no-sync", "no-warmup") are named by the right checks.
#include "findings.h"
#include "kinetoevents.h"
#include "loadtrace.h"

#include "analysis/insights/capturecheck.h"
#include "analysis/insights/capturerules.h"
#include "analysis/insights/insights.h"
#include "analysis/insights/insighttext.h"
#include "analysis/insights/ruleregistry.h"
#include "analysis/stepstatistics.h"
#include "io/synthetic/samplefolderwriter.h"
#include "model/trace.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdlib>

using namespace lanescope;

namespace {

const auto find = test::findRule;

QStringList rules(const std::vector<Finding> &all)
{
    QStringList out;
    for (const Finding &f : all)
        out << QString::fromStdString(f.rule);
    return out;
}

using lanescope::test::KinetoEvents;

std::vector<Finding> check(const std::shared_ptr<const Trace> &t) { return t ? CaptureCheck::run(*t) : std::vector<Finding>(); }

// Loads `path` through the real loader into `t`, runs the capture checks into `all` and returns the
// finding of `rule` (nullptr when it did not fire or the load failed).
const Finding *loadAndFind(const QString &path, const char *rule, std::shared_ptr<const Trace> &t, std::vector<Finding> &all)
{
    t = test::load(path);
    all = check(t);
    return t ? find(all, rule) : nullptr;
}

// The run folder of a sample written into `dir` (trace.json, system_profile.json, NEFFs, NTFFs).
QString runFolder(const QTemporaryDir &dir, const SampleFolderWriter::Options &o)
{
    return dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder(o)));
}

QString write(const QTemporaryDir &dir, const SampleFolderWriter::Options &o)
{
    return QString::fromStdString(SampleFolderWriter::write(dir.path().toStdString(), o));
}

} // namespace

class TestCaptureRules : public QObject
{
    Q_OBJECT

private slots:
    void isCapture()
    {
        QVERIFY(Finding::isCapture("capture-few-steps"));
        QVERIFY(!Finding::isCapture("step-warmup"));
        QVERIFY(!Finding::isCapture("capture"));
        QCOMPARE(CaptureCheck::verdict({}), std::string("ok"));
        // Every capture rule is in the default registry too, with the prefix (4 host side, 3 on the inputs).
        QCOMPARE(CaptureCheck::rules().rules().size(), size_t(7));
        for (const auto &r : CaptureCheck::rules().rules())
            QVERIFY(Finding::isCapture(r->id()));
    }

    // The bundled sample is captured the right way (schedule(wait=1, warmup=1, active=3), synchronize
    // before prof.step()): no capture check fires (README, "the bundled sample"), for the whole sample
    // and for each of its --compare-set folders.
    void bundledSample_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::newRow("all three") << QString();
        for (const std::string &v : SampleFolderWriter::variants())
            QTest::newRow(v.c_str()) << QString::fromStdString(v);
    }
    void bundledSample()
    {
        QFETCH(QString, variant);
        QTemporaryDir dir;
        SampleFolderWriter::Options o;
        o.variant = variant.toStdString();
        const auto t = test::load(write(dir, o));
        QVERIFY(t);
        const std::vector<Finding> all = check(t);
        QCOMPARE(rules(all), QStringList());
        QCOMPARE(CaptureCheck::verdict(all), std::string("ok"));
        // What the checks looked at: three steps of similar length, every execution placed at its sync point.
        const Insights::Result r = Insights::run(*t, {});
        for (const Finding &f : r.findings)
            QVERIFY2(!Finding::isCapture(f.rule), f.rule.c_str());
        if (variant.isEmpty())
            QVERIFY(find(r.findings, "fusion-candidate")); // the sample's story: naive vs fused
        std::vector<int64_t> steps;
        for (const Slice &s : t->allSlices())
            if (t->str(s.name).starts_with("ProfilerStep#"))
                steps.push_back(s.duration);
        QCOMPARE(steps.size(), size_t(SampleFolderWriter::kActiveSteps));
        const auto [lo, hi] = std::minmax_element(steps.begin(), steps.end());
        QVERIFY2(double(*hi) / double(*lo) < 1.1, qPrintable(QStringLiteral("%1 .. %2 ns").arg(*lo).arg(*hi)));
        size_t synced = 0;
        for (const auto &[key, value] : t->metadata().entries)
            synced += key.starts_with("alignment.") && value.starts_with("sync points");
        QCOMPARE(synced, SampleFolderWriter::executions(o).size()); // one per NTFF: 18, naive 12, fused 3, compiled 3
    }

    void deviceMissingNoSyncSample()
    {
        QTemporaryDir dir;
        SampleFolderWriter::Options o;
        o.capture = "no-sync";
        const QString folder = write(dir, o);
        QCOMPARE(QFileInfo(folder).fileName(), QStringLiteral("synthetic_rmsnorm_no_sync"));
        std::shared_ptr<const Trace> t;
        std::vector<Finding> all;
        const Finding *f = loadAndFind(folder, "capture-device-missing", t, all);
        QVERIFY(f);
        QCOMPARE(f->severity, Severity::High);
        QCOMPARE(f->value, 2.0); // the last two nrt_execute calls (ProfilerStep#3's aten::rms_norm, CompiledFunction)
        QVERIFY(f->title.find("2 of 18 launch calls") != std::string::npos); // 6 per step x 3 steps
        QVERIFY(f->action.find("torch.neuron.synchronize()") != std::string::npos);
        QCOMPARE(f->events.size(), size_t(2));
        for (uint32_t e : f->events)
            QCOMPARE(t->str(t->slice(SliceId(e)).name), std::string_view("nrt_execute"));
        QCOMPARE(f->ranges.front().first, t->slice(SliceId(f->events.front())).start);
        QCOMPARE(f->ranges.front().second, t->endNs());
        int64_t lastStep = -1;
        for (const Slice &s : t->allSlices())
            if (t->str(s.name) == "ProfilerStep#3")
                lastStep = s.start;
        QVERIFY(lastStep > 0);
        for (uint32_t e : f->events) // both in the last step
            QVERIFY(t->slice(SliceId(e)).start > lastStep);
        // The NEFFs of those two keep the NTFFs of steps 1 and 2: no NEFF is unpaired, nothing else fires.
        QCOMPARE(rules(all), QStringList{QStringLiteral("capture-device-missing")}); // the verdict names it
    }

    void deviceMissingKineto()
    {
        QTemporaryDir dir;
        KinetoEvents e; // three steps, the last launch has no kernel (exported before the GPU finished)
        e.step(1, 0, 100);
        e.step(2, 100, 100);
        e.step(3, 200, 100, false);
        const auto all = check(e.load(dir, "missing.json"));
        const Finding *f = find(all, "capture-device-missing");
        QVERIFY(f);
        QCOMPARE(f->value, 1.0);
        QVERIFY(f->action.find("torch.cuda.synchronize()") != std::string::npos);
        QVERIFY(f->detail.find("1 of 3 launch calls (cudaLaunchKernel)") != std::string::npos);

        KinetoEvents none; // launch calls and no device work at all
        none.step(1, 0, 100, false);
        none.step(2, 100, 100, false);
        const auto empty = check(none.load(dir, "nodevice.json"));
        QVERIFY(find(empty, "capture-device-missing"));
        QVERIFY(find(empty, "capture-device-missing")->title.find("no device work") != std::string::npos);

        KinetoEvents ok;
        for (int i = 1; i <= 3; ++i)
            ok.step(i, (i - 1) * 100.0, 100);
        const auto fine = check(ok.load(dir, "ok.json"));
        QVERIFY(fine.empty());
        QCOMPARE(CaptureCheck::verdict(fine), std::string("ok"));
    }

    void uncorrelatedNeuron()
    {
        QTemporaryDir dir;
        // TorchNeuron without correlate_device_time: privateuse1 events carry no External id / correlation.
        KinetoEvents e;
        for (int i = 1; i <= 3; ++i) {
            const double ts = (i - 1) * 100.0;
            e.x("user_annotation", QStringLiteral("ProfilerStep#%1").arg(i), 100, 100, ts, 100, QStringLiteral("\"External id\":%1").arg(i * 10));
            e.x("cpu_op", QStringLiteral("aten::mul"), 100, 100, ts + 1, 60, QStringLiteral("\"External id\":%1").arg(i * 10 + 1));
            e.x("privateuse1_runtime", QStringLiteral("nrt_execute"), 100, 100, ts + 5, 50, QStringLiteral("\"neff\":\"neff_1\""));
            e.x("privateuse1_driver", QStringLiteral("nc_exec_running"), 100, 101, ts + 8, 40, QStringLiteral("\"neff\":\"neff_1\""));
        }
        const auto all = check(e.load(dir, "neuron.json"));
        const Finding *f = find(all, "capture-uncorrelated");
        QVERIFY(f);
        QCOMPARE(f->severity, Severity::High);
        QCOMPARE(f->value, 100.0);
        QVERIFY(f->detail.find("6 of 6 Neuron runtime / driver events") != std::string::npos);
        QVERIFY(f->action.find("NeuronConfig(correlate_device_time=True)") != std::string::npos);
        QCOMPARE(f->events.size(), size_t(6));

        // The bundled sample joins every one of them.
        QTemporaryDir sample;
        QVERIFY(!find(check(test::load(write(sample, {}))), "capture-uncorrelated"));
    }

    void uncorrelatedCuda()
    {
        QTemporaryDir dir;
        KinetoEvents e;
        for (int i = 1; i <= 3; ++i)
            e.step(i, (i - 1) * 100.0, 100);
        // A kernel the exporter wrote without its correlation (no runtime call can claim it).
        e.x("kernel", QStringLiteral("orphan_kernel"), 0, 7, 290, 5, QStringLiteral("\"device\":0,\"stream\":7"));
        const auto all = check(e.load(dir, "orphan.json"));
        const Finding *f = find(all, "capture-uncorrelated");
        QVERIFY(f);
        QVERIFY(f->detail.find("1 of 4 kernels / memcpy / memset") != std::string::npos);
        QCOMPARE(f->value, 25.0);
        QCOMPARE(f->threshold, 1.0); // docs/insights.md: 1 % of the kernels
    }

    void noWarmupSteps()
    {
        QTemporaryDir dir;
        KinetoEvents e; // the first step 300 us, the others 100 us
        e.step(1, 0, 300);
        for (int i = 2; i <= 5; ++i)
            e.step(i, 300 + (i - 2) * 100.0, 100);
        const auto all = check(e.load(dir, "warmup.json"));
        const Finding *f = find(all, "capture-no-warmup");
        QVERIFY(f);
        QCOMPARE(f->value, 3.0);
        QCOMPARE(f->threshold, 1.5); // docs/insights.md: 1.5 x the median of the others
        QCOMPARE(f->recoverableNs.value_or(0), int64_t(200000)); // 300 us - 100 us, what the step adds to every total
        QVERIFY(f->detail.find("adds " + insighttext::ns(200000)) != std::string::npos);
        QVERIFY(f->action.find("schedule(wait=1, warmup=1, active=N)") != std::string::npos);

        KinetoEvents ok;
        for (int i = 1; i <= 5; ++i)
            ok.step(i, (i - 1) * 100.0, 100);
        QVERIFY(check(ok.load(dir, "steady.json")).empty());
    }

    void noWarmupSample()
    {
        QTemporaryDir dir;
        SampleFolderWriter::Options o;
        o.capture = "no-warmup";
        std::shared_ptr<const Trace> t;
        std::vector<Finding> all;
        const Finding *f = loadAndFind(write(dir, o), "capture-no-warmup", t, all);
        QVERIFY(f);
        // One nrt_load per NEFF inside ProfilerStep#1 (none in #2, #3); the time they cover is what warm-up adds.
        int64_t loads = 0;
        size_t n = 0;
        for (const Slice &s : t->allSlices())
            if (t->str(s.name) == "nrt_load" && t->str(s.category) == "privateuse1_runtime") {
                loads += s.duration;
                ++n;
            }
        QCOMPARE(n, size_t(6));
        // ProfilerStep#1 is slow by its loads: what it adds is its time less the median of #2 and #3.
        std::vector<int64_t> steps;
        for (const Slice &s : t->allSlices())
            if (t->str(s.name).starts_with("ProfilerStep#"))
                steps.push_back(s.duration);
        QCOMPARE(steps.size(), size_t(3));
        const int64_t added = steps[0] - StepStatistics::median({steps[1], steps[2]});
        QCOMPARE(f->recoverableNs.value_or(0), added);
        QCOMPARE(f->value, double(steps[0]) / double(StepStatistics::median({steps[1], steps[2]})));
        QVERIFY2(std::abs(added - loads) < loads / 50, qPrintable(QStringLiteral("%1 vs %2").arg(added).arg(loads))); // the loads, give or take the step jitter
        QVERIFY(loads >= 6 * SampleFolderWriter::kLoadNs * 9 / 10);
        QVERIFY(f->detail.find("6 program load / compilation event(s) (nrt_load)") != std::string::npos);
        QCOMPARE(t->str(t->slice(SliceId(f->events.front())).name), std::string_view("ProfilerStep#1"));
        QCOMPARE(rules(all).first(), QStringLiteral("capture-no-warmup"));
        // The warm-up step also spreads the three step times (p90 / median far above 1.5): few-steps says so,
        // by the spread, not the count; nothing else fires.
        QStringList fired = rules(all);
        fired.sort();
        QCOMPARE(fired, (QStringList{QStringLiteral("capture-few-steps"), QStringLiteral("capture-no-warmup")}));
        QCOMPARE(find(all, "capture-few-steps")->threshold, 1.5); // docs/insights.md: p90 / median > 1.5
        QVERIFY(find(all, "capture-few-steps")->value > 1.5);
    }

    void fewSteps()
    {
        QTemporaryDir dir;
        KinetoEvents two;
        two.step(1, 0, 100);
        two.step(2, 100, 100);
        const Finding *f = nullptr;
        const auto a = check(two.load(dir, "two.json"));
        QVERIFY((f = find(a, "capture-few-steps")));
        QCOMPARE(f->value, 2.0);
        QCOMPARE(f->events.size(), size_t(2));

        KinetoEvents spread; // median 100 us, p90 200 us
        const double durations[] = {100, 100, 200, 100, 100, 200, 100, 100, 100, 100};
        double ts = 0;
        for (int i = 0; i < 10; ++i) {
            spread.step(i + 1, ts, durations[i]);
            ts += durations[i];
        }
        const auto b = check(spread.load(dir, "spread.json"));
        QVERIFY((f = find(b, "capture-few-steps")));
        QCOMPARE(f->value, 2.0);
        QCOMPARE(f->threshold, 1.5);
        QVERIFY(f->detail.find("median " + insighttext::ns(100000) + ", p90 " + insighttext::ns(200000)) != std::string::npos);

        KinetoEvents none; // no ProfilerStep at all: not judged
        none.x("cpu_op", QStringLiteral("aten::add"), 100, 100, 0, 10, QStringLiteral("\"External id\":1"));
        QVERIFY(!find(check(none.load(dir, "nosteps.json")), "capture-few-steps"));
    }

    void partialInputTruncated()
    {
        QTemporaryDir dir;
        KinetoEvents e;
        for (int i = 1; i <= 3; ++i)
            e.step(i, (i - 1) * 100.0, 100);
        const auto cut = check(e.load(dir, "cut.json", false));
        const Finding *f = find(cut, "capture-partial-input");
        QVERIFY(f);
        QCOMPARE(f->severity, Severity::Medium);
        QVERIFY(f->title.find("trace cut mid-file") != std::string::npos);
        QVERIFY(f->detail.find("cut.json is cut mid-file") != std::string::npos);
        QVERIFY(!find(check(e.load(dir, "whole.json")), "capture-partial-input"));
    }

    void partialInputFolder()
    {
        QTemporaryDir dir;
        const QString root = write(dir, {});
        const QString run = runFolder(dir, {});
        // The NTFFs of one NEFF (aten::mean's, one per step) not copied: it stays unpaired, its device time unknown.
        int removed = 0;
        for (const SampleFolderWriter::Execution &x : SampleFolderWriter::executions())
            if (x.op == "aten::mean")
                removed += QFile::remove(run + QLatin1Char('/') + QString::fromStdString(x.ntffFile));
        QCOMPARE(removed, 3);
        const auto all = check(test::load(root));
        const Finding *f = find(all, "capture-partial-input");
        QVERIFY(f);
        QCOMPARE(f->title, std::string("Partial input: device time of 1 of 6 NEFFs unknown"));
        QVERIFY(f->action.find("copy the whole profile output folder") != std::string::npos);
        QCOMPARE(f->value, 1.0);
    }

    void clockAlignmentApproximate()
    {
        QTemporaryDir dir;
        const QString root = write(dir, {});
        // Without the system trace every NTFF is placed at its nrt_execute event: approximate.
        QVERIFY(QFile::remove(runFolder(dir, {}) + QStringLiteral("/system_profile.json")));
        const auto all = check(test::load(root));
        const Finding *f = find(all, "capture-clock-alignment");
        QVERIFY(f);
        QCOMPARE(f->severity, Severity::Low);
        QCOMPARE(f->value, 18.0); // every NTFF: 6 programs x 3 steps
        QVERIFY(f->title.find("approximate for 18 of 18 device timelines") != std::string::npos);
        QVERIFY(f->detail.find("0 placed at system-trace sync points") != std::string::npos);
        QVERIFY(f->action.find("ProfileMode.RUNTIME") != std::string::npos);

        QTemporaryDir synced; // with it: every timeline at a sync point, inside its call
        QVERIFY(!find(check(test::load(write(synced, {}))), "capture-clock-alignment"));
    }

    void clockAlignmentOutsideCall()
    {
        QTemporaryDir dir;
        const QString root = write(dir, {});
        // A bad sync: the system trace puts the first execution 50 us before its nrt_execute began.
        const QString path = runFolder(dir, {}) + QStringLiteral("/system_profile.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        f.close();
        // Each event is one line: {"timestamp": N, "duration": D, "name": "nc_exec_running", ...}
        static const QRegularExpression first(QStringLiteral("\\{\"timestamp\": (\\d+)(, \"duration\": \\d+, \"name\": \"nc_exec_running\")"));
        const QRegularExpressionMatch m = first.match(text);
        QVERIFY(m.hasMatch());
        text.replace(m.capturedStart(1), m.capturedLength(1), QString::number(m.captured(1).toLongLong() - 50000));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.toUtf8());
        f.close();
        std::shared_ptr<const Trace> t;
        std::vector<Finding> all;
        const Finding *c = loadAndFind(root, "capture-clock-alignment", t, all);
        QVERIFY(c);
        QCOMPARE(c->severity, Severity::Medium);
        QVERIFY(c->title.find("1 of 18 NEFF executions lie outside their launch call") != std::string::npos);
        QVERIFY(c->detail.find("18 placed at system-trace sync points") != std::string::npos);
        // The execution and its call, and the range spanning both.
        QCOMPARE(c->events.size(), size_t(2));
        QCOMPARE(t->str(t->slice(SliceId(c->events[1])).name), std::string_view("nrt_execute"));
        const Slice &call = t->slice(SliceId(c->events[1]));
        QVERIFY(c->ranges.front().first < call.start);
        QVERIFY(c->value > 40000 && c->value < 60000); // about the 50 us moved
    }
};

QTEST_GUILESS_MAIN(TestCaptureRules)
#include "tst_capturerules.moc"
