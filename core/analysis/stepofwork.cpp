#include "stepofwork.h"

#include "rankfilter.h"

#include "model/trace.h"

#include <algorithm>
#include <charconv>

namespace lanescope {

int64_t StepOfWork::number(std::string_view name)
{
    constexpr std::string_view prefix = "ProfilerStep#";
    if (!name.starts_with(prefix))
        return -1;
    int64_t n = -1;
    const char *begin = name.data() + prefix.size(), *end = name.data() + name.size();
    const auto [ptr, ec] = std::from_chars(begin, end, n);
    return ec == std::errc() && ptr == end && ptr != begin && n >= 0 ? n : -1;
}

StepOfWork::StepOfWork(const Trace &trace, const LaunchIndex &index) : m_trace(trace)
{
    m_multiRank = !RankFilter::ranks(trace).empty();
    if (m_multiRank) {
        m_rankOfTrack.resize(trace.tracks().size());
        for (uint32_t t = 0; t < m_rankOfTrack.size(); ++t)
            m_rankOfTrack[t] = RankFilter::rankOfTrack(trace, TrackId(t));
    }
    for (uint32_t id : index.opSlices()) {
        const Slice &s = trace.slice(SliceId(id));
        const int64_t n = number(trace.str(s.name));
        if (n < 0)
            continue;
        const int64_t rank = m_multiRank ? m_rankOfTrack[trace.trackOfSlice(SliceId(id)).value] : -1;
        m_steps[rank].push_back({s.start, s.start + s.duration, n, SliceId(id)});
    }
    for (auto &[rank, steps] : m_steps)
        std::sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) { return a.start < b.start; });
}

const StepOfWork::Step *StepOfWork::stepAt(int64_t rank, int64_t t) const
{
    const auto it = m_steps.find(rank);
    if (it == m_steps.end())
        return nullptr;
    const std::vector<Step> &steps = it->second;
    // the last step starting at or before t; steps of one rank do not overlap
    auto s = std::upper_bound(steps.begin(), steps.end(), t, [](int64_t v, const Step &x) { return v < x.start; });
    if (s == steps.begin())
        return nullptr;
    --s;
    return t < s->end ? &*s : nullptr;
}

SliceId StepOfWork::of(const LaunchIndex::Work &work) const
{
    const SliceId host = work.launcher.isValid() ? work.launcher : work.op;
    if (!host.isValid() || m_steps.empty())
        return {};
    const int64_t rank = m_multiRank ? m_rankOfTrack[m_trace.trackOfSlice(host).value] : -1;
    const Step *s = stepAt(rank, m_trace.slice(host).start);
    return s ? s->slice : SliceId();
}

int64_t StepOfWork::numberOf(const LaunchIndex::Work &work) const
{
    const SliceId s = of(work);
    return s.isValid() ? number(m_trace.str(m_trace.slice(s).name)) : -1;
}

} // namespace lanescope
