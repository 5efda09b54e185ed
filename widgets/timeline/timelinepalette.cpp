#include "timelinepalette.h"

namespace lanescope {

namespace {

// One row per colour role: its light and dark value.
struct Role
{
    QColor TimelinePalette::*colour;
    QRgb light;
    QRgb dark;
};

constexpr QRgb rgb(int r, int g, int b, int a = 255)
{
    return qRgba(r, g, b, a);
}

const Role kRoles[] = {
    {&TimelinePalette::background, rgb(0xff, 0xff, 0xff), rgb(0x1b, 0x1d, 0x22)},
    {&TimelinePalette::headerBackground, rgb(0xf4, 0xf5, 0xf7), rgb(0x23, 0x26, 0x2d)},
    {&TimelinePalette::groupBackground, rgb(0xe3, 0xe6, 0xec), rgb(0x2e, 0x32, 0x3b)},
    {&TimelinePalette::rulerBackground, rgb(0xf9, 0xfa, 0xfb), rgb(0x20, 0x23, 0x29)},
    {&TimelinePalette::gridLine, rgb(0xec, 0xee, 0xf1), rgb(0x2a, 0x2d, 0x34)},
    {&TimelinePalette::separator, rgb(0xd5, 0xd9, 0xe0), rgb(0x3a, 0x3f, 0x4a)},
    {&TimelinePalette::text, rgb(0x1f, 0x23, 0x2b), rgb(0xe5, 0xe7, 0xeb)},
    {&TimelinePalette::mutedText, rgb(0x6b, 0x72, 0x80), rgb(0x9c, 0xa3, 0xaf)},
    {&TimelinePalette::selection, rgb(0x11, 0x18, 0x27), rgb(0xff, 0xff, 0xff)},
    {&TimelinePalette::rangeFill, rgb(0x3b, 0x82, 0xf6, 40), rgb(0x60, 0xa5, 0xfa, 45)},
    {&TimelinePalette::rangeEdge, rgb(0x25, 0x63, 0xeb), rgb(0x60, 0xa5, 0xfa)},
    {&TimelinePalette::searchMatch, rgb(0xf5, 0x9e, 0x0b), rgb(0xfb, 0xbf, 0x24)},
    {&TimelinePalette::flowArrow, rgb(0x1f, 0x23, 0x2b), rgb(0xe5, 0xe7, 0xeb)},
    {&TimelinePalette::cursorLine, rgb(0x25, 0x63, 0xeb, 160), rgb(0x93, 0xc5, 0xfd, 170)},
    {&TimelinePalette::chainEdge, rgb(0x7c, 0x3a, 0xed), rgb(0xc4, 0xb5, 0xfd)},
    {&TimelinePalette::criticalPath, rgb(0xdc, 0x26, 0x26), rgb(0xf8, 0x71, 0x71)},
};

TimelinePalette make(TimelinePalette::Theme theme)
{
    const bool dark = theme == TimelinePalette::Theme::Dark;
    TimelinePalette p;
    p.theme = theme;
    for (const Role &role : kRoles)
        p.*role.colour = QColor::fromRgba(dark ? role.dark : role.light);
    p.dimPercent = dark ? 30 : 22;
    return p;
}

} // namespace

TimelinePalette TimelinePalette::light()
{
    return make(Theme::Light);
}

TimelinePalette TimelinePalette::dark()
{
    return make(Theme::Dark);
}

} // namespace lanescope
