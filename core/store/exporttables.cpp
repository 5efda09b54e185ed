#include "exporttables.h"

#include "analysis/enginebreakdown.h"
#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "analysis/tablerows.h"
#include "model/trace.h"

#include <limits>

namespace lanescope {

namespace {

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

constexpr CellType I = CellType::Integer;
constexpr CellType R = CellType::Real;
constexpr CellType T = CellType::Text;

ExportColumn col(const char *name, CellType type, bool notNull, const char *sql = "")
{
    return ExportColumn{name, type, notNull, false, sql};
}

// The tables with a fixed layout (docs/sqlite-schema.md); ops and engines come from their row descriptions.
const ExportTable kMeta{"meta", {col("key", T, false, "PRIMARY KEY"), ExportColumn{"value", T, false, true, {}}}};
const ExportTable kStrings{"strings", {col("id", I, false, "PRIMARY KEY"), col("value", T, true)}};
const ExportTable kFiles{"files", {col("path", T, true), col("status", T, true)}};
const ExportTable kGroups{"groups",
                          {col("id", I, false, "PRIMARY KEY"), col("parent_id", I, false, "REFERENCES groups(id)"),
                           col("kind", T, true), col("name", T, true), col("external_id", I, true), col("path", T, true)}};
const ExportTable kTracks{"tracks",
                          {col("id", I, false, "PRIMARY KEY"), col("group_id", I, false, "REFERENCES groups(id)"),
                           col("kind", T, true), col("name", T, true), col("path", T, true), col("external_id", I, true),
                           col("unit", T, false), col("max_depth", I, true), col("slice_count", I, true),
                           col("instant_count", I, true), col("counter_count", I, true)}};
const ExportTable kSlices{"slices",
                          {col("id", I, false, "PRIMARY KEY"), col("track_id", I, true, "REFERENCES tracks(id)"),
                           col("ts", I, true), col("dur", I, true), col("name", T, true), col("category", T, true),
                           col("depth", I, true), col("parent_id", I, false, "REFERENCES slices(id)"),
                           col("arg_set_id", I, false), col("flags", I, true)}};
const ExportTable kInstants{"instants",
                            {col("id", I, false, "PRIMARY KEY"), col("track_id", I, true, "REFERENCES tracks(id)"),
                             col("ts", I, true), col("name", T, true), col("category", T, true), col("scope", T, true),
                             col("arg_set_id", I, false)}};
const ExportTable kArgs{"args",
                        {col("arg_set_id", I, true), col("key", T, true), col("type", T, true),
                         ExportColumn{"value", T, false, true, {}}}};
const ExportTable kCounters{"counters",
                            {col("track_id", I, true, "REFERENCES tracks(id)"), col("ts", I, true), col("value", R, true)}};
const ExportTable kFlows{"flows",
                         {col("id", I, false, "PRIMARY KEY"), col("from_slice_id", I, false, "REFERENCES slices(id)"),
                          col("to_slice_id", I, false, "REFERENCES slices(id)"), col("name", T, true),
                          col("category", T, true), col("external_id", I, true)}};
const ExportTable kWarnings{"warnings",
                            {col("message", T, true), col("count", I, true), col("first_seen", T, false),
                             col("severity", T, true)}};
const ExportTable kNotes{"notes",
                         {col("id", I, false, "PRIMARY KEY"), col("kind", T, true), col("ts", I, true),
                          col("end_ts", I, true), col("text", T, true), col("color", T, false),
                          col("slice_id", I, false, "REFERENCES slices(id)"), col("event_name", T, false)}};

void optionalId(ExportSink &s, int c, uint32_t v)
{
    if (v == UINT32_MAX)
        s.null(c);
    else
        s.i64(c, v);
}

void cell(ExportSink &s, int c, const Cell &v)
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

// A table from its row description (core/analysis/tablerows.h): the columns marked for file exports.
template <typename Row, typename Rows>
bool describedTable(ExportSink &s, const char *name, const RowDescription<Row> &columns, const Rows &rows)
{
    std::vector<const TableColumn<Row> *> used;
    for (const TableColumn<Row> &c : columns)
        if (c.in(OutSqlite))
            used.push_back(&c);
    if (!s.beginTable(ExportTable{name, ExportTables::columnsOf(columns)}))
        return false;
    std::vector<Cell> cells(used.size()); // the row's text must outlive row()
    for (const Row &r : rows) {
        for (size_t i = 0; i < used.size(); ++i) {
            cells[i] = used[i]->get(r);
            cell(s, int(i), cells[i]);
        }
        if (!s.row())
            return false;
    }
    return s.endTable();
}

class TableStream
{
public:
    TableStream(const Trace &t, ExportSink &s, const LoadOptions &o, std::string *error)
        : m_t(t), m_s(s), m_o(o), m_error(error)
    {
        m_total = t.allSlices().size() + t.allInstants().size() + t.allCounterSamples().size() + t.args().argCount()
            + t.flows().size() + 1;
    }

