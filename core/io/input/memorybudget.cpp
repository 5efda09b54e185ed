#include "memorybudget.h"

#include "importerror.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace lanescope {

std::optional<uint64_t> MemoryBudget::parse(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    size_t digits = 0;
    bool dot = false;
    while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || (text[digits] == '.' && !dot))) {
        dot = dot || text[digits] == '.';
        ++digits;
    }
    if (digits == 0 || (digits == 1 && dot))
        return std::nullopt;
    std::string_view unit = text.substr(digits);
    if (unit.size() >= 2 && (unit.substr(unit.size() - 2) == "iB" || unit.substr(unit.size() - 2) == "ib"))
        unit.remove_suffix(2);
    else if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b') && unit.size() == 2)
        unit.remove_suffix(1);
    int shift = 0;
    if (unit.size() > 1)
        return std::nullopt;
    if (unit.size() == 1) {
        switch (unit[0]) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        case 't': case 'T': shift = 40; break;
        case 'b': case 'B': shift = 0; break;
        default: return std::nullopt;
        }
    }
    const double value = std::strtod(std::string(text.substr(0, digits)).c_str(), nullptr) * std::ldexp(1.0, shift);
    if (!(value >= 1.0) || value > std::ldexp(1.0, 62))
        return std::nullopt;
    return static_cast<uint64_t>(value);
}

uint64_t MemoryBudget::fromEnvironment()
{
    const char *v = std::getenv(kEnvironmentVariable);
    if (!v || !*v)
        return kDefault;
    return parse(v).value_or(kDefault);
}

std::string MemoryBudget::format(uint64_t bytes)
{
    if (bytes >= (uint64_t(1) << 30) && bytes % (uint64_t(1) << 30) == 0)
        return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (uint64_t(1) << 20))
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

std::string MemoryBudget::hint()
{
    return std::string("raise it with --memory-budget SIZE or ") + kEnvironmentVariable + "=SIZE";
}

void MemoryBudget::requireForParsing(uint64_t textBytes, const std::string &name, uint64_t budget)
{
    const uint64_t need = textBytes > UINT64_MAX / 2 ? UINT64_MAX : textBytes * 2;
    if (need <= budget)
        return;
    throw ImportError(name, 0,
                      "the JSON text is " + format(textBytes) + "; parsing it needs about " + format(need)
                          + " (the text and its index), more than the memory budget of " + format(budget) + "; "
                          + hint());
}

} // namespace lanescope
