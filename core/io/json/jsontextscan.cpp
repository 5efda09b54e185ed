#include "jsontextscan.h"

namespace lanescope {

namespace {

// Calls f(i) for each byte of `s` outside strings, a string's opening quote included (its bytes and
// closing quote are skipped, escapes inside it honoured), until f returns false.
template <class F>
void outsideStrings(std::string_view s, F f)
{
    for (size_t i = 0; i < s.size(); ++i) {
        if (!f(i))
            return;
        if (s[i] == '"')
            for (++i; i < s.size() && s[i] != '"'; ++i)
                i += s[i] == '\\';
    }
}

} // namespace

uint64_t jsontext::unclosedString(std::string_view s)
{
    uint64_t start = 0; // the last string opened: called once simdjson found one never closed
    outsideStrings(s, [&](size_t i) {
        if (s[i] == '"')
            start = i;
        return true;
    });
    return start;
}

uint64_t jsontext::invalidUtf8(std::string_view s)
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

uint64_t jsontext::unescapedControl(std::string_view s)
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

uint64_t jsontext::strayComma(std::string_view s)
{
    char previous = 0;  // the last byte outside strings that is not white space (a string: '"')
    size_t lastComma = 0;
    uint64_t found = 0;
    outsideStrings(s, [&](size_t i) {
        const char c = s[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            return true;
        if (c == ',' && (previous == '[' || previous == '{' || previous == ',' || previous == ':'))
            found = i;
        else if ((c == ']' || c == '}') && previous == ',')
            found = lastComma;
        else if (c == ',')
            lastComma = i;
        previous = c;
        return found == 0;
    });
    return found;
}

} // namespace lanescope
