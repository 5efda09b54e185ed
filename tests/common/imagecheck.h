#pragma once
// Checks on rendered pictures shared by the screenshot tests: is there something drawn, and where.
#include <QColor>
#include <QImage>
#include <QRect>
#include <QSet>

namespace lanescope::test {

// Distinct colours inside `rect` (all of the image when empty).
inline int distinctColors(const QImage &image, QRect rect = {})
{
    if (rect.isEmpty())
        rect = image.rect();
    rect &= image.rect();
    QSet<QRgb> colors;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            colors.insert(image.pixel(x, y));
    return int(colors.size());
}

// Pixels inside `rect` with a clearly saturated colour (slices; the chrome is grey).
inline int saturatedPixels(const QImage &image, QRect rect = {})
{
    if (rect.isEmpty())
        rect = image.rect();
    rect &= image.rect();
    int n = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            if (QColor(image.pixel(x, y)).hsvSaturation() > 80)
                ++n;
    return n;
}

// Pixels of exactly `colour` (alpha ignored): a note drawn in a colour nothing else uses.
inline int pixelsOfColour(const QImage &image, QRgb colour)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += (image.pixel(x, y) & 0xffffff) == (colour & 0xffffff);
    return n;
}

} // namespace lanescope::test
