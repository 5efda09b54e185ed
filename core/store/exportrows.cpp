#include "exportrows.h"

#include "exportrowsmakers.h"
#include "model/trace.h"

namespace lanescope {

namespace exportrows {

ExportColumn column(const char *name, CellType type, bool notNull, const char *sqlConstraint)
{
    return ExportColumn{name, type, notNull, false, sqlConstraint};
}

void optionalId(CellSink &s, int c, uint32_t v)
{
    if (v == UINT32_MAX)
        s.null(c);
    else
        s.i64(c, v);
}

} // namespace exportrows

std::vector<uint64_t> ExportRows::flowRows(bool, uint32_t) const { return {}; }

const std::vector<std::string> &ExportRows::tableNames()
{
    static const std::vector<std::string> names = {"meta",     "strings", "files",   "groups",      "tracks",  "slices",
                                                   "instants", "args",    "counters", "flows",      "warnings", "ops",
                                                   "engines",  "kernels", "collectives", "devices", "dma_queues", "tensors",
                                                   "notes"};
    return names;
}

std::unique_ptr<ExportRows> ExportRows::make(std::string_view name, const Trace &t, const std::vector<Annotation> &notes)
{
    using namespace exportrows;
    if (name == "meta")
        return meta(t);
    if (name == "strings")
        return strings(t);
    if (name == "files")
        return files(t);
    if (name == "groups")
        return groups(t);
    if (name == "tracks")
        return tracks(t);
    if (name == "slices")
        return slices(t);
    if (name == "instants")
        return instants(t);
    if (name == "args")
        return args(t);
    if (name == "counters")
        return counters(t);
    if (name == "flows")
        return flows(t);
    if (name == "warnings")
        return warnings(t);
    if (name == "ops")
        return ops(t);
    if (name == "engines")
        return engines(t);
    if (name == "kernels")
        return kernels(t);
    if (name == "collectives")
        return collectives(t);
    if (name == "devices")
        return devices(t);
    if (name == "dma_queues")
        return dmaQueues(t);
    if (name == "tensors")
        return tensors(t);
    if (name == "notes")
        return exportrows::notes(notes);
    return nullptr;
}

} // namespace lanescope
