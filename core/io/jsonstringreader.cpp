#include "jsonstringreader.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lanescope {

bool JsonStringReader::read(simdjson::ondemand::parser &parser, simdjson::ondemand::value &v, std::string_view &out)
{
    simdjson::ondemand::raw_json_string raw;
    if (v.get_raw_json_string().get(raw))
        return false;
    const char *p = raw.raw();
    const char *q = p;
    bool escaped = false;
#if defined(__SSE2__)
    // Sixteen bytes at a time up to the first quote or backslash: stage 1 has checked that every string
    // is closed, and the text is followed by simdjson's padding, so the loads stay inside the buffer.
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    for (;;) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(q));
        const int hits = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (hits) {
            q += __builtin_ctz(unsigned(hits));
            break;
        }
        q += 16;
    }
#endif
    while (*q != '"') { // stage 1 has checked that every string is closed
        if (*q == '\\') {
            escaped = true;
            ++q;
        }
        ++q;
    }
    if (!escaped) {
        out = std::string_view(p, size_t(q - p));
        return true;
    }
    m_unescaped.resize(size_t(q - p) + simdjson::SIMDJSON_PADDING);
    uint8_t *dst = m_unescaped.data();
    return parser.unescape(raw, dst).get(out) == simdjson::SUCCESS;
}

} // namespace lanescope
