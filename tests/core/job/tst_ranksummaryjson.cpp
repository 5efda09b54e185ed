// RankSummaryJson: a summary written and read back equals the original field by field (64-bit times
// and baseTimeNanoseconds exact, collective instances through their shared kinds, findings, tables,
// warnings); the header comes first so the formats table recognises the file; and bad input gets an
// error naming the file, the position (byte offset for JSON syntax, JSON pointer for the schema) and
// what was expected, never a crash or a half-read summary.
#include "analysis/insights/insightsjson.h"
#include "io/formats.h"
#include "job/ranksummaryjson.h"

#include <QJsonDocument>
#include <QTest>

using namespace lanescope;

namespace {

RankSummary sample()
{
    RankSummary s;
    s.producer = "lanescope test";
    s.rank = 3;
    s.rankSource = "distributedInfo.rank";
    s.distributedInfo = R"({"backend":"nccl","pg_config":[{"backend_config":"cuda:nccl","pg_desc":"default_pg","pg_name":"0",)"
                        R"("pg_size":4,"ranks":[0,1,2,3]}],"rank":3,"world_size":4})";
    RankSummaryJson::readDistributedInfo(QJsonDocument::fromJson(QByteArray::fromStdString(s.distributedInfo)).object(), s);
    s.file = {"/data/job/rank3.pt.trace.json", "rank3.pt.trace.json", "0123456789abcdef-1000", "chrome-json", 1000};
    s.startNs = 4458676388068751;
    s.endNs = 4458677117099727;
    s.baseTimeNs = 1711964646000000123;
    s.firstStepNs = 4458676416788066;
    s.events = 40573;
    s.slices = 30000;
    s.steps = {{7, "ProfilerStep#4", 4458676416788066, 222442191}, {9, "ProfilerStep#5", 4458676639291351, 219726905}};
    CollectiveInstance a;
    a.rank = 3;
    a.kind = "allreduce";
    a.processGroup = "0";
    a.dtype = "Float";
    a.groupSize = 4;
    a.bytes = 4096;
    a.start = 4458677009853422;
    a.duration = 2636669;
    a.slice = SliceId(120);
    CollectiveInstance b = a;
    b.kind = "broadcast";
    b.bytes.reset();
    b.start += 5000;
    b.slice = SliceId(121);
    CollectiveInstance c = a;
    c.start += 9000;
    c.slice = SliceId(130);
    s.collectives = {a, b, c};
    s.collectiveSteps = {4, -1, 5};
    s.ops = {QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("aten::mm")}, {QStringLiteral("calls"), 3}}}, 250};
    s.kernels = {QJsonArray{}, 0};
    s.devices = {QJsonArray{QJsonObject{{QStringLiteral("device"), QStringLiteral("GPU 0")}}}, 1};
    s.collectiveRows = {QJsonArray{}, 0};
    Finding f;
    f.rule = "low-overlap";
    f.severity = Severity::Medium;
    f.title = "GPU 0: only 12 % hidden";
    f.detail = "detail";
    f.action = "action";
    f.value = 0.12;
    f.threshold = 0.5;
    f.recoverableNs = 123456;
    f.events = {120, 130};
    f.ranges = {{4458677009853422, 4458677012490091}};
    s.findings = {f};
    s.metrics = QJsonObject{{QStringLiteral("span_ns"), 729030976}};
    s.warnings = {{"flow end without a start", 12, "byte 99", DiagnosticSeverity::Note}};
    s.metadata = {{"schemaVersion", "1"}, {"baseTimeNanoseconds", "1711964646000000123"}};
    return s;
}

std::string readError(const QByteArray &bytes)
{
    const RankSummaryJson::Read r = RankSummaryJson::read(bytes, "bad.summary.json");
    return r.error;
}

