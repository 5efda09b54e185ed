// OpTable's Neuron device columns (device FLOPs self / total, MFU, DMA bytes self / total; optable.h)
// and where the FLOPs come from (hlo_stats.json of the paired NEFF, ExecutionCost). Every expected
// number is computed here from the files themselves, without Lanescope's readers where they are what
// is tested: hlo_stats.json taken out of the NEFF with zlib and a tar walk (neffmember.h), DMA bytes
// summed over the NTFFs' DMA rows.
#include "corpus.h"
#include "loadtrace.h"
#include "neffmember.h"

#include "analysis/enginebreakdown.h"
#include "analysis/executioncost.h"
#include "analysis/insights/insightcontext.h"
#include "analysis/insights/insights.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/traceanalysis.h"
#include "io/neff/neffreader.h"
#include "io/ntff/ntffreader.h"
#include "io/synthetic/neffwriter.h"
#include "io/synthetic/samplefolderwriter.h"
#include "model/trace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace lanescope;

namespace {

const OpTable::Row *findRow(const OpTable::Result &r, const std::string &name)
{
    for (const auto &row : r.rows)
        if (row.name == name)
            return &row;
    return nullptr;
}

std::string readAll(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

// HloMacCount of a NEFF, read independently; -1 when it has no hlo_stats.json.
int64_t macCountOf(const std::string &neff)
{
    const auto member = test::neffMember(QString::fromStdString(neff), "hlo_stats.json");
    if (!member)
        return -1;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(*member)).object();
    return o[QStringLiteral("HloMacCount")].toInteger(-2);
}

struct Sample
{
    QTemporaryDir dir;
    std::string root, run;
    std::shared_ptr<const Trace> trace;
};

void writeSample(Sample &s)
{
    QVERIFY(s.dir.isValid());
    s.root = SampleFolderWriter::write(s.dir.path().toStdString());
    s.run = s.dir.path().toStdString() + "/" + SampleFolderWriter::runFolder();
    s.trace = test::load(QString::fromStdString(s.root));
    QVERIFY(s.trace);
}

} // namespace

