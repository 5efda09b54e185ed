// Capture checks on real traces (the corpus): no check fails or reports nonsense on GPU traces with and
// without steps, CPU-only traces, lone NTFFs and Neuron folders without a framework trace; and the
// numbers of the checks that fire equal what was counted by hand in the files (see each comment).
#include "corpus.h"
#include "findings.h"
#include "loadtrace.h"

#include "analysis/insights/capturecheck.h"
#include "analysis/insights/captureinputrules.h"
#include "analysis/insights/insighttext.h"
#include "io/input/inputbuffer.h"
#include "io/neuronprofile/neuronprofilejsonimporter.h"
#include "model/trace.h"

#include <QtTest>

using namespace lanescope;

namespace {

const auto find = test::findRule;

std::vector<Finding> checkCorpus(const char *relative, std::shared_ptr<const Trace> *keep = nullptr)
{
    const auto t = test::load(test::corpusFile(QLatin1String(relative)));
    if (!t)
        return {};
    if (keep)
        *keep = t;
    return CaptureCheck::run(*t);
}

bool mentions(const Finding *f, const std::string &text) { return f && (f->detail.find(text) != std::string::npos || f->title.find(text) != std::string::npos); }

} // namespace

class TestCaptureCorpus : public QObject
{
    Q_OBJECT

private slots:
    void wellFormed_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : {"hta/amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz", "hta/cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
                              "hta/critical_path__cuda_event_sync__event_sync_trace.json.gz", "hta/trace_compare__test__test.json.gz",
                              "hta/mtia_trace_single_rank__mtia_rank_0.json.gz", "kineto/tb_samples_2021-01__resnet50_num_workers_0__worker0.pt.trace.json.gz",
                              "kineto/docs__before_fix_trace.json", "tracelens/mi300_resnet_act_checkpoint.json.gz",
                              "generated-torch-cpu/rmsnorm_library.trace.json", "catapult/big_trace.json", "neuron-cs149-asst4",
                              "neuron-profile-json", "neuron-cs149-asst4/stream_256k_fd1k.ntff", "neuron-profile-json/profile_128x128x256.json"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    // Every finding: a capture- id, a title, numbers, a fix, at most 50 real events and ordered ranges.
    void wellFormed()
    {
        QFETCH(QString, file);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        std::shared_ptr<const Trace> t;
        const std::vector<Finding> all = checkCorpus(file.toLatin1().constData(), &t);
        QVERIFY(t);
        for (const Finding &f : all) {
            QVERIFY(Finding::isCapture(f.rule));
            QVERIFY(!f.title.empty() && !f.detail.empty() && !f.action.empty());
            QVERIFY(f.events.size() <= Finding::kMaxEvents);
            for (uint32_t e : f.events)
                QVERIFY(e < t->allSlices().size());
            for (const auto &[s, e] : f.ranges)
                QVERIFY(s <= e);
        }
    }

    // generated-torch-cpu/rmsnorm_naive: ProfilerStep#1..3 last 397, 303 and 231 us (the JSON's dur).
    // The first is 397 / 231 = 1.72 x the median of the others (lower middle of 231, 303): it adds 166 us.
    void warmupInCpuTrace()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json"));
        const auto all = checkCorpus("generated-torch-cpu/rmsnorm_naive.trace.json");
        const Finding *f = find(all, "capture-no-warmup");
        QVERIFY(f);
        QCOMPARE(f->value, 397.0 / 231.0);
        QCOMPARE(f->recoverableNs.value_or(0), int64_t(166000));
        QVERIFY(!find(all, "capture-few-steps")); // 3 steps, p90 / median = 397 / 303 = 1.31
        QVERIFY(!find(all, "capture-device-missing"));
    }

