#pragma once
// Protobuf wire encoding for the synthetic writers (the NTFF metadata message, the NEFF debug
// members): varints, integer fields and length-delimited fields, as much as those messages use. The
// readers decode with core/io/protobuf; the writers must not share the reader's code, so that a
// reader bug cannot cancel out in a round trip.
#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope::pbwire {

inline void appendVarint(std::string &out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

inline std::string varint(uint64_t v)
{
    std::string out;
    appendVarint(out, v);
    return out;
}

// Wire type 0: key, then the value as a varint.
inline void appendInteger(std::string &out, uint32_t field, uint64_t v)
{
    appendVarint(out, uint64_t(field) << 3);
    appendVarint(out, v);
}

// Wire type 2: key, length, bytes (a string, a packed list or a nested message).
inline void appendBytes(std::string &out, uint32_t field, std::string_view bytes)
{
    appendVarint(out, uint64_t(field) << 3 | 2);
    appendVarint(out, bytes.size());
    out.append(bytes);
}

inline std::string integer(uint32_t field, uint64_t v)
{
    std::string out;
    appendInteger(out, field, v);
    return out;
}

inline std::string bytes(uint32_t field, std::string_view b)
{
    std::string out;
    appendBytes(out, field, b);
    return out;
}

} // namespace lanescope::pbwire