class TestOpTableDevice : public QObject
{
    Q_OBJECT

private slots:
    // FLOPs per op = 2 x HloMacCount of its program x executions; MFU = FLOPs / (time x peak);
    // DMA bytes = the NTFF DMA rows of its executions. Null (not 0) where no file carries FLOPs.
    void sampleFlopsMfuAndDma()
    {
        Sample s;
        writeSample(s);
        if (QTest::currentTestFailed())
            return;
        const Trace &trace = *s.trace;
        const OpTable::Result result = OpTable::compute(trace, LaunchIndex::build(trace), {});
        QVERIFY(result.deviceFlops);
        QVERIFY(result.dmaBytes);

        std::map<std::string, double> flops;      // op -> expected FLOPs (summed over executions)
        std::map<std::string, bool> hasFlops;     // op -> some program of it carries hlo_stats.json
        std::map<std::string, uint64_t> dma;      // op -> bytes of its NTFFs' DMA rows
        std::map<std::string, int> executions;
        for (const auto &x : SampleFolderWriter::executions()) {
            const int64_t macs = macCountOf(s.run + "/" + x.neffFile);
            QVERIFY2(macs >= -1, x.neffFile.c_str());
            hasFlops[x.op] = hasFlops[x.op] || macs >= 0;
            flops[x.op] += macs >= 0 ? 2.0 * double(macs) : 0.0;
            const NtffProfile p = NtffReader::read(readAll(s.run + "/" + x.ntffFile), x.ntffFile);
            for (const NtffDmaRow &r : p.dma)
                dma[x.op] += r.transferSize;
            ++executions[x.op];
        }
        // The sample's programs: the compiled one has a dot, naive's XLA graphs none, rms_norm is NKI.
        QVERIFY(flops["CompiledFunction"] > 0);
        QCOMPARE(flops["CompiledFunction"], 2.0 * 512 * 4096 * SampleFolderWriter::kActiveSteps);
        QVERIFY(hasFlops["aten::pow"]);
        QCOMPARE(flops["aten::pow"], 0.0);
        QVERIFY(!hasFlops["aten::rms_norm"]);

        const double peak = 2.0 * 128 * 128 * 2.8e9; // trn1 (formats.md 6), the sample's instance type
        for (const auto &[op, n] : executions) {
            const OpTable::Row *row = findRow(result, op);
            QVERIFY2(row, op.c_str());
            QVERIFY2(row->deviceSelf > 0, op.c_str());
            QVERIFY2(row->dmaBytesSelf.has_value(), op.c_str());
            QCOMPARE(*row->dmaBytesSelf, dma[op]);
            QCOMPARE(*row->dmaBytesTotal, dma[op]);
            if (!hasFlops[op]) {
                QVERIFY2(!row->deviceFlopsSelf && !row->deviceFlopsTotal && !row->mfuPercent, op.c_str());
                continue;
            }
            QVERIFY2(row->deviceFlopsSelf && row->deviceFlopsTotal, op.c_str());
            QCOMPARE(*row->deviceFlopsSelf, flops[op]);
            QCOMPARE(*row->deviceFlopsTotal, flops[op]);
            QVERIFY2(row->mfuPercent, op.c_str());
            const double expected = 100.0 * flops[op] / (double(row->deviceTotal) * 1e-9 * peak);
            QVERIFY2(std::abs(*row->mfuPercent - expected) <= 1e-9 * std::max(1.0, expected),
                     qPrintable(QStringLiteral("%1: MFU %2 expected %3").arg(QString::fromStdString(op)).arg(*row->mfuPercent).arg(expected)));
        }
        // The enclosing annotations and the step sum their children's: torch.compile's annotation
        // holds the compiled FLOPs; ProfilerStep* everything that carries FLOPs, and all DMA bytes.
        const OpTable::Row *step = findRow(result, "ProfilerStep*");
        QVERIFY(step && step->deviceFlopsTotal && step->dmaBytesTotal);
        QCOMPARE(*step->deviceFlopsTotal, flops["CompiledFunction"]);
        uint64_t allDma = 0;
        for (const auto &[op, bytes] : dma)
            allDma += bytes;
        QCOMPARE(*step->dmaBytesTotal, allDma);
        QVERIFY(!step->dmaBytesSelf); // the step itself launched nothing
        // A host op that launched no execution has no device side at all.
        const OpTable::Row *to = findRow(result, "aten::to");
        QVERIFY(to);
        QVERIFY(!to->dmaBytesTotal && !to->deviceFlopsTotal && !to->mfuPercent);
        // The peak is the function the engines table's MFU uses, on the NTFF's own metadata (its instance type).
        const std::string run = SampleFolderWriter::runFolder();
        const std::string ntff = run.substr(run.find('/') + 1) + "/" + SampleFolderWriter::executions().front().ntffFile;
        QCOMPARE(EngineBreakdown::peakFlopsPerSec(trace, ntff + ": "), peak);
        QCOMPARE(EngineBreakdown::peakFlopsPerSec(trace), 0.0); // the folder itself records no clock
    }

