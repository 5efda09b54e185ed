// Warnings mean damage (docs/diagnostics.md): Kineto's habits are notes, a cut file loads every
// complete event with one warning, other producers' broken flows stay warnings; and every Kineto
// trace of the corpus that is not deliberately broken loads with 0 warnings, its counts still exact.
#include "compress.h"
#include "corpus.h"
#include "io/chrome/chromejsonimporter.h"
#include "io/chrome/chrometraceassembler.h"
#include "io/input/importerror.h"
#include "io/input/inputbuffer.h"
#include "io/traceloader.h"
#include "model/tracebuilder.h"

#include <QDirIterator>
#include <QTest>

#include <string>
#include <vector>

using namespace lanescope;

namespace {

Trace importText(const std::string &text, size_t windowBytes = size_t(1) << 20)
{
    LoadOptions options;
    options.jsonWindowBytes = windowBytes;
    InputBuffer in = InputBuffer::fromBytes(text, "t.json", options);
    return ChromeJsonImporter::import(in, "t.json", options);
}

uint64_t warnings(const Trace &t) { return t.diagnostics().total(DiagnosticSeverity::Warning); }

uint64_t noteCount(const Trace &t, std::string_view message)
{
    for (const Warning &w : t.diagnostics().warnings())
        if (w.isNote() && w.message == message)
            return w.count;
    return 0;
}

// One host thread and one GPU stream as Kineto's ChromeTraceLogger writes them: one event per line,
// "ac2g" flows keyed by the correlation id, the CPU-side end written for every runtime call.
struct KinetoFile
{
    std::vector<std::string> events;
    std::string text(bool close = true) const
    {
        std::string s = "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [],\n  \"traceEvents\": [\n";
        for (size_t i = 0; i < events.size(); ++i)
            s += "  " + events[i] + (i + 1 < events.size() ? ",\n" : "\n");
        if (close)
            s += "],\n  \"traceName\": \"t.pt.trace.json\"\n}\n";
        return s;
    }
};

std::string x(const char *cat, const std::string &name, int ts, int dur, int pid, int tid, int correlation = -1)
{
    std::string e = "{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name + "\", \"pid\": " + std::to_string(pid) +
                    ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur);
    if (correlation >= 0)
        e += ", \"args\": {\"correlation\": " + std::to_string(correlation) + "}";
    return e + "}";
}

std::string flow(char ph, const char *cat, int id, int ts, int pid, int tid)
{
    return "{\"ph\": \"" + std::string(1, ph) + "\", \"id\": " + std::to_string(id) + ", \"pid\": " + std::to_string(pid) +
           ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + std::to_string(ts) + ", \"cat\": \"" + cat + "\", \"name\": \"" + cat +
           "\"" + (ph == 'f' ? ", \"bp\": \"e\"" : "") + "}";
}

// A small step of a PyTorch program on one GPU: a launch with its kernel, a capture-info query that
// launches nothing (Kineto still writes the flow's CPU-side end), a launch recorded into a CUDA graph
// (its kernel never runs as itself: a start without an end), and a python_function / cpu_op pair whose
// microsecond rounding overlaps by 1 us.
KinetoFile kinetoStep(const char *flowCategory)
{
    KinetoFile f;
    f.events = {
        x("python_function", "train.py(12): step", 100, 400, 10, 10),
        x("cpu_op", "aten::mm", 110, 60, 10, 10),
        x("cuda_runtime", "cudaLaunchKernel", 120, 10, 10, 10, 7),
        flow('s', flowCategory, 7, 120, 10, 10),
        x("kernel", "gemm_kernel", 140, 30, 0, 7, 7),
        flow('f', flowCategory, 7, 140, 0, 7),
        x("cuda_runtime", "cudaStreamGetCaptureInfo", 200, 2, 10, 10, 8),
        flow('f', flowCategory, 8, 200, 10, 10),
        x("cuda_runtime", "cudaLaunchKernel", 220, 10, 10, 10, 9),
        flow('s', flowCategory, 9, 220, 10, 10),
        x("python_function", "model.py(40): forward", 300, 50, 10, 10),
        x("cpu_op", "aten::add", 349, 10, 10, 10), // starts 1 us before forward ends, ends after it
    };
    return f;
}

} // namespace

