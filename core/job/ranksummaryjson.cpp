#include "ranksummaryjson.h"

#include "analysis/insights/insightsjson.h"
#include "model/saturating.h"

#include <QFile>
#include <QJsonDocument>

#include <limits>

namespace lanescope {

namespace {

QString q(const std::string &s) { return QString::fromStdString(s); }
QJsonValue optional(const std::optional<int64_t> &v) { return v ? QJsonValue(qint64(*v)) : QJsonValue(); }

// The instance columns, in row order.
const char *const kCollectiveColumns[] = {"kind", "step", "start_ns", "duration_ns", "slice_id"};
const char *const kStepColumns[] = {"slice_id", "name", "start_ns", "duration_ns"};

QJsonArray columns(std::initializer_list<const char *> names)
{
    QJsonArray a;
    for (const char *n : names)
        a.append(QString::fromLatin1(n));
    return a;
}

QJsonObject tableJson(const RankSummary::Table &t)
{
    return {{QStringLiteral("total"), qint64(t.total)}, {QStringLiteral("rows"), t.rows}};
}

QJsonObject collectivesJson(const RankSummary &s)
{
    // Each distinct (kind, group, dtype, size, bytes) once; the instances refer to it by index.
    QJsonArray kinds, rows;
    std::vector<const CollectiveInstance *> shapes;
    const auto same = [](const CollectiveInstance &a, const CollectiveInstance &b) {
        return a.kind == b.kind && a.processGroup == b.processGroup && a.dtype == b.dtype && a.groupSize == b.groupSize &&
               a.bytes == b.bytes;
    };
    size_t last = 0;
    for (size_t i = 0; i < s.collectives.size(); ++i) {
        const CollectiveInstance &c = s.collectives[i];
        if (shapes.empty() || !same(*shapes[last], c)) {
            last = 0;
            while (last < shapes.size() && !same(*shapes[last], c))
                ++last;
            if (last == shapes.size()) {
                shapes.push_back(&c);
                kinds.append(QJsonObject{{QStringLiteral("kind"), q(c.kind)},
                                         {QStringLiteral("process_group"), q(c.processGroup)},
                                         {QStringLiteral("dtype"), q(c.dtype)},
                                         {QStringLiteral("group_size"), qint64(c.groupSize)},
                                         {QStringLiteral("bytes"), c.bytes ? QJsonValue(qint64(*c.bytes)) : QJsonValue()}});
            }
        }
        rows.append(QJsonArray{qint64(last), qint64(i < s.collectiveSteps.size() ? s.collectiveSteps[i] : -1), qint64(c.start),
                               qint64(c.duration), qint64(c.slice.value)});
    }
    return {{QStringLiteral("kinds"), kinds},
            {QStringLiteral("columns"), columns({kCollectiveColumns[0], kCollectiveColumns[1], kCollectiveColumns[2],
                                                 kCollectiveColumns[3], kCollectiveColumns[4]})},
            {QStringLiteral("rows"), rows}};
}

// A reader over untrusted JSON that names where it stopped: every accessor takes the JSON pointer of
// the value it reads and throws Bad with it and what was expected.
struct Bad
{
    std::string where, what;
};

class Reader
{
public:
    static QJsonObject object(const QJsonValue &v, const std::string &where)
    {
        if (!v.isObject())
            throw Bad{where, "expected an object"};
        return v.toObject();
    }
    static QJsonArray array(const QJsonValue &v, const std::string &where)
    {
        if (!v.isArray())
            throw Bad{where, "expected an array"};
        return v.toArray();
    }
    static int64_t integer(const QJsonValue &v, const std::string &where, int64_t min = std::numeric_limits<int64_t>::min())
    {
        // Qt keeps JSON integers as 64-bit integers; a fraction or a number past int64 reads as a double.
        const qint64 sentinel = std::numeric_limits<qint64>::min();
        const qint64 n = v.toInteger(sentinel);
        if (!v.isDouble() || (n == sentinel && v.toDouble() != double(sentinel)))
            throw Bad{where, "expected an integer"};
        if (n < min)
            throw Bad{where, "expected an integer >= " + std::to_string(min)};
        return n;
    }
    // A time as a trace keeps it (model/saturating.h: the range every difference of two fits int64).
    static int64_t time(const QJsonValue &v, const std::string &where)
    {
        const int64_t t = integer(v, where);
        if (t < kTraceMinTime || t > kTraceMaxTime)
            throw Bad{where, "expected a time in ns from " + std::to_string(kTraceMinTime) + " to " + std::to_string(kTraceMaxTime)};
        return t;
    }
    static int64_t duration(const QJsonValue &v, const std::string &where)
    {
        const int64_t d = integer(v, where, 0);
        if (d > kTraceMaxDuration)
            throw Bad{where, "expected a duration in ns up to " + std::to_string(kTraceMaxDuration)};
        return d;
    }
    static std::optional<int64_t> nullableInteger(const QJsonValue &v, const std::string &where)
    {
        if (v.isNull() || v.isUndefined())
            return std::nullopt;
        return integer(v, where);
    }
    static std::string text(const QJsonValue &v, const std::string &where)
    {
        if (!v.isString())
            throw Bad{where, "expected a string"};
        return v.toString().toStdString();
    }
    static std::string optionalText(const QJsonValue &v, const std::string &where)
    {
        return v.isUndefined() || v.isNull() ? std::string() : text(v, where);
    }
    static std::string at(const std::string &where, const char *key) { return where + "/" + key; }
    static std::string at(const std::string &where, qsizetype i) { return where + "/" + std::to_string(i); }
};

RankSummary::Table readTable(const QJsonObject &tables, const char *key)
{
    const std::string where = std::string("/tables/") + key;
    const QJsonObject o = Reader::object(tables.value(QLatin1String(key)), where);
    RankSummary::Table t;
    t.total = uint64_t(Reader::integer(o.value(QStringLiteral("total")), Reader::at(where, "total"), 0));
    t.rows = Reader::array(o.value(QStringLiteral("rows")), Reader::at(where, "rows"));
    for (qsizetype i = 0; i < t.rows.size(); ++i)
        Reader::object(t.rows[i], Reader::at(Reader::at(where, "rows"), i));
    return t;
}

// The header's columns must be the ones this version writes: a reader never guesses a layout.
void checkColumns(const QJsonObject &o, const std::string &where, std::initializer_list<const char *> expected)
{
    const QJsonArray got = Reader::array(o.value(QStringLiteral("columns")), Reader::at(where, "columns"));
    std::string want;
    bool same = got.size() == qsizetype(expected.size());
    qsizetype i = 0;
    for (const char *name : expected) {
        want += (want.empty() ? "" : ", ") + std::string(name);
        same = same && got[i++].toString() == QLatin1String(name);
    }
    if (!same)
        throw Bad{Reader::at(where, "columns"), "expected the columns [" + want + "]"};
}

void readSteps(const QJsonObject &root, RankSummary &s)
{
    const std::string where = "/steps";
    const QJsonObject o = Reader::object(root.value(QStringLiteral("steps")), where);
    checkColumns(o, where, {kStepColumns[0], kStepColumns[1], kStepColumns[2], kStepColumns[3]});
    const QJsonArray rows = Reader::array(o.value(QStringLiteral("rows")), Reader::at(where, "rows"));
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const std::string row = Reader::at(Reader::at(where, "rows"), i);
        const QJsonArray r = Reader::array(rows[i], row);
        if (r.size() != 4)
            throw Bad{row, "expected 4 values [slice_id, name, start_ns, duration_ns]"};
        RankStepTable::Step step;
        step.id = uint32_t(Reader::integer(r[0], Reader::at(row, qsizetype(0)), 0));
        if (r[0].toInteger() > qint64(UINT32_MAX))
            throw Bad{Reader::at(row, qsizetype(0)), "expected a slice id below 2^32"};
        step.name = Reader::text(r[1], Reader::at(row, 1));
        step.start = Reader::time(r[2], Reader::at(row, 2));
        step.duration = Reader::duration(r[3], Reader::at(row, 3));
        s.steps.push_back(std::move(step));
    }
}

void readCollectives(const QJsonObject &root, RankSummary &s)
{
    const std::string where = "/collectives";
    const QJsonObject o = Reader::object(root.value(QStringLiteral("collectives")), where);
    checkColumns(o, where, {kCollectiveColumns[0], kCollectiveColumns[1], kCollectiveColumns[2], kCollectiveColumns[3],
                            kCollectiveColumns[4]});
    std::vector<CollectiveInstance> shapes;
    const QJsonArray kinds = Reader::array(o.value(QStringLiteral("kinds")), Reader::at(where, "kinds"));
    for (qsizetype i = 0; i < kinds.size(); ++i) {
        const std::string at = Reader::at(Reader::at(where, "kinds"), i);
        const QJsonObject k = Reader::object(kinds[i], at);
        CollectiveInstance c;
        c.rank = s.rank;
        c.kind = Reader::text(k.value(QStringLiteral("kind")), Reader::at(at, "kind"));
        c.processGroup = Reader::text(k.value(QStringLiteral("process_group")), Reader::at(at, "process_group"));
        c.dtype = Reader::text(k.value(QStringLiteral("dtype")), Reader::at(at, "dtype"));
        c.groupSize = Reader::integer(k.value(QStringLiteral("group_size")), Reader::at(at, "group_size"), 0);
        if (const auto bytes = Reader::nullableInteger(k.value(QStringLiteral("bytes")), Reader::at(at, "bytes"))) {
            if (*bytes < 0)
                throw Bad{Reader::at(at, "bytes"), "expected a byte count >= 0 or null"};
            c.bytes = uint64_t(*bytes);
        }
        shapes.push_back(std::move(c));
    }
    const QJsonArray rows = Reader::array(o.value(QStringLiteral("rows")), Reader::at(where, "rows"));
    s.collectives.reserve(size_t(rows.size()));
    s.collectiveSteps.reserve(size_t(rows.size()));
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const std::string row = Reader::at(Reader::at(where, "rows"), i);
        const QJsonArray r = Reader::array(rows[i], row);
        if (r.size() != 5)
            throw Bad{row, "expected 5 values [kind, step, start_ns, duration_ns, slice_id]"};
        const int64_t kind = Reader::integer(r[0], Reader::at(row, qsizetype(0)), 0);
        if (kind >= int64_t(shapes.size()))
            throw Bad{Reader::at(row, qsizetype(0)), "expected an index into /collectives/kinds (" + std::to_string(shapes.size()) + " kinds)"};
        CollectiveInstance c = shapes[size_t(kind)];
        s.collectiveSteps.push_back(Reader::integer(r[1], Reader::at(row, 1), -1));
        c.start = Reader::time(r[2], Reader::at(row, 2));
        c.duration = Reader::duration(r[3], Reader::at(row, 3));
        const int64_t slice = Reader::integer(r[4], Reader::at(row, 4), 0);
        if (slice > int64_t(UINT32_MAX))
            throw Bad{Reader::at(row, 4), "expected a slice id below 2^32"};
        c.slice = SliceId(uint32_t(slice));
        s.collectives.push_back(std::move(c));
    }
}

