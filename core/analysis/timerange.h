#pragma once
// The one time-range syntax of the CLI and the GUI (`--range` of ops, kernels, devices, engines and
// screenshot; lanescope --screenshot-range; the GUI's range fields), with one meaning:
//
//   FROM:TO   each side a number with a unit, time AFTER THE TRACE START:
//             ns, us (or µs), ms, s          "10ms:12.5ms", "200us:350us", "1.5s:"
//             either side may be empty (open: the trace start / the trace end), ":2ms", "1s:"
//   Nabs      whole nanoseconds on the trace clock (as `info` prints start_ns / end_ns) on either
//             side: "1700000000123456789abs:1700000000223456789abs", "5ms:1700000000223456789abs"
//
// Deprecated: a number without a unit keeps what it meant before units existed for that command
// (BareNumber): absolute trace-clock ns for the table commands and engines, ms after the trace start
// for screenshot. `usedBareNumber` says so, and the CLI prints deprecationNote() on stderr.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lanescope {

class TimeRange
{
public:
    // What a side written without a unit means (deprecated form).
    enum class BareNumber { AbsoluteNs, MsAfterStart };

    struct End
    {
        int64_t ns = 0;        // after the trace start, or on the trace clock when `absolute`
        bool absolute = false;
    };

    std::optional<End> from, to; // empty: open
    bool usedBareNumber = false;

    // Parses FROM:TO. On error returns nullopt and sets *error to a message that quotes the text and
    // says which side is wrong and what was expected. TO before FROM is an error when both sides are
    // of the same kind (both after the start, or both absolute); resolve() checks mixed ranges.
    static std::optional<TimeRange> parse(std::string_view text, BareNumber bare, std::string *error);

    // The side as absolute trace-clock ns; nullopt when open.
    std::optional<int64_t> absoluteFrom(int64_t traceStartNs) const;
    std::optional<int64_t> absoluteTo(int64_t traceStartNs) const;
    // Both sides on the trace clock, open sides at the trace's start / end. False with *error when TO
    // comes before FROM (or equals it, unless allowEmpty).
    bool resolve(int64_t traceStartNs, int64_t traceEndNs, bool allowEmpty, int64_t *t0, int64_t *t1,
                 std::string *error) const;

    // The one-line note for a deprecated unit-less range, e.g. for stderr.
    static std::string deprecationNote(BareNumber bare);
    // The syntax in one line, for --help texts.
    static const char *syntaxSummary();

private:
    std::string m_text; // as given, for resolve()'s messages
};

} // namespace lanescope
