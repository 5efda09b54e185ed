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
    const int height = m_depths * m_rowHeight;
    if (m_image.width() < m_width || m_image.height() < height)
        m_image = QImage(std::max(m_width, m_image.width()), std::max(height, m_image.height()),
                         QImage::Format_ARGB32_Premultiplied);
    // Only the depth scanlines need clearing now; draw() copies them down their bands.
    for (int d = 0; d < m_depths; ++d)
        std::memset(m_image.scanLine(d * m_rowHeight), 0, size_t(m_width) * sizeof(QRgb));
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
    auto *line = reinterpret_cast<QRgb *>(m_image.scanLine(depth * m_rowHeight));
    std::fill(line + x0, line + x1, rgb | 0xff000000u);
    if (depth < 64)
        m_usedDepths |= uint64_t(1) << depth;
}

void LaneRaster::draw(QPainter &painter, int x, int y)
{
    if (m_width == 0 || m_depths == 0)
        return;
    const size_t bytes = size_t(m_width) * sizeof(QRgb);
    int lastUsed = -1;
    for (int d = 0; d < m_depths; ++d) {
        const bool used = d >= 64 || (m_usedDepths >> d & 1);
        const uchar *first = m_image.constScanLine(d * m_rowHeight);
        for (int r = 1; r < m_rowHeight; ++r) {
            uchar *line = m_image.scanLine(d * m_rowHeight + r);
            if (r == m_rowHeight - 1 || !used)
                std::memset(line, 0, bytes); // the gap below each depth; empty depths stay clear
            else
                std::memcpy(line, first, bytes);
        }
        if (used)
            lastUsed = d;
    }
    if (lastUsed < 0)
        return;
    // Depths below the last used one are transparent: leave them out of the blend.
    painter.drawImage(QPoint(x, y), m_image, QRect(0, 0, m_width, (lastUsed + 1) * m_rowHeight));
}

} // namespace lanescope
