#pragma once
// A note a user (or a CI bot) attached to a place in a trace: a time range, one event, or a point in
// time, with its text and an optional colour. Times are absolute ns on the trace clock (as `info`
// prints start_ns). An event note also keeps the event's name and start, so that after a re-import
// (slice ids may change) resolve() finds the same event again; when it is gone the note stays at
// its stored time. The user-facing word is "Note"; "Annotation" keeps it apart from import notes.
#include "model/ids.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lanescope {

class Trace;

struct Annotation
{
    enum class Kind { Range, Event, Point };

    int id = 0;                 // 1, 2, ... unique within a sidecar; assigned by AnnotationStore::add
    Kind kind = Kind::Point;
    std::string text;
    std::string color;          // "#rrggbb", or empty: the palette's note colour
    int64_t startNs = 0;        // trace clock; a point note has endNs == startNs
    int64_t endNs = 0;
    // Event notes: the slice as it was when the note was made.
    uint32_t sliceId = UINT32_MAX;
    std::string eventName;
    int64_t eventStartNs = 0;
    bool eventFound = true;     // set by resolve(): false when the event is not in the trace any more

    static Annotation range(int64_t t0, int64_t t1, std::string text);
    static Annotation point(int64_t t, std::string text);
    // A note on slice `id` of `trace` (its name, start and end are taken from the trace).
    static Annotation event(const Trace &trace, SliceId id, std::string text);

    // "range", "event", "point" (the sidecar's and the CLI's words).
    static const char *kindName(Kind kind);
    static std::optional<Kind> kindFromName(std::string_view name);
    // "#rrggbb" (case-insensitive hex) or empty.
    static bool isValidColor(std::string_view color);

    // Event notes: finds the event in `trace`, first at the stored slice id, else by name and start
    // (the first such slice in id order), and updates sliceId, startNs and endNs. Returns false and
    // leaves the stored times when no slice matches (eventFound says so). Other kinds: true.
    bool resolve(const Trace &trace);

    bool operator==(const Annotation &) const = default;
};

} // namespace lanescope
