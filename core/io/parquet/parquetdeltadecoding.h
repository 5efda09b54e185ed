#pragma once
// Decoders of the Parquet encodings that writers choose for version-2 files (DuckDB's
// PARQUET_VERSION v2, parquet-mr's v2 writer): DELTA_BINARY_PACKED (integers), DELTA_LENGTH_BYTE_ARRAY
// and DELTA_BYTE_ARRAY (text), BYTE_STREAM_SPLIT (floating point and fixed-width values).
// Reference: parquet-format's Encodings.md. Each returns false with `error` (what, at which byte of
// `in`) on malformed data; none reads outside `in`.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::parquet {

// Exactly `count` integers (the header's total must be `count`), appended to `out`; `used`: the
// bytes the encoding took (the values that follow it, for DELTA_LENGTH_BYTE_ARRAY). `bits32`: the
// column is INT32 (deltas wrap at 32 bits).
bool decodeDeltaBinaryPacked(std::string_view in, size_t count, bool bits32, std::vector<int64_t> *out, size_t *used,
                             std::string *error);

// `count` values as views into `in`.
bool decodeDeltaLengthByteArray(std::string_view in, size_t count, std::vector<std::string_view> *out, std::string *error);

// `count` values assembled into `storage` (cleared; `out` views into it).
bool decodeDeltaByteArray(std::string_view in, size_t count, std::string *storage, std::vector<std::string_view> *out,
                          std::string *error);

// `count` values of `width` bytes each, unsplit into little-endian value bytes appended to `out`.
bool decodeByteStreamSplit(std::string_view in, size_t count, int width, std::string *out, std::string *error);

} // namespace lanescope::parquet
