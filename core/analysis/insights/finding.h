#pragma once
// One conclusion of the insights rule set (docs/insights.md): what was measured, why it matters and
// what to change, with the events and time ranges it is about. Every number in `detail`, `value`
// and `recoverableNs` comes from the op, kernel, device or engine tables (core/analysis) for the
// same events, so a finding can be checked against them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

enum class Severity : uint8_t { Low, Medium, High };

struct Finding
{
    static constexpr size_t kMaxEvents = 50;

    std::string rule;   // stable id, e.g. "fusion-candidate"
    Severity severity = Severity::Low;
    std::string title;  // one line
    std::string detail; // what was measured, with numbers
    std::string action; // what to change
    double value = 0;     // the rule's measured figure
    double threshold = 0; // the figure it was compared with
    std::optional<int64_t> recoverableNs; // estimated time to gain, when one can be estimated
    std::vector<uint32_t> events;         // slice ids, most significant first, at most kMaxEvents
    std::vector<std::pair<int64_t, int64_t>> ranges; // [start_ns, end_ns] on the trace clock
    // The Python frame the events (or the host during the ranges) share, "train.py(118): collate";
    // empty when none is shared or the trace has no Python stacks (FindingSource).
    std::string source;
    double sourceShare = 0; // the share of the events (or of the ranges' time) under it, 0..1

    // Appends a slice id unless the list is full or holds it already.
    void addEvent(uint32_t slice);
    // Appends a time range unless the list is full (kMaxEvents ranges at most).
    void addRange(int64_t start, int64_t end);
    // The slice as an event and its time as a range.
    void addSlice(const Trace &trace, uint32_t slice);

    static const char *severityName(Severity s); // "high", "medium", "low"
    static std::optional<Severity> severityFromName(std::string_view name);
    // High from 10 % of `spanNs` recoverable, medium from 3 %, else low.
    static Severity severityForShare(int64_t recoverableNs, int64_t spanNs);
    // A capture check (rule id "capture-..."): about how the profile was taken, not the model; the
    // CLI and the Summary page show these in their own section (docs/insights.md, Capture checks).
    static bool isCapture(std::string_view rule) { return rule.starts_with("capture-"); }
    // Most severe first, then by recoverable time, then by rule id (stable output).
    static void rank(std::vector<Finding> &findings);
};

} // namespace lanescope
