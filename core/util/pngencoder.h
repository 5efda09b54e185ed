#pragma once
// A small PNG encoder for opaque 8-bit RGB pictures (the timeline and dock screenshots), built on zlib:
// each row filtered "Up" when it repeats the row above (all zeros) and "Sub" otherwise (runs of one
// colour become zeros), deflated at zlib's fastest level. A profiler's pictures are long runs of flat
// colour, which this compresses about as well as a general encoder's per-row filter search at a
// fraction of its time (Qt's writer spent most of a reopened trace's `lanescope-cli screenshot` there).
#include <cstddef>
#include <cstdint>
#include <string>

namespace lanescope::png {

// The PNG file of a width x height picture whose rows start `stride` bytes apart, 3 bytes (R, G, B) per
// pixel. Returns an empty string when the sizes are not positive or zlib fails.
std::string encodeRgb(const uint8_t *pixels, int width, int height, size_t stride);

} // namespace lanescope::png
