#include "byteshuffle.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lanescope {

namespace {

#if defined(__SSE2__)
// Transposes 16 rows of 16 bytes in place: afterwards v[k] holds byte k of every input row, in row
// order. Four rounds of interleaving (bytes, pairs, quads, halves).
void transpose16(__m128i v[16])
{
    __m128i a[16], b[16], c[16];
    for (int i = 0; i < 8; ++i) {
        a[2 * i] = _mm_unpacklo_epi8(v[2 * i], v[2 * i + 1]);     // columns 0-7 of rows 2i, 2i+1
        a[2 * i + 1] = _mm_unpackhi_epi8(v[2 * i], v[2 * i + 1]); // columns 8-15
    }
    for (int i = 0; i < 4; ++i) { // rows 4i .. 4i+3
        b[4 * i] = _mm_unpacklo_epi16(a[4 * i], a[4 * i + 2]);     // columns 0-3
        b[4 * i + 1] = _mm_unpackhi_epi16(a[4 * i], a[4 * i + 2]); // columns 4-7
        b[4 * i + 2] = _mm_unpacklo_epi16(a[4 * i + 1], a[4 * i + 3]); // columns 8-11
        b[4 * i + 3] = _mm_unpackhi_epi16(a[4 * i + 1], a[4 * i + 3]); // columns 12-15
    }
    for (int g = 0; g < 16; g += 8) { // rows g .. g+7
        for (int q = 0; q < 4; ++q) {
            c[g + 2 * q] = _mm_unpacklo_epi32(b[g + q], b[g + 4 + q]);     // columns 4q, 4q+1
            c[g + 2 * q + 1] = _mm_unpackhi_epi32(b[g + q], b[g + 4 + q]); // columns 4q+2, 4q+3
        }
    }
    for (int m = 0; m < 8; ++m) { // columns 2m, 2m+1, all 16 rows
        v[2 * m] = _mm_unpacklo_epi64(c[m], c[8 + m]);
        v[2 * m + 1] = _mm_unpackhi_epi64(c[m], c[8 + m]);
    }
}
// Records of a width that is a multiple of 16, 16 at a time: records -> planes (toPlanes) or back.
// Returns how many records it did (the rest is the tail's).
template <bool toPlanes>
size_t transposeSixteens(const char *in, char *out, size_t records, size_t width)
{
    size_t done = 0;
    for (; done + 16 <= records; done += 16)
        for (size_t h = 0; h < width; h += 16) { // 16 records x bytes h .. h+15 <-> planes h .. h+15
            __m128i v[16];
            for (size_t k = 0; k < 16; ++k)
                v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(
                    toPlanes ? in + (done + k) * width + h : in + (h + k) * records + done));
            transpose16(v);
            for (size_t k = 0; k < 16; ++k)
                _mm_storeu_si128(reinterpret_cast<__m128i *>(toPlanes ? out + (h + k) * records + done : out + (done + k) * width + h),
                                 v[k]);
        }
    return done;
}
#endif

void shuffleTail(const char *in, char *out, size_t records, size_t width, size_t from)
{
    for (size_t b = 0; b < width; ++b)
        for (size_t r = from; r < records; ++r)
            out[b * records + r] = in[r * width + b];
}

void unshuffleTail(const char *in, char *out, size_t records, size_t width, size_t from)
{
    for (size_t r = from; r < records; ++r)
        for (size_t b = 0; b < width; ++b)
            out[r * width + b] = in[b * records + r];
}

#if defined(__SSE2__)
__m128i planeAt(const char *in, size_t records, size_t plane, size_t at)
{
    return _mm_loadu_si128(reinterpret_cast<const __m128i *>(in + plane * records + at));
}

// 16 records of 4 bytes (uint32 columns) from 4 planes.
void unshuffle4(const char *in, char *out, size_t records, size_t at)
{
    const __m128i p0 = planeAt(in, records, 0, at), p1 = planeAt(in, records, 1, at);
    const __m128i p2 = planeAt(in, records, 2, at), p3 = planeAt(in, records, 3, at);
    const __m128i lo01 = _mm_unpacklo_epi8(p0, p1), hi01 = _mm_unpackhi_epi8(p0, p1);
    const __m128i lo23 = _mm_unpacklo_epi8(p2, p3), hi23 = _mm_unpackhi_epi8(p2, p3);
    auto *o = reinterpret_cast<__m128i *>(out + at * 4);
    _mm_storeu_si128(o, _mm_unpacklo_epi16(lo01, lo23));
    _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(lo01, lo23));
    _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(hi01, hi23));
    _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(hi01, hi23));
}

// 16 records of 8 bytes (pairs of uint32) from 8 planes.
void unshuffle8(const char *in, char *out, size_t records, size_t at)
{
    __m128i a[8], b[8];
    for (size_t i = 0; i < 4; ++i) {
        const __m128i x = planeAt(in, records, 2 * i, at), y = planeAt(in, records, 2 * i + 1, at);
        a[2 * i] = _mm_unpacklo_epi8(x, y);     // records 0-7, bytes 2i, 2i+1
        a[2 * i + 1] = _mm_unpackhi_epi8(x, y); // records 8-15
    }
    for (size_t h = 0; h < 2; ++h) { // bytes 4h .. 4h+3
        b[4 * h] = _mm_unpacklo_epi16(a[4 * h], a[4 * h + 2]);     // records 0-3
        b[4 * h + 1] = _mm_unpackhi_epi16(a[4 * h], a[4 * h + 2]); // records 4-7
        b[4 * h + 2] = _mm_unpacklo_epi16(a[4 * h + 1], a[4 * h + 3]); // records 8-11
        b[4 * h + 3] = _mm_unpackhi_epi16(a[4 * h + 1], a[4 * h + 3]); // records 12-15
    }
    auto *o = reinterpret_cast<__m128i *>(out + at * 8);
    for (size_t q = 0; q < 4; ++q) { // records 4q .. 4q+3, two a register
        _mm_storeu_si128(o + 2 * q, _mm_unpacklo_epi32(b[q], b[4 + q]));
        _mm_storeu_si128(o + 2 * q + 1, _mm_unpackhi_epi32(b[q], b[4 + q]));
    }
}
#endif

} // namespace

void ByteShuffle::shuffle(const char *in, char *out, size_t records, size_t width)
{
    size_t done = 0;
#if defined(__SSE2__)
    if (width % 16 == 0)
        done = transposeSixteens<true>(in, out, records, width);
#endif
    shuffleTail(in, out, records, width, done);
}

void ByteShuffle::unshuffle(const char *in, char *out, size_t records, size_t width)
{
    size_t done = 0;
#if defined(__SSE2__)
    if (width == 4 || width == 8) {
        for (; done + 16 <= records; done += 16)
            (width == 4 ? unshuffle4 : unshuffle8)(in, out, records, done);
    } else if (width % 16 == 0) {
        done = transposeSixteens<false>(in, out, records, width);
    }
#endif
    unshuffleTail(in, out, records, width, done);
}

} // namespace lanescope
