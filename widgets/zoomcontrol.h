#pragma once
// The visible-range model (Qt Creator's TimelineZoomControl): trace range > visible range. The
// timeline, its ruler and later views observe it. Times are absolute ns as in the Trace.
#include <QObject>

#include <cstdint>

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

signals:
    void visibleRangeChanged(int64_t start, int64_t end);
    void traceRangeChanged(int64_t start, int64_t end);

private:
    int64_t m_traceStart = 0;
    int64_t m_traceEnd = 1000;
    int64_t m_start = 0;
    int64_t m_end = 1000;
};

} // namespace lanescope