    // A row of a large table: every 65536 rows, progress and cancel.
    bool row()
    {
        if (!m_s.row())
            return false;
        if ((++m_done & 0xffff) == 0) {
            m_o.report(int(m_done * 1000 / m_total));
            if (m_o.cancelled()) {
                *m_error = "export cancelled";
                return false;
            }
        }
        return true;
    }

    bool all(const std::vector<Annotation> &notes)
    {
        return meta() && strings() && files() && groups() && tracks() && slices() && instants() && args() && counters()
            && flows() && warnings()
            && describedTable(m_s, "ops", TableRows::ops(),
                              OpTable::compute(m_t, LaunchIndex::build(m_t), OpTable::Options()).rows)
            && describedTable(m_s, "engines", TableRows::engines(), EngineBreakdown::compute(m_t).engines)
            && writeNotes(notes);
    }

private:
    std::string_view str(StringId id) const { return m_t.str(id); }

    bool meta()
    {
        if (!m_s.beginTable(kMeta))
            return false;
        auto put = [&](std::string_view k, auto v) {
            m_s.text(0, k);
            if constexpr (std::is_integral_v<decltype(v)>)
                m_s.i64(1, int64_t(v));
            else
                m_s.text(1, v);
            return m_s.row();
        };
        const TraceMetadata &md = m_t.metadata();
        bool ok = put("schema_version", ExportTables::kSchemaVersion) && put("format", std::string_view(md.format))
            && put("source_path", std::string_view(md.sourcePath)) && put("synthetic", md.synthetic ? 1 : 0)
            && put("start_ns", m_t.startNs()) && put("end_ns", m_t.endNs()) && put("events_read", m_t.stats().eventsRead)
            && put("bytes_read", m_t.stats().bytesRead);
        for (const auto &[k, v] : md.entries)
            ok = ok && put("trace." + k, std::string_view(v));
        return ok && m_s.endTable();
    }

    bool strings()
    {
        if (!m_s.beginTable(kStrings))
            return false;
        for (uint32_t i = 0; i < m_t.strings().size(); ++i) {
            m_s.i64(0, i);
            m_s.text(1, m_t.strings().view(StringId(i)));
            if (!m_s.row())
                return false;
        }
        return m_s.endTable();
    }

    bool files()
    {
        if (!m_s.beginTable(kFiles))
            return false;
        const TraceMetadata &md = m_t.metadata();
        for (const FileReport &f : md.files) {
            const std::string status = f.text(); // must outlive row()
            m_s.text(0, f.path);
            m_s.text(1, status);
            if (!m_s.row())
                return false;
        }
        if (md.files.empty()) {
            m_s.text(0, md.sourcePath);
            m_s.text(1, "loaded");
            if (!m_s.row())
                return false;
        }
        return m_s.endTable();
    }

