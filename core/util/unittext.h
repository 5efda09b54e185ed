#pragma once
// Quantities as human text, the one formatter of the CLI and the GUI for counter values, byte sizes
// and rates (DurationText does times). About three significant digits, the unit chosen by size, so a
// number never needs more than three digits before its unit:
//   bytes(12'910'592)     "12.3 MiB"   (B, KiB, MiB, GiB, TiB, PiB: powers of 1024)
//   byteRate(1.5e9)       "1.4 GiB/s"
//   percent(12.345)       "12.3 %"
//   count(12'345)         "12,345"     (below a million: every digit, thousands separated)
//   count(4'560'000)      "4.56 M"     (from a million: k, M, G, T, P, E powers of 1000)
//   value(v, unit)        by a counter track's unit name (Track::unit): "bytes", "B" -> bytes();
//                         "B/s", "bytes/s" -> byteRate(); "%", "percent" -> percent(); any other unit
//                         follows count(): "12 packets"; no unit: count() alone.
// ASCII only (the CLI's printf widths count bytes); NaN and infinities read "nan", "inf", "-inf".
// Raw numbers stay raw where a program reads them (--json, CSV): this is for people.
#include <string>
#include <string_view>

namespace lanescope {

class UnitText
{
public:
    static std::string bytes(double bytes);
    static std::string byteRate(double bytesPerSecond);
    static std::string percent(double percent);
    static std::string count(double value);
    static std::string value(double value, std::string_view unit);

    // Every digit of the integer part, thousands separated with ',': "12,910,592", "-1,024".
    static std::string thousands(double value);
};

} // namespace lanescope
