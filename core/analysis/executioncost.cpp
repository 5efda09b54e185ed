#include "executionflops.h"

#include "deviceexecutions.h"
#include "enginebreakdown.h"
#include "neuroncoretracks.h"

#include "model/trace.h"

#include <map>

namespace lanescope {

ExecutionFlops ExecutionFlops::build(const Trace &trace, const LaunchIndex &index)
{
    ExecutionFlops out;
    const DeviceExecutions executions = DeviceExecutions::build(trace);
    if (executions.empty())
        return out;
    const StringId kNtff = trace.strings().find("ntff");
    // Per device file (the execution's `ntff` arg): its FLOPs and peak, looked up once.
    std::map<std::string, Entry, std::less<>> byFile;
    const auto entryOf = [&](std::string_view file) -> const Entry & {
        auto it = byFile.find(file);
        if (it != byFile.end())
            return it->second;
        Entry e;
        const std::string prefix = std::string(file) + ": ";
        e.flops = coretracks::metadataNumber(trace, prefix + "neff.model_flops");
        if (!e.flops)
            e.flops = coretracks::metadataNumber(trace, prefix + "neuron_profile.summary.model_flops");
        if (e.flops && *e.flops < 0)
            e.flops.reset();
        e.peakFlopsPerSec = EngineBreakdown::peakFlopsPerSec(trace, prefix);
        return byFile.emplace(std::string(file), e).first->second;
    };
    std::vector<const Entry *> ofExecution(executions.all().size(), nullptr);
    for (size_t i = 0; i < executions.all().size(); ++i) {
        const Slice &s = trace.slice(executions.all()[i].slice);
        if (const Arg *a = LaunchIndex::findArg(trace, s.args, kNtff); a && a->type == ArgType::String)
            ofExecution[i] = &entryOf(trace.str(a->stringValue()));
    }
    const auto work = index.work();
    out.m_entries.resize(work.size());
    for (size_t w = 0; w < work.size(); ++w) {
        if (work[w].kind != LaunchIndex::WorkKind::NeffExecution)
            continue;
        // The work item's first slice is on a lane of its execution's lane set (LaunchIndex).
        const TrackId track = trace.trackOfSlice(work[w].slice);
        if (!track.isValid())
            continue;
        const int e = executions.find(trace.track(track).group, work[w].start);
        if (e < 0 || !ofExecution[size_t(e)])
            continue;
        out.m_entries[w] = *ofExecution[size_t(e)];
        out.m_any = out.m_any || out.m_entries[w].flops.has_value();
    }
    return out;
}

} // namespace lanescope
