// OpBreakdown and the hierarchy lanes: ground truth from neuron-profile itself, layer_summary row by row
// for every export of the corpus and for the NTFF it was exported from (which takes the export's layers
// and keeps its own picosecond times: exact), the HLO ops against an independent count from the JSON's
// own instruction rows, and hand-written exports for the runs of the "layers" / "HLO ops" lanes and for
// an export without layers (older profiler versions).
//
// Times of an export alone (ns rows) are below neuron-profile's by the rounding only (layerSummary says
// how much); counts, start and the FLOP numbers are exact everywhere.
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
    void layerSummaryCellsOnCorpus();
    void hloOpsCountedFromRows_data();
    void hloOpsCountedFromRows();
    void lanesAndRuns();
    void exportWithoutLayers();
};

void TestOpBreakdown::layerSummary_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("truth");
    for (const auto &[json, ntff] : test::neuronProfileExportsWithNtff()) {
        const QString where = QFileInfo(json).dir().dirName() + QLatin1Char('/');
        QTest::newRow(qPrintable(where + QFileInfo(json).fileName())) << json << json;
        QTest::newRow(qPrintable(where + QFileInfo(ntff).fileName())) << ntff << json;
    }
}

// Every layer_summary row (one program row per physical core, "/sg00" and on trn2 "/sg01", and the
// layers below it) has its row with equal instruction counts per engine. The NTFF, which gets its layers
// from the export beside it (NtffExportOps), keeps each instruction's picoseconds: its start, end,
// duration, instruction and active times equal layer_summary to the ns, and FLOPs are the export's.
// The export alone has ns rows (each start and duration floored), from which neuron-profile's ps times
// cannot be recomputed (their union falls up to 1 ns per row short): its rows take end, duration and
// engine times from layer_summary, and the note says so; counts, start and FLOPs stay checked as above
// (the NTFF rows of the same table are the independent check of the times).
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
    const bool ntff = input.endsWith(QLatin1String(".ntff"));
    QVERIFY(r.any);
    QCOMPARE(qsizetype(r.rows.size()), layers.size());
    QVERIFY(r.rows.front().op.empty()); // a program first
    int checked = 0;
    for (const QJsonValue &v : layers) {
        const QJsonObject L = v.toObject();
        const QString name = L[QStringLiteral("name")].toString();
        const OpBreakdownRow *row = rowNamed(r, name);
        QVERIFY2(row, qPrintable(name));
        const QByteArray what = input.toUtf8() + ' ' + name.toUtf8();
        QCOMPARE(row->startNs, L[QStringLiteral("start")].toInteger());
        const int64_t endDiff = L[QStringLiteral("end")].toInteger() - row->endNs;
        const int64_t durationDiff = L[QStringLiteral("duration")].toInteger() - row->durationNs;
        if (ntff) {
            QVERIFY2(endDiff == 0 && durationDiff == 0, what + " end/duration " + QByteArray::number(endDiff) + '/' + QByteArray::number(durationDiff));
        } else { // taken from layer_summary (see above)
            QVERIFY2(endDiff == 0 && durationDiff == 0, what + " end/duration " + QByteArray::number(endDiff) + '/' + QByteArray::number(durationDiff));
        }
        uint64_t total = 0;
        for (int ei = 0; ei < kNeuronEngineCount; ++ei) {
            const NeuronEngine e = NeuronEngine(ei);
            const OpEngineTime &t = row->engines[size_t(ei)];
            const QByteArray w = what + ' ' + EngineBreakdown::engineName(e).data();
            QCOMPARE(qint64(t.instructionCount), L[key(e, "instruction_count")].toInteger());
            total += t.instructionCount;
            const int64_t theirs = L[key(e, "instruction_time")].toInteger();
            const int64_t active = L[key(e, "active_time")].toInteger();
            if (ntff) {
                QVERIFY2(t.instructionTimeNs == theirs, w + " instruction time " + QByteArray::number(theirs - t.instructionTimeNs));
                QVERIFY2(t.activeTimeNs == active, w + " active time " + QByteArray::number(active - t.activeTimeNs));
                continue;
            }
            QVERIFY2(t.instructionTimeNs == theirs && t.activeTimeNs == active, w + " times not layer_summary's");
        }
        QCOMPARE(row->instructionCount, total);
        QVERIFY2(row->flops && row->modelFlops && row->mfuPercent && row->hfuPercent, what);
        QCOMPARE(*row->flops, L[QStringLiteral("tensor_engine_flop_count")].toDouble());
        QCOMPARE(*row->modelFlops, L[QStringLiteral("tensor_engine_model_flop_count")].toDouble());
        QCOMPARE(*row->mfuPercent, 100.0 * L[QStringLiteral("tensor_engine_mfu")].toDouble());
        QCOMPARE(*row->hfuPercent, 100.0 * L[QStringLiteral("tensor_engine_hfu")].toDouble());
        ++checked;
    }
    QCOMPARE(checked, int(layers.size()));
    QVERIFY(!r.flopsNote.empty());
    // only the export's rows say their times were taken (an NTFF computes them, exact)
    QCOMPARE(r.flopsNote.find("as layer_summary reports them") != std::string::npos, !ntff);
}

