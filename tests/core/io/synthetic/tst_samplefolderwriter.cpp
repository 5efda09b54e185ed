// SampleFolderWriter: the bundled synthetic RMSNorm profile folder is laid out like TorchNeuron's,
// byte-identical for a seed, says it is synthetic everywhere a reader looks, pairs each NEFF with its
// NTFF by uuid, links host ops to runtime and driver events, and shows the naive variant doing more
// device work than the fused and compiled ones; three profiled steps of the same work, one NTFF per
// device execution (schedule(wait=1, warmup=1, active=3)).
#include "filebytes.h"

#include "io/neff/neffreader.h"
#include "io/ntff/ntffreader.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <map>
#include <set>

using namespace lanescope;

namespace {

std::map<QString, QByteArray> snapshot(const QString &root)
{
    std::map<QString, QByteArray> files;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            files[QDir(root).relativeFilePath(path)] = f.readAll();
    }
    return files;
}

int64_t argInt(const Trace &t, const Slice &s, std::string_view key)
{
    for (const Arg &a : t.args().args(s.args))
        if (t.str(a.key) == key)
            return a.type == ArgType::UInt ? int64_t(a.value.u) : a.value.i;
    return -1;
}

std::string argString(const Trace &t, const Slice &s, std::string_view key)
{
    for (const Arg &a : t.args().args(s.args))
        if (t.str(a.key) == key && a.type == ArgType::String)
            return std::string(t.str(a.stringValue()));
    return {};
}

} // namespace

class TestSampleFolderWriter : public QObject
{
    Q_OBJECT

private slots:
    void executions()
    {
        const auto xs = SampleFolderWriter::executions();
        QCOMPARE(SampleFolderWriter::kActiveSteps, 3);
        QCOMPARE(xs.size(), size_t(18)); // 6 programs x 3 steps
        std::map<std::string, int> variants;
        std::set<std::string> hashes, uuids, ntffs;
        for (size_t i = 0; i < xs.size(); ++i) {
            const auto &x = xs[i];
            ++variants[x.variant];
            hashes.insert(x.hash);
            uuids.insert(x.uuid);
            ntffs.insert(x.ntffFile);
            QCOMPARE(x.step, int(i / 6) + 1);
            QCOMPARE(x.uuid.size(), size_t(32));
            QCOMPARE(x.neffFile, "neff_" + x.hash + ".neff");
            QCOMPARE(x.ntffFile, x.hash + "_instid_" + std::to_string(x.step - 1) + "_vnc_0.ntff");
            QVERIFY(x.hash.find_first_not_of("0123456789") == std::string::npos);
            // every step runs the same programs in the same order
            QCOMPARE(x.hash, xs[i % 6].hash);
            QCOMPARE(x.uuid, xs[i % 6].uuid);
        }
        QCOMPARE(variants["naive"], 4 * 3);
        QCOMPARE(variants["torch.rms_norm"], 3);
        QCOMPARE(variants["torch.compile"], 3);
        QCOMPARE(hashes.size(), size_t(6));
        QCOMPARE(uuids.size(), size_t(6));
        QCOMPARE(ntffs.size(), size_t(18));
        QCOMPARE(xs[0].op, std::string("aten::pow"));
        QCOMPARE(xs[3].op, std::string("aten::mul"));
        QCOMPARE(xs[6].op, std::string("aten::pow"));
        SampleFolderWriter::Options one;
        one.variant = "torch.rms_norm";
        const auto fused = SampleFolderWriter::executions(one);
        QCOMPARE(fused.size(), size_t(3));
        QCOMPARE(fused[0].hash, xs[4].hash); // the same program as in the whole sample
        SampleFolderWriter::Options other;
        other.seed = 2;
        QVERIFY(SampleFolderWriter::executions(other)[0].hash != xs[0].hash);
    }

    void deterministic()
    {
        QTemporaryDir a, b, c;
        QVERIFY(a.isValid() && b.isValid() && c.isValid());
        const std::string ra = SampleFolderWriter::write(a.path().toStdString());
        const std::string rb = SampleFolderWriter::write(b.path().toStdString());
        const auto sa = snapshot(QString::fromStdString(ra)), sb = snapshot(QString::fromStdString(rb));
        QCOMPARE(sa.size(), size_t(27)); // README, trace.json, system_profile.json, 6 NEFFs, 18 NTFFs (6 x 3 steps)
        QVERIFY(sa == sb);
        SampleFolderWriter::write(a.path().toStdString()); // again into the same place: replaced, same bytes
        QVERIFY(snapshot(QString::fromStdString(ra)) == sa);
        SampleFolderWriter::Options seed2;
        seed2.seed = 2;
        const auto sc = snapshot(QString::fromStdString(SampleFolderWriter::write(c.path().toStdString(), seed2)));
        QCOMPARE(sc.size(), sa.size());
        QVERIFY(sc != sa);
    }

