#pragma once
// JSON written in C++ strings with single quotes, so tests need neither escaped quotes nor raw string
// literals (which moc cannot read): every ' becomes ".
#include <string>

namespace lanescope::test {

inline std::string q(std::string s)
{
    for (char &c : s)
        if (c == '\'')
            c = '"';
    return s;
}

} // namespace lanescope::test
