#pragma once
// The fill of one lane's slices as a picture: every item of the lane's LaneGeometry is written as
// plain pixels into one scanline per depth of an ARGB32 image, and each depth's scanline is drawn
// stretched down its band (rowHeight - 1 px) with one QPainter::drawImage. At far zoom a lane has
// thousands of one- or two-pixel items (folded runs of 20 M slices); a QPainter::fillRect per item
// costs ~0.4 us of painter overhead each, a written pixel a few ns, so the frame cost follows the
// lane's pixels, not its items. The image holds one row per depth, not the band's rows: the first
// frame of a deep lane no longer fills (and faults in) a fresh picture 20 times its size. Gaps stay
// transparent, so the grid drawn under the lanes shows through as with fillRect.
//
// Only for raster painters without scaling (the widget, PNG export at 1x): SVG and scaled exports keep
// one rectangle per item (TimelinePainter decides with usable()).
#include <QImage>
#include <QRgb>

#include <cstdint>

class QPainter;

namespace lanescope {

class LaneRaster
{
public:
    static constexpr size_t kMinItems = 256; // fewer items: fillRect per item is as fast

    static bool usable(const QPainter &painter, size_t items);

    // Starts a lane of `width` x (`depths` x `rowHeight`) px, all transparent. Each depth's band is
    // rowHeight - 1 px high (the 1 px gap between depths stays untouched).
    void begin(int width, int depths, int rowHeight);
    // Pixels [x0, x1) of depth `depth` (clipped to the lane), opaque `rgb`. Items of one depth in any
    // order; later items overwrite earlier ones.
    void fill(int depth, int x0, int x1, QRgb rgb);
    // Draws each depth with pixels down its band, the lane's top left at (x, y).
    void draw(QPainter &painter, int x, int y);

private:
    QImage m_image;
    int m_width = 0, m_depths = 0, m_rowHeight = 0;
    uint64_t m_usedDepths = 0; // bit d: depth d has pixels (depths >= 64 are always copied)
};

} // namespace lanescope
