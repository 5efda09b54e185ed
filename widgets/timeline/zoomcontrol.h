#pragma once
// The visible-range model (Qt Creator's TimelineZoomControl): trace range > visible range. The
// timeline, its ruler and later views observe it. Times are absolute ns as in the Trace.
#include <QObject>

#include <cstdint>
#include <utility>
#include <vector>

namespace lanescope {

class ZoomControl : public QObject
{
    Q_OBJECT
public:
    static constexpr int64_t kMinSpan = 20; // ns: the deepest zoom

    explicit ZoomControl(QObject *parent = nullptr);

    int64_t traceStart() const { return m_traceStart; }
    int64_t traceEnd() const { return m_traceEnd; }
    int64_t visibleStart() const { return m_start; }
    int64_t visibleEnd() const { return m_end; }
    int64_t visibleSpan() const { return m_end - m_start; }

    // Sets the trace range and shows all of it.
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

    // The selected time range (shift-drag or `m` on a slice), absolute ns; empty when start == end.
    bool hasSelection() const { return m_selEnd > m_selStart; }
    int64_t selectionStart() const { return m_selStart; }
    int64_t selectionEnd() const { return m_selEnd; }
    void setSelection(int64_t start, int64_t end);
    void clearSelection() { setSelection(0, 0); }

signals:
    void visibleRangeChanged(int64_t start, int64_t end);
    void traceRangeChanged(int64_t start, int64_t end);
    void selectionChanged(int64_t start, int64_t end);

private:
    int64_t m_traceStart = 0;
    int64_t m_traceEnd = 1000;
    int64_t m_start = 0;
    int64_t m_end = 1000;
    int64_t m_selStart = 0;
    int64_t m_selEnd = 0;
    std::vector<std::pair<int64_t, int64_t>> m_history;
};

} // namespace lanescope
