// The export's per-track event tables read from the model in place: slices, instants, counters.
// Rows are numbered track after track in track-id order (the export's order), each track's events in
// the model's order (by ts); usually that is the model's own order, so a row is the event's index.
#include "exportrowsmakers.h"

#include "model/trace.h"

#include <algorithm>

namespace lanescope::exportrows {

namespace {

constexpr CellType I = CellType::Integer;
constexpr CellType R = CellType::Real;
constexpr CellType T = CellType::Text;

const char *scopeName(InstantScope s)
{
    switch (s) {
    case InstantScope::Thread: return "thread";
    case InstantScope::Process: return "process";
    case InstantScope::Global: return "global";
    }
    return "thread";
}

// Rows track after track over a model array whose tracks each hold a run [begin, begin + count).
class TrackRuns
{
public:
    template <typename Begin, typename Count> TrackRuns(const Trace &t, Begin begin, Count count)
    {
        const auto tracks = t.tracks();
        m_start.resize(tracks.size() + 1, 0);
        bool identity = true;
        for (size_t i = 0; i < tracks.size(); ++i) {
            m_start[i + 1] = m_start[i] + count(tracks[i]);
            identity = identity && (count(tracks[i]) == 0 || begin(tracks[i]) == m_start[i]);
        }
        if (identity)
            return;
        // Tracks whose runs are not in track order (none of today's importers): explicit maps.
        m_toIndex.resize(m_start.back());
        for (size_t i = 0; i < tracks.size(); ++i)
            for (uint32_t k = 0; k < count(tracks[i]); ++k)
                m_toIndex[m_start[i] + k] = begin(tracks[i]) + k;
        m_toRow.assign(m_start.back(), UINT32_MAX);
        for (uint32_t r = 0; r < m_toIndex.size(); ++r)
            if (m_toIndex[r] < m_toRow.size())
                m_toRow[m_toIndex[r]] = r;
    }

    uint64_t size() const { return m_start.back(); }
    uint32_t index(uint64_t row) const { return m_toIndex.empty() ? uint32_t(row) : m_toIndex[row]; }
    uint64_t row(uint64_t index) const
    {
        if (index >= size())
            return ExportRows::kNoRow;
        return m_toRow.empty() ? index : (m_toRow[index] == UINT32_MAX ? ExportRows::kNoRow : m_toRow[index]);
    }
    RowRun track(uint32_t t) const { return t + 1 < m_start.size() ? RowRun{m_start[t], m_start[t + 1]} : RowRun{}; }
    uint32_t trackCount() const { return uint32_t(m_start.size() - 1); }
    // The track of a row, starting the search at `hint` (sequential reads move forward).
    uint32_t trackOf(uint64_t row, uint32_t &hint) const
    {
        if (hint < trackCount() && m_start[hint] <= row && row < m_start[hint + 1])
            return hint;
        const auto it = std::upper_bound(m_start.begin(), m_start.end(), row);
        hint = uint32_t(it - m_start.begin() - 1);
        return hint;
    }

private:
    std::vector<uint64_t> m_start;    // first row of each track, then the row count
    std::vector<uint32_t> m_toIndex;  // row -> model index, empty when equal
    std::vector<uint32_t> m_toRow;    // model index -> row, empty when equal
};

template <typename F> bool eachTrackSorted(const TrackRuns &runs, F tsOfRow)
{
    for (uint32_t t = 0; t < runs.trackCount(); ++t) {
        const RowRun r = runs.track(t);
        for (uint64_t i = r.begin + 1; i < r.end; ++i)
            if (tsOfRow(i) < tsOfRow(i - 1))
                return false;
    }
    return true;
}

// A table of one kind of per-track event (slices, instants, counter samples): rows in track order
// (TrackRuns), the track of a row, per-track row runs and whether every run is sorted by ts (checked
// once, on first use) for the SQL engine's ts-range lookups. Subclasses give the columns and tsOf.
class TrackEventRows : public ExportRows
{
public:
    template <typename Begin, typename Count>
    TrackEventRows(ExportTable table, const Trace &t, Begin begin, Count count)
        : ExportRows(std::move(table)), m_t(t), m_runs(t, begin, count)
    {
    }

    uint64_t size() const override { return m_runs.size(); }
    RowRun trackRows(uint32_t t) const override { return m_runs.track(t); }
    // A row's id is its record's index in the trace (a slice or instant id), whatever the row order.
    uint64_t rowOfId(int64_t id) const override { return id < 0 ? kNoRow : m_runs.row(uint64_t(id)); }
    uint32_t trackCount() const override { return m_runs.trackCount(); }
    bool tsSorted() const override
    {
        if (m_sorted < 0)
            m_sorted = eachTrackSorted(m_runs, [this](uint64_t r) { return tsOf(r); }) ? 1 : 0;
        return m_sorted == 1;
    }

protected:
    const Trace &m_t;
    TrackRuns m_runs;
    uint32_t m_trackHint = 0;

private:
    mutable int m_sorted = -1;
};

class SliceRows : public TrackEventRows
{
public:
    explicit SliceRows(const Trace &t)
        : TrackEventRows({"slices",
                      {column("id", I, false, "PRIMARY KEY"), column("track_id", I, true, "REFERENCES tracks(id)"),
                       column("ts", I, true), column("dur", I, true), column("name", T, true), column("category", T, true),
                       column("depth", I, true), column("parent_id", I, false, "REFERENCES slices(id)"),
                       column("arg_set_id", I, false), column("flags", I, true)}},
                         t, [](const Track &tr) { return tr.sliceBegin; }, [](const Track &tr) { return tr.sliceCount; })
    {
    }

