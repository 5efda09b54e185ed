// The Kineto / Chrome JSON importer against the real-trace corpus (../shared/corpus, never copied
// into the repository) and against the synthetic sample writer.
//
// goldenCounts: one row per entry of tests/golden/chrome_counts.json, which tools/golden_counts.py
// computes independently with Python's json/gzip/zipfile modules (regenerate it with
//     python3 tools/golden_counts.py ../shared/corpus > tests/golden/chrome_counts.json ).
// Files marked {"error": true} there (JSON that is not a trace) must fail with an error naming the
// file; every other file must load with exactly the golden eventsRead / phases / categories.
//
// The semantic checks below use values computed by hand or by the Python one-offs quoted next to
// them, never by Lanescope code.
#include "corpus.h"
#include "filebytes.h"
#include "io/synthetic/kinetosamplewriter.h"
#include "io/traceloader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace lanescope;
using lanescope::test::corpusFile;

namespace {

using CountMap = std::map<std::string, uint64_t>;

CountMap toCountMap(const QJsonObject &o)
{
    CountMap m;
    for (auto it = o.begin(); it != o.end(); ++it)
        m[it.key().toStdString()] = uint64_t(it.value().toInteger());
    return m;
}

// "X: expected 5, got 4; cpu_op: expected 3, missing" or empty when equal.
QString diffCounts(const char *what, const CountMap &expected, const CountMap &actual)
{
    QStringList problems;
    std::set<std::string> keys;
    for (const auto &[k, v] : expected)
        keys.insert(k);
    for (const auto &[k, v] : actual)
        keys.insert(k);
    for (const std::string &k : keys) {
        const auto e = expected.find(k);
        const auto a = actual.find(k);
        const QString key = QStringLiteral("\"%1\"").arg(QString::fromStdString(k));
        if (e == expected.end())
            problems << QStringLiteral("%1 not expected, got %2").arg(key).arg(a->second);
        else if (a == actual.end())
            problems << QStringLiteral("%1 expected %2, missing").arg(key).arg(e->second);
        else if (e->second != a->second)
            problems << QStringLiteral("%1 expected %2, got %3").arg(key).arg(e->second).arg(a->second);
    }
    return problems.isEmpty() ? QString()
                              : QString::fromLatin1(what) + QStringLiteral(": ") + problems.join(QStringLiteral("; "));
}

QJsonObject readGolden()
{
    QFile f(QStringLiteral(LANESCOPE_SOURCE_DIR "/tests/golden/chrome_counts.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

LoadResult load(const QString &path)
{
    return TraceLoader::load(path.toStdString());
}

// "from -> to" names of every flow of the trace, sorted.
QStringList flowNames(const Trace &t)
{
    QStringList out;
    for (const Flow &f : t.flows())
        out << QString::fromUtf8(t.str(t.slice(f.from).name)) + QStringLiteral(" -> ") +
                   QString::fromUtf8(t.str(t.slice(f.to).name));
    out.sort();
    return out;
}

const Slice *findSlice(const Trace &t, std::string_view name)
{
    for (const Slice &s : t.allSlices())
        if (t.str(s.name) == name)
            return &s;
    return nullptr;
}

} // namespace

class TstCorpusImport : public QObject
{
    Q_OBJECT

private slots:
    void goldenCounts_data();
    void goldenCounts();
    void allCompleteEventsBecomeSlices_data();
    void allCompleteEventsBecomeSlices();
    void flowsV1();
    void flowsV2();
    void unterminatedArrays_data();
    void unterminatedArrays();
    void corruptGzipFails_data();
    void corruptGzipFails();
    void unescapedQuoteFails();
    void sampleWriterRoundTrip();
};

void TstCorpusImport::goldenCounts_data()
{
    QTest::addColumn<QString>("relative");
    QTest::addColumn<bool>("expectError");
    QTest::addColumn<qint64>("events");
    QTest::addColumn<QJsonObject>("phases");
    QTest::addColumn<QJsonObject>("categories");

    const QJsonObject golden = readGolden(); // rows for every file; each row checks that its file exists
    if (golden.isEmpty())
        QFAIL("tests/golden/chrome_counts.json is missing or empty; regenerate it with tools/golden_counts.py");
    for (auto it = golden.begin(); it != golden.end(); ++it) {
        const QJsonObject e = it.value().toObject();
        QTest::newRow(it.key().toUtf8().constData())
            << it.key() << e.value(QLatin1String("error")).toBool() << e.value(QLatin1String("events")).toInteger()
            << e.value(QLatin1String("phases")).toObject() << e.value(QLatin1String("categories")).toObject();
    }
}

void TstCorpusImport::goldenCounts()
{
    QFETCH(QString, relative);
    QFETCH(bool, expectError);
    QFETCH(qint64, events);
    QFETCH(QJsonObject, phases);
    QFETCH(QJsonObject, categories);
    LANESCOPE_REQUIRE_CORPUS_FILE(relative);

    const QString path = corpusFile(relative);
    const LoadResult r = load(path);
    if (expectError) {
        QVERIFY2(!r.ok(), "a JSON file that is not a trace must not load");
        QVERIFY(!r.cancelled);
        QVERIFY2(r.error.find(path.toStdString()) != std::string::npos,
                 qPrintable(QStringLiteral("the error must name the file: ") + QString::fromStdString(r.error)));
        return;
    }
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportStats &st = r.trace->stats();
    QCOMPARE(st.eventsRead, uint64_t(events));
    const QString phaseDiff = diffCounts("phases", toCountMap(phases), st.phases);
    QVERIFY2(phaseDiff.isEmpty(), qPrintable(phaseDiff));
    const QString catDiff = diffCounts("categories", toCountMap(categories), st.categories);
    QVERIFY2(catDiff.isEmpty(), qPrintable(catDiff));
}

// Files made only of X events with a dur: one slice each, all on one thread. Expected values from
//   evs = json.load(...)  (traceEvents for the object form); xs = [e for e in evs if e["ph"] == "X"]
//   len(xs); len({(e["pid"], e["tid"]) for e in xs}); and the nesting depth from a stack walk over
//   the slices sorted by (ts, -dur) that pops while top.end <= ts, then while top.end < ts + dur (a
//   slice that outlives an open one is not its child: nesting by containment): max depth and number of
//   roots. (rmsnorm_fused: 4 slices outlive the one they start in; the start-time walk gave depth 8.)
void TstCorpusImport::allCompleteEventsBecomeSlices_data()
{
    QTest::addColumn<QString>("relative");
    QTest::addColumn<int>("slices");
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<int>("roots");
    // legacy autograd exporter: pid "CPU functions" (a string), tid 1
    QTest::newRow("rmsnorm_naive") << QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json") << 258 << 6 << 8;
    QTest::newRow("rmsnorm_fused") << QStringLiteral("generated-torch-cpu/rmsnorm_fused.trace.json") << 199 << 7 << 6;
    // Kineto cpu_op-only trace, pid = tid = 3113936, no overlap between siblings
    QTest::newRow("hta_cpu_ops") << QStringLiteral(
                                        "hta/distributed_info_unavailable__distributed_info_not_found.json.gz")
                                 << 2467 << 8 << 3;
}

void TstCorpusImport::allCompleteEventsBecomeSlices()
{
    QFETCH(QString, relative);
    QFETCH(int, slices);
    QFETCH(int, maxDepth);
    QFETCH(int, roots);
    LANESCOPE_REQUIRE_CORPUS_FILE(relative);
    const LoadResult r = load(corpusFile(relative));
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace &t = *r.trace;
    QCOMPARE(int(t.allSlices().size()), slices);
    QCOMPARE(int(t.allInstants().size()), 0);
    QCOMPARE(int(t.flows().size()), 0);
    int tracksWithSlices = 0;
    int depth = -1;
    for (const Track &track : t.tracks()) {
        if (track.sliceCount) {
            ++tracksWithSlices;
            depth = track.maxDepth;
        }
    }
    QCOMPARE(tracksWithSlices, 1);
    QCOMPARE(depth, maxDepth);
    int rootCount = 0;
    for (const Slice &s : t.allSlices())
        rootCount += s.depth == 0;
    QCOMPARE(rootCount, roots);
}

// perfetto/flow_events_json_v1.json: s/t/f chains. Expected flows are Perfetto's own diff-test
// expectation for this file (test_flow_events_json_v1): SenderB -> Blergh (f without bp binds to the
// next slice, Blergh at 1002 after f at 1001), SenderA -> OtherSlice (s and t bind to the enclosing
// slice), OtherSlice -> SomeSlice. catapult/flow_simple.json is the same graph with other ids, and
// with Blergh starting exactly at the f timestamp (1001): "next slice" includes that boundary.
void TstCorpusImport::flowsV1()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("perfetto/flow_events_json_v1.json"));
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("catapult/flow_simple.json"));
    const QStringList expected = {QStringLiteral("OtherSlice -> SomeSlice"), QStringLiteral("SenderA -> OtherSlice"),
                                  QStringLiteral("SenderB -> Blergh")};
    for (const char *file : {"perfetto/flow_events_json_v1.json", "catapult/flow_simple.json"}) {
        const LoadResult r = load(corpusFile(QString::fromLatin1(file)));
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(flowNames(*r.trace), expected);
    }
}