    bool groups()
    {
        if (!m_s.beginTable(kGroups))
            return false;
        for (uint32_t i = 0; i < m_t.groups().size(); ++i) {
            const TrackGroup &g = m_t.groups()[i];
            const std::string path = m_t.groupPath(GroupId(i));
            m_s.i64(0, i);
            optionalId(m_s, 1, g.parent.value);
            m_s.text(2, groupKindName(g.kind));
            m_s.text(3, str(g.name));
            m_s.i64(4, g.externalId);
            m_s.text(5, path);
            if (!m_s.row())
                return false;
        }
        return m_s.endTable();
    }

    bool tracks()
    {
        if (!m_s.beginTable(kTracks))
            return false;
        for (uint32_t i = 0; i < m_t.tracks().size(); ++i) {
            const Track &tr = m_t.tracks()[i];
            const std::string path = m_t.trackPath(TrackId(i));
            m_s.i64(0, i);
            optionalId(m_s, 1, tr.group.value);
            m_s.text(2, trackKindName(tr.kind));
            m_s.text(3, str(tr.name));
            m_s.text(4, path);
            m_s.i64(5, tr.externalId);
            if (tr.unit.isValid() && !str(tr.unit).empty())
                m_s.text(6, str(tr.unit));
            else
                m_s.null(6);
            m_s.i64(7, tr.maxDepth);
            m_s.i64(8, tr.sliceCount);
            m_s.i64(9, tr.instantCount);
            m_s.i64(10, tr.counterCount);
            if (!m_s.row())
                return false;
        }
        return m_s.endTable();
    }

    bool slices()
    {
        if (!m_s.beginTable(kSlices))
            return false;
        std::vector<uint32_t> lastAtDepth;
        for (uint32_t ti = 0; ti < m_t.tracks().size(); ++ti) {
            const Track &tr = m_t.tracks()[ti];
            lastAtDepth.assign(size_t(tr.maxDepth) + 2, UINT32_MAX);
            for (uint32_t k = 0; k < tr.sliceCount; ++k) {
                const uint32_t id = tr.sliceBegin + k;
                const Slice &s = m_t.allSlices()[id];
                // Slices are sorted by start, enclosing ones first: the parent of a nested slice is the
                // latest slice one level up (async rows are not nesting: no parent there).
                uint32_t parent = UINT32_MAX;
                if (tr.kind == TrackKind::Slices && s.depth > 0 && s.depth < lastAtDepth.size()) {
                    const uint32_t p = lastAtDepth[s.depth - 1];
                    if (p != UINT32_MAX && m_t.allSlices()[p].end() >= s.start)
                        parent = p;
                }
                if (s.depth < lastAtDepth.size())
                    lastAtDepth[s.depth] = id;
                m_s.i64(0, id);
                m_s.i64(1, ti);
                m_s.i64(2, s.start);
                m_s.i64(3, s.duration);
                m_s.text(4, str(s.name));
                m_s.text(5, str(s.category));
                m_s.i64(6, s.depth);
                optionalId(m_s, 7, parent);
                optionalId(m_s, 8, s.args.value);
                m_s.i64(9, s.flags);
                if (!row())
                    return false;
            }
        }
        return m_s.endTable();
    }

    bool instants()
    {
        if (!m_s.beginTable(kInstants))
            return false;
        for (uint32_t ti = 0; ti < m_t.tracks().size(); ++ti) {
            const Track &tr = m_t.tracks()[ti];
            for (uint32_t k = 0; k < tr.instantCount; ++k) {
                const Instant &in = m_t.allInstants()[tr.instantBegin + k];
                m_s.i64(0, tr.instantBegin + k);
                m_s.i64(1, ti);
                m_s.i64(2, in.ts);
                m_s.text(3, str(in.name));
                m_s.text(4, str(in.category));
                m_s.text(5, scopeName(in.scope));
                optionalId(m_s, 6, in.args.value);
                if (!row())
                    return false;
            }
        }
        return m_s.endTable();
    }

