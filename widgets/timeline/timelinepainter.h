#pragma once
// Paints one frame of a TimelineView: background, grid, group headers, lanes (nested slices,
// instants, counters) from the frame's cached LaneGeometry, then the overlays over the lanes, the
// ruler and the overlays' ruler labels. Sees only the read-only TimelineFrame and the overlays.
#include "lanes/lanegeometry.h"
#include "timelinelayout.h"
#include "timeruler.h"

#include <QFont>
#include <QHash>
#include <QString>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

class QFontMetrics;
class QPainter;

namespace lanescope {

class TimelineFrame;
class TimelineOverlay;

class TimelinePainter
{
public:
    static constexpr double kMinTextWidth = 24; // px: narrower slices carry no label
    static constexpr int kMaxHeaderWidth = 240;

    // `overlays` in painting order; they may change their own state while painting.
    TimelinePainter(QPainter &painter, const TimelineFrame &frame, std::span<TimelineOverlay *const> overlays);

    void paint();

private:
    void paintEmpty();
    void paintStickyHeaders(size_t firstRow);
    void paintRuler(const std::vector<TimeRuler::Tick> &ticks);
    void paintGrid(const std::vector<TimeRuler::Tick> &ticks);
    // A group or lane set header at y; collapsed, it shows when its lanes were busy.
    void paintGroupRow(size_t rowIndex, int y);
    void paintActivity(size_t rowIndex, int y, int height);
    void paintTrackRow(size_t rowIndex, int y);
    void paintSlices(const TimelineLayout::Row &row, const LaneGeometry &g, int y);
    void paintInstants(const TimelineLayout::Row &row, const LaneGeometry &g, int y);
    void paintCounter(const TimelineLayout::Row &row, const LaneGeometry &g, int y);
    void paintOverlays();
    void paintOverlayRulers();

    QPainter &m_p;
    const TimelineFrame &m_f;
    std::span<TimelineOverlay *const> m_overlays;
    std::vector<const TimelineOverlay *> m_dimmers; // overlays dimming slices in this frame
    QFont m_font;                                   // the widget's font, as the painter started
    // Slice labels of this frame, elided to a width: (name id, width px) -> text. Names repeat across a
    // trace (every step runs the same ops), and elision shapes the whole text each time.
    QHash<quint64, QString> m_labels;
    const QString &label(const QFontMetrics &fm, uint32_t name, std::string_view text, int width);
};

} // namespace lanescope
