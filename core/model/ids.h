#pragma once
// Strongly typed 32-bit ids (heaptrack's Index<Base>, Perfetto's typed table ids).
#include <cstdint>
#include <functional>
#include <limits>

namespace lanescope {

template <class Tag>
struct TypedId
{
    static constexpr uint32_t kInvalid = std::numeric_limits<uint32_t>::max();
    uint32_t value = kInvalid;

    constexpr TypedId() = default;
    constexpr explicit TypedId(uint32_t v) : value(v) {}
    constexpr bool isValid() const { return value != kInvalid; }
    constexpr explicit operator bool() const { return isValid(); }
    constexpr auto operator<=>(const TypedId &) const = default;
};

using StringId = TypedId<struct StringTag>;
using TrackId = TypedId<struct TrackTag>;
using GroupId = TypedId<struct GroupTag>;
using SliceId = TypedId<struct SliceTag>;
using InstantId = TypedId<struct InstantTag>;
using FlowId = TypedId<struct FlowTag>;
using ArgSetId = TypedId<struct ArgSetTag>;

} // namespace lanescope

template <class Tag>
struct std::hash<lanescope::TypedId<Tag>>
{
    size_t operator()(lanescope::TypedId<Tag> id) const noexcept { return std::hash<uint32_t>()(id.value); }
};
