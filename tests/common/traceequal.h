#pragma once
// Compares two traces record by record (what the trace cache must restore exactly): returns an empty
// string when equal, else the first difference.
#include "model/trace.h"

#include <cstring>
#include <string>

namespace lanescope::test {

inline std::string traceDifference(const Trace &a, const Trace &b)
{
    auto at = [](const char *what, size_t i) { return std::string(what) + " #" + std::to_string(i) + " differs"; };
    if (a.strings().size() != b.strings().size())
        return "string pool sizes differ";
    for (uint32_t i = 0; i < a.strings().size(); ++i)
        if (a.str(StringId(i)) != b.str(StringId(i)))
            return at("string", i);
    if (a.groups().size() != b.groups().size())
        return "group counts differ";
    for (size_t i = 0; i < a.groups().size(); ++i) {
        const TrackGroup &x = a.groups()[i], &y = b.groups()[i];
        if (x.name != y.name || x.parent != y.parent || x.kind != y.kind || x.externalId != y.externalId
            || x.sortIndex != y.sortIndex || x.labels != y.labels)
            return at("group", i);
    }
    if (a.tracks().size() != b.tracks().size())
        return "track counts differ";
    for (size_t i = 0; i < a.tracks().size(); ++i) {
        const Track &x = a.tracks()[i], &y = b.tracks()[i];
        if (x.name != y.name || x.group != y.group || x.kind != y.kind || x.maxDepth != y.maxDepth
            || x.externalId != y.externalId || x.sortIndex != y.sortIndex || x.maxDuration != y.maxDuration
            || x.sliceBegin != y.sliceBegin || x.sliceCount != y.sliceCount || x.instantBegin != y.instantBegin
            || x.instantCount != y.instantCount || x.counterBegin != y.counterBegin || x.counterCount != y.counterCount
            || x.unit != y.unit || a.trackPath(TrackId(uint32_t(i))) != b.trackPath(TrackId(uint32_t(i))))
            return at("track", i);
    }
    if (a.allSlices().size() != b.allSlices().size())
        return "slice counts differ";
    for (size_t i = 0; i < a.allSlices().size(); ++i) {
        const Slice &x = a.allSlices()[i], &y = b.allSlices()[i];
        if (x.start != y.start || x.duration != y.duration || x.name != y.name || x.category != y.category
            || x.args != y.args || x.depth != y.depth || x.flags != y.flags)
            return at("slice", i);
        if (a.trackOfSlice(SliceId(uint32_t(i))) != b.trackOfSlice(SliceId(uint32_t(i))))
            return at("slice track", i);
    }
    if (a.allInstants().size() != b.allInstants().size())
        return "instant counts differ";
    for (size_t i = 0; i < a.allInstants().size(); ++i) {
        const Instant &x = a.allInstants()[i], &y = b.allInstants()[i];
        if (x.ts != y.ts || x.name != y.name || x.category != y.category || x.args != y.args || x.scope != y.scope)
            return at("instant", i);
    }
    if (a.allCounterSamples().size() != b.allCounterSamples().size())
        return "counter sample counts differ";
    for (size_t i = 0; i < a.allCounterSamples().size(); ++i) {
        const CounterSample &x = a.allCounterSamples()[i], &y = b.allCounterSamples()[i];
        if (x.ts != y.ts || std::memcmp(&x.value, &y.value, sizeof(double)) != 0)
            return at("counter sample", i);
    }
    if (a.flows().size() != b.flows().size())
        return "flow counts differ";
    for (size_t i = 0; i < a.flows().size(); ++i) {
        const Flow &x = a.flows()[i], &y = b.flows()[i];
        if (x.from != y.from || x.to != y.to || x.category != y.category || x.name != y.name || x.externalId != y.externalId)
            return at("flow", i);
        if (x.from.isValid() && a.flowsFrom(x.from) != b.flowsFrom(x.from))
            return at("flow-from index", i);
        if (x.to.isValid() && a.flowsTo(x.to) != b.flowsTo(x.to))
            return at("flow-to index", i);
    }
    if (a.args().setCount() != b.args().setCount() || a.args().argCount() != b.args().argCount())
        return "arg counts differ";
    for (uint32_t s = 0; s < a.args().setCount(); ++s) {
        const auto x = a.args().args(ArgSetId(s)), y = b.args().args(ArgSetId(s));
        if (x.size() != y.size())
            return at("arg set", s);
        for (size_t k = 0; k < x.size(); ++k)
            if (x[k].key != y[k].key || x[k].type != y[k].type || x[k].value.u != y[k].value.u)
                return at("arg set", s);
    }
    if (a.startNs() != b.startNs() || a.endNs() != b.endNs())
        return "time range differs";
    const TraceMetadata &ma = a.metadata(), &mb = b.metadata();
    if (ma.format != mb.format || ma.sourcePath != mb.sourcePath || ma.synthetic != mb.synthetic || ma.entries != mb.entries)
        return "metadata differs";
    const ImportStats &sa = a.stats(), &sb = b.stats();
    if (sa.eventsRead != sb.eventsRead || sa.bytesRead != sb.bytesRead || sa.phases != sb.phases
        || sa.categories != sb.categories)
        return "import stats differ";
    const auto &wa = a.diagnostics().warnings(), &wb = b.diagnostics().warnings();
    if (wa.size() != wb.size())
        return "warning counts differ";
    for (size_t i = 0; i < wa.size(); ++i)
        if (wa[i].message != wb[i].message || wa[i].count != wb[i].count || wa[i].firstSeen != wb[i].firstSeen
            || wa[i].severity != wb[i].severity)
            return at("warning", i);
    return {};
}

} // namespace lanescope::test
