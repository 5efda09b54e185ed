// SourceLines: per-line totals of Python frames. A hand-built thread with recursion (a line on its
// own stack twice counts once), two lines of one file and an op between frames; and the corpus xdit
// with_stack trace, where every line's CPU total equals an independent count made here from the
// slices (per host thread, the union of the spans of the line's frames, summed over threads) and
// every line's device time equals the execution-level device work whose launching call has the line
// on its stack.
#include "calltreetraces.h"
#include "corpus.h"
#include "loadtrace.h"

#include "analysis/calltree.h"
#include "analysis/launchindex.h"
#include "analysis/sourceframe.h"
#include "analysis/sourcelines.h"
#include "model/trace.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace lanescope;

namespace {

using Key = std::pair<std::string, uint32_t>; // (path, line)

std::optional<Key> keyOf(std::string_view name)
{
    const auto f = SourceFrame::parse(name);
    if (!f)
        return std::nullopt;
    return Key{std::string(f->path), f->line};
}

// The length of the union of intervals.
int64_t unionLength(std::vector<std::pair<int64_t, int64_t>> spans)
{
    std::sort(spans.begin(), spans.end());
    int64_t total = 0, end = INT64_MIN;
    for (const auto &[s, e] : spans) {
        if (s > end) {
            total += e - s;
            end = e;
        } else if (e > end) {
            total += e - end;
            end = e;
        }
    }
    return total;
}

} // namespace

class TestSourceLines : public QObject
{
    Q_OBJECT
private slots:
    void recursionAndLines()
    {
        // a.py(1): f [0,100] > a.py(1): f [10,50] > b.py(5): g [20,30]; f > aten::mm [55,58]; f > a.py(2): h [60,90]
        const auto trace = lanescope::test::oneThread({{0, 100, "a.py(1): f"},
                                                      {10, 40, "a.py(1): f"},
                                                      {20, 10, "b.py(5): g"},
                                                      {55, 3, "aten::mm"},
                                                      {60, 30, "a.py(2): h"}});
        const CallTree::Result tree = lanescope::test::mergedTree(*trace);
        const std::vector<SourceFile> files = SourceLines::compute(tree);
        QCOMPARE(files.size(), size_t(2));
        QCOMPARE(files[0].path, std::string("a.py")); // the longer total first (no device)
        const SourceFile &a = files[0];
        QCOMPARE(a.total, int64_t(100));
        QCOMPARE(a.calls, uint64_t(1));
        QCOMPARE(a.lines.size(), size_t(2));
        const SourceLine *f = SourceLines::findLine(a, 1);
        QVERIFY(f);
        QCOMPARE(f->total, int64_t(100)); // the inner f is inside the outer: counted once
        QCOMPARE(f->calls, uint64_t(1));
        QCOMPARE(f->self, int64_t((100 - 40 - 3 - 30) + (40 - 10))); // both f's own time
        QCOMPARE(f->functions, std::vector<std::string>{"f"});
        const SourceLine *h = SourceLines::findLine(a, 2);
        QVERIFY(h);
        QCOMPARE(h->total, int64_t(30));
        QCOMPARE(a.self, f->self + h->self);
        QVERIFY(!SourceLines::findLine(a, 3));
        const SourceFile *b = SourceLines::find(files, "b.py");
        QVERIFY(b);
        QCOMPARE(b->lines.size(), size_t(1));
        QCOMPARE(b->lines[0].line, uint32_t(5));
        QCOMPARE(b->lines[0].total, int64_t(10));
        QVERIFY(!SourceLines::find(files, "c.py"));
        QCOMPARE(SourceLines::firstToShow(files), size_t(0)); // a.py: a script run from its folder
    }

    void firstToShowSkipsOuterFrames()
    {
        // runpy > threading > vllm/worker.py > /app/serve.py: the outer frames hold the most, the
        // user's script comes first; without it the library; with neither the busiest.
        const auto trace = lanescope::test::oneThread({{0, 100, "<frozen runpy>(198): _run_module_as_main"},
                                                      {0, 100, "threading.py(1010): run"},
                                                      {10, 80, "vllm/worker.py(50): execute"},
                                                      {20, 40, "/app/serve.py(7): handle"}});
        const std::vector<SourceFile> files = SourceLines::compute(lanescope::test::mergedTree(*trace));
        QCOMPARE(files.size(), size_t(4));
        QCOMPARE(files[SourceLines::firstToShow(files)].path, std::string("/app/serve.py"));
        const auto library = lanescope::test::oneThread({{0, 100, "threading.py(1010): run"}, {10, 80, "vllm/worker.py(50): execute"}});
        const std::vector<SourceFile> noUser = SourceLines::compute(lanescope::test::mergedTree(*library));
        QCOMPARE(noUser[SourceLines::firstToShow(noUser)].path, std::string("vllm/worker.py"));
        const auto stdlib = lanescope::test::oneThread({{0, 100, "threading.py(1010): run"}});
        QCOMPARE(SourceLines::firstToShow(SourceLines::compute(lanescope::test::mergedTree(*stdlib))), size_t(0));
        QCOMPARE(SourceLines::firstToShow({}), size_t(0));
    }

