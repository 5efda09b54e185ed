#include "querytables.h"

#include "model/trace.h"

namespace lanescope {

QueryTables::QueryTables(std::shared_ptr<const Trace> trace, std::vector<Annotation> notes)
    : m_trace(std::move(trace)), m_notes(std::move(notes)), m_rows(count()), m_names(count())
{
}

QueryTables::~QueryTables() = default;

size_t QueryTables::count() { return ExportRows::tableNames().size(); }

ExportRows &QueryTables::rows(size_t table)
{
    if (!m_rows[table])
        m_rows[table] = ExportRows::make(ExportRows::tableNames()[table], *m_trace, m_notes);
    return *m_rows[table];
}

const NameIndex &QueryTables::names(size_t table)
{
    if (!m_names[table])
        m_names[table] = std::make_unique<NameIndex>(rows(table), m_trace->strings());
    return *m_names[table];
}

size_t QueryTables::memoryUsage() const
{
    size_t bytes = 0;
    for (const auto &n : m_names)
        if (n)
            bytes += n->memoryUsage();
    return bytes;
}

} // namespace lanescope