// perfetto/flow_events_json_v2.json: bind_id + flow_in / flow_out. Perfetto's expectation
// (test_flow_events_json_v2) is 4 flows; a flow_in takes the latest flow_out of its bind_id without
// consuming it, so OtherSlice (in + out on 0x402) feeds both SomeSlice and the B/E SomeOtherSlice:
//   SenderB -> Blergh, SenderA -> OtherSlice, OtherSlice -> SomeSlice, OtherSlice -> SomeOtherSlice.
void TstCorpusImport::flowsV2()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("perfetto/flow_events_json_v2.json"));
    const LoadResult r = load(corpusFile(QStringLiteral("perfetto/flow_events_json_v2.json")));
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace &t = *r.trace;
    QCOMPARE(int(t.flows().size()), 4);
    QCOMPARE(flowNames(t),
             QStringList({QStringLiteral("OtherSlice -> SomeOtherSlice"), QStringLiteral("OtherSlice -> SomeSlice"),
                          QStringLiteral("SenderA -> OtherSlice"), QStringLiteral("SenderB -> Blergh")}));
    // 5 X + one B/E pair; the instant stays an instant
    QCOMPARE(int(t.allSlices().size()), 6);
    QCOMPARE(int(t.allInstants().size()), 1);
}

// speedscope/simple-partial*.json: the array is never closed (with nothing, a trailing comma, or
// trailing blank lines). Chrome loads them, so must we, with the same slices as the complete
// speedscope/simple.json: alpha [0, 14] µs depth 0, beta [1, 13] depth 1, gamma [2, 7] depth 2, and
// epsilon at 7 µs (no dur).
void TstCorpusImport::unterminatedArrays_data()
{
    QTest::addColumn<QString>("relative");
    QTest::newRow("no bracket") << QStringLiteral("speedscope/simple-partial.json");
    QTest::newRow("trailing comma") << QStringLiteral("speedscope/simple-partial-trailing-comma.json");
    QTest::newRow("trailing whitespace") << QStringLiteral("speedscope/simple-partial-whitespace.json");
}

