#pragma once
// The colours of the timeline: a light and a dark theme of its own, so lanes look the same whatever
// the desktop palette. Slice colours come from SliceColors; these are the chrome around them.
#include <QColor>

namespace lanescope {

class TimelinePalette
{
public:
    enum class Theme { Light, Dark };

    static TimelinePalette light();
    static TimelinePalette dark();
    static TimelinePalette forTheme(Theme theme) { return theme == Theme::Dark ? dark() : light(); }

    Theme theme = Theme::Light;
    QColor background;
    QColor headerBackground;
    QColor groupBackground;
    QColor rulerBackground;
    QColor gridLine;
    QColor separator;
    QColor text;
    QColor mutedText;
    QColor selection;     // outline of the selected slice
    QColor rangeFill;     // the selected time range
    QColor rangeEdge;
    QColor searchMatch;   // outline of search matches
    QColor flowArrow;
    QColor cursorLine;
    QColor chainEdge;    // dependency-chain arrows of the selected slice
    QColor criticalPath; // outline and arrows of the chain's critical path
    int dimPercent = 22; // slices outside the selected chain keep this much of their colour
};

} // namespace lanescope
