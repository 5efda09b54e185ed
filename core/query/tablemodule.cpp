#include "tablemodule.h"

#include "querytables.h"

#include "model/trace.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace lanescope::tablemodule {

namespace {

// idxNum bits: the keys a plan uses; its arguments come in this order.
enum Plan : int {
    kId = 1 << 0,
    kTrack = 1 << 1,
    kTsLow = 1 << 2,
    kTsLowStrict = 1 << 3, // ts > v (else ts >= v)
    kTsHigh = 1 << 4,
    kTsHighStrict = 1 << 5, // ts < v (else ts <= v)
    kName = 1 << 6,
    kArgSet = 1 << 7,
    kFrom = 1 << 8,
    kTo = 1 << 9,
    kNameOrder = 1 << 10, // rows in name order (the name index)
};

struct Aux
{
    QueryTables *tables;
    size_t table;
    bool *declaring;
};

struct VTab : sqlite3_vtab
{
    QueryTables *tables = nullptr;
    size_t table = 0;
    ExportRows *rows = nullptr;
};

// xColumn's cells: text of the trace stays where it is (SQLITE_STATIC: the engine keeps the trace and
// the rows for its life); a row's scratch text is copied.
class ResultSink : public CellSink
{
public:
    sqlite3_context *ctx = nullptr;
    void null(int) override { sqlite3_result_null(ctx); }
    void i64(int, int64_t v) override { sqlite3_result_int64(ctx, v); }
    void real(int, double v) override { sqlite3_result_double(ctx, v); }
    void text(int, std::string_view v) override
    {
        sqlite3_result_text64(ctx, v.empty() ? "" : v.data(), v.size(), SQLITE_STATIC, SQLITE_UTF8);
    }
    void scratchText(int, std::string_view v) override
    {
        sqlite3_result_text64(ctx, v.empty() ? "" : v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    }
};

struct Cursor : sqlite3_vtab_cursor
{
    // Either runs of rows, or a list of rows (the name index's, or owned).
    std::vector<RowRun> runs;
    size_t run = 0;
    uint64_t row = 0;
    bool listMode = false;
    std::span<const uint32_t> list;
    std::vector<uint32_t> owned;
    size_t pos = 0;
    ResultSink sink;