class TestKinetoDiagnostics : public QObject
{
    Q_OBJECT
private slots:
    void kinetoHabitsAreNotes()
    {
        const Trace t = importText(kinetoStep("ac2g").text());
        QCOMPARE(warnings(t), uint64_t(0));
        QCOMPARE(t.flows().size(), size_t(1));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoEndsWithoutStart), uint64_t(1));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoStartsWithoutEnd), uint64_t(1));
        QCOMPARE(noteCount(t, TraceBuilder::kOverlapNote), uint64_t(1));
        QCOMPARE(t.diagnostics().total(DiagnosticSeverity::Note), uint64_t(3));
        // nothing lost: every complete event is a slice
        QCOMPARE(t.allSlices().size(), size_t(8));
    }

    void oldKinetoLaunchFlowsAreNotesToo()
    {
        // Kineto before 2021-06 (TensorBoard's resnet50 samples): cat "async", name "launch"
        std::string text = kinetoStep("async").text();
        for (size_t at = 0; (at = text.find("\"name\": \"async\"", at)) != std::string::npos;)
            text.replace(at, 15, "\"name\": \"launch\"");
        const Trace t = importText(text);
        QCOMPARE(warnings(t), uint64_t(0));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoEndsWithoutStart), uint64_t(1));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoStartsWithoutEnd), uint64_t(1));
    }

    void otherProducersFlowsStayWarnings()
    {
        const Trace t = importText(kinetoStep("ipc").text());
        QCOMPARE(t.diagnostics().count("flow ends without a start"), uint64_t(1));
        QCOMPARE(t.diagnostics().count("flow starts without an end"), uint64_t(1));
        QCOMPARE(warnings(t), uint64_t(2));
        QCOMPARE(noteCount(t, TraceBuilder::kOverlapNote), uint64_t(1)); // overlap is a note whoever wrote it
    }

    // Kineto of 2022 (PyTorch 1.12/1.13) calls the launch flow cat "async_cpu_to_gpu", name "async_gpu";
    // a cudaGraphLaunch has one start and an end on every kernel of the graph (one correlation id).
    void kineto2022FlowsAndGraphLaunches()
    {
        KinetoFile f = kinetoStep("async_cpu_to_gpu");
        f.events.push_back(x("cuda_runtime", "cudaGraphLaunch", 400, 10, 10, 10, 11));
        f.events.push_back(flow('s', "async_cpu_to_gpu", 11, 400, 10, 10));
        for (int k = 0; k < 3; ++k) {
            f.events.push_back(x("kernel", "graph_kernel_" + std::to_string(k), 420 + 20 * k, 10, 0, 7, 11));
            f.events.push_back(flow('f', "async_cpu_to_gpu", 11, 420 + 20 * k, 0, 7));
        }
        const Trace t = importText(f.text());
        QCOMPARE(warnings(t), uint64_t(0));
        QCOMPARE(t.flows().size(), size_t(4)); // the launch's, and the graph's three
        size_t fromGraph = 0;
        for (const Flow &fl : t.flows())
            fromGraph += t.str(t.slice(fl.from).name) == "cudaGraphLaunch";
        QCOMPARE(fromGraph, size_t(3));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoEndsWithoutStart), uint64_t(1));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoStartsWithoutEnd), uint64_t(1));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoSharedEnds), uint64_t(2));
        // another producer's ends sharing a start id stay warnings: the first binds, the rest lost theirs
        KinetoFile other = f;
        for (std::string &e : other.events)
            for (size_t at = 0; (at = e.find("async_cpu_to_gpu", at)) != std::string::npos;)
                e.replace(at, 16, "ipc");
        const Trace o = importText(other.text());
        QCOMPARE(o.diagnostics().count("flow ends without a start"), uint64_t(1 + 2));
    }

    // The real 2022 trace of HTA's tests (V100, cudaGraphLaunch of 339 and 502 kernels): 9,984 starts,
    // 26,815 ends. Counted from the raw file with Python:
    //     fl = [e for e in d["traceEvents"] if e.get("ph") in ("s", "f")]
    //     starts = {e["id"] for e in fl if e["ph"] == "s"}; ends = Counter(e["id"] for e in fl if e["ph"] == "f")
    //     sum(v for k, v in ends.items() if k not in starts)   -> 11797 ends without a start
    //     sum(v for k, v in ends.items() if k in starts)       -> 15018 ends of a start (9972 + 6*339 + 6*502)
    //     sum(v - 1 for k, v in ends.items() if k in starts)   -> 5034 ends after the first of their start
    // (16,831 warnings before: every end but the first of a start counted as one without a start.)
    void kineto2022CorpusTraceHasNoWarnings()
    {
        const QString rel = QStringLiteral("hta-2022/trace_diff_test.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const LoadResult r = TraceLoader::load(test::corpusFile(rel).toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace &t = *r.trace;
        QCOMPARE(warnings(t), uint64_t(0));
        QCOMPARE(t.flows().size(), size_t(15018));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoEndsWithoutStart), uint64_t(11797));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoSharedEnds), uint64_t(5034));
        QCOMPARE(noteCount(t, ChromeTraceAssembler::kKinetoStartsWithoutEnd), uint64_t(0));
    }

    // A Kineto trace cut at every byte of its last events (a crashed export, a partial copy), plain,
    // gzip and zstd, in small windows and one: every event that is complete before the cut loads, one
    // warning names the byte where the text ends.
    void cutFileLoadsEveryCompleteEvent_data()
    {
        QTest::addColumn<QString>("compression");
        QTest::addColumn<int>("windowBytes");
        for (const char *c : {"plain", "gzip", "zstd"})
            for (const int w : {64, 1 << 20})
                QTest::newRow(qPrintable(QStringLiteral("%1 window %2").arg(QLatin1String(c)).arg(w))) << QString::fromLatin1(c) << w;
    }
    void cutFileLoadsEveryCompleteEvent()
    {
        QFETCH(QString, compression);
        QFETCH(int, windowBytes);
        KinetoFile f;
        for (int i = 0; i < 40; ++i)
            f.events.push_back(x("cpu_op", "op" + std::to_string(i), 100 + 10 * i, 5, 10, 10));
        const std::string full = f.text();
        // where each event's text ends
        std::vector<size_t> starts, ends;
        for (size_t at = full.find("{\"ph\""); at != std::string::npos; at = full.find("{\"ph\"", at + 1)) {
            starts.push_back(at);
            ends.push_back(full.find('}', at) + 1);
        }
        QCOMPARE(ends.size(), size_t(40));
        const size_t arrayEnd = full.find("],\n  \"traceName\"");
        for (size_t cut = ends[30] - 3; cut < arrayEnd; ++cut) {
            const std::string prefix = full.substr(0, cut);
            const std::string bytes = compression == QLatin1String("gzip")   ? test::gzipOf(prefix)
                                      : compression == QLatin1String("zstd") ? test::zstdOf(prefix)
                                                                              : prefix;
            const Trace t = importText(bytes, size_t(windowBytes));
            const size_t complete = size_t(std::count_if(ends.begin(), ends.end(), [cut](size_t e) { return e <= cut; }));
            QVERIFY2(t.allSlices().size() == complete,
                     qPrintable(QStringLiteral("cut at %1: %2 slices, %3 complete events").arg(cut).arg(t.allSlices().size()).arg(complete)));
            QCOMPARE(warnings(t), uint64_t(1));
            const Warning &w = t.diagnostics().warnings().front();
            QVERIFY2(w.message.starts_with("the file ends inside the \"traceEvents\" array (truncated"), w.message.c_str());
            QVERIFY2(w.firstSeen.starts_with("byte " + std::to_string(cut)), w.firstSeen.c_str());
            bool insideEvent = false;
            for (size_t i = 0; i < starts.size(); ++i)
                insideEvent |= starts[i] < cut && ends[i] > cut;
            QCOMPARE(w.firstSeen.find("the cut event starts at byte") != std::string::npos, insideEvent);
        }
    }

    // The JSON Array form may leave out its ']' by design (a note); cut inside an event, it is a warning.
    void bareArrayEnds()
    {
        const std::string a = "[\n" + x("cpu_op", "a", 1, 1, 1, 1) + ",\n" + x("cpu_op", "b", 3, 1, 1, 1) + ",\n";
        const Trace open = importText(a);
        QCOMPARE(open.allSlices().size(), size_t(2));
        QCOMPARE(warnings(open), uint64_t(0));
        QCOMPARE(open.diagnostics().total(DiagnosticSeverity::Note), uint64_t(1));
        const Trace cut = importText(a + "{\"ph\": \"X\", \"na");
        QCOMPARE(cut.allSlices().size(), size_t(2));
        QCOMPARE(warnings(cut), uint64_t(1));
        QVERIFY(cut.diagnostics().warnings().front().message.starts_with("the file ends inside the array of events (truncated"));
    }

    // A cut before the event array is still an error naming the byte.
    void cutBeforeTheArrayIsAnError()
    {
        try {
            importText("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"name\": \"H1");
            QFAIL("no error");
        } catch (const ImportError &e) {
            QVERIFY2(e.hasOffset(), e.what());
        }
    }

    // The corpus: every Kineto trace that is not deliberately broken opens with 0 warnings.
    void corpusKinetoTracesHaveNoWarnings_data()
    {
        QTest::addColumn<QString>("path");
        const QString root = test::corpusDir();
        if (root.isEmpty())
            return;
        for (const char *folder : {"tracelens", "hta", "hta-2022", "kineto", "gpumodel", "zoology", "mlops-student", "generated-torch-cpu"}) {
            QDirIterator it(root + QLatin1Char('/') + QLatin1String(folder), QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString p = it.next();
                const QString name = it.fileName();
                // not traces: the generator's parameters, an execution trace (graph, no timeline), a memory timeline
                if (!name.contains(QLatin1String(".json")) || name == QLatin1String("generation_meta.json") ||
                    name.contains(QLatin1String("memory_timeline")) || name.contains(QLatin1String("_et.json")))
                    continue;
                QTest::newRow(qPrintable(p.mid(root.size() + 1))) << p;
            }
        }
    }
    void corpusKinetoTracesHaveNoWarnings()
    {
        LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("tracelens"));
        QFETCH(QString, path);
        const LoadResult r = TraceLoader::load(path.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        std::string listed;
        for (const Warning &w : r.trace->diagnostics().warnings())
            if (!w.isNote())
                listed += "\n  " + Diagnostics::format(w);
        QVERIFY2(!r.trace->diagnostics().hasWarnings(), listed.c_str());
    }
};

QTEST_GUILESS_MAIN(TestKinetoDiagnostics)
#include "tst_kinetodiagnostics.moc"
