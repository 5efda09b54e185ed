#include "laneraster.h"

#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cstring>

namespace lanescope {

bool LaneRaster::usable(const QPainter &painter, size_t items)
{
    const QPaintEngine *engine = painter.paintEngine();
    return items >= kMinItems && engine && engine->type() == QPaintEngine::Raster &&
           painter.worldTransform().type() <= QTransform::TxTranslate;
}

void LaneRaster::begin(int width, int depths, int rowHeight)
{
    m_width = std::max(0, width);
    m_depths = std::max(0, depths);
    m_rowHeight = std::max(1, rowHeight);
    if (m_image.width() < m_width || m_image.height() < m_depths)
        m_image = QImage(std::max(m_width, m_image.width()), std::max(m_depths, m_image.height()),
                         QImage::Format_ARGB32_Premultiplied);
    for (int d = 0; d < m_depths; ++d)
        std::memset(m_image.scanLine(d), 0, size_t(m_width) * sizeof(QRgb));
    m_usedDepths = 0;
}

void LaneRaster::fill(int depth, int x0, int x1, QRgb rgb)
{
    if (depth < 0 || depth >= m_depths)
        return;
    x0 = std::max(x0, 0);
    x1 = std::min(x1, m_width);
    if (x1 <= x0)
        return;
    auto *line = reinterpret_cast<QRgb *>(m_image.scanLine(depth));
    std::fill(line + x0, line + x1, rgb | 0xff000000u);
    if (depth < 64)
        m_usedDepths |= uint64_t(1) << depth;
}

void LaneRaster::draw(QPainter &painter, int x, int y)
{
    const int band = m_rowHeight - 1; // the last row of each depth is the gap
    if (m_width == 0 || band <= 0)
        return;
    // One row stretched down the band: a vertical-only scale with no smoothing repeats the row exactly.
    for (int d = 0; d < m_depths; ++d)
        if (d >= 64 || (m_usedDepths >> d & 1))
            painter.drawImage(QRect(x, y + d * m_rowHeight, m_width, band), m_image, QRect(0, d, m_width, 1));
}

} // namespace lanescope
