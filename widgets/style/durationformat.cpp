#include "durationformat.h"

// A QString wrapper of core/util/durationtext.h (DurationText), the formatter the CLI uses too.

#include "util/durationtext.h"

namespace lanescope {

// Every form comes from core's DurationText, which the CLI uses too.
int64_t DurationFormat::unitFor(int64_t ns) { return DurationText::unitFor(ns); }
QString DurationFormat::unitName(int64_t unitNs) { return QString::fromUtf8(DurationText::unitName(unitNs)); }
QString DurationFormat::formatInUnit(int64_t ns, int64_t unitNs, int decimals)
{
    return QString::fromStdString(DurationText::formatInUnit(ns, unitNs, decimals));
}
QString DurationFormat::format(int64_t ns) { return QString::fromStdString(DurationText::format(ns)); }
QString DurationFormat::formatPrecise(int64_t ns) { return QString::fromStdString(DurationText::formatPrecise(ns)); }

} // namespace lanescope