    void xditEqualsIndependentCount()
    {
        const QString rel = QStringLiteral("tracelens/xdit_sd35_rank0.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const auto trace = lanescope::test::load(lanescope::test::corpusFile(rel));
        QVERIFY(trace);
        const LaunchIndex index = LaunchIndex::build(*trace);
        const CallTree::Result tree = CallTree::compute(*trace, index, {});
        const std::vector<SourceFile> files = SourceLines::compute(tree);

        // CPU: per host thread and line, the union of the line's frame spans, a span ending at the
        // start of the next slice of the track at its depth or above when that one starts first
        // (CallTree's rule for a slice that starts inside another and outlives it: PyTorch's
        // record_function annotations start inside a short Python call and run for the step; the
        // call counts up to the annotation's start). (Before nesting by containment the annotation
        // was the call's child and the call's span reached to the annotation's end.)
        const std::vector<TrackId> host = CallTree::hostTracks(*trace, index);
        std::vector<int64_t> reach(trace->allSlices().size(), INT64_MIN);
        for (TrackId t : host) {
            std::vector<SliceId> open;
            for (uint32_t i = 0; i < trace->slices(t).size(); ++i) {
                const SliceId id = trace->sliceId(t, i);
                const Slice &s = trace->slice(id);
                for (; !open.empty() && trace->slice(open.back()).depth >= s.depth; open.pop_back())
                    reach[open.back().value] = std::min(reach[open.back().value], s.start);
                reach[id.value] = s.end();
                open.push_back(id);
            }
        }
        std::map<Key, int64_t> cpu;
        for (TrackId t : host) {
            std::map<Key, std::vector<std::pair<int64_t, int64_t>>> spans;
            for (uint32_t i = 0; i < trace->slices(t).size(); ++i) {
                const SliceId id = trace->sliceId(t, i);
                const Slice &s = trace->slice(id);
                if (const auto k = keyOf(trace->str(s.name)))
                    spans[*k].emplace_back(s.start, reach[id.value]);
            }
            for (auto &[k, v] : spans)
                cpu[k] += unionLength(std::move(v));
        }
        // Device: execution-level work charged to every line on its launching slice's stack, once.
        std::map<Key, int64_t> device;
        for (const LaunchIndex::Work &w : index.work()) {
            const SliceId by = w.launcher.isValid() ? w.launcher : w.op;
            if (!LaunchIndex::isExecutionLevel(w.kind) || !by.isValid())
                continue;
            std::set<Key> seen;
            for (SliceId s = by; s.isValid(); s = trace->parent(s))
                if (const auto k = keyOf(trace->str(trace->slice(s).name)))
                    seen.insert(*k);
            for (const Key &k : seen)
                device[k] += w.duration();
        }

        size_t lines = 0;
        for (const SourceFile &f : files)
            for (const SourceLine &l : f.lines) {
                const Key k{f.path, l.line};
                const QByteArray where = QByteArray::fromStdString(f.path + "(" + std::to_string(l.line) + ")");
                QVERIFY2(cpu.count(k), where.constData());
                QVERIFY2(l.total == cpu[k], where.constData());
                QVERIFY2(l.device == (device.count(k) ? device[k] : 0), where.constData());
                ++lines;
            }
        QCOMPARE(lines, cpu.size()); // every line of the trace is listed
        QVERIFY(lines > 100);
        QVERIFY(files.front().device > 0);
        const SourceFile &first = files[SourceLines::firstToShow(files)];
        QVERIFY2(first.path.starts_with("/app/xDiT/") && first.device > 0, first.path.c_str()); // the user's own checkout
        qInfo("xdit: %zu files, %zu lines equal to the independent count; first shown %s", files.size(), lines, first.path.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSourceLines)
#include "tst_sourcelines.moc"