// The sample's JSON with one value replaced (`path` as object keys, or array indices as numbers).
QByteArray edited(const std::function<void(QJsonObject &)> &edit)
{
    QJsonObject o = QJsonDocument::fromJson(RankSummaryJson::write(sample())).object();
    edit(o);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestRankSummaryJson : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const RankSummary s = sample();
        const QByteArray bytes = RankSummaryJson::write(s);
        QVERIFY(bytes.startsWith("{\"format\":\"lanescope-rank-summary\",\"version\":1,"));
        QCOMPARE(Formats::sniff(std::string_view(bytes.constData(), size_t(bytes.size())), uint64_t(bytes.size())), FileFormat::RankSummary);
        const RankSummaryJson::Read r = RankSummaryJson::read(bytes, "x.summary.json");
        QVERIFY2(r.ok(), r.error.c_str());
        const RankSummary &b = r.summary;
        QCOMPARE(b.summaryPath, std::string("x.summary.json"));
        QCOMPARE(b.producer, s.producer);
        QCOMPARE(b.rank, s.rank);
        QCOMPARE(b.rankSource, s.rankSource);
        QCOMPARE(b.worldSize, int64_t(4));
        QCOMPARE(b.backend, std::string("nccl"));
        QCOMPARE(b.processGroups, s.processGroups);
        QCOMPARE(b.processGroups.size(), size_t(1));
        QCOMPARE(b.processGroups[0].ranks, (std::vector<int64_t>{0, 1, 2, 3}));
        QCOMPARE(b.file.path, s.file.path);
        QCOMPARE(b.file.name, s.file.name);
        QCOMPARE(b.file.bytes, s.file.bytes);
        QCOMPARE(b.file.fingerprint, s.file.fingerprint);
        QCOMPARE(b.startNs, s.startNs);
        QCOMPARE(b.endNs, s.endNs);
        QCOMPARE(b.baseTimeNs, s.baseTimeNs); // past 2^53: exact
        QCOMPARE(b.firstStepNs, s.firstStepNs);
        QCOMPARE(b.events, s.events);
        QCOMPARE(b.steps.size(), s.steps.size());
        for (size_t i = 0; i < s.steps.size(); ++i) {
            QCOMPARE(b.steps[i].id, s.steps[i].id);
            QCOMPARE(b.steps[i].name, s.steps[i].name);
            QCOMPARE(b.steps[i].start, s.steps[i].start);
            QCOMPARE(b.steps[i].duration, s.steps[i].duration);
        }
        QCOMPARE(b.collectives.size(), s.collectives.size());
        for (size_t i = 0; i < s.collectives.size(); ++i) {
            const CollectiveInstance &x = b.collectives[i], &y = s.collectives[i];
            QCOMPARE(x.rank, y.rank);
            QCOMPARE(x.kind, y.kind);
            QCOMPARE(x.processGroup, y.processGroup);
            QCOMPARE(x.dtype, y.dtype);
            QCOMPARE(x.groupSize, y.groupSize);
            QCOMPARE(x.bytes, y.bytes);
            QCOMPARE(x.start, y.start);
            QCOMPARE(x.duration, y.duration);
            QCOMPARE(x.slice, y.slice);
        }
        QCOMPARE(b.collectiveSteps, s.collectiveSteps);
        // two instances share one kind: it is written once
        QCOMPARE(QJsonDocument::fromJson(bytes).object()[QStringLiteral("collectives")][QStringLiteral("kinds")].toArray().size(), 2);
        QCOMPARE(b.ops.rows, s.ops.rows);
        QCOMPARE(b.ops.total, s.ops.total);
        QCOMPARE(b.devices.rows, s.devices.rows);
        QCOMPARE(b.findings.size(), size_t(1));
        QCOMPARE(InsightsJson::finding(b.findings[0]), InsightsJson::finding(s.findings[0]));
        QCOMPARE(b.metrics, s.metrics);
        QCOMPARE(b.warnings.size(), size_t(1));
        QCOMPARE(b.warnings[0].message, s.warnings[0].message);
        QCOMPARE(b.warnings[0].count, s.warnings[0].count);
        QVERIFY(b.warnings[0].isNote());
        std::vector<std::pair<std::string, std::string>> got = b.metadata, want = s.metadata;
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        QCOMPARE(got, want);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        QTest::newRow("not json") << QByteArray("{\"format\": \"lanescope-rank-summary\", \"version\": 1,,")
                                  << QStringLiteral("bad.summary.json: at byte 51: not valid JSON");
        QTest::newRow("array") << QByteArray("[1, 2]") << QStringLiteral("bad.summary.json: at /: expected an object");
        QTest::newRow("a trace") << QByteArray("{\"traceEvents\": []}")
                                 << QStringLiteral("bad.summary.json: at /format: expected \"lanescope-rank-summary\"");
        QTest::newRow("newer") << edited([](QJsonObject &o) { o[QStringLiteral("version")] = 2; })
                               << QStringLiteral("bad.summary.json: at /version: version 2 was written by a newer lanescope");
        QTest::newRow("no rank") << edited([](QJsonObject &o) { o.remove(QStringLiteral("rank")); })
                                 << QStringLiteral("bad.summary.json: at /rank: expected an object");
        QTest::newRow("negative rank") << edited([](QJsonObject &o) {
            QJsonObject r = o[QStringLiteral("rank")].toObject();
            r[QStringLiteral("rank")] = -4;
            o[QStringLiteral("rank")] = r;
        }) << QStringLiteral("bad.summary.json: at /rank/rank: expected an integer >= 0");
        QTest::newRow("fraction") << edited([](QJsonObject &o) {
            QJsonObject t = o[QStringLiteral("trace")].toObject();
            t[QStringLiteral("start_ns")] = 1.5;
            o[QStringLiteral("trace")] = t;
        }) << QStringLiteral("bad.summary.json: at /trace/start_ns: expected an integer");
        QTest::newRow("short row") << edited([](QJsonObject &o) {
            QJsonObject c = o[QStringLiteral("collectives")].toObject();
            QJsonArray rows = c[QStringLiteral("rows")].toArray();
            rows[2] = QJsonArray{0, 5};
            c[QStringLiteral("rows")] = rows;
            o[QStringLiteral("collectives")] = c;
        }) << QStringLiteral("bad.summary.json: at /collectives/rows/2: expected 5 values");
        QTest::newRow("kind out of range") << edited([](QJsonObject &o) {
            QJsonObject c = o[QStringLiteral("collectives")].toObject();
            QJsonArray rows = c[QStringLiteral("rows")].toArray();
            QJsonArray row = rows[1].toArray();
            row[0] = 7;
            rows[1] = row;
            c[QStringLiteral("rows")] = rows;
            o[QStringLiteral("collectives")] = c;
        }) << QStringLiteral("bad.summary.json: at /collectives/rows/1/0: expected an index into /collectives/kinds (2 kinds)");
        QTest::newRow("columns") << edited([](QJsonObject &o) {
            QJsonObject c = o[QStringLiteral("steps")].toObject();
            c[QStringLiteral("columns")] = QJsonArray{QStringLiteral("name")};
            o[QStringLiteral("steps")] = c;
        }) << QStringLiteral("bad.summary.json: at /steps/columns: expected the columns [slice_id, name, start_ns, duration_ns]");
        QTest::newRow("finding") << edited([](QJsonObject &o) {
            QJsonObject i = o[QStringLiteral("insights")].toObject();
            QJsonArray f = i[QStringLiteral("findings")].toArray();
            QJsonObject first = f[0].toObject();
            first[QStringLiteral("severity")] = QStringLiteral("huge");
            f[0] = first;
            i[QStringLiteral("findings")] = f;
            o[QStringLiteral("insights")] = i;
        }) << QStringLiteral("bad.summary.json: at /insights/findings/0/severity: expected high, medium or low");
        QTest::newRow("end before start") << edited([](QJsonObject &o) {
            QJsonObject t = o[QStringLiteral("trace")].toObject();
            t[QStringLiteral("end_ns")] = 0;
            o[QStringLiteral("trace")] = t;
        }) << QStringLiteral("bad.summary.json: at /trace/end_ns: expected end_ns >= start_ns");
    }

    void badInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        const std::string got = readError(bytes);
        QVERIFY2(QString::fromStdString(got).startsWith(error), got.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRankSummaryJson)
#include "tst_ranksummaryjson.moc"
