// NeffHierarchy: an NTFF's instructions named from their NEFF's debug chain. The corpus has one NTFF +
// NEFF pair (neuron-cs149-asst4/stream_256k_*: an NKI kernel, whose NEFF has no HLO or scope level),
// and XLA-built NEFFs without an NTFF (neuron-nkipy). So:
//   - matmul_small.neff: rows built the way the NTFF reader leaves them (engine + compiler_pc, the
//     NEFF instruction index; one runtime-inserted row with none) get exactly the HLO op and scope the
//     NEFF's chain gives that engine's instruction, and the importer draws the HLO ops lane from them;
//   - the real pair, loaded as a profile folder: nothing is named (the NKI NEFF has no HLO level) and
//     the folder's metadata says so (instructions_with_hlo_op = 0).
#include "corpus.h"

#include "io/folder/neffhierarchy.h"
#include "io/neff/neffreader.h"
#include "io/ntff/ntffimporter.h"
#include "io/traceloader.h"
#include "model/hierarchynames.h"
#include "model/trace.h"

#include <QTest>

using namespace lanescope;

class TestNeffHierarchy : public QObject
{
    Q_OBJECT

private slots:
    void xlaNeffNamesEveryCoveredInstruction()
    {
        const QString rel = QStringLiteral("neuron-nkipy/matmul_small.neff");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const NeffInfo neff = NeffReader::read(test::corpusFile(rel).toStdString(), {});
        QVERIFY(!neff.debug.empty());
        const NeffSubgraphDebug &sg = neff.debug.front();
        NtffProfile p;
        p.subgraphName = sg.subgraph;
        const std::pair<NtffEngine, const char *> engines[] = {{NtffEngine::Tensor, "PE"}, {NtffEngine::Scalar, "Activation"},
                                                               {NtffEngine::Vector, "DVE"}, {NtffEngine::GpSimd, "Pool"},
                                                               {NtffEngine::Sync, "SP"}};
        struct Want
        {
            std::string hlo, scope;
        };
        std::vector<Want> want;
        size_t covered = 0;
        int64_t ts = 0;
        for (const auto &[engine, name] : engines) {
            const NeffEngineDebug *e = sg.engine(name);
            if (!e)
                continue;
            for (size_t k = 0; k < e->instructions.size(); ++k) {
                NtffInstructionRow r;
                r.engine = engine;
                r.lane = ntffLaneOf(engine);
                r.timestamp = ts += 10;
                r.duration = 5;
                r.compilerPc = int32_t(k);
                p.instructions.push_back(r);
                const NeffDebugInstruction &d = e->instructions[k];
                Want w;
                if (d.hlo < sg.hlo.size())
                    w.hlo = sg.hlo[d.hlo].name;
                if (d.scope < sg.scopes.size())
                    w.scope = sg.scopes[d.scope].name;
                covered += !w.hlo.empty() || !w.scope.empty();
                want.push_back(w);
            }
        }
        NtffInstructionRow runtime; // runtime-inserted: no compiler_pc
        runtime.timestamp = ts + 10;
        p.instructions.push_back(runtime);
        want.push_back({});
        QVERIFY(covered > 0);

        QCOMPARE(NeffHierarchy::apply(neff, p), covered);
        QCOMPARE(p.instructionOps.size(), p.instructions.size());
        size_t withHlo = 0;
        for (size_t i = 0; i < p.instructions.size(); ++i) {
            QCOMPARE(std::string(p.hloOf(i)), want[i].hlo);
            QCOMPARE(std::string(p.layerOf(i)), want[i].scope);
            withHlo += !want[i].hlo.empty();
        }
        QVERIFY(withHlo > 0);

        // the importer draws the HLO ops lane from them
        const Trace t = NtffImporter::build(p, "matmul_small (hand-built rows)", {});
        bool lane = false;
        for (const Track &tr : t.tracks())
            lane = lane || t.str(tr.name) == HierarchyNames::kHlo.lane.name;
        QVERIFY(lane);
    }

    void nkiPairHasNoHloLevel()
    {
        const QString rel = QStringLiteral("neuron-cs149-asst4");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel + QStringLiteral("/stream_256k_fd1k.ntff"));
        const LoadResult r = TraceLoader::load(test::corpusFile(rel).toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const std::string *named = nullptr;
        for (const auto &[k, v] : r.trace->metadata().entries)
            if (k.find("stream_256k_fd1k.ntff: neff.instructions_with_hlo_op") != std::string::npos)
                named = &v;
        QVERIFY(named);
        QCOMPARE(*named, std::string("0"));
        for (const Track &tr : r.trace->tracks())
            QVERIFY(r.trace->str(tr.name) != HierarchyNames::kHlo.lane.name);
    }
};

QTEST_GUILESS_MAIN(TestNeffHierarchy)
#include "tst_neffhierarchy.moc"