    void cell(uint64_t row, int c, CellSink &s) override
    {
        const uint32_t id = m_runs.index(row);
        const Slice &sl = m_t.allSlices()[id];
        switch (c) {
        case 0: s.i64(c, id); break;
        case 1: s.i64(c, m_runs.trackOf(row, m_trackHint)); break;
        case 2: s.i64(c, sl.start); break;
        case 3: s.i64(c, sl.duration); break;
        case 4: s.text(c, m_t.str(sl.name)); break;
        case 5: s.text(c, m_t.str(sl.category)); break;
        case 6: s.i64(c, sl.depth); break;
        case 7: optionalId(s, c, parent(row)); break;
        case 8: optionalId(s, c, sl.args.value); break;
        case 9: s.i64(c, sl.flags); break;
        default: s.null(c);
        }
    }

    RowKeys keys() const override { return {.id = 0, .track = 1, .ts = 2, .name = 4}; }
    int64_t tsOf(uint64_t row) const override { return m_t.allSlices()[m_runs.index(row)].start; }
    StringId nameOf(uint64_t row) const override { return m_t.allSlices()[m_runs.index(row)].name; }

private:
    // The enclosing slice on the same track: the latest slice one level up before this one, when it
    // has not ended before this one starts (slices are sorted by start, enclosing ones first); async
    // rows are not nesting. Computed for every slice the first time a parent is asked for.
    uint32_t parent(uint64_t row)
    {
        if (m_parents.empty() && size() > 0) {
            m_parents.assign(size(), UINT32_MAX);
            std::vector<uint32_t> lastAtDepth;
            for (uint32_t ti = 0; ti < m_runs.trackCount(); ++ti) {
                const Track &tr = m_t.tracks()[ti];
                const RowRun run = m_runs.track(ti);
                lastAtDepth.assign(size_t(tr.maxDepth) + 2, UINT32_MAX);
                for (uint64_t r = run.begin; r < run.end; ++r) {
                    const uint32_t id = m_runs.index(r);
                    const Slice &s = m_t.allSlices()[id];
                    if (tr.kind == TrackKind::Slices && s.depth > 0 && s.depth < lastAtDepth.size()) {
                        const uint32_t p = lastAtDepth[s.depth - 1];
                        if (p != UINT32_MAX && m_t.allSlices()[p].end() >= s.start)
                            m_parents[r] = p;
                    }
                    if (s.depth < lastAtDepth.size())
                        lastAtDepth[s.depth] = id;
                }
            }
        }
        return m_parents[row];
    }

    std::vector<uint32_t> m_parents; // by row
};

class InstantRows : public TrackEventRows
{
public:
    explicit InstantRows(const Trace &t)
        : TrackEventRows({"instants",
                      {column("id", I, false, "PRIMARY KEY"), column("track_id", I, true, "REFERENCES tracks(id)"),
                       column("ts", I, true), column("name", T, true), column("category", T, true), column("scope", T, true),
                       column("arg_set_id", I, false)}},
                         t, [](const Track &tr) { return tr.instantBegin; }, [](const Track &tr) { return tr.instantCount; })
    {
    }

    void cell(uint64_t row, int c, CellSink &s) override
    {
        const uint32_t id = m_runs.index(row);
        const Instant &in = m_t.allInstants()[id];
        switch (c) {
        case 0: s.i64(c, id); break;
        case 1: s.i64(c, m_runs.trackOf(row, m_trackHint)); break;
        case 2: s.i64(c, in.ts); break;
        case 3: s.text(c, m_t.str(in.name)); break;
        case 4: s.text(c, m_t.str(in.category)); break;
        case 5: s.text(c, scopeName(in.scope)); break;
        case 6: optionalId(s, c, in.args.value); break;
        default: s.null(c);
        }
    }

    RowKeys keys() const override { return {.id = 0, .track = 1, .ts = 2, .name = 3}; }
    int64_t tsOf(uint64_t row) const override { return m_t.allInstants()[m_runs.index(row)].ts; }
    StringId nameOf(uint64_t row) const override { return m_t.allInstants()[m_runs.index(row)].name; }

};

class CounterRows : public TrackEventRows
{
public:
    explicit CounterRows(const Trace &t)
        : TrackEventRows({"counters",
                      {column("track_id", I, true, "REFERENCES tracks(id)"), column("ts", I, true), column("value", R, true)}},
                         t, [](const Track &tr) { return tr.counterBegin; }, [](const Track &tr) { return tr.counterCount; })
    {
    }

    void cell(uint64_t row, int c, CellSink &s) override
    {
        const CounterSample &cs = m_t.allCounterSamples()[m_runs.index(row)];
        switch (c) {
        case 0: s.i64(c, m_runs.trackOf(row, m_trackHint)); break;
        case 1: s.i64(c, cs.ts); break;
        case 2: s.real(c, cs.value); break;
        default: s.null(c);
        }
    }

    RowKeys keys() const override { return {.track = 0, .ts = 1}; }
    int64_t tsOf(uint64_t row) const override { return m_t.allCounterSamples()[m_runs.index(row)].ts; }
};

} // namespace

std::unique_ptr<ExportRows> slices(const Trace &t) { return std::make_unique<SliceRows>(t); }
std::unique_ptr<ExportRows> instants(const Trace &t) { return std::make_unique<InstantRows>(t); }
std::unique_ptr<ExportRows> counters(const Trace &t) { return std::make_unique<CounterRows>(t); }

} // namespace lanescope::exportrows
