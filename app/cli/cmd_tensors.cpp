// lanescope-cli tensors PATH [--json|--format csv] [--limit N]: the tensors of a device profile (TensorTable,
// the numbers the Tensors dock shows): name, type, format, shape, size, the DMA packets and transfers that
// moved each, bytes by direction, and neuron-profile's load-to-SBUF count, bytes, average and repeat
// factor. Columns: core/analysis/tablerows.h.
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/tablerows.h"
#include "analysis/tensortable.h"
#include "model/trace.h"
#include "util/qtext.h"
#include "util/unittext.h"

#include <cstdio>

namespace lanescope::cli {

namespace {

void printText(const TensorTableResult &r, size_t shown)
{
    if (r.rows.empty()) {
        std::printf("%s\n", r.note.c_str());
        return;
    }
    const bool programs = r.fromNeff;
    if (programs)
        std::printf("%-28s ", "program");
    std::printf("%-24s %-12s %-8s %-16s %10s %8s %9s %10s %7s %10s %7s  %s\n", "tensor", "type", "format", "shape", "size",
                "packets", "transfers", "moved", "loads", "load bytes", "repeat", "by direction");
    for (size_t i = 0; i < shown; ++i) {
        const TensorRow &t = r.rows[i];
        char repeat[32] = "-";
        if (t.repeatFactor)
            std::snprintf(repeat, sizeof repeat, "%.2f", *t.repeatFactor);
        if (programs)
            std::printf("%-28s ", t.program.c_str());
        std::printf("%-24s %-12s %-8s %-16s %10s %8llu %9llu %10s %7llu %10s %7s  %s\n", t.name.c_str(),
                    t.type.empty() ? "-" : t.type.c_str(), t.format.empty() ? "-" : t.format.c_str(),
                    t.shape.empty() ? "-" : t.shape.c_str(), t.sizeBytes ? UnitText::bytes(double(*t.sizeBytes)).c_str() : "-",
                    (unsigned long long)t.packets, (unsigned long long)t.transfers, UnitText::bytes(double(t.transferBytes)).c_str(),
                    (unsigned long long)t.loadToSbufCount, UnitText::bytes(double(t.loadToSbufBytes)).c_str(), repeat,
                    TensorTable::directionsText(t).c_str());
    }
    if (shown < r.rows.size())
        std::printf("(%zu more tensors; raise --limit to see them)\n", r.rows.size() - shown);
    if (!r.note.empty())
        std::printf("%s\n", r.note.c_str());
}

} // namespace

int cmdTensors(const Args &args)
{
    TableArgs ta;
    if (!ta.parse("tensors", args, {.limit = true}))
        return kExitUnreadable;
    LoadResult loaded;
    if (!ta.load(args, loaded))
        return kExitUnreadable;
    const TensorTableResult r = TensorTable::compute(*loaded.trace);
    const size_t shown = ta.shown(r.rows.size());
    if (ta.format == TableArgs::Format::Csv) {
        printCsv(TableRows::tensors(), r.rows, shown);
    } else if (ta.format == TableArgs::Format::Json) {
        QJsonObject o;
        o[QStringLiteral("file")] = qs(loaded.trace->metadata().sourcePath);
        o[QStringLiteral("tensors")] = TableRowWriter::jsonArray(TableRows::tensors(), r.rows, shown);
        o[QStringLiteral("from_neff_node")] = r.listedAny;
        if (!r.note.empty())
            o[QStringLiteral("note")] = qs(r.note);
        printJson(o);
    } else {
        printText(r, shown);
    }
    return kExitOk;
}

} // namespace lanescope::cli