void TstCorpusImport::unterminatedArrays()
{
    QFETCH(QString, relative);
    LANESCOPE_REQUIRE_CORPUS_FILE(relative);
    const LoadResult r = load(corpusFile(relative));
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace &t = *r.trace;
    QCOMPARE(t.stats().eventsRead, uint64_t(6));
    QCOMPARE(int(t.allSlices().size()), 4);
    const Slice *alpha = findSlice(t, "alpha");
    const Slice *beta = findSlice(t, "beta");
    const Slice *gamma = findSlice(t, "gamma");
    QVERIFY(alpha && beta && gamma && findSlice(t, "epsilon"));
    QCOMPARE(alpha->start, int64_t(0));
    QCOMPARE(alpha->duration, int64_t(14000));
    QCOMPARE(alpha->depth, uint16_t(0));
    QCOMPARE(beta->start, int64_t(1000));
    QCOMPARE(beta->duration, int64_t(12000));
    QCOMPARE(beta->depth, uint16_t(1));
    QCOMPARE(gamma->start, int64_t(2000));
    QCOMPARE(gamma->duration, int64_t(5000));
    QCOMPARE(gamma->depth, uint16_t(2));

    const LoadResult complete = load(corpusFile(QStringLiteral("speedscope/simple.json")));
    QVERIFY2(complete.ok(), complete.error.c_str());
    QCOMPARE(complete.trace->allSlices().size(), t.allSlices().size());
    for (size_t i = 0; i < t.allSlices().size(); ++i) {
        const Slice &a = t.allSlices()[i];
        const Slice &b = complete.trace->allSlices()[i];
        QCOMPARE(t.str(a.name), complete.trace->str(b.name));
        QCOMPARE(a.start, b.start);
        QCOMPARE(a.duration, b.duration);
        QCOMPARE(a.depth, b.depth);
    }
}

