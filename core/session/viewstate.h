#pragma once
// What the views show of the trace on screen, kept in one place (Qt Creator's TimelineZoomControl
// shape): the trace range > the visible range > the marked range, and the selected slice. The Session
// owns one; the timeline, its ruler and overlays, the tables and the charts observe it and drive it, so
// no view keeps a copy to be kept in step. Times are absolute ns as in the Trace.
#include "model/ids.h"

#include <QObject>

#include <cstdint>
#include <utility>
#include <vector>

namespace lanescope {

class ViewState : public QObject
{
    Q_OBJECT
public:
    static constexpr int64_t kMinSpan = 20; // ns: the deepest zoom

    explicit ViewState(QObject *parent = nullptr);

    int64_t traceStart() const { return m_traceStart; }
    int64_t traceEnd() const { return m_traceEnd; }
    int64_t visibleStart() const { return m_start; }
    int64_t visibleEnd() const { return m_end; }
    int64_t visibleSpan() const { return m_end - m_start; }

    // A new trace: sets the trace range, shows all of it, and forgets the zoom history, the marked
    // range and the selection (no markedRangeChanged or selectionChanged for these).
    void setTraceRange(int64_t start, int64_t end);
    // Clamped to the trace range; the span is kept when possible.
    void setVisibleRange(int64_t start, int64_t end);
    // factor < 1 zooms in; `anchor` (absolute ns) stays at the same screen position.
    void zoom(double factor, int64_t anchor);
    void zoomAtCenter(double factor) { zoom(factor, m_start + visibleSpan() / 2); }
    // Moves the visible range by `delta` ns (clamped).
    void pan(int64_t delta);
    void fitAll() { setVisibleRange(m_traceStart, m_traceEnd); }

    // Undo of zoom (Backspace): callers push the range before a deliberate jump (fit, box zoom,
    // double click, search step); undoZoom() goes back to the last pushed range that differs.
    static constexpr size_t kMaxHistory = 100;
    void pushHistory();
    bool undoZoom();
    size_t historySize() const { return m_history.size(); }

    // The marked time range (shift-drag or `m` on a slice), clamped to the trace; empty when start == end.
    bool hasMarkedRange() const { return m_markEnd > m_markStart; }
    int64_t markedStart() const { return m_markStart; }
    int64_t markedEnd() const { return m_markEnd; }
    void setMarkedRange(int64_t start, int64_t end);
    void clearMarkedRange() { setMarkedRange(0, 0); }

    // The selected slice (invalid: none). Setting the value it has does nothing.
    SliceId selectedSlice() const { return m_selected; }
    void setSelectedSlice(SliceId id);

signals:
    void traceRangeChanged(int64_t start, int64_t end);
    void visibleRangeChanged(int64_t start, int64_t end);
    void markedRangeChanged(int64_t start, int64_t end);
    void selectionChanged(lanescope::SliceId id);

private:
    int64_t m_traceStart = 0, m_traceEnd = 1000;
    int64_t m_start = 0, m_end = 1000; // visible
    int64_t m_markStart = 0, m_markEnd = 0;
    SliceId m_selected;
    std::vector<std::pair<int64_t, int64_t>> m_history;
};

} // namespace lanescope
