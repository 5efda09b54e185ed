#include "systemprofiledata.h"

#include "util/textutil.h"

#include <charconv>

namespace lanescope {

namespace {

uint64_t fnv1a(std::string_view s)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

} // namespace

SystemProfileId SystemProfileId::fromText(std::string_view s)
{
    s = text::trim(s);
    if (s.empty())
        return {};
    uint64_t v = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (auto r = std::from_chars(s.data() + 2, s.data() + s.size(), v, 16); r.ec == std::errc() && r.ptr == s.data() + s.size())
            return {v, true};
    } else {
        if (auto r = std::from_chars(s.data(), s.data() + s.size(), v, 10); r.ec == std::errc() && r.ptr == s.data() + s.size())
            return {v, true};
        int64_t sv = 0;
        if (text::parseInt(s, sv))
            return {uint64_t(sv), true};
    }
    return {fnv1a(s) | (uint64_t(1) << 63), true};
}

} // namespace lanescope
