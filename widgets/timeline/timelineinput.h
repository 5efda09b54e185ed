#pragma once
// Mouse and keyboard handling of the TimelineView: drag to pan, Ctrl+drag box zoom, Shift+drag
// time range selection, clicks, the wheel and the Perfetto / chrome://tracing keys. Keeps the
// mouse state that the overlays draw (box, cursor readout).
#include "model/ids.h"

#include <QPoint>

#include <cstdint>
#include <optional>
#include <utility>

class QContextMenuEvent;
class QKeyEvent;
class QMouseEvent;
class QWheelEvent;

namespace lanescope {

class TimelineInputHost;

class TimelineInput
{
public:
    enum class Drag { None, Pending, Pan, Box, Range, Reorder };

    explicit TimelineInput(TimelineInputHost &view) : m_view(view) {}

    bool wheel(QWheelEvent *event);
    bool press(QMouseEvent *event);
    void move(QMouseEvent *event);
    bool release(QMouseEvent *event);
    bool doubleClick(QMouseEvent *event);
    bool key(QKeyEvent *event);
    void leave();
    // Right click on a lane: hide, pin / unpin, move up / down, show hidden lanes, and what the
    // host's extendContextMenu adds at the clicked time (Add Note).
    void contextMenu(QContextMenuEvent *event);

    Drag drag() const { return m_drag; }
    QPoint pressPos() const { return m_pressPos; }
    // Where the mouse is over the widget, if it is.
    std::optional<QPoint> mousePos() const { return m_mousePos; }
    // While dragging a lane by its name: the lane being moved.
    TrackId reorderTrack() const { return m_drag == Drag::Reorder ? m_pressTrack : TrackId(); }

private:
    int64_t keyAnchor() const;
    void finishBox(QPoint pos);
    void finishReorder(QPoint pos);

    TimelineInputHost &m_view;
    Drag m_drag = Drag::None;
    Drag m_pendingKind = Drag::Pan;
    QPoint m_pressPos;
    std::optional<QPoint> m_mousePos;
    std::pair<int64_t, int64_t> m_pressRange;
    int64_t m_pressTime = 0;
    int m_pressScroll = 0;
    TrackId m_pressTrack;
};

} // namespace lanescope
