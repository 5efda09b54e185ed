#include "annotation.h"

#include "model/trace.h"

#include <algorithm>
#include <cctype>

namespace lanescope {

Annotation Annotation::range(int64_t t0, int64_t t1, std::string text)
{
    Annotation a;
    a.kind = Kind::Range;
    a.startNs = std::min(t0, t1);
    a.endNs = std::max(t0, t1);
    a.text = std::move(text);
    return a;
}

Annotation Annotation::point(int64_t t, std::string text)
{
    Annotation a;
    a.kind = Kind::Point;
    a.startNs = a.endNs = t;
    a.text = std::move(text);
    return a;
}

Annotation Annotation::event(const Trace &trace, SliceId id, std::string text)
{
    const Slice &s = trace.slice(id);
    Annotation a;
    a.kind = Kind::Event;
    a.sliceId = id.value;
    a.eventName = std::string(trace.str(s.name));
    a.eventStartNs = s.start;
    a.startNs = s.start;
    a.endNs = s.end();
    a.text = std::move(text);
    return a;
}

const char *Annotation::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Range: return "range";
    case Kind::Event: return "event";
    case Kind::Point: break;
    }
    return "point";
}

std::optional<Annotation::Kind> Annotation::kindFromName(std::string_view name)
{
    for (Kind k : {Kind::Range, Kind::Event, Kind::Point})
        if (name == kindName(k))
            return k;
    return std::nullopt;
}

bool Annotation::isValidColor(std::string_view color)
{
    if (color.empty())
        return true;
    return color.size() == 7 && color[0] == '#'
        && std::all_of(color.begin() + 1, color.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

bool Annotation::resolve(const Trace &trace)
{
    if (kind != Kind::Event)
        return true;
    const auto slices = trace.allSlices();
    const auto matches = [&](uint32_t i) {
        return slices[i].start == eventStartNs && trace.str(slices[i].name) == eventName;
    };
    uint32_t found = UINT32_MAX;
    if (sliceId < slices.size() && matches(sliceId)) {
        found = sliceId;
    } else {
        for (uint32_t i = 0; i < slices.size(); ++i)
            if (slices[i].start == eventStartNs && matches(i)) {
                found = i;
                break;
            }
    }
    eventFound = found != UINT32_MAX;
    if (!eventFound)
        return false;
    sliceId = found;
    startNs = slices[found].start;
    endNs = slices[found].end();
    return true;
}

} // namespace lanescope
