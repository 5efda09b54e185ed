#pragma once
// Puts the traces of several ranks on one clock (a pure function, like ClockAlignment):
//   baseTimeNanoseconds  when every rank records it, each rank is shifted by its base minus the
//                        reference rank's (Kineto writes times relative to that base), so the ranks
//                        keep their real skew;
//   first ProfilerStep#  otherwise (or for a rank that the bases would put more than kFarApartNs
//                        from the reference, i.e. clocks hours apart), each rank's first
//                        ProfilerStep# is placed at the reference rank's first ProfilerStep#;
//   trace start          a rank (or reference) without any ProfilerStep# is placed at the
//                        reference's start.
// The reference is the lowest rank; it keeps its own clock (offset 0). Every placement carries the
// rule and a note saying what was done ("clocks 3.2 h apart", ...), which the loader puts in the
// metadata: it is expected input, not a warning.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope {

class Trace;

enum class RankClockRule : uint8_t { BaseTime, FirstStep, TraceStart };

class RankClock
{
public:
    // Clocks placed farther apart than this by the bases are taken as unrelated (hours apart).
    static constexpr int64_t kFarApartNs = int64_t(600) * 1000000000; // 10 minutes

    struct Input
    {
        int64_t rank = 0;
        std::optional<int64_t> baseNs;      // baseTimeNanoseconds
        std::optional<int64_t> firstStepNs; // start of the first ProfilerStep#, on the rank's own clock
        int64_t startNs = 0;                // the rank's trace start, on its own clock
    };
    struct Placement
    {
        int64_t offset = 0; // added to every time of the rank
        RankClockRule rule = RankClockRule::TraceStart;
        std::string note;
        // How far apart the rank's own clock was from the reference's when that is more than
        // kFarApartNs (clocks hours apart: the loader adds a note naming the rule and the offset), else 0.
        int64_t apartNs = 0;
    };

    // One placement per input, in input order.
    static std::vector<Placement> align(const std::vector<Input> &ranks);
    // What a loaded rank trace gives: baseTimeNanoseconds from its metadata (when a whole integer),
    // the start of its first ProfilerStep# slice, its start (MultiRankLoader, the rank summaries).
    static Input inputOf(const Trace &trace, int64_t rank);
    static const char *ruleName(RankClockRule rule); // "baseTimeNanoseconds", "first ProfilerStep#", "trace start"
    // "3.2 h", "41 min", "12.5 s", "830 ms": how far apart two clocks are, for notes.
    static std::string distanceText(int64_t ns);
};

} // namespace lanescope
