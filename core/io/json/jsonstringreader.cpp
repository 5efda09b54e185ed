#include "jsonstringreader.h"

#include "jsonquotescan.h"

namespace lanescope {

bool JsonStringReader::read(simdjson::ondemand::parser &parser, simdjson::ondemand::value &v, std::string_view &out)
{
    simdjson::ondemand::raw_json_string raw;
    if (v.get_raw_json_string().get(raw))
        return false;
    const char *p = raw.raw();
    const char *q = jsonquote::nextQuoteOrBackslash(p);
    bool escaped = false;
    while (*q != '"') { // after a backslash, byte by byte (stage 1 has checked the string is closed)
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
