#pragma once
// Side table of slice/instant arguments: one ArgSetId per event with args, each a run of Args.
#include "column.h"
#include "ids.h"
#include "util/uninitializedallocator.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lanescope {

enum class ArgType : uint8_t { Null, Bool, Int, UInt, Double, String, Json };

struct Arg
{
    StringId key;
    ArgType type = ArgType::Null;
    union {
        int64_t i;
        uint64_t u;
        double d;
        uint32_t s; // StringId value (String: the text, Json: the raw JSON text)
    } value{0};

    static Arg makeInt(StringId k, int64_t v) { Arg a{k, ArgType::Int}; a.value.i = v; return a; }
    static Arg makeUInt(StringId k, uint64_t v) { Arg a{k, ArgType::UInt}; a.value.u = v; return a; }
    static Arg makeDouble(StringId k, double v) { Arg a{k, ArgType::Double}; a.value.d = v; return a; }
    static Arg makeBool(StringId k, bool v) { Arg a{k, ArgType::Bool}; a.value.i = v ? 1 : 0; return a; }
    static Arg makeString(StringId k, StringId v) { Arg a{k, ArgType::String}; a.value.s = v.value; return a; }
    static Arg makeJson(StringId k, StringId v) { Arg a{k, ArgType::Json}; a.value.s = v.value; return a; }
    static Arg makeNull(StringId k) { return Arg{k, ArgType::Null}; }
    StringId stringValue() const { return StringId(value.s); }
};
static_assert(sizeof(Arg) == 16);

class ArgStore
{
public:
    ArgStore() { m_offsets.push_back(0); }

    ArgSetId add(std::span<const Arg> args);
    std::span<const Arg> args(ArgSetId id) const;
    size_t setCount() const { return m_offsets.size() - 1; }
    size_t argCount() const { return m_args.size(); }
    // Every arg of every set, set after set, and where each set starts in it (setCount() + 1 entries,
    // the last one argCount()): the args table of the exports and of SQL queries reads them in place.
    std::span<const Arg> all() const { return std::span<const Arg>(m_args.data(), m_args.size()); }
    std::span<const uint32_t> offsets() const { return std::span<const uint32_t>(m_offsets.data(), m_offsets.size()); }
    size_t memoryUsage() const { return m_args.capacity() * sizeof(Arg) + m_offsets.capacity() * sizeof(uint32_t); }
    void reserve(size_t args, size_t sets);
    // Gives back reserved memory only where more than half of it went unused (a copy costs time).
    void shrinkToFit();

private:
    friend class TraceSerializer; // the trace cache stores and restores these arrays as they are
    friend class MappedModel;     // and views them in a memory-mapped cache file

    // Uninitialized on resize: the trace cache restores them whole, on both cores.
    Column<Arg, UninitializedAllocator<Arg>> m_args;
    Column<uint32_t, UninitializedAllocator<uint32_t>> m_offsets;
};

} // namespace lanescope
