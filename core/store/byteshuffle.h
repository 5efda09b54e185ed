#pragma once
// Byte shuffle of fixed-size records (Blosc's "shuffle"): `records` records of `width` bytes become
// `width` planes of `records` bytes, plane b holding byte b of every record. The trace cache stores
// its record columns shuffled: the high bytes of times, ids and counts are alike from record to
// record, so zstd finds long runs in the planes, compresses the model four times smaller and decodes
// it four times faster than the records as they are (tests/bench/bench_cache.cpp). unshuffle() is on
// the reopen path: widths that are a multiple of 16 (Slice, Arg) take 16 x 16 byte transposes in SSE2
// registers; others, and machines without SSE2, a plain loop.
#include <cstddef>

namespace lanescope {

namespace ByteShuffle {

// `in`: records; `out`: planes (both records * width bytes, not overlapping).
void shuffle(const char *in, char *out, size_t records, size_t width);
// `in`: planes; `out`: records.
void unshuffle(const char *in, char *out, size_t records, size_t width);

} // namespace ByteShuffle

} // namespace lanescope