void readRank(const QJsonObject &root, RankSummary &s)
{
    const QJsonObject rank = Reader::object(root.value(QStringLiteral("rank")), "/rank");
    s.rank = Reader::integer(rank.value(QStringLiteral("rank")), "/rank/rank", 0);
    if (s.rank > INT32_MAX)
        throw Bad{"/rank/rank", "expected a rank below 2^31"};
    s.rankSource = Reader::text(rank.value(QStringLiteral("source")), "/rank/source");
    const QJsonValue info = rank.value(QStringLiteral("distributed_info"));
    if (!info.isNull() && !info.isUndefined()) {
        const QJsonObject o = Reader::object(info, "/rank/distributed_info");
        s.distributedInfo = QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
        RankSummaryJson::readDistributedInfo(o, s);
    }
    const QJsonObject file = Reader::object(root.value(QStringLiteral("file")), "/file");
    s.file.path = Reader::text(file.value(QStringLiteral("path")), "/file/path");
    s.file.name = Reader::text(file.value(QStringLiteral("name")), "/file/name");
    s.file.bytes = uint64_t(Reader::integer(file.value(QStringLiteral("bytes")), "/file/bytes", 0));
    s.file.fingerprint = Reader::text(file.value(QStringLiteral("fingerprint")), "/file/fingerprint");
    s.file.format = Reader::text(file.value(QStringLiteral("format")), "/file/format");
    const QJsonObject trace = Reader::object(root.value(QStringLiteral("trace")), "/trace");
    s.startNs = Reader::time(trace.value(QStringLiteral("start_ns")), "/trace/start_ns");
    s.endNs = Reader::time(trace.value(QStringLiteral("end_ns")), "/trace/end_ns");
    if (s.endNs < s.startNs)
        throw Bad{"/trace/end_ns", "expected end_ns >= start_ns"};
    s.baseTimeNs = Reader::nullableInteger(trace.value(QStringLiteral("base_time_ns")), "/trace/base_time_ns");
    if (!trace.value(QStringLiteral("first_step_ns")).isNull())
        s.firstStepNs = Reader::time(trace.value(QStringLiteral("first_step_ns")), "/trace/first_step_ns");
    s.events = uint64_t(Reader::integer(trace.value(QStringLiteral("events")), "/trace/events", 0));
    s.slices = uint64_t(Reader::integer(trace.value(QStringLiteral("slices")), "/trace/slices", 0));
}

