#pragma once
// Positions in JSON text that simdjson cannot report: stage 1 indexes the whole file up front, so
// when it fails (unclosed string, invalid UTF-8, unescaped control character) the importers find the
// byte themselves so their error can name it; and an improper structure is placed where simdjson's
// iteration stopped, often the end of the text, so a stray ',' is found here too. Used by
// JsonReaderBase::failJson and the window splitter. Each returns a byte offset in `s`, 0 for none
// (none of these can stand at byte 0).
#include <cstdint>
#include <string_view>

namespace lanescope::jsontext {

// Start of the last string that is never closed.
uint64_t unclosedString(std::string_view s);
// First byte that is not valid UTF-8.
uint64_t invalidUtf8(std::string_view s);
// First control character (below 0x20) inside a string, which JSON requires escaped.
uint64_t unescapedControl(std::string_view s);
// First ',' outside strings with no value before it ("[ ,", "{ ,", ", ,", ": ,") or after it (", ]").
uint64_t strayComma(std::string_view s);

} // namespace lanescope::jsontext