    VTab &tab() { return *static_cast<VTab *>(pVtab); }
    bool eof() const { return listMode ? pos >= list.size() : run >= runs.size(); }
    uint64_t current() const { return listMode ? list[pos] : row; }
    void settle() // skips empty runs
    {
        while (!listMode && run < runs.size() && row >= runs[run].end) {
            ++run;
            if (run < runs.size())
                row = runs[run].begin;
        }
    }
    void setRuns(std::vector<RowRun> r)
    {
        listMode = false;
        runs = std::move(r);
        run = 0;
        row = runs.empty() ? 0 : runs[0].begin;
        settle();
    }
    void setList(std::span<const uint32_t> l)
    {
        listMode = true;
        list = l;
        pos = 0;
    }
};

std::string declaration(const ExportTable &t)
{
    std::string sql = "CREATE TABLE x(";
    for (size_t i = 0; i < t.columns.size(); ++i) {
        const ExportColumn &c = t.columns[i];
        sql += (i ? ", \"" : "\"") + c.name + "\"";
        if (!c.anyType)
            sql += c.type == CellType::Integer ? " INTEGER" : c.type == CellType::Real ? " REAL" : " TEXT";
        if (c.notNull)
            sql += " NOT NULL";
    }
    return sql + ")";
}

int xConnect(sqlite3 *db, void *aux, int, const char *const *, sqlite3_vtab **out, char **err)
{
    const auto *a = static_cast<const Aux *>(aux);
    auto *tab = new VTab;
    tab->tables = a->tables;
    tab->table = a->table;
    try {
        tab->rows = &a->tables->rows(a->table); // the derived tables are computed here, on first use
    } catch (const std::exception &e) {
        *err = sqlite3_mprintf("%s: %s", ExportRows::tableNames()[a->table].c_str(), e.what());
        delete tab;
        return SQLITE_ERROR;
    }
    // The declaration is a CREATE TABLE parsed through the connection's authorizer, which refuses
    // every CREATE: it lets this one through.
    *a->declaring = true;
    const int rc = sqlite3_declare_vtab(db, declaration(tab->rows->table()).c_str());
    *a->declaring = false;
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: %s", ExportRows::tableNames()[a->table].c_str(), sqlite3_errmsg(db));
        delete tab;
        return rc;
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    *out = tab;
    return SQLITE_OK;
}

int xDisconnect(sqlite3_vtab *v)
{
    delete static_cast<VTab *>(v);
    return SQLITE_OK;
}

int xBestIndex(sqlite3_vtab *v, sqlite3_index_info *info)
{
    VTab &tab = *static_cast<VTab *>(v);
    ExportRows &rows = *tab.rows;
    const RowKeys k = rows.keys();
    const double n = double(std::max<uint64_t>(1, rows.size()));
    int id = -1, track = -1, low = -1, high = -1, name = -1, set = -1, from = -1, to = -1;
    int plan = 0;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto &c = info->aConstraint[i];
        if (!c.usable || c.iColumn < 0)
            continue;
        const int col = c.iColumn;
        if (c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
            if (col == k.id && id < 0)
                id = i;
            else if (col == k.track && track < 0)
                track = i;
            else if (col == k.name && name < 0 && std::strcmp(sqlite3_vtab_collation(info, i), "BINARY") == 0)
                name = i;
            else if (col == k.argSet && set < 0)
                set = i;
            else if (col == k.fromSlice && from < 0)
                from = i;
            else if (col == k.toSlice && to < 0)
                to = i;
        } else if (col == k.ts && (c.op == SQLITE_INDEX_CONSTRAINT_GT || c.op == SQLITE_INDEX_CONSTRAINT_GE) && low < 0) {
            low = i;
            plan |= c.op == SQLITE_INDEX_CONSTRAINT_GT ? kTsLowStrict : 0;
        } else if (col == k.ts && (c.op == SQLITE_INDEX_CONSTRAINT_LT || c.op == SQLITE_INDEX_CONSTRAINT_LE) && high < 0) {
            high = i;
            plan |= c.op == SQLITE_INDEX_CONSTRAINT_LT ? kTsHighStrict : 0;
        }
    }
    const int strict = plan & (kTsLowStrict | kTsHighStrict);
    const bool ts = (low >= 0 || high >= 0) && rows.tsSorted();
    double estimate = n;
    double cost = n;
    plan = 0;
    if (id >= 0) {
        plan = kId;
        estimate = cost = 1;
        info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    } else if (set >= 0) {
        plan = kArgSet;
        estimate = 8;
        cost = 8 + std::log2(n);
    } else if (from >= 0 || to >= 0) {
        plan = from >= 0 ? kFrom : kTo;
        estimate = 2;
        cost = 2 + std::log2(n);
    } else if (track >= 0) {
        plan = kTrack;
        estimate = n / std::max<uint32_t>(1, rows.trackCount());
        if (ts)
            estimate /= (low >= 0 && high >= 0) ? 16 : 4;
        cost = estimate + std::log2(n);
    } else if (name >= 0) {
        plan = kName;
        estimate = n / 50 + 1;
        cost = estimate + std::log2(n);
    } else if (ts) {
        estimate = n / ((low >= 0 && high >= 0) ? 16 : 4);
        cost = estimate + 20.0 * std::max<uint32_t>(1, rows.trackCount());
    }
    // A ts range narrows one track's run or every track's.
    if (ts && (plan == kTrack || plan == 0))
        plan |= (low >= 0 ? kTsLow | (strict & kTsLowStrict) : 0) | (high >= 0 ? kTsHigh | (strict & kTsHighStrict) : 0);
    // ORDER BY name / GROUP BY name (sqlite3_vtab_distinct 1: grouped is enough) from the name index.
    if ((plan == 0 || plan == kName) && k.name >= 0 && info->nOrderBy == 1 && info->aOrderBy[0].iColumn == k.name
        && !info->aOrderBy[0].desc && sqlite3_vtab_distinct(info) <= 1) {
        plan |= kNameOrder;
        info->orderByConsumed = 1;
    }
    int arg = 0;
    for (int i : {plan & kId ? id : -1, plan & kTrack ? track : -1, plan & kTsLow ? low : -1, plan & kTsHigh ? high : -1,
                  plan & kName ? name : -1, plan & kArgSet ? set : -1, plan & kFrom ? from : -1, plan & kTo ? to : -1})
        if (i >= 0)
            info->aConstraintUsage[i].argvIndex = ++arg;
    info->idxNum = plan;
    info->estimatedRows = sqlite3_int64(estimate);
    info->estimatedCost = cost;
    return SQLITE_OK;
}

// An integer key value: INTEGER, or a REAL holding an integer. Anything else cannot use the key.
bool integral(sqlite3_value *v, int64_t &out)
{
    if (sqlite3_value_type(v) == SQLITE_INTEGER) {
        out = sqlite3_value_int64(v);
        return true;
    }
    if (sqlite3_value_type(v) == SQLITE_FLOAT) {
        const double d = sqlite3_value_double(v);
        if (d == std::floor(d) && d >= -9.2e18 && d <= 9.2e18) {
            out = int64_t(d);
            return true;
        }
    }
    return false;
}

// The smallest (lower) or largest (upper) integer ts that passes `ts > v` / `ts >= v` / `ts < v` /
// `ts <= v`; nullopt when the value cannot narrow (text, NULL, out of range: SQLite decides per row).
std::optional<int64_t> bound(sqlite3_value *v, bool lower, bool strict)
{
    double d;
    if (sqlite3_value_type(v) == SQLITE_INTEGER) {
        const int64_t i = sqlite3_value_int64(v);
        if (!strict)
            return i;
        if (lower)
            return i == std::numeric_limits<int64_t>::max() ? std::nullopt : std::optional<int64_t>(i + 1);
        return i == std::numeric_limits<int64_t>::min() ? std::nullopt : std::optional<int64_t>(i - 1);
    }
    if (sqlite3_value_type(v) != SQLITE_FLOAT)
        return std::nullopt;
    d = sqlite3_value_double(v);
    if (!(d > -9.2e18 && d < 9.2e18))
        return std::nullopt;
    if (lower)
        return strict ? int64_t(std::floor(d)) + 1 : int64_t(std::ceil(d));
    return strict ? int64_t(std::ceil(d)) - 1 : int64_t(std::floor(d));
}

// `run` narrowed to the rows with low <= ts <= high (ts ascending within it).
RowRun narrow(const ExportRows &rows, RowRun run, std::optional<int64_t> low, std::optional<int64_t> high)
{
    auto firstWhere = [&rows](uint64_t b, uint64_t e, auto pred) { // first row in [b, e) where pred holds
        while (b < e) {
            const uint64_t mid = b + (e - b) / 2;
            if (pred(rows.tsOf(mid)))
                e = mid;
            else
                b = mid + 1;
        }
        return b;
    };
    if (low)
        run.begin = firstWhere(run.begin, run.end, [&](int64_t t) { return t >= *low; });
    if (high)
        run.end = firstWhere(run.begin, run.end, [&](int64_t t) { return t > *high; });
    return run;
}

int xOpen(sqlite3_vtab *, sqlite3_vtab_cursor **out)
{
    *out = new Cursor;
    return SQLITE_OK;
}

int xClose(sqlite3_vtab_cursor *c)
{
    delete static_cast<Cursor *>(c);
    return SQLITE_OK;
}

int xFilter(sqlite3_vtab_cursor *cur, int plan, const char *, int argc, sqlite3_value **argv)
{
    Cursor &c = *static_cast<Cursor *>(cur);
    VTab &tab = c.tab();
    ExportRows &rows = *tab.rows;
    int a = 0;
    auto next = [&]() { return a < argc ? argv[a++] : nullptr; };
    const std::vector<RowRun> whole = {RowRun{0, rows.size()}};
    try {
        if (plan & kId) {
            int64_t id = 0;
            if (!integral(next(), id)) {
                c.setRuns(whole);
            } else {
                const uint64_t r = rows.rowOfId(id);
                c.setRuns(r == ExportRows::kNoRow ? std::vector<RowRun>{} : std::vector<RowRun>{{r, r + 1}});
            }
            return SQLITE_OK;
        }
        if (plan & (kArgSet | kFrom | kTo)) {
            int64_t key = 0;
            if (!integral(next(), key)) {
                c.setRuns(whole);
            } else if (key < 0 || key >= int64_t(UINT32_MAX)) {
                c.setRuns({});
            } else if (plan & kArgSet) {
                c.setRuns({rows.argSetRows(uint32_t(key))});
            } else {
                c.owned.clear();
                for (uint64_t r : rows.flowRows((plan & kFrom) != 0, uint32_t(key)))
                    c.owned.push_back(uint32_t(r));
                c.setList(c.owned);
            }
            return SQLITE_OK;
        }
        std::optional<uint32_t> track;
        bool noTrack = false;
        if (plan & kTrack) {
            int64_t t = 0;
            if (integral(next(), t)) {
                if (t >= 0 && t < int64_t(rows.trackCount()))
                    track = uint32_t(t);
                else
                    noTrack = true;
            }
        }
        std::optional<int64_t> low, high;
        if (plan & kTsLow)
            low = bound(next(), true, plan & kTsLowStrict);
        if (plan & kTsHigh)
            high = bound(next(), false, plan & kTsHighStrict);
        if (plan & (kName | kNameOrder)) {
            sqlite3_value *v = plan & kName ? next() : nullptr;
            if (v && sqlite3_value_type(v) == SQLITE_TEXT) {
                const auto *bytes = reinterpret_cast<const char *>(sqlite3_value_text(v));
                const std::string_view text(bytes ? bytes : "", size_t(sqlite3_value_bytes(v)));
                const StringId id = tab.tables->trace().strings().find(text);
                c.setList(id.isValid() ? tab.tables->names(tab.table).rowsNamed(id) : std::span<const uint32_t>());
            } else if (plan & kNameOrder) {
                c.setList(tab.tables->names(tab.table).all());
            } else {
                c.setRuns(whole);
            }
            return SQLITE_OK;
        }
        if (noTrack) {
            c.setRuns({});
        } else if (track) {
            c.setRuns({narrow(rows, rows.trackRows(*track), low, high)});
        } else if (low || high) {
            std::vector<RowRun> runs;
            for (uint32_t t = 0; t < rows.trackCount(); ++t) {
                const RowRun r = narrow(rows, rows.trackRows(t), low, high);
                if (r.begin < r.end)
                    runs.push_back(r);
            }
            c.setRuns(std::move(runs));
        } else {
            c.setRuns(whole);
        }
    } catch (const std::bad_alloc &) {
        return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

int xNext(sqlite3_vtab_cursor *cur)
{
    Cursor &c = *static_cast<Cursor *>(cur);
    if (c.listMode) {
        ++c.pos;
    } else {
        ++c.row;
        c.settle();
    }
    return SQLITE_OK;
}

int xEof(sqlite3_vtab_cursor *cur) { return static_cast<Cursor *>(cur)->eof() ? 1 : 0; }

int xColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int column)
{
    Cursor &c = *static_cast<Cursor *>(cur);
    c.sink.ctx = ctx;
    c.tab().rows->cell(c.current(), column, c.sink);
    return SQLITE_OK;
}

int xRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
    *out = sqlite3_int64(static_cast<Cursor *>(cur)->current());
    return SQLITE_OK;
}

const sqlite3_module &module()
{
    static const sqlite3_module m = [] {
        sqlite3_module x{};
        x.iVersion = 1;
        x.xCreate = nullptr; // eponymous only: the table exists under the module's name, nobody creates it
        x.xConnect = xConnect;
        x.xBestIndex = xBestIndex;
        x.xDisconnect = xDisconnect;
        x.xDestroy = xDisconnect;
        x.xOpen = xOpen;
        x.xClose = xClose;
        x.xFilter = xFilter;
        x.xNext = xNext;
        x.xEof = xEof;
        x.xColumn = xColumn;
        x.xRowid = xRowid;
        return x;
    }();
    return m;
}

} // namespace

bool registerAll(sqlite3 *db, QueryTables &tables, bool *declaring, std::string *error)
{
    const auto &names = ExportRows::tableNames();
    for (size_t i = 0; i < names.size(); ++i) {
        auto *aux = new Aux{&tables, i, declaring};
        const int rc = sqlite3_create_module_v2(db, names[i].c_str(), &module(), aux,
                                                [](void *p) { delete static_cast<Aux *>(p); });
        if (rc != SQLITE_OK) {
            if (error)
                *error = names[i] + ": " + sqlite3_errmsg(db);
            return false;
        }
    }
    return true;
}

} // namespace lanescope::tablemodule
