#include "durationformat.h"

#include <cstdlib>

namespace lanescope {

namespace {

QString trimZeros(QString s)
{
    if (!s.contains(QLatin1Char('.')))
        return s;
    while (s.endsWith(QLatin1Char('0')))
        s.chop(1);
    if (s.endsWith(QLatin1Char('.')))
        s.chop(1);
    return s;
}

// Integer arithmetic keeps every digit of large timestamps (a double has only 53 bits).
QString fixedPoint(int64_t ns, int64_t unitNs, int decimals)
{
    const bool negative = ns < 0;
    const uint64_t mag = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    const uint64_t unit = uint64_t(unitNs);
    uint64_t whole = mag / unit;
    uint64_t frac = mag % unit; // in ns, < unit
    // Round `frac` (out of `unit`) to `decimals` digits.
    uint64_t scale = 1;
    for (int i = 0; i < decimals; ++i)
        scale *= 10;
    // frac * scale fits: unit <= 1e9 and scale <= 1e9 for decimals <= 9.
    uint64_t fracDigits = (frac * scale + unit / 2) / unit;
    if (fracDigits >= scale) {
        fracDigits -= scale;
        ++whole;
    }
    QString out = negative && (whole || fracDigits) ? QStringLiteral("-") : QString();
    out += QString::number(whole);
    if (decimals > 0)
        out += QLatin1Char('.') + QString::number(fracDigits).rightJustified(decimals, QLatin1Char('0'));
    return out;
}

int unitDigits(int64_t unitNs)
{
    int d = 0;
    for (int64_t u = unitNs; u > 1; u /= 10)
        ++d;
    return d;
}

} // namespace

int64_t DurationFormat::unitFor(int64_t ns)
{
    const uint64_t mag = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    if (mag >= 1000000000ull)
        return 1000000000;
    if (mag >= 1000000ull)
        return 1000000;
    if (mag >= 1000ull)
        return 1000;
    return 1;
}

QString DurationFormat::unitName(int64_t unitNs)
{
    switch (unitNs) {
    case 1000000000:
        return QStringLiteral("s");
    case 1000000:
        return QStringLiteral("ms");
    case 1000:
        return QStringLiteral("µs");
    default:
        return QStringLiteral("ns");
    }
}

QString DurationFormat::formatInUnit(int64_t ns, int64_t unitNs, int decimals)
{
    if (unitNs <= 0)
        unitNs = 1;
    decimals = qBound(0, decimals, 9);
    return fixedPoint(ns, unitNs, decimals) + QLatin1Char(' ') + unitName(unitNs);
}

QString DurationFormat::format(int64_t ns)
{
    int64_t unit = unitFor(ns);
    QString num = trimZeros(fixedPoint(ns, unit, unit == 1 ? 0 : 3));
    // 999.9996 µs rounds to "1000 µs": say "1 ms" instead.
    if (unit < 1000000000 && (num == QLatin1String("1000") || num == QLatin1String("-1000"))) {
        unit *= 1000;
        num = trimZeros(fixedPoint(ns, unit, 3));
    }
    return num + QLatin1Char(' ') + unitName(unit);
}

QString DurationFormat::formatPrecise(int64_t ns)
{
    const int64_t unit = unitFor(ns);
    return trimZeros(fixedPoint(ns, unit, unitDigits(unit))) + QLatin1Char(' ') + unitName(unit);
}

} // namespace lanescope
