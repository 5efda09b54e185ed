#include "jsontextscan.h"

namespace lanescope {

uint64_t JsonTextScan::unclosedString(std::string_view s)
{
    bool inString = false;
    uint64_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            start = i;
        }
    }
    return start;
}

uint64_t JsonTextScan::invalidUtf8(std::string_view s)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    size_t i = 0;
    const size_t n = s.size();
    while (i < n) {
        const unsigned char c = p[i];
        const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > n)
            return i;
        for (size_t k = 1; k < len; ++k)
            if ((p[i + k] & 0xc0) != 0x80)
                return i;
        i += len;
    }
    return 0;
}

uint64_t JsonTextScan::unescapedControl(std::string_view s)
{
    bool inString = false;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inString && c == '\\')
            ++i;
        else if (c == '"')
            inString = !inString;
        else if (inString && static_cast<unsigned char>(c) < 0x20)
            return i;
    }
    return 0;
}

uint64_t JsonTextScan::strayComma(std::string_view s)
{
    bool inString = false;
    char previous = 0;      // the last byte outside strings that is not white space (a string: '"')
    size_t lastComma = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == ',' && (previous == '[' || previous == '{' || previous == ',' || previous == ':'))
            return i;
        if ((c == ']' || c == '}') && previous == ',')
            return lastComma;
        if (c == ',')
            lastComma = i;
        if (c == '"')
            inString = true;
        previous = c;
    }
    return 0;
}

} // namespace lanescope
