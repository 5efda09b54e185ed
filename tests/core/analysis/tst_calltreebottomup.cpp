// CallTreeBottomUp (core/analysis/calltreebottomup.h): on a hand-built trace the inverted tree's
// numbers equal a count done by hand from the slices; sources() finds the top-down nodes (and so the
// slices) a bottom-up node stands for; on the real with_stack trace xdit_sd35 the root holds all self
// time, the invariants hold, and each first-level frame's total equals the sum of that frame's self
// time over the top-down tree (an independent count).
#include "calltreetraces.h"
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/calltree.h"
#include "analysis/calltreebottomup.h"
#include "analysis/launchindex.h"

#include <QtTest>

#include <map>

using namespace lanescope;
using lanescope::test::checkInvariants;
using lanescope::test::oneThread;

namespace {

uint32_t childNamed(const CallTree::Result &r, uint32_t parent, const std::string &name)
{
    for (uint32_t c : r.nodes[parent].children)
        if (r.nodes[c].name == name)
            return c;
    return UINT32_MAX;
}

CallTree::Result topDownOf(const Trace &trace, bool keepOccurrences = false)
{
    return lanescope::test::mergedTree(trace, keepOccurrences);
}

} // namespace

class TestCallTreeBottomUp : public QObject
{
    Q_OBJECT

private slots:
    // f [0,100) > g [10,40) > h [20,30);  f > h [60,80);  k [200,250) > h [210,220)
    // self: f 50, g 20, h 10 + 20 + 10, k 40; busy time 150.
    void handBuilt()
    {
        const auto trace = oneThread({{0, 100, "f"}, {10, 30, "g"}, {20, 10, "h"}, {60, 20, "h"}, {200, 50, "k"}, {210, 10, "h"}});
        const CallTree::Result down = topDownOf(*trace, true);
        const CallTree::Result up = CallTreeBottomUp::compute(down);
        checkInvariants(up);
        QCOMPARE(up.root().total, int64_t(150));
        QCOMPARE(up.root().total, down.root().total);
        const uint32_t h = childNamed(up, 0, "h"), f = childNamed(up, 0, "f"), g = childNamed(up, 0, "g"), k = childNamed(up, 0, "k");
        QVERIFY(h != UINT32_MAX && f != UINT32_MAX && g != UINT32_MAX && k != UINT32_MAX);
        QCOMPARE(up.nodes[h].total, int64_t(40));
        QCOMPARE(up.nodes[h].calls, uint64_t(3));
        QCOMPARE(up.nodes[f].total, int64_t(50));
        QCOMPARE(up.nodes[g].total, int64_t(20));
        QCOMPARE(up.nodes[k].total, int64_t(40));
        // h's callers: g (10, itself called by f), f (20), k (10); h's own stacks end nowhere.
        QCOMPARE(up.nodes[h].self, int64_t(0));
        const uint32_t hg = childNamed(up, h, "g"), hf = childNamed(up, h, "f"), hk = childNamed(up, h, "k");
        QVERIFY(hg != UINT32_MAX && hf != UINT32_MAX && hk != UINT32_MAX);
        QCOMPARE(up.nodes[hg].total, int64_t(10));
        QCOMPARE(up.nodes[hf].total, int64_t(20));
        QCOMPARE(up.nodes[hk].total, int64_t(10));
        const uint32_t hgf = childNamed(up, hg, "f");
        QVERIFY(hgf != UINT32_MAX);
        QCOMPARE(up.nodes[hgf].total, int64_t(10));
        QVERIFY(up.nodes[hgf].children.empty());
        // Heaviest first.
        QCOMPARE(up.nodes[0].children.front(), f);

        // h stands for the three h nodes, so for the three h slices; h <- g for one of them.
        QCOMPARE(CallTreeBottomUp::sources(down, up, h).size(), size_t(3));
        const std::vector<uint32_t> viaG = CallTreeBottomUp::sources(down, up, hg);
        QCOMPARE(viaG.size(), size_t(1));
        QCOMPARE(down.path(viaG.front()), std::string("f;g;h"));
        QCOMPARE(down.occurrencesOf(viaG.front()).size(), size_t(1));
        QCOMPARE(trace->slice(down.occurrencesOf(viaG.front()).front()).start, int64_t(20));
    }

    // Recursion is not collapsed: f > f > f, self 10 at each level, is f (30) <- f (20) <- f (10).
    void recursion()
    {
        const auto trace = oneThread({{0, 30, "f"}, {5, 20, "f"}, {10, 10, "f"}});
        const CallTree::Result up = CallTreeBottomUp::compute(topDownOf(*trace));
        checkInvariants(up);
        const uint32_t f = childNamed(up, 0, "f");
        QVERIFY(f != UINT32_MAX);
        QCOMPARE(up.nodes[f].total, int64_t(30));
        const uint32_t ff = childNamed(up, f, "f");
        QVERIFY(ff != UINT32_MAX);
        QCOMPARE(up.nodes[ff].total, int64_t(20));
        const uint32_t fff = childNamed(up, ff, "f");
        QVERIFY(fff != UINT32_MAX);
        QCOMPARE(up.nodes[fff].total, int64_t(10));
    }

    // A caller chain under the size limit is not expanded; its time stays in the callee's self.
    void sizeLimit()
    {
        const auto trace = oneThread({{0, 1000000, "big"}, {2000000, 5, "tiny"}, {2000001, 2, "leaf"}});
        const CallTree::Result down = topDownOf(*trace);
        const CallTree::Result up = CallTreeBottomUp::compute(down, 1e-5);
        checkInvariants(up);
        QCOMPARE(up.root().total, int64_t(1000005));
        QVERIFY(childNamed(up, 0, "big") != UINT32_MAX);
        QCOMPARE(childNamed(up, 0, "leaf"), UINT32_MAX); // 2 ns of 1 ms: below 1e-5
        QCOMPARE(up.root().self, int64_t(5));            // tiny's 3 ns and leaf's 2 ns
        const CallTree::Result all = CallTreeBottomUp::compute(down, 0);
        QVERIFY(childNamed(all, 0, "leaf") != UINT32_MAX);
        QCOMPARE(all.root().self, int64_t(0));
    }

    void xdit()
    {
        const QString rel = QStringLiteral("tracelens/xdit_sd35_rank0.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(rel));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const CallTree::Result down = CallTree::compute(*trace, index, {});
        const CallTree::Result up = CallTreeBottomUp::compute(down, 0); // every path, for exact sums
        checkInvariants(up);
        QCOMPARE(up.root().total, down.root().total);
        QCOMPARE(up.root().device, down.root().device);
        std::map<std::string, int64_t> selfByName; // independent: straight from the top-down tree
        for (size_t i = 1; i < down.nodes.size(); ++i)
            if (down.nodes[i].self > 0)
                selfByName[down.nodes[i].name] += down.nodes[i].self;
        QCOMPARE(up.root().children.size(), selfByName.size());
        for (uint32_t c : up.root().children)
            QCOMPARE(up.nodes[c].total, selfByName.at(up.nodes[c].name));
        const CallTree::Result pruned = CallTreeBottomUp::compute(down);
        checkInvariants(pruned);
        QCOMPARE(pruned.root().total, down.root().total);
        qInfo("bottom-up on xdit_sd35: %zu top-down nodes, %zu bottom-up (every path), %zu (default size limit)", down.nodes.size(),
              up.nodes.size(), pruned.nodes.size());
        QVERIFY(pruned.nodes.size() < up.nodes.size());
    }
};

QTEST_GUILESS_MAIN(TestCallTreeBottomUp)
#include "tst_calltreebottomup.moc"
