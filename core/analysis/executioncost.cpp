#include "executioncost.h"

#include "deviceexecutions.h"
#include "enginebreakdown.h"
#include "neuroncoretracks.h"

#include "model/trace.h"

#include <map>

namespace lanescope {

ExecutionCost ExecutionCost::build(const Trace &trace, const LaunchIndex &index)
{
    ExecutionCost out;
    const auto work = index.work();
    // Entries exist only once some NEFF execution has something to say (a GPU trace keeps none).
    const auto entry = [&](size_t w) -> Entry & {
        if (out.m_entries.empty())
            out.m_entries.resize(work.size());
        return out.m_entries[w];
    };
    const StringId kSize = trace.strings().find("transfer_size");
    for (const LaunchIndex::Work &w : work) {
        int64_t size = 0;
        if (w.kind == LaunchIndex::WorkKind::Dma && w.execution < work.size()
            && work[w.execution].kind == LaunchIndex::WorkKind::NeffExecution
            && LaunchIndex::intArg(trace, trace.slice(w.slice).args, kSize, size) && size > 0)
            entry(w.execution).dmaBytes += uint64_t(size);
    }

    const DeviceExecutions executions = DeviceExecutions::build(trace);
    if (executions.empty())
        return out;
    const StringId kNtff = trace.strings().find("ntff");
    struct PerFile
    {
        std::optional<double> flops;
        double peakFlopsPerSec = 0;
    };
    // Per device file (the execution's `ntff` arg): its FLOPs and peak, looked up once.
    std::map<std::string, PerFile, std::less<>> byFile;
    const auto fileOf = [&](std::string_view file) -> const PerFile & {
        auto it = byFile.find(file);
        if (it != byFile.end())
            return it->second;
        PerFile e;
        const std::string prefix = std::string(file) + ": ";
        e.flops = coretracks::metadataNumber(trace, prefix + "neff.model_flops");
        if (!e.flops)
            e.flops = coretracks::metadataNumber(trace, prefix + "neuron_profile.summary.model_flops");
        if (e.flops && *e.flops < 0)
            e.flops.reset();
        e.peakFlopsPerSec = EngineBreakdown::peakFlopsPerSec(trace, prefix);
        return byFile.emplace(std::string(file), e).first->second;
    };
    std::vector<const PerFile *> ofExecution(executions.all().size(), nullptr);
    for (size_t i = 0; i < executions.all().size(); ++i) {
        const Slice &s = trace.slice(executions.all()[i].slice);
        if (const Arg *a = LaunchIndex::findArg(trace, s.args, kNtff); a && a->type == ArgType::String)
            ofExecution[i] = &fileOf(trace.str(a->stringValue()));
    }
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
        Entry &x = entry(w);
        x.flops = ofExecution[size_t(e)]->flops;
        x.peakFlopsPerSec = ofExecution[size_t(e)]->peakFlopsPerSec;
        out.m_any = out.m_any || x.flops.has_value();
    }
    return out;
}

} // namespace lanescope