void readRest(const QJsonObject &root, RankSummary &s)
{
    const QJsonObject tables = Reader::object(root.value(QStringLiteral("tables")), "/tables");
    s.ops = readTable(tables, "ops");
    s.kernels = readTable(tables, "kernels");
    s.devices = readTable(tables, "devices");
    s.collectiveRows = readTable(tables, "collectives");
    const QJsonObject insights = Reader::object(root.value(QStringLiteral("insights")), "/insights");
    s.metrics = Reader::object(insights.value(QStringLiteral("metrics")), "/insights/metrics");
    const QJsonArray findings = Reader::array(insights.value(QStringLiteral("findings")), "/insights/findings");
    for (qsizetype i = 0; i < findings.size(); ++i) {
        const std::string at = Reader::at("/insights/findings", i);
        Finding f;
        if (const std::string error = InsightsJson::readFinding(Reader::object(findings[i], at), f); !error.empty())
            throw Bad{at + "/" + error.substr(0, error.find(':')), error.substr(error.find(':') + 2)};
        s.findings.push_back(std::move(f));
    }
    const QJsonArray warnings = Reader::array(root.value(QStringLiteral("warnings")), "/warnings");
    for (qsizetype i = 0; i < warnings.size(); ++i) {
        const std::string at = Reader::at("/warnings", i);
        const QJsonObject o = Reader::object(warnings[i], at);
        Warning w;
        w.message = Reader::text(o.value(QStringLiteral("message")), Reader::at(at, "message"));
        w.count = uint64_t(Reader::integer(o.value(QStringLiteral("count")), Reader::at(at, "count"), 0));
        w.firstSeen = Reader::optionalText(o.value(QStringLiteral("first_seen")), Reader::at(at, "first_seen"));
        const std::string severity = Reader::text(o.value(QStringLiteral("severity")), Reader::at(at, "severity"));
        if (severity != "warning" && severity != "note")
            throw Bad{Reader::at(at, "severity"), "expected \"warning\" or \"note\""};
        w.severity = severity == "note" ? DiagnosticSeverity::Note : DiagnosticSeverity::Warning;
        s.warnings.push_back(std::move(w));
    }
    const QJsonObject metadata = Reader::object(root.value(QStringLiteral("metadata")), "/metadata");
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        s.metadata.emplace_back(it.key().toStdString(), Reader::text(it.value(), "/metadata/" + it.key().toStdString()));
}

} // namespace