    bool args()
    {
        if (!m_s.beginTable(kArgs))
            return false;
        for (uint32_t set = 0; set < m_t.args().setCount(); ++set)
            for (const Arg &a : m_t.args().args(ArgSetId(set))) {
                m_s.i64(0, set);
                m_s.text(1, str(a.key));
                m_s.text(2, argTypeName(a.type));
                std::string big;
                switch (a.type) {
                case ArgType::Null: m_s.null(3); break;
                case ArgType::Bool:
                case ArgType::Int: m_s.i64(3, a.value.i); break;
                case ArgType::UInt:
                    if (a.value.u <= uint64_t(std::numeric_limits<int64_t>::max())) {
                        m_s.i64(3, int64_t(a.value.u));
                    } else {
                        big = std::to_string(a.value.u); // beyond 64-bit signed integers: exact decimal text
                        m_s.text(3, big);
                    }
                    break;
                case ArgType::Double: m_s.real(3, a.value.d); break;
                case ArgType::String:
                case ArgType::Json: m_s.text(3, str(a.stringValue())); break;
                }
                if (!row())
                    return false;
            }
        return m_s.endTable();
    }

    bool counters()
    {
        if (!m_s.beginTable(kCounters))
            return false;
        for (uint32_t ti = 0; ti < m_t.tracks().size(); ++ti)
            for (const CounterSample &c : m_t.counterSamples(TrackId(ti))) {
                m_s.i64(0, ti);
                m_s.i64(1, c.ts);
                m_s.real(2, c.value);
                if (!row())
                    return false;
            }
        return m_s.endTable();
    }

    bool flows()
    {
        if (!m_s.beginTable(kFlows))
            return false;
        for (uint32_t i = 0; i < m_t.flows().size(); ++i) {
            const Flow &f = m_t.flows()[i];
            m_s.i64(0, i);
            optionalId(m_s, 1, f.from.value);
            optionalId(m_s, 2, f.to.value);
            m_s.text(3, str(f.name));
            m_s.text(4, str(f.category));
            m_s.i64(5, int64_t(f.externalId));
            if (!row())
                return false;
        }
        return m_s.endTable();
    }

    bool warnings()
    {
        if (!m_s.beginTable(kWarnings))
            return false;
        for (const Warning &w : m_t.diagnostics().warnings()) {
            m_s.text(0, w.message);
            m_s.i64(1, int64_t(w.count));
            if (w.firstSeen.empty())
                m_s.null(2);
            else
                m_s.text(2, w.firstSeen);
            m_s.text(3, Diagnostics::severityName(w.severity));
            if (!m_s.row())
                return false;
        }
        return m_s.endTable();
    }

    // The user's notes (docs/notes.md); an event note whose event is gone keeps its time, without slice_id.
    bool writeNotes(const std::vector<Annotation> &notes)
    {
        if (!m_s.beginTable(kNotes))
            return false;
        for (const Annotation &a : notes) {
            m_s.i64(0, a.id);
            m_s.text(1, Annotation::kindName(a.kind));
            m_s.i64(2, a.startNs);
            m_s.i64(3, a.endNs);
            m_s.text(4, a.text);
            if (a.color.empty())
                m_s.null(5);
            else
                m_s.text(5, a.color);
            const bool event = a.kind == Annotation::Kind::Event;
            optionalId(m_s, 6, event && a.eventFound ? a.sliceId : UINT32_MAX);
            if (event)
                m_s.text(7, a.eventName);
            else
                m_s.null(7);
            if (!m_s.row())
                return false;
        }
        return m_s.endTable();
    }

    const Trace &m_t;
    ExportSink &m_s;
    const LoadOptions &m_o;
    std::string *m_error;
    uint64_t m_total = 1;
    uint64_t m_done = 0;
};

} // namespace

bool ExportTables::write(const Trace &trace, const std::vector<Annotation> &notes, ExportSink &sink,
                         const LoadOptions &options, std::string *error)
{
    std::string why;
    TableStream stream(trace, sink, options, &why);
    if (stream.all(notes))
        return true;
    if (error)
        *error = why.empty() ? sink.error() : why;
    return false;
}

} // namespace lanescope
