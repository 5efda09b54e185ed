// DependencyChain: upstream / downstream semantics (no sideways nesting), the node cap and the
// critical path, on a hand-checked fixture and on a real Kineto GPU trace.
#include "analysis/dependencychain.h"
#include "analysis/dependencygraph.h"
#include "corpus.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QtTest>

#include <algorithm>

using namespace lanescope;

namespace {

SliceId byName(const Trace &t, std::string_view name)
{
    const auto all = t.allSlices();
    for (uint32_t i = 0; i < all.size(); ++i)
        if (t.str(all[i].name) == name)
            return SliceId(i);
    return {};
}

std::vector<std::string> names(const Trace &t, std::vector<SliceId> ids, bool sorted = true)
{
    std::vector<std::string> out;
    for (SliceId id : ids)
        out.emplace_back(t.str(t.slice(id).name));
    if (sorted)
        std::sort(out.begin(), out.end());
    return out;
}

using Names = std::vector<std::string>;

} // namespace

class TestDependencyChain : public QObject
{
    Q_OBJECT
private:
    std::shared_ptr<const Trace> m_small;
    DependencyGraph m_graph;

private slots:
    void initTestCase()
    {
        const LoadResult r = TraceLoader::load(LANESCOPE_TEST_DATA "/chain_small.json");
        QVERIFY2(r.ok(), r.error.c_str());
        m_small = r.trace;
        m_graph = DependencyGraph::build(*m_small);
    }

    void chains_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<Names>("upstream");
        QTest::addColumn<Names>("downstream");
        // a kernel: its launching call and that call's enclosing ops; never the op's other child
        QTest::newRow("kernel") << QStringLiteral("conv_kernel")
                                << Names{"aten::conv", "aten::inner", "cudaLaunchKernel"} << Names{};
        // an op: everything nested in it, the kernel launched inside it, the backward op of its child
        QTest::newRow("outer op") << QStringLiteral("aten::conv") << Names{}
                                  << Names{"aten::backward", "aten::inner", "aten::sibling", "conv_kernel", "cudaLaunchKernel"};
        // a sibling: its parent upstream only, not the parent's other subtree
        QTest::newRow("sibling") << QStringLiteral("aten::sibling") << Names{"aten::conv"} << Names{"aten::backward"};
        QTest::newRow("backward") << QStringLiteral("aten::backward") << Names{"aten::conv", "aten::sibling"} << Names{};
        QTest::newRow("unlinked kernel") << QStringLiteral("other_kernel") << Names{} << Names{};
    }
    void chains()
    {
        QFETCH(QString, root);
        QFETCH(Names, upstream);
        QFETCH(Names, downstream);
        const Trace &t = *m_small;
        const SliceId id = byName(t, root.toStdString());
        QVERIFY(id.isValid());
        const DependencyChain c = DependencyChain::query(m_graph, id);
        QCOMPARE(c.root(), id);
        QCOMPARE(names(t, c.upstream()), upstream);
        QCOMPARE(names(t, c.downstream()), downstream);
        QVERIFY(!c.upstreamTruncated() && !c.downstreamTruncated());
        QVERIFY(c.contains(id));
        QCOMPARE(c.members().size(), upstream.size() + downstream.size() + 1);
        for (const auto &e : c.upstreamEdges())
            QVERIFY(c.contains(e.from) && c.contains(e.to));
    }

    void criticalPath()
    {
        const Trace &t = *m_small;
        const DependencyChain c = DependencyChain::query(m_graph, byName(t, "conv_kernel"));
        int64_t total = 0;
        const auto path = c.criticalPath(&total);
        // aten::conv (100 us) > aten::inner (50) > cudaLaunchKernel (10) > conv_kernel (200)
        QCOMPARE(names(t, path, false), (Names{"aten::conv", "aten::inner", "cudaLaunchKernel", "conv_kernel"}));
        QCOMPARE(total, int64_t(360000));

        // downstream of aten::conv: conv (100) > inner (50) > launch (10) > kernel (200) beats
        // conv > sibling (20) > backward (30)
        const DependencyChain d = DependencyChain::query(m_graph, byName(t, "aten::conv"));
        const auto down = d.criticalPath(&total);
        QCOMPARE(names(t, down, false), (Names{"aten::conv", "aten::inner", "cudaLaunchKernel", "conv_kernel"}));
        QCOMPARE(total, int64_t(360000));
    }

    void nodeCap()
    {
        const Trace &t = *m_small;
        const DependencyChain c = DependencyChain::query(m_graph, byName(t, "aten::conv"), 2);
        QCOMPARE(c.downstream().size(), size_t(2));
        QVERIFY(c.downstreamTruncated());
        QVERIFY(!c.upstreamTruncated());
    }

    void invalidRoot()
    {
        QVERIFY(DependencyChain::query(m_graph, SliceId()).empty());
        QVERIFY(DependencyChain::query(m_graph, SliceId(1000000)).empty());
        QVERIFY(DependencyChain::query(DependencyGraph(), SliceId(0)).empty());
        QVERIFY(DependencyChain().criticalPath().empty());
    }

    // Real GPU trace: the chain of every launched kernel reaches its runtime call and a root op.
    void kinetoKernelsReachTheirOps()
    {
        const QString relative =
            QStringLiteral("kineto/tb_samples_2021-06__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(relative);
        const QString file = lanescope::test::corpusFile(relative);
        const LoadResult r = TraceLoader::load(file.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        const DependencyGraph g = DependencyGraph::build(t);
        size_t kernels = 0, withLauncher = 0, withOp = 0;
        for (uint32_t i = 0; i < t.allSlices().size(); ++i) {
            if (t.str(t.slice(SliceId(i)).category) != "Kernel")
                continue;
            ++kernels;
            const DependencyChain c = DependencyChain::query(g, SliceId(i), 200);
            bool launcher = false, op = false;
            for (SliceId u : c.upstream()) {
                const std::string_view cat = t.str(t.slice(u).category);
                launcher |= cat == "Runtime";
                op |= cat == "Operator";
            }
            withLauncher += launcher;
            withOp += op;
            QVERIFY(c.downstream().empty()); // nothing depends on a kernel in this trace
        }
        QVERIFY(kernels > 1000);
        QCOMPARE(withLauncher, kernels);
        QVERIFY2(withOp * 100 >= kernels * 99, qPrintable(QStringLiteral("%1 of %2 kernels reach an op").arg(withOp).arg(kernels)));
    }
};

QTEST_GUILESS_MAIN(TestDependencyChain)
#include "tst_dependencychain.moc"
