#include "sqliteexporter.h"

#include "analysis/enginebreakdown.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/tablerows.h"

#include <sqlite3.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

namespace lanescope {

namespace {

const char *kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value);
CREATE TABLE strings(id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(path TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE groups(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES groups(id), kind TEXT NOT NULL,
  name TEXT NOT NULL, external_id INTEGER NOT NULL, path TEXT NOT NULL);
CREATE TABLE tracks(id INTEGER PRIMARY KEY, group_id INTEGER REFERENCES groups(id), kind TEXT NOT NULL,
  name TEXT NOT NULL, path TEXT NOT NULL, external_id INTEGER NOT NULL, unit TEXT, max_depth INTEGER NOT NULL,
  slice_count INTEGER NOT NULL, instant_count INTEGER NOT NULL, counter_count INTEGER NOT NULL);
CREATE TABLE slices(id INTEGER PRIMARY KEY, track_id INTEGER NOT NULL REFERENCES tracks(id), ts INTEGER NOT NULL,
  dur INTEGER NOT NULL, name TEXT NOT NULL, category TEXT NOT NULL, depth INTEGER NOT NULL,
  parent_id INTEGER REFERENCES slices(id), arg_set_id INTEGER, flags INTEGER NOT NULL);
CREATE TABLE instants(id INTEGER PRIMARY KEY, track_id INTEGER NOT NULL REFERENCES tracks(id),
  ts INTEGER NOT NULL, name TEXT NOT NULL, category TEXT NOT NULL, scope TEXT NOT NULL, arg_set_id INTEGER);
CREATE TABLE args(arg_set_id INTEGER NOT NULL, key TEXT NOT NULL, type TEXT NOT NULL, value);
CREATE TABLE counters(track_id INTEGER NOT NULL REFERENCES tracks(id), ts INTEGER NOT NULL, value REAL NOT NULL);
CREATE TABLE flows(id INTEGER PRIMARY KEY, from_slice_id INTEGER REFERENCES slices(id),
  to_slice_id INTEGER REFERENCES slices(id), name TEXT NOT NULL, category TEXT NOT NULL, external_id INTEGER NOT NULL);
CREATE TABLE warnings(message TEXT NOT NULL, count INTEGER NOT NULL, first_seen TEXT, severity TEXT NOT NULL);
CREATE TABLE notes(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, ts INTEGER NOT NULL, end_ts INTEGER NOT NULL,
  text TEXT NOT NULL, color TEXT, slice_id INTEGER REFERENCES slices(id), event_name TEXT);
)sql";

const char *kIndexes = R"sql(
CREATE INDEX slices_by_track ON slices(track_id, ts);
CREATE INDEX slices_by_name ON slices(name);
CREATE INDEX args_by_set ON args(arg_set_id);
CREATE INDEX counters_by_track ON counters(track_id, ts);
CREATE INDEX flows_by_from ON flows(from_slice_id);
CREATE INDEX flows_by_to ON flows(to_slice_id);
)sql";

const char *groupKindName(GroupKind k)
{
    switch (k) {
    case GroupKind::Global: return "global";
    case GroupKind::Process: return "process";
    case GroupKind::Device: return "device";
    case GroupKind::Instance: return "instance";
    case GroupKind::Rank: return "rank";
    case GroupKind::NeuronCore: return "neuron_core";
    case GroupKind::Counters: return "counters";
    case GroupKind::PhysicalCore: return "physical_core";
    }
    return "process";
}

const char *scopeName(InstantScope s)
{
    switch (s) {
    case InstantScope::Thread: return "thread";
    case InstantScope::Process: return "process";
    case InstantScope::Global: return "global";
    }
    return "thread";
}

const char *argTypeName(ArgType t)
{
    switch (t) {
    case ArgType::Null: return "null";
    case ArgType::Bool: return "bool";
    case ArgType::Int: return "int";
    case ArgType::UInt: return "uint";
    case ArgType::Double: return "real";
    case ArgType::String: return "string";
    case ArgType::Json: return "json";
    }
    return "null";
}

class Writer
{
public:
    Writer(sqlite3 *db, const std::string &path) : m_db(db), m_path(path) {}
    ~Writer() { sqlite3_finalize(m_stmt); }