// A real gzip file damaged two ways in a temporary folder: bytes flipped inside the deflate data (an
// error naming the damaged file, never a crash), and cut in half (a partial copy: what is complete loads
// with one warning, docs/diagnostics.md).
void TstCorpusImport::corruptGzipFails_data()
{
    QTest::addColumn<QString>("damage");
    QTest::newRow("flipped bytes") << QStringLiteral("flip");
    QTest::newRow("truncated") << QStringLiteral("truncate");
}

void TstCorpusImport::corruptGzipFails()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("hta/ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"));
    QFETCH(QString, damage);
    const QByteArray original =
        test::readFile<QByteArray>(corpusFile(QStringLiteral("hta/ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz")));
    QVERIFY(original.size() > 100000);
    QVERIFY(original.startsWith("\x1f\x8b"));
    QByteArray bytes = original;
    if (damage == QLatin1String("flip")) {
        for (qsizetype i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
            bytes[i] = char(bytes[i] ^ 0x5a);
    } else {
        bytes.truncate(bytes.size() / 2);
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = test::writeFileIn(dir, QStringLiteral("damaged.pt.trace.json.gz"), bytes);
    QVERIFY(!path.isEmpty());
    const LoadResult r = load(path);
    if (damage == QLatin1String("truncate")) {
        // a partial copy: every complete event before the cut loads, one warning says where it ends
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->diagnostics().total(DiagnosticSeverity::Warning), uint64_t(1));
        for (const Warning &w : r.trace->diagnostics().warnings())
            if (!w.isNote())
                QVERIFY2(w.firstSeen.find("gzip stream ends early") != std::string::npos, w.firstSeen.c_str());
        QVERIFY(r.trace->allSlices().size() > 100);
        return;
    }
    QVERIFY2(!r.ok(), "a damaged gzip file must not load");
    QVERIFY(!r.cancelled);
    QVERIFY2(r.error.find(path.toStdString()) != std::string::npos, r.error.c_str());
}

