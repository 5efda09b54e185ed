#include "sqliteexporter.h"

#include "exporttables.h"

#include <sqlite3.h>

#include <filesystem>

namespace lanescope {

namespace {

const char *kIndexes = R"sql(
CREATE INDEX slices_by_track ON slices(track_id, ts);
CREATE INDEX slices_by_name ON slices(name);
CREATE INDEX args_by_set ON args(arg_set_id);
CREATE INDEX counters_by_track ON counters(track_id, ts);
CREATE INDEX flows_by_from ON flows(from_slice_id);
CREATE INDEX flows_by_to ON flows(to_slice_id);
)sql";

const char *sqlType(CellType t)
{
    switch (t) {
    case CellType::Integer: return "INTEGER";
    case CellType::Real: return "REAL";
    case CellType::Text: break;
    }
    return "TEXT";
}

// The export's tables (exporttables.h) as SQLite tables: one CREATE TABLE and one prepared INSERT each.
class SqliteSink : public ExportSink
{
public:
    SqliteSink(sqlite3 *db, const std::string &path) : m_db(db), m_path(path) {}
    ~SqliteSink() override { sqlite3_finalize(m_stmt); }

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

    bool beginTable(const ExportTable &t) override
    {
        std::string create = "CREATE TABLE " + t.name + "(";
        std::string insert = "INSERT INTO " + t.name + " VALUES(";
        for (size_t i = 0; i < t.columns.size(); ++i) {
            const ExportColumn &c = t.columns[i];
            create += (i ? ", " : "") + c.name;
            if (!c.anyType)
                create += std::string(" ") + sqlType(c.type);
            if (!c.sqlConstraint.empty())
                create += " " + c.sqlConstraint;
            if (c.notNull)
                create += " NOT NULL";
            insert += i ? ", ?" : "?";
        }
        if (!exec((create + ")").c_str()))
            return false;
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
        if (sqlite3_prepare_v2(m_db, (insert + ")").c_str(), -1, &m_stmt, nullptr) != SQLITE_OK)
            return fail();
        return true;
    }
    void null(int i) override { sqlite3_bind_null(m_stmt, i + 1); }
    void i64(int i, int64_t v) override { sqlite3_bind_int64(m_stmt, i + 1, v); }
    void real(int i, double v) override { sqlite3_bind_double(m_stmt, i + 1, v); }
    // An empty view may have no data pointer, which SQLite would store as NULL: bind "" instead.
    void text(int i, std::string_view s) override
    {
        sqlite3_bind_text(m_stmt, i + 1, s.empty() ? "" : s.data(), int(s.size()), SQLITE_STATIC);
    }
    bool row() override
    {
        const int rc = sqlite3_step(m_stmt);
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
        return rc == SQLITE_DONE || fail();
    }
    bool endTable() override { return true; }
    std::string error() const override { return m_error; }

private:
    bool fail()
    {
        m_error = m_path + ": " + sqlite3_errmsg(m_db);
        return false;
    }

    sqlite3 *m_db;
    std::string m_path;
    sqlite3_stmt *m_stmt = nullptr;
    std::string m_error;
};

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
        SqliteSink w(db, outPath);
        // A fresh file nobody else reads: no journal, no syncs until the end, one transaction.
        ok = w.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=16384; BEGIN")
            && ExportTables::write(trace, notes, w, options, &why) && w.exec(kIndexes) && w.exec("COMMIT");
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
