#include "timeruler.h"

#include "style/durationformat.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace lanescope {

int64_t TimeRuler::niceStep(double minStep)
{
    if (!(minStep > 1))
        return 1;
    int64_t base = 1;
    while (true) {
        for (int64_t m : {1, 2, 5}) {
            if (double(base * m) >= minStep)
                return base * m;
        }
        if (base > INT64_MAX / 100)
            return base * 10;
        base *= 10;
    }
}

int64_t TimeRuler::labelUnit(int64_t maxOffset, int64_t step)
{
    return DurationFormat::unitFor(std::max(maxOffset < 0 ? -maxOffset : maxOffset, step));
}

QString TimeRuler::label(int64_t offset, int64_t step, int64_t unit)
{
    // Decimals so that one step is resolved: step 2 ms in s -> 3 decimals.
    int decimals = 0;
    for (int64_t u = unit; u > 1 && u > step; u /= 10)
        ++decimals;
    return DurationFormat::formatInUnit(offset, unit, decimals);
}

std::vector<TimeRuler::Tick> TimeRuler::ticks(int64_t t0, int64_t t1, int64_t origin, double width,
                                              const QFontMetrics &fm, int64_t *majorStep)
{
    std::vector<Tick> out;
    if (t1 <= t0 || width <= 1)
        return out;
    const double pxPerNs = width / double(t1 - t0);
    double spacing = kMinMajorSpacing;
    for (int attempt = 0; attempt < 4; ++attempt) {
        out.clear();
        const int64_t step = niceStep(spacing / pxPerNs);
        const int64_t unit = labelUnit(std::max(std::abs(t0 - origin), std::abs(t1 - origin)), step);
        // Minor ticks: 5 per step for 1 and 5 x 10^k, 4 for 2 x 10^k.
        int64_t mantissa = step;
        while (mantissa >= 10 && mantissa % 10 == 0)
            mantissa /= 10;
        const int64_t minor = step >= 5 ? step / (mantissa == 2 ? 4 : 5) : step;
        // First minor tick at or after t0, on the grid anchored at the origin.
        const int64_t rel0 = t0 - origin;
        int64_t k = rel0 / minor;
        if (k * minor < rel0)
            ++k;
        int maxLabelWidth = 0;
        for (int64_t rel = k * minor; rel <= t1 - origin; rel += minor) {
            Tick tick;
            tick.t = origin + rel;
            tick.x = double(tick.t - t0) * pxPerNs;
            tick.major = rel % step == 0;
            if (tick.major) {
                tick.label = label(rel, step, unit);
                maxLabelWidth = std::max(maxLabelWidth, fm.horizontalAdvance(tick.label));
            }
            out.push_back(std::move(tick));
            if (out.size() > 10000)
                break;
        }
        if (majorStep)
            *majorStep = step;
        if (double(maxLabelWidth) + 16 <= double(step) * pxPerNs)
            break;
        spacing = double(maxLabelWidth) + 24;
    }
    return out;
}

} // namespace lanescope
