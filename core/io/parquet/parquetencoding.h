#pragma once
// Parquet's value and level encodings that Lanescope writes and reads: the RLE / bit-packed hybrid
// (definition levels, dictionary indices, RLE booleans) and the little-endian PLAIN layout.
// Reference: parquet-format's Encodings.md.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::parquet {

// Bits needed for values 0..maxValue.
int bitWidth(uint64_t maxValue);

// Appends the RLE / bit-packed hybrid encoding of `values` (each < 2^width) to `out`: runs of 8 or
// more equal values as RLE runs, the rest bit-packed in groups of 8.
void encodeRleHybrid(const uint32_t *values, size_t count, int width, std::string *out);

// Decodes exactly `count` values of `width` bits from `in` into `out` (appended). False with `error`
// (what and the byte offset within `in`) when the data ends early or a run is malformed. Values of a
// bit-packed group beyond `count` are ignored (the last group is padded).
bool decodeRleHybrid(std::string_view in, int width, size_t count, std::vector<uint32_t> *out, std::string *error);

// PLAIN
inline void appendLe32(std::string *out, uint32_t v)
{
    char b[4] = {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
    out->append(b, 4);
}
inline void appendLe64(std::string *out, uint64_t v)
{
    appendLe32(out, uint32_t(v));
    appendLe32(out, uint32_t(v >> 32));
}
inline uint32_t loadLe32(const char *p)
{
    const auto *u = reinterpret_cast<const unsigned char *>(p);
    return uint32_t(u[0]) | uint32_t(u[1]) << 8 | uint32_t(u[2]) << 16 | uint32_t(u[3]) << 24;
}
inline uint64_t loadLe64(const char *p) { return uint64_t(loadLe32(p)) | uint64_t(loadLe32(p + 4)) << 32; }

} // namespace lanescope::parquet
