#pragma once
// How findings write their numbers: durations as "12.345 us" / "1.234 ms" (the CLI tables' style),
// percentages with one decimal, bytes with binary units. Tests format the table values with these
// same functions and compare.
#include <cstdint>
#include <string>
#include <vector>

namespace lanescope::insighttext {

std::string ns(int64_t ns);
std::string pct(double percent);
std::string bytes(double bytes);
std::string join(const std::vector<std::string> &parts, const char *separator);

} // namespace lanescope::insighttext
