#include "querylane.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

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
    std::stable_sort(lane.items.begin(), lane.items.end(),
                     [](const QueryLaneItem &a, const QueryLaneItem &b) { return a.ts < b.ts; });
    if (!lane.items.empty()) {
        lane.startNs = lane.items.front().ts;
        lane.endNs = lane.items.front().end();
        for (const QueryLaneItem &i : lane.items) {
            lane.endNs = std::max(lane.endNs, i.end());
            lane.maxDur = std::max(lane.maxDur, std::max<int64_t>(i.dur, 0));
        }
    }
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

} // namespace lanescope