    // The per-trace ExecutionCost (TraceAnalysis, what the Analysis dock passes on every range or
    // grouping change) gives the table the per-call build gives, over the whole trace and a range; its
    // DMA bytes over all executions are every NTFF DMA row of the sample.
    void sharedExecutionCost()
    {
        Sample s;
        writeSample(s);
        if (QTest::currentTestFailed())
            return;
        const TraceAnalysis analysis(s.trace);
        const std::shared_ptr<const ExecutionCost> cost = analysis.executionCost();
        QVERIFY(cost && cost->any());
        QCOMPARE(analysis.executionCost().get(), cost.get()); // built once
        const LaunchIndex &index = *analysis.launchIndex();
        uint64_t dmaOfExecutions = 0;
        size_t executions = 0;
        for (size_t i = 0; i < index.work().size(); ++i)
            if (index.work()[i].kind == LaunchIndex::WorkKind::NeffExecution) {
                dmaOfExecutions += cost->of(i).dmaBytes;
                ++executions;
            } else {
                QCOMPARE(cost->of(i).dmaBytes, uint64_t(0));
                QVERIFY(!cost->of(i).flops);
            }
        QCOMPARE(executions, SampleFolderWriter::executions().size());
        uint64_t dmaRows = 0;
        for (const auto &x : SampleFolderWriter::executions())
            for (const NtffDmaRow &r : NtffReader::read(readAll(s.run + "/" + x.ntffFile), x.ntffFile).dma)
                dmaRows += r.transferSize;
        QCOMPARE(dmaOfExecutions, dmaRows);

        OpTable::Options ranged;
        ranged.hasRange = true;
        ranged.t0 = s.trace->startNs() + (s.trace->endNs() - s.trace->startNs()) / 3;
        ranged.t1 = s.trace->endNs();
        for (const OpTable::Options &o : {OpTable::Options(), ranged}) {
            const OpTable::Result a = OpTable::compute(*s.trace, index, o, cost.get());
            const OpTable::Result b = OpTable::compute(*s.trace, index, o);
            QCOMPARE(a.rows.size(), b.rows.size());
            QVERIFY(!a.rows.empty());
            for (size_t i = 0; i < a.rows.size(); ++i) {
                QCOMPARE(a.rows[i].name, b.rows[i].name);
                QVERIFY(a.rows[i].deviceFlopsTotal == b.rows[i].deviceFlopsTotal);
                QVERIFY(a.rows[i].deviceFlopsSelf == b.rows[i].deviceFlopsSelf);
                QVERIFY(a.rows[i].mfuPercent == b.rows[i].mfuPercent);
                QVERIFY(a.rows[i].dmaBytesTotal == b.rows[i].dmaBytesTotal);
                QVERIFY(a.rows[i].dmaBytesSelf == b.rows[i].dmaBytesSelf);
            }
        }

        // The Summary hands it to Insights too: its context's op table and the findings are the ones the
        // per-call build gives.
        InsightContext shared(*s.trace, index, {}, cost.get()), own(*s.trace, index, {});
        QCOMPARE(shared.ops().rows.size(), own.ops().rows.size());
        for (size_t i = 0; i < own.ops().rows.size(); ++i)
            QVERIFY(shared.ops().rows[i].deviceFlopsTotal == own.ops().rows[i].deviceFlopsTotal
                    && shared.ops().rows[i].dmaBytesTotal == own.ops().rows[i].dmaBytesTotal);
        Insights::Options withCost;
        withCost.cost = cost.get();
        const Insights::Result a = Insights::run(*s.trace, index, withCost), b = Insights::run(*s.trace, index, {});
        QVERIFY(!b.findings.empty());
        QCOMPARE(a.findings.size(), b.findings.size());
        for (size_t i = 0; i < a.findings.size(); ++i)
            QCOMPARE(a.findings[i].rule + a.findings[i].title + a.findings[i].detail, b.findings[i].rule + b.findings[i].title + b.findings[i].detail);
    }

    // A GPU trace: kernels and memcpys have device time but nothing carries FLOPs or DMA rows.
    void gpuTraceHasNullColumns()
    {
        const QString rel = QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz");
        if (const QString missing = test::corpusMissing(rel); !missing.isEmpty())
            LANESCOPE_SKIP_OR_FAIL(missing);
        const auto trace = test::load(test::corpusFile(rel));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        QVERIFY(!ExecutionCost::build(*trace, index).any());
        const OpTable::Result result = OpTable::compute(*trace, index, {});
        QVERIFY(!result.deviceFlops);
        QVERIFY(!result.dmaBytes);
        size_t withDevice = 0;
        for (const OpTable::Row &r : result.rows) {
            withDevice += r.deviceTotal > 0;
            QVERIFY(!r.deviceFlopsTotal && !r.deviceFlopsSelf && !r.mfuPercent && !r.dmaBytesTotal && !r.dmaBytesSelf);
            QCOMPARE(r.number(OpTable::Column::Mfu), -1.0); // sorts after every value
        }
        QVERIFY(withDevice > 10); // the trace does have device time: the nulls are not for lack of it
    }