void RankSummaryJson::readDistributedInfo(const QJsonObject &info, RankSummary &s)
{
    const QJsonValue ws = info.value(QStringLiteral("world_size"));
    if (ws.isDouble() && ws.toInteger(-1) >= 0)
        s.worldSize = ws.toInteger();
    s.backend = info.value(QStringLiteral("backend")).toString().toStdString();
    s.processGroups.clear();
    for (const QJsonValue &v : info.value(QStringLiteral("pg_config")).toArray()) {
        const QJsonObject pg = v.toObject();
        RankSummary::ProcessGroup g;
        const QJsonValue name = pg.value(QStringLiteral("pg_name"));
        g.name = name.isDouble() ? std::to_string(name.toInteger()) : name.toString().toStdString();
        g.description = pg.value(QStringLiteral("pg_desc")).toString().toStdString();
        g.backend = pg.value(QStringLiteral("backend_config")).toString().toStdString();
        g.size = std::max<qint64>(0, pg.value(QStringLiteral("pg_size")).toInteger(0));
        for (const QJsonValue &r : pg.value(QStringLiteral("ranks")).toArray())
            if (r.isDouble() && r.toInteger(-1) >= 0)
                g.ranks.push_back(r.toInteger());
        s.processGroups.push_back(std::move(g));
    }
}

