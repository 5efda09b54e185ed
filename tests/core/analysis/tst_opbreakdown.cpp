// OpBreakdown and the hierarchy lanes: ground truth from neuron-profile itself, layer_summary row by row
// for every JSON of the corpus (and the whole-program row for the NTFF it was exported from), the HLO ops
// against an independent count from the JSON's own instruction rows, and hand-written exports for the
// runs of the "layers" / "HLO ops" lanes and for an export without layers (older profiler versions).
//
// Tolerance for times, from the export's rounding only (as tst_enginebreakdown.cpp explains): per
// engine, 0 <= reported - ours < 1 ns per instruction row for instruction time; -1 ns < reported - ours
// < 2 ns per merged interval for active time; the end 0 or 1 ns before neuron-profile's. Counts, start
// and the FLOP numbers are exact.
#include "neuronprofilecorpus.h"

#include "analysis/opbreakdown.h"
#include "io/traceloader.h"
#include "model/hierarchynames.h"
#include "model/trace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace lanescope;

namespace {

QString key(NeuronEngine e, const char *suffix)
{
    return QString::fromUtf8(EngineBreakdown::engineName(e)).toLower() + QLatin1String("_engine_") + QLatin1String(suffix);
}

const OpBreakdownRow *rowNamed(const OpBreakdownResult &r, const QString &name)
{
    for (const OpBreakdownRow &row : r.rows)
        if (QString::fromStdString(row.name) == name)
            return &row;
    return nullptr;
}

std::shared_ptr<const Trace> loadText(const QByteArray &text, QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("profile.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return std::make_shared<Trace>();
    f.close();
    LoadResult r = TraceLoader::load(path.toStdString());
    return r.ok() ? r.trace : std::make_shared<Trace>();
}

std::vector<const Slice *> lane(const Trace &trace, const char *name)
{
    std::vector<const Slice *> out;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t)
        if (trace.str(trace.tracks()[t].name) == name)
            for (const Slice &s : trace.slices(TrackId(t)))
                out.push_back(&s);
    return out;
}

} // namespace

class TestOpBreakdown : public QObject
{
    Q_OBJECT

private slots:
    void layerSummary_data();
    void layerSummary();
    void hloOpsCountedFromRows_data();
    void hloOpsCountedFromRows();
    void lanesAndRuns();
    void exportWithoutLayers();
};

void TestOpBreakdown::layerSummary_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("truth");
    for (const QString &truth : test::neuronProfileJsons()) {
        const QString j = QFileInfo(truth).fileName();
        QTest::newRow(qPrintable(j)) << truth << truth;
        const QString ntff = truth.chopped(5) + QLatin1String(".ntff");
        if (QFile::exists(ntff))
            QTest::newRow(qPrintable(j.chopped(5) + QLatin1String(".ntff"))) << ntff << truth;
    }
}

// Every layer_summary row has its row, with equal counts, start and end, times within the rounding and
// the FLOP numbers as reported; the NTFF (no layer names) has the whole-program row only.
void TestOpBreakdown::layerSummary()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
    QFETCH(QString, input);
    QFETCH(QString, truth);
    const QJsonArray layers = test::jsonObjectOf(truth)[QStringLiteral("layer_summary")].toArray();
    QVERIFY(layers.size() >= 2);
    const LoadResult loaded = TraceLoader::load(input.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const OpBreakdownResult r = OpBreakdown::compute(*loaded.trace, OpBreakdown::By::Layer);
    const bool json = input.endsWith(QLatin1String(".json"));
    QCOMPARE(r.any, json);
    QCOMPARE(qsizetype(r.rows.size()), json ? layers.size() : qsizetype(1));
    QVERIFY(r.rows.front().op.empty()); // the program first
    int checked = 0;
    for (const QJsonValue &v : layers) {
        const QJsonObject L = v.toObject();
        const QString name = L[QStringLiteral("name")].toString();
        const bool program = name == L[QStringLiteral("fully_qualified_subgraph")].toString();
        if (!json && !program)
            continue;
        const OpBreakdownRow *row = rowNamed(r, name);
        QVERIFY2(row, qPrintable(name));
        const QByteArray what = input.toUtf8() + ' ' + name.toUtf8();
        QCOMPARE(row->startNs, L[QStringLiteral("start")].toInteger());
        // neuron-profile's end is the floor of the latest end in picoseconds; ours adds a row's floored
        // start and floored duration: 0 or 1 ns less. Its duration is end - start from picoseconds.
        const int64_t endDiff = L[QStringLiteral("end")].toInteger() - row->endNs;
        QVERIFY2(endDiff == 0 || endDiff == 1, what + " end " + QByteArray::number(endDiff));
        QVERIFY2(std::abs(L[QStringLiteral("duration")].toInteger() - (row->endNs - row->startNs)) <= 2, what);
        uint64_t total = 0;
        for (int ei = 0; ei < kNeuronEngineCount; ++ei) {
            const NeuronEngine e = NeuronEngine(ei);
            const OpEngineTime &t = row->engines[size_t(ei)];
            const QByteArray w = what + ' ' + EngineBreakdown::engineName(e).data();
            QCOMPARE(qint64(t.instructionCount), L[key(e, "instruction_count")].toInteger());
            total += t.instructionCount;
            const int64_t rows = int64_t(t.instructionCount - t.semaphoreWaitCount);
            const int64_t theirs = L[key(e, "instruction_time")].toInteger();
            QVERIFY2(theirs >= t.instructionTimeNs && theirs <= t.instructionTimeNs + rows, w + " instruction time");
            // active time: at most one merged interval per non-wait row
            const int64_t activeDiff = L[key(e, "active_time")].toInteger() - t.activeTimeNs;
            QVERIFY2(activeDiff > -rows - 1 && activeDiff < 2 * rows + 1, w + " active time " + QByteArray::number(activeDiff));
        }
        QCOMPARE(row->instructionCount, total);
        if (json) {
            QVERIFY2(row->flops && row->modelFlops && row->mfuPercent && row->hfuPercent, what);
            QCOMPARE(*row->flops, L[QStringLiteral("tensor_engine_flop_count")].toDouble());
            QCOMPARE(*row->modelFlops, L[QStringLiteral("tensor_engine_model_flop_count")].toDouble());
            QCOMPARE(*row->mfuPercent, 100.0 * L[QStringLiteral("tensor_engine_mfu")].toDouble());
            QCOMPARE(*row->hfuPercent, 100.0 * L[QStringLiteral("tensor_engine_hfu")].toDouble());
        } else {
            QVERIFY(!row->flops && !row->mfuPercent);
        }
        ++checked;
    }
    QCOMPARE(checked, json ? int(layers.size()) : 1);
    QVERIFY(!r.flopsNote.empty());
}

