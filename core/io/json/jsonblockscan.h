#pragma once
// The 64-byte block scan of JsonWindowSplitter: which bytes of a block are unescaped quotes, and which
// brackets and commas lie outside strings, handed to the caller a block at a time so it can count them
// by popcount or look at them one by one (simdjson's branchless string tracking: escapes by carry,
// strings by prefix xor, or one carry-less multiply where PCLMULQDQ is there). Runs with the widest vector instructions the processor has (AVX-512BW,
// AVX2, else SSE2), chosen once at run time; each variant is the loop of jsonblockscan.inc compiled
// for its instruction set (function target attributes), so the per-block masks inline into it.
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace lanescope::jsonscan {

// Carried from one block to the next.
struct State
{
    uint64_t prevEscaped = 0;  // the first byte of the next block is escaped
    uint64_t prevInString = 0; // all ones when the next block starts inside a string
};

// Characters escaped by a backslash in a 64-byte block; `prevEscaped` carries into the next block.
inline uint64_t escapedMask(uint64_t backslash, uint64_t &prevEscaped)
{
    constexpr uint64_t kEven = 0x5555555555555555ull;
    backslash &= ~prevEscaped;
    const uint64_t followsEscape = backslash << 1 | prevEscaped;
    const uint64_t oddStarts = backslash & ~kEven & ~followsEscape;
    uint64_t evenStarts = 0;
    prevEscaped = __builtin_add_overflow(oddStarts, backslash, &evenStarts) ? 1 : 0;
    return (kEven ^ (evenStarts << 1)) & followsEscape;
}

inline uint64_t prefixXor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// The brackets and commas outside strings of one 64-byte block, bit k for byte k.
struct Masks
{
    uint64_t open = 0;  // '[' and '{'
    uint64_t close = 0; // ']' and '}'
    uint64_t comma = 0;
};

inline constexpr size_t kNoStop = ~size_t(0);

// Calls on(at) for the brackets and commas of a block at `base` in byte order until one returns true;
// returns that byte's position, else kNoStop. For a block handler that looks at bytes one by one.
template <class On>
inline size_t eachStructural(size_t base, const Masks &m, On &&on)
{
    for (uint64_t bits = m.open | m.close | m.comma; bits; bits &= bits - 1) {
        const size_t at = base + size_t(__builtin_ctzll(bits));
        if (on(at))
            return at;
    }
    return kNoStop;
}

enum class Isa { Scalar, Sse2, Avx2, Avx512 };
// The instruction set scanBlocks uses on this processor.
Isa isa();
// Whether this processor can run the variant for `isa` (what isa() picks from, before
// LANESCOPE_JSON_SCAN caps it; tests run every variant it allows).
bool supported(Isa isa);
const char *isaName(Isa isa);

} // namespace lanescope::jsonscan

#if defined(__x86_64__)
#include <immintrin.h>

// Each variant is compiled for its instruction set by function attributes (gcc and clang both take
// __attribute__((target)); clang ignores `#pragma GCC target`). Inlining goes one way only: a function
// without the attribute (escapedMask, a block handler) inlines into a variant, a variant never into
// code compiled for the baseline, so the dispatch in scanBlocks below is a plain call. No lambdas inside
// the variants: a lambda's body does not inherit its enclosing function's target.
#define LANESCOPE_JSONSCAN_AVX2 __attribute__((target("avx2,pclmul")))
#define LANESCOPE_JSONSCAN_AVX512 __attribute__((target("avx512f,avx512bw,pclmul")))

namespace lanescope::jsonscan {

// prefixXor in one instruction: a carry-less multiply by all ones (the AVX2 and AVX-512 variants).
__attribute__((target("pclmul"))) inline uint64_t clmulPrefixXor(uint64_t x)
{
    return uint64_t(_mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, int64_t(x)), _mm_set1_epi8(char(0xFF)), 0)));
}

