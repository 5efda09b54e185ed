#pragma once
// A query's result as a timeline lane (issue 48: Perfetto's "debug track"): every row with a `ts`
// becomes an item at that time, a slice of `dur` ns when the result has a `dur` column and the row a
// non-negative value in it, else an instant. Optional columns: `name` (the item's label), `id` (a slice
// id of the trace: the item then points at that slice, and a click selects it) and `track_id`. Column
// names match case-insensitively (SQLite keeps `s.ts` as "ts"); times are absolute ns as in the Trace,
// i.e. the units of docs/sqlite-schema.md. Rows whose `ts` is NULL (or not a number) are skipped and
// counted. Overlapping items are stacked into rows when the lane is built (packRows(): greedy interval
// packing in start order, each item in the first row that is free at its start), so nested slices or
// slices of several tracks in one result do not cover each other. Pure computation: the Query dock
// builds lanes with it, the strip over the timeline draws them (widgets/timeline/querylanesstrip.h).
#include "util/tablecolumn.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lanescope {

struct QueryLaneItem
{
    int64_t ts = 0;
    int64_t dur = -1;        // -1: an instant
    uint32_t name = 0;       // index into QueryLane::names (0: "")
    uint32_t row = 0;        // the lane's row it is drawn in (QueryLane::packRows)
    int64_t sliceId = -1;    // the row's `id`, -1 without one
    int64_t trackId = -1;    // the row's `track_id`, -1 without one

    bool instant() const { return dur < 0; }
    int64_t end() const { return dur < 0 ? ts : ts + dur; }
};

struct QueryLane
{
    std::string title;
    std::string sql;
    std::vector<std::string> names{std::string()}; // distinct labels; items refer to them by index
    std::vector<QueryLaneItem> items;               // sorted by ts, then the longer first
    uint64_t skippedNullTs = 0;                     // rows without a usable ts
    uint64_t rowsRead = 0;                          // rows given to the builder
    bool truncated = false;                         // more rows than kMaxItems: the first ones kept
    bool hasDur = false, hasName = false, hasId = false, hasTrackId = false;
    int64_t startNs = 0, endNs = 0;                 // the items' extent (0, 0 without items)

    const std::string &nameOf(const QueryLaneItem &item) const { return names[item.name]; }
    // Items whose time overlaps [t0, t1] (an instant: t0 <= ts <= t1), as an index range into items;
    // items longer than the longest seen end are not missed (the search starts maxDur before t0).
    std::pair<size_t, size_t> overlapping(int64_t t0, int64_t t1) const;
    int64_t maxDur = 0;

    // Rows: items that overlap in time are in different rows. An item goes to the lowest row whose
    // last item ends at or before its start (a slice [ts, ts + dur) ends where the next may begin; an
    // instant or a zero-length slice takes a row free at its ts), so a row never holds two overlapping
    // items and the row count is the most items open at one time. Instants-only lanes have one row.
    uint32_t rowCount = 0;               // 0 without items
    std::vector<uint32_t> rowItems;      // item indices grouped by row, in ts order within a row
    std::vector<uint32_t> rowBegin;      // row r's items: rowItems[rowBegin[r], rowBegin[r + 1])
    // Items of row `row` whose time overlaps [t0, t1], as a position range into rowItems (exact: a
    // row's items do not overlap, so their ends are in order too).
    std::pair<size_t, size_t> overlappingInRow(uint32_t row, int64_t t0, int64_t t1) const;
    const QueryLaneItem &rowItem(size_t position) const { return items[rowItems[position]]; }
    // Sets every item's row and the row index; items must be sorted as `items` is. O(n log rows).
    void packRows();
};

// Feeds a lane one row at a time (a run()'s sink or a page of fetched rows).
class QueryLaneBuilder
{
public:
    static constexpr size_t kMaxItems = 2'000'000; // a pinned lane holds its items; past this, stop

    // False with `error` when the result cannot be a lane ("no ts column: a query lane needs ..."),
    // which also says what the result's columns are.
    bool begin(const std::vector<std::string> &columns, std::string *error);
    // False once kMaxItems items are held (the lane is then truncated).
    bool add(const std::vector<Cell> &row);
    // The lane, items sorted; the builder starts over.
    QueryLane finish(std::string title, std::string sql);

    // The column index of `name` in `columns` (case-insensitive), -1 when absent.
    static int column(const std::vector<std::string> &columns, const char *name);
    // A cell as an integer: integers as they are, reals rounded, text that is a whole decimal number;
    // false for NULL and anything else.
    static bool integerOf(const Cell &cell, int64_t &out);

    // Whether a result with these columns can be pinned (it has ts).
    static bool canPin(const std::vector<std::string> &columns) { return column(columns, "ts") >= 0; }

private:
    QueryLane m_lane;
    int m_ts = -1, m_dur = -1, m_name = -1, m_id = -1, m_track = -1;
    std::unordered_map<std::string, uint32_t> m_nameIndex; // label -> index into names
};

} // namespace lanescope
