#include "exporttables.h"

#include "exportrows.h"
#include "model/trace.h"

#include <algorithm>

namespace lanescope {

bool ExportTables::write(const Trace &trace, const std::vector<Annotation> &notes, ExportSink &sink,
                         const LoadOptions &options, std::string *error)
{
    // Progress counts the rows of the large tables' size (the small ones are a rounding error).
    const uint64_t total = trace.allSlices().size() + trace.allInstants().size() + trace.allCounterSamples().size()
        + trace.args().argCount() + trace.flows().size() + 1;
    uint64_t done = 0;
    auto fail = [&](const std::string &why) {
        if (error)
            *error = why.empty() ? sink.error() : why;
        return false;
    };
    for (const std::string &name : ExportRows::tableNames()) {
        const std::unique_ptr<ExportRows> rows = ExportRows::make(name, trace, notes);
        if (options.cancelled()) // a derived table's analysis runs whole: the cancel is honoured after it
            return fail("export cancelled");
        if (!sink.beginTable(rows->table()))
            return fail({});
        const int columns = int(rows->table().columns.size());
        for (uint64_t r = 0, n = rows->size(); r < n; ++r) {
            for (int c = 0; c < columns; ++c)
                rows->cell(r, c, sink);
            if (!sink.row())
                return fail({});
            if ((++done & 0xffff) == 0) {
                options.report(int(std::min<uint64_t>(1000, done * 1000 / total)));
                if (options.cancelled())
                    return fail("export cancelled");
            }
        }
        if (!sink.endTable())
            return fail({});
    }
    return true;
}

} // namespace lanescope
