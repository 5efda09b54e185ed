#include "jsonblockscan.h"

#include <cstdlib>
#include <cstring>

namespace lanescope::jsonscan {

bool supported(Isa isa)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    // The wider variants find the bytes inside strings by a carry-less multiply (PCLMULQDQ).
    const bool clmul = __builtin_cpu_supports("pclmul");
    switch (isa) {
    case Isa::Scalar:
    case Isa::Sse2: return true;
    case Isa::Avx2: return clmul && __builtin_cpu_supports("avx2");
    case Isa::Avx512: return clmul && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    }
    return false;
#else
    return isa == Isa::Scalar;
#endif
}

// LANESCOPE_JSON_SCAN=sse2|avx2 caps the instruction set (tests compare the variants; a processor that
// misreports its features can be worked around).
Isa isa()
{
#if defined(__x86_64__)
    Isa best = Isa::Sse2;
    if (supported(Isa::Avx2))
        best = Isa::Avx2;
    if (supported(Isa::Avx512))
        best = Isa::Avx512;
    if (const char *cap = std::getenv("LANESCOPE_JSON_SCAN")) {
        if (std::strcmp(cap, "sse2") == 0)
            best = Isa::Sse2;
        else if (std::strcmp(cap, "avx2") == 0 && best == Isa::Avx512)
            best = Isa::Avx2;
    }
    return best;
#else
    return Isa::Scalar;
#endif
}

const char *isaName(Isa isa)
{
    switch (isa) {
    case Isa::Scalar: return "scalar";
    case Isa::Sse2: return "sse2";
    case Isa::Avx2: return "avx2";
    case Isa::Avx512: return "avx512";
    }
    return "scalar";
}

} // namespace lanescope::jsonscan