void TestOpBreakdown::hloOpsCountedFromRows_data()
{
    QTest::addColumn<QString>("input");
    for (const QString &j : test::neuronProfileJsons())
        QTest::newRow(qPrintable(QFileInfo(j).fileName())) << j;
}

// Per HLO op and engine: the instruction count, the earliest start and the latest end equal a count of
// the JSON's instruction rows by hlo_name and subgroup made here.
void TestOpBreakdown::hloOpsCountedFromRows()
{
    LANESCOPE_REQUIRE_CORPUS_ROWS(QStringLiteral("neuron-profile-json"));
    QFETCH(QString, input);
    struct Want
    {
        std::map<QString, qint64> count;
        qint64 start = INT64_MAX, end = 0;
    };
    std::map<QString, Want> want;
    for (const QJsonValue &v : test::jsonObjectOf(input)[QStringLiteral("instruction")].toArray()) {
        const QJsonObject i = v.toObject();
        const QString hlo = i[QStringLiteral("hlo_name")].toString();
        if (hlo.isEmpty())
            continue;
        Want &w = want[hlo];
        ++w.count[i[QStringLiteral("subgroup")].toString().toLower()];
        const qint64 ts = i[QStringLiteral("timestamp")].toInteger();
        w.start = std::min(w.start, ts);
        w.end = std::max(w.end, ts + i[QStringLiteral("duration")].toInteger());
    }
    QVERIFY(!want.empty());
    const LoadResult loaded = TraceLoader::load(input.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const OpBreakdownResult r = OpBreakdown::compute(*loaded.trace, OpBreakdown::By::HloOp);
    QCOMPARE(r.rows.size(), want.size() + 1);
    for (size_t k = 1; k < r.rows.size(); ++k) {
        const OpBreakdownRow &row = r.rows[k];
        const auto it = want.find(QString::fromStdString(row.op));
        QVERIFY2(it != want.end(), row.op.c_str());
        QCOMPARE(row.startNs, it->second.start);
        QCOMPARE(row.endNs, it->second.end);
        for (int ei = 0; ei < kNeuronEngineCount; ++ei) {
            const QString engine = QString::fromUtf8(EngineBreakdown::engineName(NeuronEngine(ei))).toLower();
            QCOMPARE(qint64(row.engines[size_t(ei)].instructionCount), it->second.count[engine]);
        }
        QVERIFY(!row.flops && !row.mfuPercent); // layer_summary has layers only
    }
}

// The lanes: one slice per run of one layer's instructions in time order (instructions of no layer do
// not end a run, another layer's do), from the run's first start to its latest end, "instructions" =
// the run's size; each instruction carries its layer and op as args.
void TestOpBreakdown::lanesAndRuns()
{
    // neuron-profile's row shape (the fields the reader needs, plus layer / hlo_name), rows out of time
    // order as the export writes them per engine
    const QByteArray text = R"json({"instruction":[
{"timestamp":0,"duration":10,"pc":1,"opcode":"MATMUL","subgroup":"Tensor","label":"TensorMatrix","layer":"attn","hlo_name":"%dot.1 = dot(%a, %b)"},
{"timestamp":40,"duration":10,"pc":2,"opcode":"MATMUL","subgroup":"Tensor","label":"TensorMatrix","layer":"mlp","hlo_name":"%dot.2 = dot(%c, %d)"},
{"timestamp":60,"duration":5,"pc":3,"opcode":"MATMUL","subgroup":"Tensor","label":"TensorMatrix","layer":"attn","hlo_name":"%dot.1 = dot(%a, %b)"},
{"timestamp":5,"duration":30,"pc":1,"opcode":"ACTIVATE","subgroup":"Scalar","label":"Scalar","layer":"attn","hlo_name":"%exp.1 = exp(%dot.1)"},
{"timestamp":36,"duration":2,"pc":2,"opcode":"NOP","subgroup":"Scalar","label":"Scalar","layer":"","hlo_name":""}
],"metadata":[{"last_hw_timestamp":65}]})json";
    QTemporaryDir dir;
    const std::shared_ptr<const Trace> loaded = loadText(text, dir);
    const Trace &trace = *loaded;
    QVERIFY(!trace.tracks().empty());
    const auto layers = lane(trace, HierarchyNames::kLayer.lane.name);
    QCOMPARE(layers.size(), size_t(3)); // attn [0,35) (the NOP at 36 does not end it), mlp [40,50), attn [60,65)
    QCOMPARE(trace.str(layers[0]->name), std::string_view("attn"));
    QCOMPARE(layers[0]->start, int64_t(0));
    QCOMPARE(layers[0]->duration, int64_t(35));
    QCOMPARE(trace.str(layers[1]->name), std::string_view("mlp"));
    QCOMPARE(layers[2]->start, int64_t(60));
    QCOMPARE(layers[2]->duration, int64_t(5));
    const StringId kInstr = trace.strings().find(HierarchyNames::kInstructionsArg);
    QVERIFY(kInstr.isValid());
    QCOMPARE(trace.args().args(layers[0]->args).front().value.i, int64_t(2));
    const auto ops = lane(trace, HierarchyNames::kHlo.lane.name);
    QCOMPARE(ops.size(), size_t(4)); // dot.1, exp.1, dot.2, dot.1
    QCOMPARE(trace.str(ops[1]->name), std::string_view("%exp.1 = exp(%dot.1)"));
    // the lanes sit above the engine lanes
    int64_t layerSort = 0, tensorSort = 0;
    for (const Track &t : trace.tracks()) {
        if (trace.str(t.name) == HierarchyNames::kLayer.lane.name)
            layerSort = t.sortIndex;
        if (trace.str(t.name) == "TensorMatrix")
            tensorSort = t.sortIndex;
    }
    QVERIFY(layerSort < tensorSort);

    const OpBreakdownResult r = OpBreakdown::compute(trace, OpBreakdown::By::Layer);
    QCOMPARE(r.rows.size(), size_t(3));
    const OpBreakdownRow *attn = rowNamed(r, QStringLiteral("/program/attn"));
    QVERIFY(attn);
    QCOMPARE(attn->instructionCount, uint64_t(3));
    QCOMPARE(attn->engines[size_t(NeuronEngine::Tensor)].instructionTimeNs, int64_t(15));
    QCOMPARE(attn->engines[size_t(NeuronEngine::Scalar)].activeTimeNs, int64_t(30));
    QCOMPARE(attn->endNs, int64_t(65));
    QCOMPARE(r.rows.front().instructionCount, uint64_t(5));
    QVERIFY(!attn->mfuPercent);
}

