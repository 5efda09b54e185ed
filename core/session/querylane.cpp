#include "querylane.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

namespace lanescope {

namespace {

bool sameName(const std::string &a, const char *b)
{
    size_t i = 0;
    for (; i < a.size() && b[i]; ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return i == a.size() && !b[i];
}

std::string labelOf(const Cell &cell)
{
    if (const auto *s = std::get_if<std::string>(&cell))
        return *s;
    if (const auto *i = std::get_if<int64_t>(&cell))
        return std::to_string(*i);
    if (const auto *d = std::get_if<double>(&cell)) {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, *d);
        return std::string(buf, r.ptr);
    }
    return {};
}

} // namespace

int QueryLaneBuilder::column(const std::vector<std::string> &columns, const char *name)
{
    for (size_t i = 0; i < columns.size(); ++i)
        if (sameName(columns[i], name))
            return int(i);
    return -1;
}

bool QueryLaneBuilder::integerOf(const Cell &cell, int64_t &out)
{
    if (const auto *i = std::get_if<int64_t>(&cell)) {
        out = *i;
        return true;
    }
    if (const auto *d = std::get_if<double>(&cell)) {
        if (!std::isfinite(*d) || std::fabs(*d) > 9.2e18)
            return false;
        out = std::llround(*d);
        return true;
    }
    if (const auto *s = std::get_if<std::string>(&cell)) {
        const char *b = s->data(), *e = s->data() + s->size();
        const auto r = std::from_chars(b, e, out);
        return r.ec == std::errc() && r.ptr == e && b != e;
    }
    return false;
}

bool QueryLaneBuilder::begin(const std::vector<std::string> &columns, std::string *error)
{
    m_lane = QueryLane();
    m_nameIndex.clear();
    m_ts = column(columns, "ts");
    m_dur = column(columns, "dur");
    m_name = column(columns, "name");
    m_id = column(columns, "id");
    m_track = column(columns, "track_id");
    if (m_ts < 0) {
        if (error) {
            std::string have;
            for (const std::string &c : columns)
                have += (have.empty() ? "" : ", ") + c;
            *error = "no ts column: a query lane needs ts (ns, as slices.ts), and dur for slices (without it every "
                     "row is an instant); optional name, id (a slice id), track_id. The result has: "
                + (have.empty() ? std::string("no columns") : have);
        }
        return false;
    }
    m_lane.hasDur = m_dur >= 0;
    m_lane.hasName = m_name >= 0;
    m_lane.hasId = m_id >= 0;
    m_lane.hasTrackId = m_track >= 0;
    return true;
}

bool QueryLaneBuilder::add(const std::vector<Cell> &row)
{
    if (m_ts < 0)
        return false;
    if (m_lane.items.size() >= kMaxItems) {
        m_lane.truncated = true;
        return false;
    }
    ++m_lane.rowsRead;
    QueryLaneItem item;
    if (size_t(m_ts) >= row.size() || !integerOf(row[size_t(m_ts)], item.ts)) {
        ++m_lane.skippedNullTs;
        return true;
    }
    int64_t v = 0;
    if (m_dur >= 0 && size_t(m_dur) < row.size() && integerOf(row[size_t(m_dur)], v) && v >= 0)
        item.dur = v;
    if (m_id >= 0 && size_t(m_id) < row.size() && integerOf(row[size_t(m_id)], v) && v >= 0)
        item.sliceId = v;
    if (m_track >= 0 && size_t(m_track) < row.size() && integerOf(row[size_t(m_track)], v) && v >= 0)
        item.trackId = v;
    if (m_name >= 0 && size_t(m_name) < row.size()) {
        std::string label = labelOf(row[size_t(m_name)]);
        if (!label.empty()) {
            const auto [it, inserted] = m_nameIndex.try_emplace(std::move(label), uint32_t(m_lane.names.size()));
            if (inserted)
                m_lane.names.push_back(it->first);
            item.name = it->second;
        }
    }
    m_lane.items.push_back(item);
    return true;
}

QueryLane QueryLaneBuilder::finish(std::string title, std::string sql)
{
    QueryLane lane = std::move(m_lane);
    lane.title = std::move(title);
    lane.sql = std::move(sql);
    // By start, and of two that start together the longer first: an enclosing slice gets the upper row.
    std::stable_sort(lane.items.begin(), lane.items.end(), [](const QueryLaneItem &a, const QueryLaneItem &b) {
        return a.ts != b.ts ? a.ts < b.ts : a.end() > b.end();
    });
    if (!lane.items.empty()) {
        lane.startNs = lane.items.front().ts;
        lane.endNs = lane.items.front().end();
        for (const QueryLaneItem &i : lane.items) {
            lane.endNs = std::max(lane.endNs, i.end());
            lane.maxDur = std::max(lane.maxDur, std::max<int64_t>(i.dur, 0));
        }
    }
    lane.packRows();
    m_lane = QueryLane();
    m_nameIndex.clear();
    m_ts = m_dur = m_name = m_id = m_track = -1;
    return lane;
}

std::pair<size_t, size_t> QueryLane::overlapping(int64_t t0, int64_t t1) const
{
    const int64_t from = t0 > std::numeric_limits<int64_t>::min() + maxDur ? t0 - maxDur : t0;
    const auto lo = std::lower_bound(items.begin(), items.end(), from, [](const QueryLaneItem &i, int64_t t) { return i.ts < t; });
    const auto hi = std::upper_bound(lo, items.end(), t1, [](int64_t t, const QueryLaneItem &i) { return t < i.ts; });
    return {size_t(lo - items.begin()), size_t(hi - items.begin())};
}

void QueryLane::packRows()
{
    rowCount = 0;
    rowItems.clear();
    rowBegin.assign(1, 0);
    // In start order a row free at one item's start stays free for every later item until it is
    // given one, so the free rows are a set (the lowest is taken) and the busy ones a queue by end.
    using Busy = std::pair<int64_t, uint32_t>; // (end of the row's last item, row)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> idle;
    std::vector<uint32_t> perRow;
    for (QueryLaneItem &item : items) {
        while (!busy.empty() && busy.top().first <= item.ts) {
            idle.push(busy.top().second);
            busy.pop();
        }
        if (idle.empty()) {
            item.row = rowCount++;
            perRow.push_back(0);
        } else {
            item.row = idle.top();
            idle.pop();
        }
        ++perRow[item.row];
        busy.push({item.end(), item.row});
    }
    rowBegin.resize(size_t(rowCount) + 1);
    for (uint32_t r = 0; r < rowCount; ++r)
        rowBegin[r + 1] = rowBegin[r] + perRow[r];
    rowItems.resize(items.size());
    std::vector<uint32_t> next(rowBegin.begin(), rowBegin.end() - 1);
    for (size_t i = 0; i < items.size(); ++i)
        rowItems[next[items[i].row]++] = uint32_t(i);
}

std::pair<size_t, size_t> QueryLane::overlappingInRow(uint32_t row, int64_t t0, int64_t t1) const
{
    if (row >= rowCount)
        return {0, 0};
    const auto b = rowItems.begin() + rowBegin[row], e = rowItems.begin() + rowBegin[row + 1];
    const auto lo = std::lower_bound(b, e, t0, [this](uint32_t i, int64_t t) { return items[i].end() < t; });
    const auto hi = std::upper_bound(lo, e, t1, [this](int64_t t, uint32_t i) { return t < items[i].ts; });
    return {size_t(lo - rowItems.begin()), size_t(hi - rowItems.begin())};
}

} // namespace lanescope