// The whole corpus at once, so a file that stops being compared cannot pass silently: every cell
// (layer_summary row x engine) of every export with its NTFF, active time and instruction count, equal
// on the NTFF. Expected numbers counted with a short Python script over the corpus JSONs
// (sum of len(layer_summary)): 11 inf2 exports x 2 rows (/sg00, /sg00/_dot.3) + 3 trn2 exports x 3
// rows (/sg00, /sg00/Unknown, /sg01) = 31 rows, x 5 engines = 155 cells. Before picosecond times
// (ns rows), 26 of these 155 cells were equal (the rest up to 17 ns short).
void TestOpBreakdown::layerSummaryCellsOnCorpus()
{
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-trn2-v6"));
    LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json"));
    int exports = 0, layerRows = 0, cells = 0, equal = 0, instructionTimesEqual = 0;
    for (const auto &[json, ntff] : test::neuronProfileExportsWithNtff()) {
        ++exports;
        const LoadResult loaded = TraceLoader::load(ntff.toStdString());
        QVERIFY2(loaded.ok(), loaded.error.c_str());
        const OpBreakdownResult r = OpBreakdown::compute(*loaded.trace, OpBreakdown::By::Layer);
        for (const QJsonValue &v : test::jsonObjectOf(json)[QStringLiteral("layer_summary")].toArray()) {
            const QJsonObject L = v.toObject();
            const OpBreakdownRow *row = rowNamed(r, L[QStringLiteral("name")].toString());
            QVERIFY2(row, qPrintable(ntff + QLatin1Char(' ') + L[QStringLiteral("name")].toString()));
            ++layerRows;
            for (int ei = 0; ei < kNeuronEngineCount; ++ei) {
                const NeuronEngine e = NeuronEngine(ei);
                const OpEngineTime &t = row->engines[size_t(ei)];
                ++cells;
                equal += t.activeTimeNs == L[key(e, "active_time")].toInteger()
                    && qint64(t.instructionCount) == L[key(e, "instruction_count")].toInteger();
                instructionTimesEqual += t.instructionTimeNs == L[key(e, "instruction_time")].toInteger();
            }
        }
    }
    QCOMPARE(exports, 14);
    QCOMPARE(layerRows, 31);
    QCOMPARE(cells, 155);
    QCOMPARE(equal, 155);
    QCOMPARE(instructionTimesEqual, 155);

    // A profile folder holding NEFF, NTFF and export (the trn2 layout; the folder loads the NTFF, paired
    // with its NEFF, and ignores the export): the same rows, named after the subgraphs, exact. 3 folders x
    // 3 layer_summary rows x 5 engines = 45 cells, with the export's FLOPs.
    int folderCells = 0, folderEqual = 0;
    for (const auto &[json, ntff] : test::neuronProfileExportsWithNtff()) {
        if (!json.contains(QLatin1String("neuron-trn2-v6")))
            continue;
        const LoadResult loaded = TraceLoader::load(QFileInfo(ntff).absolutePath().toStdString());
        QVERIFY2(loaded.ok(), loaded.error.c_str());
        const OpBreakdownResult r = OpBreakdown::compute(*loaded.trace, OpBreakdown::By::Layer);
        for (const QJsonValue &v : test::jsonObjectOf(json)[QStringLiteral("layer_summary")].toArray()) {
            const QJsonObject L = v.toObject();
            const OpBreakdownRow *row = rowNamed(r, L[QStringLiteral("name")].toString());
            QVERIFY2(row, qPrintable(QFileInfo(ntff).absolutePath() + QLatin1Char(' ') + L[QStringLiteral("name")].toString()));
            QVERIFY(row->flops && *row->flops == L[QStringLiteral("tensor_engine_flop_count")].toDouble());
            for (int ei = 0; ei < kNeuronEngineCount; ++ei) {
                const NeuronEngine e = NeuronEngine(ei);
                ++folderCells;
                folderEqual += row->engines[size_t(ei)].activeTimeNs == L[key(e, "active_time")].toInteger()
                    && qint64(row->engines[size_t(ei)].instructionCount) == L[key(e, "instruction_count")].toInteger();
            }
        }
    }
    QCOMPARE(folderCells, 45);
    QCOMPARE(folderEqual, 45);
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