// An export from a profiler that wrote no layer names: no lanes, one program row, and the note says why
// there are no FLOPs.
void TestOpBreakdown::exportWithoutLayers()
{
    const QByteArray text = R"({"instruction":[
{"timestamp":0,"duration":10,"pc":1,"opcode":"MATMUL","subgroup":"Tensor","label":"TensorMatrix"},
{"timestamp":5,"duration":30,"pc":1,"opcode":"ACTIVATE","subgroup":"Scalar","label":"Scalar"}]})";
    QTemporaryDir dir;
    const std::shared_ptr<const Trace> loaded = loadText(text, dir);
    const Trace &trace = *loaded;
    QVERIFY(!trace.tracks().empty());
    QVERIFY(lane(trace, HierarchyNames::kLayer.lane.name).empty());
    QVERIFY(lane(trace, HierarchyNames::kHlo.lane.name).empty());
    const OpBreakdownResult r = OpBreakdown::compute(trace, OpBreakdown::By::Layer);
    QVERIFY(!r.any);
    QCOMPARE(r.rows.size(), size_t(1));
    QVERIFY(QString::fromStdString(r.flopsNote).contains(QLatin1String("no layer_summary")));
}

QTEST_GUILESS_MAIN(TestOpBreakdown)
#include "tst_opbreakdown.moc"
