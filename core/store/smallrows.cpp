// The export's small tables (meta, strings, files, groups, tracks, warnings, notes) read from the
// trace in place; rows held as cells (meta's, the derived tables' of derivedrows.cpp).
#include "exportrowsmakers.h"

#include "model/trace.h"

#include <algorithm>
#include <string>
#include <utility>

namespace lanescope::exportrows {

namespace {

constexpr CellType I = CellType::Integer;
constexpr CellType T = CellType::Text;

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

void put(CellSink &s, int c, const Cell &v)
{
    if (const auto *i = std::get_if<int64_t>(&v))
        s.i64(c, *i);
    else if (const auto *d = std::get_if<double>(&v))
        s.real(c, *d);
    else if (const auto *t = std::get_if<std::string>(&v))
        s.text(c, *t);
    else
        s.null(c);
}

// Rows held as cells (meta's facts, the derived tables): text lives as long as the rows.
class CellRows : public ExportRows
{
public:
    CellRows(ExportTable table, std::vector<std::vector<Cell>> rows) : ExportRows(std::move(table)), m_rows(std::move(rows)) {}
    uint64_t size() const override { return m_rows.size(); }
    void cell(uint64_t row, int c, CellSink &s) override { put(s, c, m_rows[row][size_t(c)]); }

private:
    std::vector<std::vector<Cell>> m_rows;
};

// A table whose first column, id, is the row number (strings, groups, tracks): `id =` finds its row.
class RowIdRows : public ExportRows
{
public:
    using ExportRows::ExportRows;
    RowKeys keys() const override { return {.id = 0}; }
    uint64_t rowOfId(int64_t id) const override { return rowNumber(id); }
};

class StringRows : public RowIdRows
{
public:
    explicit StringRows(const Trace &t) : RowIdRows({"strings", {column("id", I, false, "PRIMARY KEY"), column("value", T, true)}}), m_t(t) {}
    uint64_t size() const override { return m_t.strings().size(); }
    void cell(uint64_t row, int c, CellSink &s) override
    {
        if (c == 0)
            s.i64(c, int64_t(row));
        else
            s.text(c, m_t.strings().view(StringId(uint32_t(row))));
    }

private:
    const Trace &m_t;
};

class FileRows : public ExportRows
{
public:
    explicit FileRows(const Trace &t) : ExportRows({"files", {column("path", T, true), column("status", T, true)}}), m_t(t) {}
    // A trace read from one file lists that file as loaded.
    uint64_t size() const override { return std::max<size_t>(1, m_t.metadata().files.size()); }
    void cell(uint64_t row, int c, CellSink &s) override
    {
        const TraceMetadata &md = m_t.metadata();
        if (md.files.empty()) {
            s.text(c, c == 0 ? std::string_view(md.sourcePath) : std::string_view("loaded"));
            return;
        }
        const FileReport &f = md.files[row];
        if (c == 0) {
            s.text(c, f.path);
        } else {
            m_status = f.text();
            s.scratchText(c, m_status);
        }
    }

private:
    const Trace &m_t;
    std::string m_status;
};

class GroupRows : public RowIdRows
{
public:
    explicit GroupRows(const Trace &t)
        : RowIdRows({"groups",
                      {column("id", I, false, "PRIMARY KEY"), column("parent_id", I, false, "REFERENCES groups(id)"),
                       column("kind", T, true), column("name", T, true), column("external_id", I, true), column("path", T, true)}}),
          m_t(t)
    {
    }
    uint64_t size() const override { return m_t.groups().size(); }
    void cell(uint64_t row, int c, CellSink &s) override
    {
        const TrackGroup &g = m_t.groups()[row];
        switch (c) {
        case 0: s.i64(c, int64_t(row)); break;
        case 1: optionalId(s, c, g.parent.value); break;
        case 2: s.text(c, groupKindName(g.kind)); break;
        case 3: s.text(c, m_t.str(g.name)); break;
        case 4: s.i64(c, g.externalId); break;
        case 5:
            m_path = m_t.groupPath(GroupId(uint32_t(row)));
            s.scratchText(c, m_path);
            break;
        default: s.null(c);
        }
    }

private:
    const Trace &m_t;
    std::string m_path;
};

class TrackRows : public RowIdRows
{
public:
    explicit TrackRows(const Trace &t)
        : RowIdRows({"tracks",
                      {column("id", I, false, "PRIMARY KEY"), column("group_id", I, false, "REFERENCES groups(id)"),
                       column("kind", T, true), column("name", T, true), column("path", T, true), column("external_id", I, true),
                       column("unit", T, false), column("max_depth", I, true), column("slice_count", I, true),
                       column("instant_count", I, true), column("counter_count", I, true)}}),
          m_t(t)
    {
    }
    uint64_t size() const override { return m_t.tracks().size(); }
    void cell(uint64_t row, int c, CellSink &s) override
    {
        const Track &tr = m_t.tracks()[row];
        switch (c) {
        case 0: s.i64(c, int64_t(row)); break;
        case 1: optionalId(s, c, tr.group.value); break;
        case 2: s.text(c, trackKindName(tr.kind)); break;
        case 3: s.text(c, m_t.str(tr.name)); break;
        case 4:
            m_path = m_t.trackPath(TrackId(uint32_t(row)));
            s.scratchText(c, m_path);
            break;
        case 5: s.i64(c, tr.externalId); break;
        case 6:
            if (tr.unit.isValid() && !m_t.str(tr.unit).empty())
                s.text(c, m_t.str(tr.unit));
            else
                s.null(c);
            break;
        case 7: s.i64(c, tr.maxDepth); break;
        case 8: s.i64(c, tr.sliceCount); break;
        case 9: s.i64(c, tr.instantCount); break;
        case 10: s.i64(c, tr.counterCount); break;
        default: s.null(c);
        }
    }

private:
    const Trace &m_t;
    std::string m_path;
};

class WarningRows : public ExportRows
{
public:
    explicit WarningRows(const Trace &t)
        : ExportRows({"warnings", {column("message", T, true), column("count", I, true), column("first_seen", T, false),
                                   column("severity", T, true)}}),
          m_t(t)
    {
    }
    uint64_t size() const override { return m_t.diagnostics().warnings().size(); }
    void cell(uint64_t row, int c, CellSink &s) override
    {
        const Warning &w = m_t.diagnostics().warnings()[row];
        switch (c) {
        case 0: s.text(c, w.message); break;
        case 1: s.i64(c, int64_t(w.count)); break;
        case 2:
            if (w.firstSeen.empty())
                s.null(c);
            else
                s.text(c, w.firstSeen);
            break;
        case 3: s.text(c, Diagnostics::severityName(w.severity)); break;
        default: s.null(c);
        }
    }

private:
    const Trace &m_t;
};

// The user's notes (docs/notes.md); an event note whose event is gone keeps its time, without slice_id.
class NoteRows : public ExportRows
{
public:
    explicit NoteRows(const std::vector<Annotation> &notes)
        : ExportRows({"notes",
                      {column("id", I, false, "PRIMARY KEY"), column("kind", T, true), column("ts", I, true),
                       column("end_ts", I, true), column("text", T, true), column("color", T, false),
                       column("slice_id", I, false, "REFERENCES slices(id)"), column("event_name", T, false)}}),
          m_notes(notes)
    {
    }
    uint64_t size() const override { return m_notes.size(); }
    void cell(uint64_t row, int c, CellSink &s) override
    {
        const Annotation &a = m_notes[row];
        const bool event = a.kind == Annotation::Kind::Event;
        switch (c) {
        case 0: s.i64(c, a.id); break;
        case 1: s.text(c, Annotation::kindName(a.kind)); break;
        case 2: s.i64(c, a.startNs); break;
        case 3: s.i64(c, a.endNs); break;
        case 4: s.text(c, a.text); break;
        case 5:
            if (a.color.empty())
                s.null(c);
            else
                s.text(c, a.color);
            break;
        case 6: optionalId(s, c, event && a.eventFound ? a.sliceId : UINT32_MAX); break;
        case 7:
            if (event)
                s.text(c, a.eventName);
            else
                s.null(c);
            break;
        default: s.null(c);
        }
    }

private:
    const std::vector<Annotation> &m_notes;
};

} // namespace

std::unique_ptr<ExportRows> meta(const Trace &t)
{
    std::vector<std::vector<Cell>> rows;
    auto add = [&rows](std::string key, Cell value) { rows.push_back({Cell(std::move(key)), std::move(value)}); };
    const TraceMetadata &md = t.metadata();
    add("schema_version", int64_t(ExportTables::kSchemaVersion));
    add("format", md.format);
    add("source_path", md.sourcePath);
    add("synthetic", int64_t(md.synthetic ? 1 : 0));
    add("start_ns", int64_t(t.startNs()));
    add("end_ns", int64_t(t.endNs()));
    add("events_read", int64_t(t.stats().eventsRead));
    add("bytes_read", int64_t(t.stats().bytesRead));
    for (const auto &[k, v] : md.entries)
        add("trace." + k, v);
    return std::make_unique<CellRows>(
        ExportTable{"meta", {column("key", T, false, "PRIMARY KEY"), ExportColumn{"value", T, false, true, {}}}}, std::move(rows));
}

std::unique_ptr<ExportRows> cellRows(ExportTable table, std::vector<std::vector<Cell>> rows)
{
    return std::make_unique<CellRows>(std::move(table), std::move(rows));
}

std::unique_ptr<ExportRows> strings(const Trace &t) { return std::make_unique<StringRows>(t); }
std::unique_ptr<ExportRows> files(const Trace &t) { return std::make_unique<FileRows>(t); }
std::unique_ptr<ExportRows> groups(const Trace &t) { return std::make_unique<GroupRows>(t); }
std::unique_ptr<ExportRows> tracks(const Trace &t) { return std::make_unique<TrackRows>(t); }
std::unique_ptr<ExportRows> warnings(const Trace &t) { return std::make_unique<WarningRows>(t); }
std::unique_ptr<ExportRows> notes(const std::vector<Annotation> &n) { return std::make_unique<NoteRows>(n); }

} // namespace lanescope::exportrows