    // tracelens/sglang_decode_bs32_rank0: 546 cuda_runtime *LaunchKernel calls, 2 kernel events (both
    // launched by the first two calls); the GPU side of the other 544 is absent.
    void deviceMissingInTraceLens()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("tracelens/sglang_decode_bs32_rank0.json.gz"));
        const auto all = checkCorpus("tracelens/sglang_decode_bs32_rank0.json.gz");
        const Finding *f = find(all, "capture-device-missing");
        QVERIFY(f);
        QCOMPARE(f->value, 544.0);
        QVERIFY(mentions(f, "544 of 546 launch calls"));
        QCOMPARE(f->events.size(), Finding::kMaxEvents);
        QVERIFY(f->action.find("torch.cuda.synchronize()") != std::string::npos);
    }

    // neuron-cs149-asst4: 6 NEFFs, 2 NTFFs (stream_256k_fd1k / fd2k, each with its NEFF): the device
    // time of the 4 part2_* NEFFs is unknown. No framework trace: nothing to place, nothing to correlate.
    void neuronFolderWithUnpairedNeffs()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4"));
        const auto all = checkCorpus("neuron-cs149-asst4");
        QCOMPARE(all.size(), size_t(1));
        const Finding *f = find(all, "capture-partial-input");
        QVERIFY(f);
        QCOMPARE(f->title, std::string("Partial input: device time of 4 of 6 NEFFs unknown"));
        QVERIFY(!find(all, "capture-clock-alignment"));
    }

    // neuron-profile-json: 11 NTFFs and their 11 neuron-profile JSON exports, no NEFF at all.
    void neuronProfileJsonFolder()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json"));
        const auto all = checkCorpus("neuron-profile-json");
        const Finding *f = find(all, "capture-partial-input");
        QVERIFY(f);
        QCOMPARE(f->severity, Severity::Low);
        QVERIFY(mentions(f, "11 NTFFs have no NEFF"));
        QVERIFY(!find(all, "capture-device-missing"));
    }

    // Traces captured the right way as far as these checks can tell: no finding at all. A lone NTFF
    // (one execution, no host side, its records before the trace window belong to earlier executions).
    void quietOnGoodCaptures_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : {"generated-torch-cpu/rmsnorm_fused.trace.json", "kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
                              "neuron-cs149-asst4/stream_256k_fd1k.ntff", "neuron-profile-json/profile_128x128x256.ntff",
                              "hta/critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    void quietOnGoodCaptures()
    {
        QFETCH(QString, file);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        const auto all = checkCorpus(file.toLatin1().constData());
        QVERIFY2(all.empty(), all.empty() ? "" : all.front().title.c_str());
        QCOMPARE(CaptureCheck::verdict(all), std::string("ok"));
    }

    // speedscope/simple-partial.json: a bare JSON array that stops after an event (no closing bracket).
    void partialJson()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("speedscope/simple-partial.json"));
        const auto all = checkCorpus("speedscope/simple-partial.json");
        QCOMPARE(all.size(), size_t(1));
        QCOMPARE(all.front().title, std::string("Partial input: trace cut mid-file"));
        QCOMPARE(all.front().severity, Severity::Medium);
    }

    // neuron-profile's own warnings ("warnings" of its JSON export), one finding each, its advice as the
    // action: the three every 2.28 export of the corpus carries (trn2, NKI kernels captured without
    // --enable-dge-notifs) and the two of the 2.27 ones (the same words, without the HLO-stats one).
    void profilerWarnings_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("count");
        QTest::newRow("2.28") << QStringLiteral("neuron-trn2-v6/baseline_attention/baseline_exec_2_profile_full.json") << 3;
        QTest::newRow("2.28 fused") << QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2_profile_full.json") << 3;
        QTest::newRow("2.27") << QStringLiteral("neuron-profile-json/profile_128x128x256.json") << 2;
    }

    void profilerWarnings()
    {
        QFETCH(QString, file);
        QFETCH(int, count);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        std::shared_ptr<const Trace> t;
        const auto all = checkCorpus(file.toLatin1().constData(), &t);
        std::vector<const Finding *> found;
        for (const Finding &f : all)
            if (f.rule == "capture-profiler-warning")
                found.push_back(&f);
        QCOMPARE(int(found.size()), count);
        const auto withTitle = [&](const std::string &title) -> const Finding * {
            for (const Finding *f : found)
                if (f->title == title)
                    return f;
            return nullptr;
        };
        const Finding *dge = withTitle("neuron-profile: Missing additional dynamic DMA metadata, reported DMA values may be inaccurate");
        QVERIFY(dge);
        QCOMPARE(dge->action, std::string("Try capturing the profile with --enable-dge-notifs or NEURON_RT_ENABLE_DGE_NOTIFICATIONS=1 env flag."));
        QCOMPARE(dge->severity, Severity::Low); // "Missing Data": numbers may be missing, the capture is usable
        QVERIFY(mentions(dge, "category \"Missing Data\""));
        QVERIFY(mentions(dge, t->metadata().sourcePath));
        QVERIFY(mentions(dge, count == 3 ? "neuron-profile 2.28.23.0" : "neuron-profile 2.27.33.0"));
        const Finding *compiler = withTitle("neuron-profile: Current NEFF is missing compiler metrics");
        QVERIFY(compiler);
        QCOMPARE(compiler->action, std::string("Please re-compile using latest version of the compiler"));
        const Finding *hlo = withTitle("neuron-profile: Missing HLO stats in the NEFF, `model_flops` and `mfu_hlo_estimated_percent` "
                                       "summary metrics will not be available");
        QCOMPARE(bool(hlo), count == 3);
        if (hlo)
            QCOMPARE(hlo->action, std::string("Consider the metrics (hardware_flops - transpose_flops) and mfu_inst_estimated_percent instead."));
        // info's one-line verdict names the first of them
        QVERIFY(CaptureCheck::verdict(all).find("(capture-profiler-warning)") != std::string::npos);
    }

    // An export without a "warnings" array, or with an empty one: no such finding. A category other
    // than "Missing Data" is medium; a message without advice still says what to do.
    void profilerWarningsHandWritten()
    {
        const auto run = [](const std::string &json) {
            InputBuffer input = InputBuffer::fromBytes(json, "w.json", {});
            const Trace t = NeuronProfileJsonImporter::import(input, "w.json", {});
            return CaptureCheck::run(t);
        };
        const std::string rows = R"("instruction":[{"timestamp":1,"duration":2,"pc":0,"opcode":"NOP","subgroup":"Sync","label":"Sync"}])";
        QVERIFY(!find(run("{" + rows + "}"), "capture-profiler-warning"));
        QVERIFY(!find(run("{" + rows + R"(,"warnings":[]})"), "capture-profiler-warning"));
        const auto all = run("{" + rows + R"(,"warnings":[{"category":"Invalid Data","message":"Clock went backwards."}]})");
        const Finding *f = find(all, "capture-profiler-warning");
        QVERIFY(f);
        QCOMPARE(f->severity, Severity::Medium);
        QCOMPARE(f->title, std::string("neuron-profile: Clock went backwards"));
        QVERIFY(!f->action.empty());
        QCOMPARE(CaptureInputRules::splitAdvice("A. B. C."), std::make_pair(std::string("A"), std::string("B. C.")));
    }

    // hta/cpu_only: one ProfilerStep (210 ms), no device: too few steps and nothing else.
    void oneStepCpuOnly()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("hta/cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
        const auto all = checkCorpus("hta/cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
        QCOMPARE(all.size(), size_t(1));
        QCOMPARE(all.front().rule, std::string("capture-few-steps"));
        QCOMPARE(all.front().value, 1.0);
    }
};

QTEST_GUILESS_MAIN(TestCaptureCorpus)
#include "tst_capturecorpus.moc"