    // A malformed hlo_stats.json: one warning naming the NEFF and the member; the rest loads, and the
    // op of that program has no FLOPs (not 0), the other programs keep theirs.
    void malformedHloStatsWarns()
    {
        Sample s;
        QVERIFY(s.dir.isValid());
        s.root = SampleFolderWriter::write(s.dir.path().toStdString());
        s.run = s.dir.path().toStdString() + "/" + SampleFolderWriter::runFolder();
        std::string compiled;
        for (const auto &x : SampleFolderWriter::executions())
            if (x.op == "CompiledFunction" && x.step == 1) {
                NeffWriter w; // the same uuid pairs it with the program's NTFFs
                w.setUuid(x.uuid);
                w.addVariable({"x", "input", 4096, "bfloat16", {512, 4096}});
                w.addMember("hlo_stats.json", "{\"HloMacCount\": 12,");
                w.save(s.run + "/" + x.neffFile);
                compiled = x.neffFile;
                // The reader alone: a warning naming the member, the rest read.
                const NeffInfo info = NeffReader::read(s.run + "/" + x.neffFile);
                QVERIFY(!info.hloStats.hasMacCount());
                QVERIFY(!info.subgraphs.empty());
                bool named = false;
                for (const Warning &warning : info.diagnostics.warnings())
                    named = named || (warning.message + warning.firstSeen).find("hlo_stats.json") != std::string::npos;
                QVERIFY(named);
            }
        QVERIFY(!compiled.empty());
        s.trace = test::load(QString::fromStdString(s.root));
        QVERIFY(s.trace);
        size_t warnings = 0;
        for (const Warning &w : s.trace->diagnostics().warnings())
            if (w.message.find(compiled) != std::string::npos && (w.message + w.firstSeen).find("hlo_stats.json") != std::string::npos) {
                ++warnings;
                QCOMPARE(w.count, uint64_t(1)); // one NEFF, read for each of its NTFFs, warned once
            }
        QCOMPARE(warnings, size_t(1));
        const OpTable::Result result = OpTable::compute(*s.trace, LaunchIndex::build(*s.trace), {});
        const OpTable::Row *row = findRow(result, "CompiledFunction");
        QVERIFY(row && row->deviceSelf > 0);
        QVERIFY(!row->deviceFlopsSelf && !row->mfuPercent);
        QVERIFY(row->dmaBytesSelf); // its NTFFs still have their DMA rows
        const OpTable::Row *pow = findRow(result, "aten::pow");
        QVERIFY(pow && pow->deviceFlopsSelf);
        QCOMPARE(*pow->deviceFlopsSelf, 0.0);
    }

    // The corpus NEFFs: the NKIPy (XLA) ones carry hlo_stats.json, whose HloMacCount is M x K x N of
    // the program's one dot, the input shapes read from neff.json (attrs.shape); the NKI ones have none.
    void corpusHloStats_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("xla");
        QTest::newRow("matmul_small") << QStringLiteral("neuron-nkipy/matmul_small.neff") << true;
        QTest::newRow("matmul_large") << QStringLiteral("neuron-nkipy/matmul_large.neff") << true;
        QTest::newRow("pool_1_f32") << QStringLiteral("neuron-cs149-asst4/part2_file_pool_1_float32.neff") << false;
        QTest::newRow("stream_1k") << QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff") << false;
    }
    void corpusHloStats()
    {
        QFETCH(QString, file);
        QFETCH(bool, xla);
        if (const QString missing = test::corpusMissing(file); !missing.isEmpty())
            LANESCOPE_SKIP_OR_FAIL(missing);
        const QString path = test::corpusFile(file);
        const NeffInfo info = NeffReader::read(path.toStdString());
        if (!xla) {
            QVERIFY(!test::neffMember(path, "hlo_stats.json"));
            QVERIFY(!info.hloStats.present);
            return;
        }
        QVERIFY(info.hloStats.hasMacCount());
        QCOMPARE(info.hloStats.macCount, macCountOf(path.toStdString()));
        // neff.json attrs.shape = ["list_shape", [[M, K], [K, N], ...]]: x [M, K] . y [K, N]
        const auto manifest = test::neffMember(path, "neff.json");
        QVERIFY(manifest);
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(*manifest)).object();
        const QJsonArray shapes = o[QStringLiteral("attrs")].toObject()[QStringLiteral("shape")].toArray().at(1).toArray();
        QVERIFY(shapes.size() >= 2);
        const QJsonArray x = shapes.at(0).toArray(), y = shapes.at(1).toArray();
        QCOMPARE(x.size(), 2);
        QCOMPARE(y.size(), 2);
        QCOMPARE(x.at(1).toInteger(), y.at(0).toInteger()); // the contracted dimension
        const int64_t macs = x.at(0).toInteger() * x.at(1).toInteger() * y.at(1).toInteger();
        QCOMPARE(info.hloStats.macCount, macs);
        // ArithmeticIntensity = 2 x MACs / Traffic: the FLOPs are 2 x HloMacCount.
        QVERIFY(info.hloStats.traffic > 0);
        QVERIFY(std::abs(info.hloStats.arithmeticIntensity - 2.0 * double(macs) / double(info.hloStats.traffic)) < 1e-3);
    }
};

QTEST_GUILESS_MAIN(TestOpTableDevice)
#include "tst_optabledevice.moc"
