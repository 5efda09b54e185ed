#pragma once
// Small text helpers every part of core needs (ASCII only, locale-free, no allocation unless the
// result is a new string). One copy here instead of one per file.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

namespace lanescope::text {

// JSON whitespace: space, tab, CR, LF.
constexpr bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isAlnum(char c) { return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Without leading and trailing whitespace (isSpace).
constexpr std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// ASCII lower case.
inline std::string lower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

// True when `s` ends with `suffix`, ignoring ASCII case (`suffix` given in lower case).
constexpr bool endsWithNoCase(std::string_view s, std::string_view suffix)
{
    if (s.size() < suffix.size())
        return false;
    for (size_t i = 0; i < suffix.size(); ++i) {
        char c = s[s.size() - suffix.size() + i];
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
        if (c != suffix[i])
            return false;
    }
    return true;
}

// `token` occurs in `text` as a whole word: not preceded or followed by a letter or digit.
constexpr bool hasToken(std::string_view text, std::string_view token)
{
    if (token.empty())
        return false;
    for (size_t at = text.find(token); at != std::string_view::npos; at = text.find(token, at + 1)) {
        const bool before = at == 0 || !isAlnum(text[at - 1]);
        const bool after = at + token.size() >= text.size() || !isAlnum(text[at + token.size()]);
        if (before && after)
            return true;
    }
    return false;
}

// Lower-case hexadecimal digits of every byte.
inline std::string hex(std::string_view bytes)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out.push_back(digits[c >> 4]);
        out.push_back(digits[c & 15]);
    }
    return out;
}
inline std::string hex(const uint8_t *p, size_t n) { return hex(std::string_view(reinterpret_cast<const char *>(p), n)); }

// A whole decimal integer (optional '-'; surrounding whitespace allowed); false on anything else or
// on overflow, and `out` is then unchanged.
inline bool parseInt(std::string_view s, int64_t &out)
{
    s = trim(s);
    if (s.empty())
        return false;
    int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 10);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return false;
    out = v;
    return true;
}

// splitmix64: a portable, deterministic generator for the sample writers (std:: distributions are
// not specified bit-exactly, so the same seed must give the same file on every platform).
class SplitMix64
{
public:
    explicit SplitMix64(uint64_t seed) : m_state(seed) {}
    uint64_t next()
    {
        uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // `ns` varied by up to ±permille/1000, never below `floor`.
    int64_t vary(int64_t ns, int permille, int64_t floor = 1)
    {
        const int64_t span = 2 * int64_t(permille) + 1;
        const int64_t delta = int64_t(next() % uint64_t(span)) - permille;
        const int64_t v = ns + ns * delta / 1000;
        return v < floor ? floor : v;
    }

private:
    uint64_t m_state;
};

} // namespace lanescope::text
