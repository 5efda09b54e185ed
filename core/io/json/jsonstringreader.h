#pragma once
// String values of a simdjson On-Demand document without a copy when they have no escapes (the
// common case: get_string() would copy every string into the parser's buffer first). Strings with
// escapes are unescaped into a scratch buffer that stays valid until the next call. Shared by the
// JSON importers (Chrome/Kineto trace, system_profile.json).
#include <simdjson.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace lanescope {

class JsonStringReader
{
public:
    bool read(simdjson::ondemand::parser &parser, simdjson::ondemand::value &v, std::string_view &out);

private:
    std::vector<uint8_t> m_unescaped;
};

} // namespace lanescope