QByteArray RankSummaryJson::write(const RankSummary &s)
{
    QJsonObject o;
    o[QStringLiteral("producer")] = q(s.producer);
    QJsonObject rank{{QStringLiteral("rank"), qint64(s.rank)}, {QStringLiteral("source"), q(s.rankSource)}};
    const QJsonDocument info = QJsonDocument::fromJson(QByteArray::fromStdString(s.distributedInfo));
    rank[QStringLiteral("distributed_info")] = info.isObject() ? QJsonValue(info.object()) : QJsonValue();
    o[QStringLiteral("rank")] = rank;
    o[QStringLiteral("file")] = QJsonObject{{QStringLiteral("path"), q(s.file.path)},
                                            {QStringLiteral("name"), q(s.file.name)},
                                            {QStringLiteral("bytes"), qint64(s.file.bytes)},
                                            {QStringLiteral("fingerprint"), q(s.file.fingerprint)},
                                            {QStringLiteral("format"), q(s.file.format)}};
    o[QStringLiteral("trace")] = QJsonObject{{QStringLiteral("start_ns"), qint64(s.startNs)},
                                             {QStringLiteral("end_ns"), qint64(s.endNs)},
                                             {QStringLiteral("base_time_ns"), optional(s.baseTimeNs)},
                                             {QStringLiteral("first_step_ns"), optional(s.firstStepNs)},
                                             {QStringLiteral("events"), qint64(s.events)},
                                             {QStringLiteral("slices"), qint64(s.slices)}};
    QJsonArray steps;
    for (const RankStepTable::Step &st : s.steps)
        steps.append(QJsonArray{qint64(st.id), q(st.name), qint64(st.start), qint64(st.duration)});
    o[QStringLiteral("steps")] = QJsonObject{
        {QStringLiteral("columns"), columns({kStepColumns[0], kStepColumns[1], kStepColumns[2], kStepColumns[3]})},
        {QStringLiteral("rows"), steps}};
    o[QStringLiteral("collectives")] = collectivesJson(s);
    o[QStringLiteral("tables")] = QJsonObject{{QStringLiteral("ops"), tableJson(s.ops)},
                                              {QStringLiteral("kernels"), tableJson(s.kernels)},
                                              {QStringLiteral("devices"), tableJson(s.devices)},
                                              {QStringLiteral("collectives"), tableJson(s.collectiveRows)}};
    QJsonArray findings;
    for (const Finding &f : s.findings)
        findings.append(InsightsJson::finding(f));
    o[QStringLiteral("insights")] = QJsonObject{{QStringLiteral("metrics"), s.metrics}, {QStringLiteral("findings"), findings}};
    QJsonArray warnings;
    for (const Warning &w : s.warnings)
        warnings.append(QJsonObject{{QStringLiteral("message"), q(w.message)},
                                    {QStringLiteral("count"), qint64(w.count)},
                                    {QStringLiteral("first_seen"), q(w.firstSeen)},
                                    {QStringLiteral("severity"), QString::fromLatin1(Diagnostics::severityName(w.severity))}});
    o[QStringLiteral("warnings")] = warnings;
    QJsonObject metadata;
    for (const auto &[k, v] : s.metadata)
        metadata[q(k)] = q(v);
    o[QStringLiteral("metadata")] = metadata;
    // The header first, so that the formats table recognises the file from its first bytes.
    QByteArray body = QJsonDocument(o).toJson(QJsonDocument::Compact);
    const QByteArray head = QByteArray("{\"format\":\"") + RankSummary::kFormat + "\",\"version\":" + QByteArray::number(RankSummary::kVersion);
    return head + (body.size() > 2 ? "," + body.mid(1) : QByteArray("}")) + "\n";
}

RankSummaryJson::Read RankSummaryJson::read(const QByteArray &bytes, const std::string &name)
{
    Read out;
    out.summary.summaryPath = name;
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError) {
        out.error = name + ": at byte " + std::to_string(parse.offset) + ": not valid JSON (" + parse.errorString().toStdString() + ")";
        return out;
    }
    try {
        if (!doc.isObject())
            throw Bad{"/", "expected an object"};
        const QJsonObject root = doc.object();
        if (root.value(QStringLiteral("format")).toString() != QLatin1String(RankSummary::kFormat))
            throw Bad{"/format", std::string("expected \"") + RankSummary::kFormat + "\" (not a rank summary)"};
        const int64_t version = Reader::integer(root.value(QStringLiteral("version")), "/version", 1);
        if (version > RankSummary::kVersion)
            throw Bad{"/version", "version " + std::to_string(version) + " was written by a newer lanescope; this one reads version " +
                                      std::to_string(RankSummary::kVersion)};
        out.summary.producer = Reader::optionalText(root.value(QStringLiteral("producer")), "/producer");
        readRank(root, out.summary);
        readSteps(root, out.summary);
        readCollectives(root, out.summary);
        readRest(root, out.summary);
    } catch (const Bad &bad) {
        out.error = name + ": at " + bad.where + ": " + bad.what;
        out.summary = RankSummary();
        out.summary.summaryPath = name;
    }
    return out;
}

RankSummaryJson::Read RankSummaryJson::readFile(const std::string &path)
{
    QFile f(q(path));
    Read out;
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = path + ": cannot open: " + f.errorString().toStdString();
        return out;
    }
    if (f.size() > kMaxFileBytes) {
        out.error = path + ": " + std::to_string(f.size()) + " bytes, more than a rank summary can be (" + std::to_string(kMaxFileBytes) +
                    ")";
        return out;
    }
    return read(f.readAll(), path);
}

} // namespace lanescope
