#include "zoomcontrol.h"

#include <algorithm>
#include <cmath>

namespace lanescope {

ZoomControl::ZoomControl(QObject *parent) : QObject(parent) {}

void ZoomControl::setTraceRange(int64_t start, int64_t end)
{
    if (end < start)
        std::swap(start, end);
    // An empty or single-instant trace still gets a range one can look at.
    if (end - start < kMinSpan * 5) {
        const int64_t pad = (kMinSpan * 5 - (end - start) + 1) / 2;
        start -= pad;
        end += pad;
    }
    m_traceStart = start;
    m_traceEnd = end;
    m_history.clear();
    m_selStart = m_selEnd = 0;
    emit traceRangeChanged(start, end);
    m_start = m_end = 0; // force the signal
    fitAll();
}

void ZoomControl::setVisibleRange(int64_t start, int64_t end)
{
    if (end < start)
        std::swap(start, end);
    const int64_t traceSpan = m_traceEnd - m_traceStart;
    int64_t span = std::clamp<int64_t>(end - start, kMinSpan, traceSpan);
    if (start < m_traceStart)
        start = m_traceStart;
    if (start > m_traceEnd - span)
        start = m_traceEnd - span;
    end = start + span;
    if (start == m_start && end == m_end)
        return;
    m_start = start;
    m_end = end;
    emit visibleRangeChanged(m_start, m_end);
}

void ZoomControl::zoom(double factor, int64_t anchor)
{
    if (!(factor > 0))
        return;
    const double span = double(visibleSpan());
    const double newSpan = std::clamp(span * factor, double(kMinSpan), double(m_traceEnd - m_traceStart));
    anchor = std::clamp(anchor, m_start, m_end);
    const double frac = span > 0 ? double(anchor - m_start) / span : 0.5;
    const int64_t start = anchor - int64_t(std::llround(frac * newSpan));
    setVisibleRange(start, start + int64_t(std::llround(newSpan)));
}

void ZoomControl::pan(int64_t delta)
{
    setVisibleRange(m_start + delta, m_end + delta);
}

void ZoomControl::pushHistory()
{
    const std::pair<int64_t, int64_t> r{m_start, m_end};
    if (!m_history.empty() && m_history.back() == r)
        return;
    if (m_history.size() >= kMaxHistory)
        m_history.erase(m_history.begin());
    m_history.push_back(r);
}

bool ZoomControl::undoZoom()
{
    while (!m_history.empty()) {
        const auto r = m_history.back();
        m_history.pop_back();
        if (r.first != m_start || r.second != m_end) {
            setVisibleRange(r.first, r.second);
            return true;
        }
    }
    return false;
}

void ZoomControl::setSelection(int64_t start, int64_t end)
{
    if (end < start)
        std::swap(start, end);
    if (end > start) {
        start = std::max(start, m_traceStart);
        end = std::min(end, m_traceEnd);
    } else {
        start = end = 0;
    }
    if (start == m_selStart && end == m_selEnd)
        return;
    m_selStart = start;
    m_selEnd = end;
    emit selectionChanged(start, end);
}

} // namespace lanescope