    void layoutAndPairs()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = SampleFolderWriter::write(dir.path().toStdString());
        QCOMPARE(root, dir.path().toStdString() + "/synthetic_rmsnorm_profile");
        const std::string run = dir.path().toStdString() + "/" + SampleFolderWriter::runFolder();
        QCOMPARE(SampleFolderWriter::runFolder(), std::string("synthetic_rmsnorm_profile/i-0synthetic0000000_pid_4242/20250101_000000"));
        QVERIFY(test::readFile(QString::fromStdString(root + "/README_SYNTHETIC.txt")).starts_with("SYNTHETIC SAMPLE - NOT A MEASUREMENT"));
        std::map<std::string, uint64_t> instructions, dmaBytes;
        std::map<std::string, bool> matmul;
        for (const auto &x : SampleFolderWriter::executions()) {
            const NeffInfo neff = NeffReader::read(run + "/" + x.neffFile);
            QCOMPARE(neff.header.uuidHex(), x.uuid);
            QCOMPARE(neff.md5, NeffMd5Check::Ok);
            QVERIFY(neff.diagnostics.empty());
            const std::string bytes = test::readFile(QString::fromStdString(run + "/" + x.ntffFile));
            const NtffProfile p = NtffReader::read(bytes, x.ntffFile);
            QCOMPARE(p.uuid, x.uuid);
            QCOMPARE(p.neffName, x.neffFile);
            QVERIFY(p.originFromNotify);
            QVERIFY(!p.instructions.empty());
            QVERIFY(!p.dma.empty());
            // What the NEFF says its queues move is what the NTFF's DMA packets moved.
            uint64_t neffBytes = 0, ntffBytes = 0;
            for (const NeffDmaQueue &q : neff.subgraphs.at(0).dmaQueues)
                neffBytes += q.readBytes;
            for (const NtffDmaRow &r : p.dma)
                ntffBytes += r.transferSize;
            QCOMPARE(ntffBytes, neffBytes);
            instructions[x.variant] += p.instructions.size();
            dmaBytes[x.variant] += ntffBytes;
            for (const NtffInstructionRow &r : p.instructions)
                matmul[x.variant] = matmul[x.variant] || r.lane == NtffLane::TensorMatrix;
        }
        // naive = more instructions and more DMA; fused and compiled move the tensor in and out once
        QVERIFY(instructions["naive"] > instructions["torch.rms_norm"]);
        QVERIFY(instructions["naive"] > instructions["torch.compile"]);
        QVERIFY(dmaBytes["naive"] > 2 * dmaBytes["torch.rms_norm"]);
        QVERIFY(dmaBytes["torch.compile"] <= dmaBytes["torch.rms_norm"]);
        QVERIFY(matmul["torch.compile"]);
        QVERIFY(!matmul["naive"]);
    }

    // The NEFFs carry what the device views read: the debug chain (every NTFF instruction row's
    // compiler_pc names an entry; the XLA programs' non-NOTIFY rows reach an HLO op and a scope) and, for
    // the XLA programs, hlo_stats.json (the compiled one's dot: 512 x 4096 MACs; naive's: none).
    void neffsCarryDebugChainAndHloStats()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SampleFolderWriter::write(dir.path().toStdString());
        const std::string run = dir.path().toStdString() + "/" + SampleFolderWriter::runFolder();
        std::set<std::string> seen;
        for (const auto &x : SampleFolderWriter::executions()) {
            if (!seen.insert(x.neffFile).second)
                continue;
            const NeffInfo neff = NeffReader::read(run + "/" + x.neffFile);
            QVERIFY(neff.diagnostics.empty());
            const bool nki = x.op == "aten::rms_norm";
            QCOMPARE(neff.hloStats.present, !nki);
            if (!nki)
                QCOMPARE(neff.hloStats.macCount, x.op == "CompiledFunction" ? int64_t(512) * 4096 : int64_t(0));
            QCOMPARE(neff.debug.size(), size_t(1));
            const NeffSubgraphDebug &d = neff.debug.front();
            QCOMPARE(d.hlo.empty(), nki);
            QVERIFY(!d.penguin.empty());
            const NtffProfile p = NtffReader::read(test::readFile(QString::fromStdString(run + "/" + x.ntffFile)), x.ntffFile);
            const char *engines[] = {"", "PE", "Activation", "Pool", "DVE", "SP"};
            uint64_t rows = 0, withHlo = 0;
            for (const NtffInstructionRow &r : p.instructions) {
                const NeffEngineDebug *e = d.engine(engines[size_t(r.engine)]);
                QVERIFY(e && r.hasCompilerPc() && size_t(r.compilerPc) < e->instructions.size());
                if (r.opcode == 0xa6) // NOTIFY: runtime, no op
                    continue;
                ++rows;
                const NeffDebugInstruction &i = e->instructions[size_t(r.compilerPc)];
                withHlo += i.hlo != NeffDebugInstruction::kNone && i.scope != NeffDebugInstruction::kNone;
            }
            QVERIFY(rows > 0);
            if (nki)
                QCOMPARE(withHlo, uint64_t(0));
            else
                QVERIFY2(withHlo * 10 >= rows * 8, x.op.c_str()); // all but the table / weight loads
        }
        QCOMPARE(seen.size(), size_t(6));
    }

    void saysSyntheticAndLinksHostToDevice()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = SampleFolderWriter::write(dir.path().toStdString());
        const std::string tracePath = dir.path().toStdString() + "/" + SampleFolderWriter::runFolder() + "/trace.json";
        const std::string text = test::readFile(QString::fromStdString(tracePath));
        QVERIFY(text.find("\"synthetic\": true") != std::string::npos);
        QVERIFY(text.find("synthetic data, not a measurement") != std::string::npos);

        const LoadResult r = TraceLoader::load(tracePath);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        QVERIFY(t.metadata().synthetic);
        QVERIFY(t.diagnostics().empty());
        bool processSaysSo = false;
        for (const TrackGroup &g : t.groups())
            processSaysSo = processSaysSo || t.str(g.name) == SampleFolderWriter::kProcessName;
        QVERIFY(processSaysSo);
        std::set<int64_t> opIds;
        std::map<std::string, int> runtimeCalls;
        int driver = 0;
        std::set<std::string> hashes;
        for (const auto &x : SampleFolderWriter::executions())
            hashes.insert("neff_" + x.hash);
        for (const Slice &s : t.allSlices())
            if (t.str(s.category) == "cpu_op")
                opIds.insert(argInt(t, s, "External id"));
        for (const Slice &s : t.allSlices()) {
            const std::string_view cat = t.str(s.category);
            if (cat == "privateuse1_runtime") {
                ++runtimeCalls[std::string(t.str(s.name))];
                QVERIFY2(opIds.count(argInt(t, s, "External id")), "runtime call without its cpu_op");
                if (t.str(s.name) == "nrt_execute")
                    QVERIFY(hashes.count(argString(t, s, "neff")));
            } else if (cat == "privateuse1_driver") {
                ++driver;
                QVERIFY(hashes.count(argString(t, s, "neff")));
                QVERIFY(opIds.count(argInt(t, s, "External id")));
            }
        }
        QCOMPARE(runtimeCalls["nrt_execute"], 18); // 6 per step
        QCOMPARE(runtimeCalls["nrt_tensor_write"], 3); // x in, once per step
        QCOMPARE(runtimeCalls["nrt_tensor_read"], 3); // y out, once per step
        QCOMPARE(runtimeCalls.count("nrt_load"), size_t(0)); // loaded in the warm-up step, outside the window
        QCOMPARE(driver, 18);

        const LoadResult folder = TraceLoader::load(root);
        QVERIFY2(folder.ok(), folder.error.c_str());
        QVERIFY(folder.trace->metadata().synthetic); // the window title can say so
    }

    // schedule(wait=1, warmup=1, active=3): ProfilerStep#1..#3, each with the same calls (x in, six
    // executions, y out) and about as long as the others; nrt_load only in the no-warmup capture's first step.
    void threeSimilarSteps()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SampleFolderWriter::write(dir.path().toStdString());
        SampleFolderWriter::Options cold;
        cold.capture = "no-warmup";
        SampleFolderWriter::write(dir.path().toStdString(), cold);
        for (const SampleFolderWriter::Options &o : {SampleFolderWriter::Options(), cold}) {
            const LoadResult r = TraceLoader::load(dir.path().toStdString() + "/" + SampleFolderWriter::runFolder(o) + "/trace.json");
            QVERIFY2(r.ok(), r.error.c_str());
            const Trace &t = *r.trace;
            std::vector<const Slice *> steps;
            for (const Slice &s : t.allSlices())
                if (t.str(s.name).starts_with("ProfilerStep#"))
                    steps.push_back(&s);
            QCOMPARE(steps.size(), size_t(3));
            std::vector<std::map<std::string, int>> calls(3);
            for (const Slice &s : t.allSlices()) {
                if (t.str(s.category) != "privateuse1_runtime")
                    continue;
                for (size_t k = 0; k < 3; ++k)
                    if (s.start >= steps[k]->start && s.end() <= steps[k]->end())
                        ++calls[k][std::string(t.str(s.name))];
            }
            for (size_t k = 0; k < 3; ++k) {
                QCOMPARE(t.str(steps[k]->name), "ProfilerStep#" + std::to_string(k + 1));
                QCOMPARE(calls[k]["nrt_execute"], 6);
                QCOMPARE(calls[k]["nrt_tensor_write"], 1);
                QCOMPARE(calls[k]["nrt_tensor_read"], 1);
                QCOMPARE(calls[k]["nrt_load"], o.capture.empty() || k > 0 ? 0 : 6);
            }
            if (o.capture.empty())
                for (size_t k = 1; k < 3; ++k) // within 5 % of the first: the same work, jitter only
                    QVERIFY(std::abs(steps[k]->duration - steps[0]->duration) < steps[0]->duration / 20);
            else // the six ~30 ms loads make the first step far longer than the others
                QVERIFY(steps[0]->duration > 6 * SampleFolderWriter::kLoadNs * 9 / 10 + steps[1]->duration);
        }
    }

    void unwritableTarget()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile file(dir.filePath(QStringLiteral("plain-file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, SampleFolderWriter::write(file.fileName().toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestSampleFolderWriter)
#include "tst_samplefolderwriter.moc"
