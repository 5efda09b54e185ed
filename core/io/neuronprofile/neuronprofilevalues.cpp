#include "neuronprofilevalues.h"

#include "util/textutil.h"

#include <limits>

namespace lanescope {

bool NeuronProfileValues::secondsToPs(std::string_view s, uint64_t &ps)
{
    s = text::trim(s);
    uint64_t m = 0;
    int exp10 = 12, digits = 0;
    bool fraction = false;
    size_t i = 0;
    for (; i < s.size() && ((s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && !fraction)); ++i) {
        if (s[i] == '.') {
            fraction = true;
        } else if (++digits && m < 100000000000000000ull) {
            m = m * 10 + uint64_t(s[i] - '0');
            exp10 -= fraction ? 1 : 0;
        } else {
            exp10 += fraction ? 0 : 1;
        }
    }
    int64_t e = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        const std::string_view rest = s.substr(i + 1);
        if (!text::parseInt(rest.substr(!rest.empty() && rest[0] == '+' ? 1 : 0), e) || e < -400 || e > 400)
            return false;
        i = s.size();
    }
    if (!digits || i != s.size())
        return false;
    for (exp10 += int(e); exp10 > 0; --exp10) {
        if (m > std::numeric_limits<uint64_t>::max() / 10)
            return false;
        m *= 10;
    }
    for (; exp10 < -1 && m; ++exp10)
        m /= 10;
    ps = exp10 < 0 ? m / 10 + (m % 10 >= 5 ? 1 : 0) : m;
    return true;
}

bool NeuronProfileValues::engineFromName(std::string_view s, NtffEngine &e)
{
    if (s == "Tensor" || s == "TensorMatrix" || s == "PE" || s == "TensorE")
        e = NtffEngine::Tensor;
    else if (s == "Vector" || s == "DVE" || s == "VectorE")
        e = NtffEngine::Vector;
    else if (s == "Scalar" || s == "ACT" || s == "Activation" || s == "ScalarE")
        e = NtffEngine::Scalar;
    else if (s == "GpSimd" || s == "POOL" || s == "Pool" || s == "GpSimdE")
        e = NtffEngine::GpSimd;
    else if (s == "Sync" || s == "SP" || s == "SyncE")
        e = NtffEngine::Sync;
    else
        return false;
    return true;
}

bool NeuronProfileValues::laneFromName(std::string_view s, NtffLane &l)
{
    for (int i = 0; i < kNtffLaneCount; ++i)
        if (ntffLaneName(static_cast<NtffLane>(i)) == s) {
            l = static_cast<NtffLane>(i);
            return true;
        }
    return false;
}

} // namespace lanescope