// The legacy autograd exporter does not escape quotes in names (PROVENANCE.md): a record_function
// label with a '"' makes the file invalid JSON. Build that case from a real file: it must fail
// clearly, naming the file.
void TstCorpusImport::unescapedQuoteFails()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json"));
    QByteArray bytes = test::readFile<QByteArray>(corpusFile(QStringLiteral("generated-torch-cpu/rmsnorm_naive.trace.json")));
    const qsizetype at = bytes.indexOf("\"name\": \"aten::pow\"");
    QVERIFY(at > 0);
    bytes.replace(at, 19, "\"name\": \"aten::\"pow\"");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = test::writeFileIn(dir, QStringLiteral("unescaped.trace.json"), bytes);
    const LoadResult r = load(path);
    QVERIFY2(!r.ok(), "invalid JSON must not load");
    QVERIFY2(r.error.find(path.toStdString()) != std::string::npos, r.error.c_str());
}

// The synthetic sample (KinetoSampleWriter) loads, is flagged synthetic, and its counts match what
// Qt's own JSON parser (independent of the importer) finds in the written text; every ac2g flow
// joins an nrt_execute runtime slice to a kernel slice on the device stream. Needs no corpus.
void TstCorpusImport::sampleWriterRoundTrip()
{
    KinetoSampleWriter::Options options;
    options.steps = 5;
    options.seed = 42;
    const std::string text = KinetoSampleWriter::write(options);
    QCOMPARE(KinetoSampleWriter::write(options), text); // deterministic

    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &perr);
    QVERIFY2(perr.error == QJsonParseError::NoError, qPrintable(perr.errorString()));
    const QJsonArray events = doc.object().value(QLatin1String("traceEvents")).toArray();
    CountMap phases, categories;
    int complete = 0, flowStarts = 0, flowEnds = 0, steps = 0;
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        const std::string ph = e.value(QLatin1String("ph")).toString().toStdString();
        ++phases[ph];
        if (e.contains(QLatin1String("cat")))
            ++categories[e.value(QLatin1String("cat")).toString().toStdString()];
        complete += ph == "X";
        flowStarts += ph == "s";
        flowEnds += ph == "f";
        steps += e.value(QLatin1String("name")).toString().startsWith(QLatin1String("ProfilerStep#"));
    }
    QCOMPARE(steps, options.steps);
    QCOMPARE(flowStarts, options.steps * 7); // 6 naive launches + 1 fused per step
    QCOMPARE(flowEnds, flowStarts);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("sub/sample.trace.json"));
    std::string error;
    QVERIFY(!KinetoSampleWriter::writeFile(path.toStdString(), options, &error)); // folder does not exist
    QVERIFY2(error.find(path.toStdString()) != std::string::npos, error.c_str());
    const QString flat = dir.filePath(QStringLiteral("sample.trace.json"));
    QVERIFY2(KinetoSampleWriter::writeFile(flat.toStdString(), options, &error), error.c_str());

    const LoadResult r = load(flat);
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace &t = *r.trace;
    QVERIFY(t.metadata().synthetic);
    QCOMPARE(t.stats().eventsRead, uint64_t(events.size()));
    const QString phaseDiff = diffCounts("phases", phases, t.stats().phases);
    QVERIFY2(phaseDiff.isEmpty(), qPrintable(phaseDiff));
    const QString catDiff = diffCounts("categories", categories, t.stats().categories);
    QVERIFY2(catDiff.isEmpty(), qPrintable(catDiff));
    QCOMPARE(int(t.allSlices().size()), complete);
    QCOMPARE(int(t.flows().size()), flowStarts);
    for (const Flow &f : t.flows()) {
        QCOMPARE(t.str(t.slice(f.from).name), std::string_view("nrt_execute"));
        QCOMPARE(t.str(t.slice(f.to).category), std::string_view("kernel"));
        QCOMPARE(t.track(t.trackOfSlice(f.to)).externalId, KinetoSampleWriter::kDeviceStream);
    }
    bool namedSynthetic = false;
    for (const TrackGroup &g : t.groups())
        namedSynthetic |= t.str(g.name).find("synthetic") != std::string_view::npos;
    QVERIFY2(namedSynthetic, "the process names must say the data is synthetic");
}

QTEST_GUILESS_MAIN(TstCorpusImport)
#include "tst_corpusimport.moc"
