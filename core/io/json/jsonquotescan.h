#pragma once
// The first quote or backslash at or after `p` inside a JSON string of a simdjson document: stage 1 has
// checked that every string is closed, and the text is followed by simdjson's padding, so 16-byte loads
// from any byte of a string stay inside the buffer. Shared by the string and key readers.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lanescope::jsonquote {

inline const char *nextQuoteOrBackslash(const char *p)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    for (;; p += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        if (const int hits = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash))))
            return p + __builtin_ctz(unsigned(hits));
    }
#else
    while (*p != '"' && *p != '\\')
        ++p;
    return p;
#endif
}

} // namespace lanescope::jsonquote
