#include "summaryregions.h"

#include "launchindex.h"
#include "model/trace.h"
#include "util/durationtext.h"

#include <algorithm>

namespace lanescope {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";

} // namespace

std::vector<SummaryRegion> SummaryRegions::list(const Trace &trace, const LaunchIndex &index)
{
    std::vector<SummaryRegion> out;
    out.push_back({SummaryRegion::Kind::Whole, "Whole trace", trace.startNs(), trace.endNs()});

    std::vector<SummaryRegion> steps;
    for (const uint32_t id : index.opSlices()) {
        const Slice &s = trace.slice(SliceId(id));
        const std::string_view name = trace.str(s.name);
        if (index.role(SliceId(id)) == LaunchIndex::Role::FrameworkOp && name.starts_with(kStepPrefix))
            steps.push_back({SummaryRegion::Kind::Step, std::string(name), s.start, s.end()});
    }
    std::stable_sort(steps.begin(), steps.end(), [](const auto &a, const auto &b) { return a.t0 < b.t0; });
    out.insert(out.end(), steps.begin(), steps.end());

    size_t executions = 0;
    for (const LaunchIndex::Work &w : index.work()) { // ordered by start
        if (w.kind != LaunchIndex::WorkKind::NeffExecution && w.kind != LaunchIndex::WorkKind::DriverExecution)
            continue;
        if (++executions > kMaxExecutions)
            break;
        const std::string device = w.device < index.devices().size() ? index.devices()[w.device].name : std::string();
        out.push_back({SummaryRegion::Kind::Execution,
                       LaunchIndex::workName(trace, w) + (device.empty() ? "" : " on " + device) + " at +" +
                           DurationText::format(w.start - trace.startNs()),
                       w.start, w.end});
    }
    return out;
}

std::vector<SummaryRegion> SummaryRegions::steps(const std::vector<SummaryRegion> &regions, bool hasRange, int64_t t0, int64_t t1)
{
    std::vector<SummaryRegion> out;
    for (const SummaryRegion &r : regions)
        if (r.kind == SummaryRegion::Kind::Step && (!hasRange || (r.t0 >= t0 && r.t0 <= t1)))
            out.push_back(r);
    return out;
}

} // namespace lanescope
