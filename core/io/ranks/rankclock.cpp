#include "rankclock.h"

#include "io/input/int128.h"
#include "model/saturating.h"
#include "model/trace.h"
#include "util/durationtext.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace lanescope {

namespace {

std::optional<int64_t> firstStep(const Trace &t)
{
    std::unordered_map<uint32_t, bool> isStep;
    std::optional<int64_t> first;
    for (const Slice &s : t.allSlices()) {
        auto [it, added] = isStep.try_emplace(s.name.value, false);
        if (added)
            it->second = t.str(s.name).starts_with("ProfilerStep#");
        if (it->second && (!first || s.start < *first))
            first = s.start;
    }
    return first;
}

std::optional<int64_t> baseTime(const Trace &t)
{
    const std::string *b = t.metadata().find("baseTimeNanoseconds");
    if (!b)
        return std::nullopt;
    try {
        size_t used = 0;
        const long long v = std::stoll(*b, &used);
        return used == b->size() ? std::optional<int64_t>(v) : std::nullopt;
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

} // namespace

RankClock::Input RankClock::inputOf(const Trace &trace, int64_t rank)
{
    return {rank, baseTime(trace), firstStep(trace), trace.startNs()};
}

const char *RankClock::ruleName(RankClockRule rule)
{
    switch (rule) {
    case RankClockRule::BaseTime: return "baseTimeNanoseconds";
    case RankClockRule::FirstStep: return "first ProfilerStep#";
    case RankClockRule::TraceStart: break;
    }
    return "trace start";
}

std::string RankClock::distanceText(int64_t ns)
{
    const double a = std::fabs(double(ns));
    if (a < 60e9)
        return DurationText::format(int64_t(a));
    if (a < 3600e9)
        return std::to_string(std::llround(a / 60e9)) + " min";
    const long long tenths = std::llround(a / 360e9); // hours with one decimal
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " h";
}

std::vector<RankClock::Placement> RankClock::align(const std::vector<Input> &ranks)
{
    std::vector<Placement> out(ranks.size());
    if (ranks.empty())
        return out;
    size_t ref = 0;
    for (size_t i = 1; i < ranks.size(); ++i)
        if (ranks[i].rank < ranks[ref].rank)
            ref = i;
    const Input &r = ranks[ref];
    const bool allBases = std::all_of(ranks.begin(), ranks.end(), [](const Input &in) { return in.baseNs.has_value(); });
    const std::string refName = "rank " + std::to_string(r.rank);
    // Where a rank's anchor lands next to the reference's: first steps when both have one, else starts.
    // The times come from files: baseTimeNanoseconds is any int64 (a hostile or corrupt file), so the
    // differences are taken in 128 bits and saturated where they are kept.
    const auto farApart = [](int64_t d) { return d > kFarApartNs || d < -kFarApartNs; };
    auto byAnchor = [&](const Input &in, Placement &p, const std::string &why) {
        const bool steps = in.firstStepNs && r.firstStepNs;
        p.rule = steps ? RankClockRule::FirstStep : RankClockRule::TraceStart;
        p.offset = steps ? saturatingSub(*r.firstStepNs, *in.firstStepNs) : saturatingSub(r.startNs, in.startNs);
        p.note = why + (steps ? "its first ProfilerStep# placed at " + refName + "'s first ProfilerStep#"
                              : "its trace start placed at " + refName + "'s (no ProfilerStep# in " +
                                    (in.firstStepNs ? refName : std::string("it")) + ")") +
                 ", shifted by " + std::to_string(p.offset) + " ns";
        if (farApart(p.offset) && p.apartNs == 0)
            p.apartNs = p.offset;
        if (farApart(p.offset))
            p.note += " (its clock was " + distanceText(p.offset) + " apart from " + refName + "'s)";
    };
    for (size_t i = 0; i < ranks.size(); ++i) {
        const Input &in = ranks[i];
        Placement &p = out[i];
        if (i == ref) {
            p.rule = allBases ? RankClockRule::BaseTime : in.firstStepNs ? RankClockRule::FirstStep : RankClockRule::TraceStart;
            p.note = "reference clock (lowest rank)";
            continue;
        }
        if (!allBases) {
            byAnchor(in, p, "");
            continue;
        }
        const Int128 offset = Int128(*in.baseNs) - *r.baseNs;
        const Int128 anchor = (in.firstStepNs ? *in.firstStepNs : in.startNs) + offset;
        const int64_t refAnchor = r.firstStepNs && in.firstStepNs ? *r.firstStepNs : r.startNs;
        const Int128 apart = anchor - refAnchor;
        // Also taken as far apart: an offset past int64 (only times outside any trace's range get there).
        if (apart > kFarApartNs || apart < -kFarApartNs || offset != Int128(int64_t(offset))) {
            p.apartNs = apart > INT64_MAX ? INT64_MAX : apart < INT64_MIN ? INT64_MIN : int64_t(apart);
            byAnchor(in, p, "baseTimeNanoseconds would put it " + distanceText(p.apartNs) + " from " + refName + "; ");
            continue;
        }
        p.rule = RankClockRule::BaseTime;
        p.offset = int64_t(offset);
        p.note = "baseTimeNanoseconds " + std::to_string(*in.baseNs) + " vs " + std::to_string(*r.baseNs) + " of " + refName +
                 ", shifted by " + std::to_string(p.offset) + " ns";
    }
    return out;
}

} // namespace lanescope