    bool exec(const char *sql)
    {
        char *msg = nullptr;
        if (sqlite3_exec(m_db, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
            m_error = m_path + ": " + (msg ? msg : "sqlite error");
            sqlite3_free(msg);
            return false;
        }
        return true;
    }
    bool prepare(const char *sql)
    {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
        if (sqlite3_prepare_v2(m_db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
            return fail();
        return true;
    }
    void null(int i) { sqlite3_bind_null(m_stmt, i); }
    void i64(int i, int64_t v) { sqlite3_bind_int64(m_stmt, i, v); }
    void real(int i, double v) { sqlite3_bind_double(m_stmt, i, v); }
    // An empty view may have no data pointer, which SQLite would store as NULL: bind "" instead.
    void text(int i, std::string_view s) { sqlite3_bind_text(m_stmt, i, s.empty() ? "" : s.data(), int(s.size()), SQLITE_STATIC); }
    // A cell of a row description; its text is copied (the cell is a temporary).
    void cell(int i, const Cell &c)
    {
        if (const auto *v = std::get_if<int64_t>(&c))
            i64(i, *v);
        else if (const auto *d = std::get_if<double>(&c))
            real(i, *d);
        else if (const auto *s = std::get_if<std::string>(&c))
            sqlite3_bind_text(m_stmt, i, s->c_str(), int(s->size()), SQLITE_TRANSIENT);
        else
            null(i);
    }
    void optionalId(int i, uint32_t v)
    {
        if (v == UINT32_MAX)
            null(i);
        else
            i64(i, v);
    }
    bool row()
    {
        const int rc = sqlite3_step(m_stmt);
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
        return rc == SQLITE_DONE || fail();
    }
    bool fail()
    {
        m_error = m_path + ": " + sqlite3_errmsg(m_db);
        return false;
    }
    const std::string &error() const { return m_error; }

private:
    sqlite3 *m_db;
    std::string m_path;
    sqlite3_stmt *m_stmt = nullptr;
    std::string m_error;
};

const char *sqlType(CellType t)
{
    switch (t) {
    case CellType::Integer: return "INTEGER";
    case CellType::Real: return "REAL";
    case CellType::Text: break;
    }
    return "TEXT";
}

// A table from its row description (core/analysis/tablerows.h): the columns marked for SQLite, in
// the description's order, with its types and NOT NULL.
template <typename Row, typename Rows>
bool writeTable(Writer &w, const char *table, const RowDescription<Row> &columns, const Rows &rows)
{
    std::string create = std::string("CREATE TABLE ") + table + "(";
    std::string insert = std::string("INSERT INTO ") + table + " VALUES(";
    std::vector<const TableColumn<Row> *> used;
    for (const TableColumn<Row> &c : columns) {
        if (!c.in(OutSqlite))
            continue;
        create += std::string(used.empty() ? "" : ", ") + c.key + " " + sqlType(c.type) + (c.notNull ? " NOT NULL" : "");
        insert += used.empty() ? "?" : ", ?";
        used.push_back(&c);
    }
    if (!w.exec((create + ")").c_str()) || !w.prepare((insert + ")").c_str()))
        return false;
    for (const Row &r : rows) {
        for (size_t i = 0; i < used.size(); ++i)
            w.cell(int(i) + 1, used[i]->get(r));
        if (!w.row())
            return false;
    }
    return true;
}

// The operator table of the whole trace, as `lanescope-cli ops` and the Ops dock compute it (OpTable).
bool writeOps(Writer &w, const Trace &t)
{
    const OpTable::Result ops = OpTable::compute(t, LaunchIndex::build(t), OpTable::Options());
    return writeTable(w, "ops", TableRows::ops(), ops.rows);
}

// Neuron engine utilization of the whole trace, as the engine dock and `lanescope-cli engines` compute it.
bool writeEngines(Writer &w, const Trace &t)
{
    return writeTable(w, "engines", TableRows::engines(), EngineBreakdown::compute(t).engines);
}

// The user's notes (docs/notes.md); an event note whose event is gone keeps its time, without slice_id.
bool writeNotes(Writer &w, const std::vector<Annotation> &notes)
{
    if (!w.prepare("INSERT INTO notes VALUES(?, ?, ?, ?, ?, ?, ?, ?)"))
        return false;
    for (const Annotation &a : notes) {
        w.i64(1, a.id);
        w.text(2, Annotation::kindName(a.kind));
        w.i64(3, a.startNs);
        w.i64(4, a.endNs);
        w.text(5, a.text);
        if (a.color.empty())
            w.null(6);
        else
            w.text(6, a.color);
        const bool event = a.kind == Annotation::Kind::Event;
        w.optionalId(7, event && a.eventFound ? a.sliceId : UINT32_MAX);
        if (event)
            w.text(8, a.eventName);
        else
            w.null(8);
        if (!w.row())
            return false;
    }
    return true;
}

bool writeAll(Writer &w, const Trace &t, const LoadOptions &options, std::string *error)
{
    const uint64_t totalRows = t.allSlices().size() + t.allInstants().size() + t.allCounterSamples().size()
        + t.args().argCount() + t.flows().size() + 1;
    uint64_t done = 0;
    auto tick = [&]() {
        if ((++done & 0xffff) == 0) {
            options.report(int(done * 1000 / totalRows));
            if (options.cancelled()) {
                *error = "export cancelled";
                return false;
            }
        }
        return true;
    };
    auto str = [&](StringId id) { return t.str(id); };

    if (!w.exec(kSchema) || !w.prepare("INSERT INTO meta VALUES(?, ?)"))
        return false;
    auto meta = [&](std::string_view k, auto v) {
        w.text(1, k);
        if constexpr (std::is_integral_v<decltype(v)>)
            w.i64(2, int64_t(v));
        else
            w.text(2, v);
        return w.row();
    };
    const TraceMetadata &md = t.metadata();
    bool ok = meta("schema_version", SqliteExporter::kSchemaVersion) && meta("format", std::string_view(md.format))
        && meta("source_path", std::string_view(md.sourcePath)) && meta("synthetic", md.synthetic ? 1 : 0)
        && meta("start_ns", t.startNs()) && meta("end_ns", t.endNs()) && meta("events_read", t.stats().eventsRead)
        && meta("bytes_read", t.stats().bytesRead);
    for (const auto &[k, v] : md.entries)
        ok = ok && meta("trace." + k, std::string_view(v));
    if (!ok)
        return false;

    if (!w.prepare("INSERT INTO strings VALUES(?, ?)"))
        return false;
    for (uint32_t i = 0; i < t.strings().size(); ++i) {
        w.i64(1, i);
        w.text(2, t.strings().view(StringId(i)));
        if (!w.row())
            return false;
    }

    if (!w.prepare("INSERT INTO files VALUES(?, ?)"))
        return false;
    for (const FileReport &f : md.files) {
        const std::string status = f.text(); // bound without a copy: must outlive row()
        w.text(1, f.path);
        w.text(2, status);
        if (!w.row())
            return false;
    }
    if (md.files.empty()) {
        w.text(1, md.sourcePath);
        w.text(2, "loaded");
        if (!w.row())
            return false;
    }

    if (!w.prepare("INSERT INTO groups VALUES(?, ?, ?, ?, ?, ?)"))
        return false;
    for (uint32_t i = 0; i < t.groups().size(); ++i) {
        const TrackGroup &g = t.groups()[i];
        const std::string path = t.groupPath(GroupId(i));
        w.i64(1, i);
        w.optionalId(2, g.parent.value);
        w.text(3, groupKindName(g.kind));
        w.text(4, str(g.name));
        w.i64(5, g.externalId);
        w.text(6, path);
        if (!w.row())
            return false;
    }

    if (!w.prepare("INSERT INTO tracks VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"))
        return false;
    for (uint32_t i = 0; i < t.tracks().size(); ++i) {
        const Track &tr = t.tracks()[i];
        const std::string path = t.trackPath(TrackId(i));
        w.i64(1, i);
        w.optionalId(2, tr.group.value);
        w.text(3, trackKindName(tr.kind));
        w.text(4, str(tr.name));
        w.text(5, path);
        w.i64(6, tr.externalId);
        if (tr.unit.isValid() && !str(tr.unit).empty())
            w.text(7, str(tr.unit));
        else
            w.null(7);
        w.i64(8, tr.maxDepth);
        w.i64(9, tr.sliceCount);
        w.i64(10, tr.instantCount);
        w.i64(11, tr.counterCount);
        if (!w.row())
            return false;
    }

    if (!w.prepare("INSERT INTO slices VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"))
        return false;
    std::vector<uint32_t> lastAtDepth;
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const Track &tr = t.tracks()[ti];
        lastAtDepth.assign(size_t(tr.maxDepth) + 2, UINT32_MAX);
        for (uint32_t k = 0; k < tr.sliceCount; ++k) {
            const uint32_t id = tr.sliceBegin + k;
            const Slice &s = t.allSlices()[id];
            // Slices are sorted by start, enclosing ones first: the parent of a nested slice is the
            // latest slice one level up (async rows are not nesting: no parent there).
            uint32_t parent = UINT32_MAX;
            if (tr.kind == TrackKind::Slices && s.depth > 0 && s.depth < lastAtDepth.size()) {
                const uint32_t p = lastAtDepth[s.depth - 1];
                if (p != UINT32_MAX && t.allSlices()[p].end() >= s.start)
                    parent = p;
            }
            if (s.depth < lastAtDepth.size())
                lastAtDepth[s.depth] = id;
            w.i64(1, id);
            w.i64(2, ti);
            w.i64(3, s.start);
            w.i64(4, s.duration);
            w.text(5, str(s.name));
            w.text(6, str(s.category));
            w.i64(7, s.depth);
            w.optionalId(8, parent);
            w.optionalId(9, s.args.value);
            w.i64(10, s.flags);
            if (!w.row() || !tick())
                return false;
        }
    }

    if (!w.prepare("INSERT INTO instants VALUES(?, ?, ?, ?, ?, ?, ?)"))
        return false;
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const Track &tr = t.tracks()[ti];
        for (uint32_t k = 0; k < tr.instantCount; ++k) {
            const Instant &in = t.allInstants()[tr.instantBegin + k];
            w.i64(1, tr.instantBegin + k);
            w.i64(2, ti);
            w.i64(3, in.ts);
            w.text(4, str(in.name));
            w.text(5, str(in.category));
            w.text(6, scopeName(in.scope));
            w.optionalId(7, in.args.value);
            if (!w.row() || !tick())
                return false;
        }
    }

    if (!w.prepare("INSERT INTO args VALUES(?, ?, ?, ?)"))
        return false;
    for (uint32_t set = 0; set < t.args().setCount(); ++set)
        for (const Arg &a : t.args().args(ArgSetId(set))) {
            w.i64(1, set);
            w.text(2, str(a.key));
            w.text(3, argTypeName(a.type));
            switch (a.type) {
            case ArgType::Null: w.null(4); break;
            case ArgType::Bool:
            case ArgType::Int: w.i64(4, a.value.i); break;
            case ArgType::UInt:
                if (a.value.u <= uint64_t(std::numeric_limits<int64_t>::max()))
                    w.i64(4, int64_t(a.value.u));
                else
                    w.text(4, std::to_string(a.value.u)); // beyond SQLite's integers: exact decimal text
                break;
            case ArgType::Double: w.real(4, a.value.d); break;
            case ArgType::String:
            case ArgType::Json: w.text(4, str(a.stringValue())); break;
            }
            if (!w.row() || !tick())
                return false;
        }

    if (!w.prepare("INSERT INTO counters VALUES(?, ?, ?)"))
        return false;
    for (uint32_t ti = 0; ti < t.tracks().size(); ++ti)
        for (const CounterSample &c : t.counterSamples(TrackId(ti))) {
            w.i64(1, ti);
            w.i64(2, c.ts);
            w.real(3, c.value);
            if (!w.row() || !tick())
                return false;
        }

    if (!w.prepare("INSERT INTO flows VALUES(?, ?, ?, ?, ?, ?)"))
        return false;
    for (uint32_t i = 0; i < t.flows().size(); ++i) {
        const Flow &f = t.flows()[i];
        w.i64(1, i);
        w.optionalId(2, f.from.value);
        w.optionalId(3, f.to.value);
        w.text(4, str(f.name));
        w.text(5, str(f.category));
        w.i64(6, int64_t(f.externalId));
        if (!w.row() || !tick())
            return false;
    }

    if (!w.prepare("INSERT INTO warnings VALUES(?, ?, ?, ?)"))
        return false;
    for (const Warning &wr : t.diagnostics().warnings()) {
        w.text(1, wr.message);
        w.i64(2, int64_t(wr.count));
        if (wr.firstSeen.empty())
            w.null(3);
        else
            w.text(3, wr.firstSeen);
        w.text(4, Diagnostics::severityName(wr.severity));
        if (!w.row())
            return false;
    }
    return writeOps(w, t) && writeEngines(w, t) && w.exec(kIndexes);
}

} // namespace

bool SqliteExporter::exportTo(const Trace &trace, const std::string &outPath, const LoadOptions &options,
                              std::string *error, const std::vector<Annotation> &notes)
{
    namespace fs = std::filesystem;
    const std::string tmp = outPath + ".partial";
    std::error_code ec;
    fs::remove(tmp, ec);
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(tmp.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        if (error)
            *error = outPath + ": cannot create: " + (db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close_v2(db);
        return false;
    }
    std::string why;
    bool ok;
    {
        Writer w(db, outPath);
        // A fresh file nobody else reads: no journal, no syncs until the end, one transaction.
        ok = w.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=16384; BEGIN")
            && writeAll(w, trace, options, &why) && writeNotes(w, notes) && w.exec("COMMIT");
        if (!ok && why.empty())
            why = w.error();
    }
    sqlite3_close_v2(db);
    if (ok) {
        fs::rename(tmp, outPath, ec);
        if (ec) {
            ok = false;
            why = outPath + ": cannot write: " + ec.message();
        }
    }
    if (!ok) {
        fs::remove(tmp, ec);
        if (error)
            *error = why.rfind(outPath, 0) == 0 ? why : outPath + ": " + why;
        return false;
    }
    options.report(1000);
    return true;
}

} // namespace lanescope
