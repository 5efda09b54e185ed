#include "viewstate.h"

#include <algorithm>
#include <cmath>

namespace lanescope {

ViewState::ViewState(QObject *parent) : QObject(parent) {}

void ViewState::setTraceRange(int64_t start, int64_t end)
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
    // A new trace starts with nothing selected and no marked range, without saying so: every
    // observer starts over on the new trace anyway.
    m_markStart = m_markEnd = 0;
    m_selected = SliceId();
    emit traceRangeChanged(start, end);
    m_start = m_end = 0; // force the signal
    fitAll();
}

void ViewState::setVisibleRange(int64_t start, int64_t end)
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

void ViewState::zoom(double factor, int64_t anchor)
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

void ViewState::pan(int64_t delta)
{
    setVisibleRange(m_start + delta, m_end + delta);
}

void ViewState::pushHistory()
{
    const std::pair<int64_t, int64_t> r{m_start, m_end};
    if (!m_history.empty() && m_history.back() == r)
        return;
    if (m_history.size() >= kMaxHistory)
        m_history.erase(m_history.begin());
    m_history.push_back(r);
}

bool ViewState::undoZoom()
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

void ViewState::setMarkedRange(int64_t start, int64_t end)
{
    if (end < start)
        std::swap(start, end);
    if (end > start) {
        start = std::max(start, m_traceStart);
        end = std::min(end, m_traceEnd);
    } else {
        start = end = 0;
    }
    if (start == m_markStart && end == m_markEnd)
        return;
    m_markStart = start;
    m_markEnd = end;
    emit markedRangeChanged(start, end);
}

void ViewState::setSelectedSlice(SliceId id)
{
    if (id == m_selected)
        return;
    m_selected = id;
    emit selectionChanged(id);
}

} // namespace lanescope
