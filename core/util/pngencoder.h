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

// How the pixels are laid out in memory: 3 bytes R, G, B; or a native-endian 32-bit 0xffRRGGBB word
// (QImage::Format_RGB32, what a window's backing store holds: written without a conversion first).
enum class Pixels { Rgb888, Rgb32 };

// The PNG file (8-bit RGB) of a width x height picture whose rows start `stride` bytes apart. Returns an
// empty string when the sizes are not positive or zlib fails.
std::string encodeRgb(const uint8_t *pixels, int width, int height, size_t stride, Pixels layout = Pixels::Rgb888);

} // namespace lanescope::png
