#pragma once
// UTF-8 text of the core (std::string, std::string_view) as a QString, for the places that hand core
// text to Qt (JSON output, models, widgets).
#include <QString>

#include <string_view>

namespace lanescope {

inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace lanescope
