#include "slicecolors.h"

#include "model/trace.h"

namespace lanescope {

uint32_t SliceColors::hashName(std::string_view name)
{
    uint32_t h = 2166136261u;
    for (char c : name) {
        h ^= uint8_t(c);
        h *= 16777619u;
    }
    return h;
}

QRgb SliceColors::colorForName(std::string_view name)
{
    const uint32_t h = hashName(name);
    // Final avalanche so that names differing in the last character still land far apart.
    uint32_t x = h;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    const int hue = int(x % 360u);
    const int saturation = 110 + int((x >> 9) % 80u); // 110..189 of 255
    const int lightness = 150 + int((x >> 17) % 40u); // 150..189 of 255: dark text stays readable
    return QColor::fromHsl(hue, saturation, lightness).rgb();
}

void SliceColors::reset(const Trace *trace)
{
    m_trace = trace;
    m_cache.assign(trace ? trace->strings().size() : 0, 0);
}

QRgb SliceColors::color(StringId name)
{
    if (!m_trace || !name.isValid() || name.value >= m_cache.size())
        return colorForName({});
    QRgb &c = m_cache[name.value];
    if (c == 0)
        c = colorForName(m_trace->str(name));
    return c;
}

} // namespace lanescope