// SSE2 is part of x86-64: this variant needs no attribute.
namespace sse2 {
#define LANESCOPE_JSONSCAN_TARGET
inline uint64_t quotedBits(uint64_t quotes) { return prefixXor(quotes); }
// Backslashes, quotes, opening and closing brackets and commas of the 64 bytes at `p` ('[' / '{' and
// ']' / '}' differ only in bit 0x20, so one compare of (byte | 0x20) finds both of a kind).
inline void masks(const char *p, uint64_t &backslash, uint64_t &quote, Masks &m)
{
    const __m128i bs = _mm_set1_epi8('\\'), q = _mm_set1_epi8('"'), comma = _mm_set1_epi8(','), open = _mm_set1_epi8('{'),
                  close = _mm_set1_epi8('}'), bit = _mm_set1_epi8(0x20);
    backslash = quote = m.open = m.close = m.comma = 0;
    for (int k = 0; k < 4; ++k) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * k));
        const __m128i folded = _mm_or_si128(v, bit);
        const int shift = 16 * k;
        backslash |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, bs)))) << shift;
        quote |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, q)))) << shift;
        m.open |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, open)))) << shift;
        m.close |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, close)))) << shift;
        m.comma |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma)))) << shift;
    }
}
#include "jsonblockscan.inc"
#undef LANESCOPE_JSONSCAN_TARGET
} // namespace sse2

namespace avx2 {
#define LANESCOPE_JSONSCAN_TARGET LANESCOPE_JSONSCAN_AVX2
LANESCOPE_JSONSCAN_AVX2 inline uint64_t quotedBits(uint64_t quotes) { return clmulPrefixXor(quotes); }
LANESCOPE_JSONSCAN_AVX2 inline void masks(const char *p, uint64_t &backslash, uint64_t &quote, Masks &m)
{
    const __m256i bs = _mm256_set1_epi8('\\'), q = _mm256_set1_epi8('"'), comma = _mm256_set1_epi8(','),
                  open = _mm256_set1_epi8('{'), close = _mm256_set1_epi8('}'), bit = _mm256_set1_epi8(0x20);
    backslash = quote = m.open = m.close = m.comma = 0;
    for (int k = 0; k < 2; ++k) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + 32 * k));
        const __m256i folded = _mm256_or_si256(v, bit);
        const int shift = 32 * k;
        backslash |= uint64_t(uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, bs)))) << shift;
        quote |= uint64_t(uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, q)))) << shift;
        m.open |= uint64_t(uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(folded, open)))) << shift;
        m.close |= uint64_t(uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(folded, close)))) << shift;
        m.comma |= uint64_t(uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, comma)))) << shift;
    }
}
#include "jsonblockscan.inc"
#undef LANESCOPE_JSONSCAN_TARGET
} // namespace avx2

namespace avx512 {
#define LANESCOPE_JSONSCAN_TARGET LANESCOPE_JSONSCAN_AVX512
LANESCOPE_JSONSCAN_AVX512 inline uint64_t quotedBits(uint64_t quotes) { return clmulPrefixXor(quotes); }
LANESCOPE_JSONSCAN_AVX512 inline void masks(const char *p, uint64_t &backslash, uint64_t &quote, Masks &m)
{
    const __m512i v = _mm512_loadu_si512(p);
    const __m512i folded = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
    backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
    quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
    m.open = _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('{'));
    m.close = _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('}'));
    m.comma = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(','));
}
#include "jsonblockscan.inc"
#undef LANESCOPE_JSONSCAN_TARGET
} // namespace avx512

// Scans whole 64-byte blocks of p[i, n) (see jsonblockscan.inc) with the processor's widest variant.
template <class OnBlock>
size_t scanBlocks(const char *p, size_t i, size_t n, State &state, bool &stopped, OnBlock &&on)
{
    static const Isa best = isa();
    switch (best) {
    case Isa::Avx512: return avx512::scanBlocks(p, i, n, state, stopped, on);
    case Isa::Avx2: return avx2::scanBlocks(p, i, n, state, stopped, on);
    default: return sse2::scanBlocks(p, i, n, state, stopped, on);
    }
}

} // namespace lanescope::jsonscan
#define LANESCOPE_JSON_BLOCK_SCAN 1
#endif
