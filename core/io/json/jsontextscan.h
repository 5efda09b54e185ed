#pragma once
// Positions in JSON text that simdjson cannot report: stage 1 indexes the whole file up front, so
// when it fails (unclosed string, invalid UTF-8, unescaped control character) the importers find the
// byte themselves so their error can name it. Used by JsonReaderBase::failJson.
#include <cstdint>
#include <string_view>

namespace lanescope {

class JsonTextScan
{
public:
    // Start of the last string that is never closed (0 when none).
    static uint64_t unclosedString(std::string_view s);
    // First byte that is not valid UTF-8 (0 when none).
    static uint64_t invalidUtf8(std::string_view s);
    // First control character (below 0x20) inside a string, which JSON requires escaped (0 when none).
    static uint64_t unescapedControl(std::string_view s);
    // First ',' outside strings with no value before it ("[ ,", "{ ,", ", ,", ": ,") or after it
    // (", ]", ", }"), which simdjson reports as an improper structure without a usable position (0
    // when none).
    static uint64_t strayComma(std::string_view s);
};

} // namespace lanescope
