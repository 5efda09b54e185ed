#pragma once
// Tick positions and labels of the time ruler: steps of 1, 2 or 5 x 10^k ns at least ~90 px apart,
// labels relative to the trace start in one unit (ns, µs, ms or s) chosen by the visible offsets,
// with as many decimals as the step needs ("1.2500 s", "12 ms").
#include <QString>

#include <cstdint>
#include <vector>

class QFontMetrics;

namespace lanescope {

class TimeRuler
{
public:
    struct Tick
    {
        double x = 0;  // px from the left of the time area
        int64_t t = 0; // absolute ns
        bool major = true;
        QString label; // majors only
    };

    static constexpr double kMinMajorSpacing = 90; // px

    // The smallest 1/2/5 x 10^k ns step >= minStep (at least 1 ns).
    static int64_t niceStep(double minStep);
    // Ticks for the visible [t0, t1] over `width` px; labels read (t - origin).
    static std::vector<Tick> ticks(int64_t t0, int64_t t1, int64_t origin, double width, const QFontMetrics &fm,
                                   int64_t *majorStep = nullptr);
    // The label text of one major tick for a given step and visible range.
    static QString label(int64_t offset, int64_t step, int64_t unit);
    // The unit used for labels when the visible offsets from the origin reach `maxOffset`.
    static int64_t labelUnit(int64_t maxOffset, int64_t step);
};

} // namespace lanescope
