#include "sourceframe.h"

#include "util/textutil.h"

namespace lanescope {

namespace {

constexpr size_t kMaxLineDigits = 9; // fits uint32_t

bool hasLineBreak(std::string_view s)
{
    return s.find_first_of("\r\n") != std::string_view::npos;
}

} // namespace

std::optional<SourceFrame> SourceFrame::parse(std::string_view name)
{
    for (size_t open = name.find('('); open != std::string_view::npos; open = name.find('(', open + 1)) {
        size_t end = open + 1;
        while (end < name.size() && text::isDigit(name[end]))
            ++end;
        const size_t digits = end - open - 1;
        if (digits == 0 || digits > kMaxLineDigits || name.substr(end, 3) != "): ")
            continue;
        const std::string_view path = name.substr(0, open);
        const std::string_view function = name.substr(end + 3);
        if (path.empty() || function.empty() || hasLineBreak(path) || hasLineBreak(function))
            return std::nullopt; // the first `(digits): ` decides: a later one would make the path contain it
        uint32_t line = 0;
        for (size_t i = open + 1; i < end; ++i)
            line = line * 10 + uint32_t(name[i] - '0');
        return SourceFrame{path, line, function};
    }
    return std::nullopt;
}

bool SourceFrame::isFilePath(std::string_view path)
{
    return !(path.size() >= 2 && path.front() == '<' && path.back() == '>');
}

} // namespace lanescope
