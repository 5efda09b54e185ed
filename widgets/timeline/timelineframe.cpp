#include "timelineframe.h"

#include "model/depthindex.h"
#include "lanes/lanecache.h"
#include "slicecolors.h"

#include "model/trace.h"

#include <algorithm>
#include <cmath>

namespace lanescope {

namespace {

QString fromView(std::string_view v)
{
    return QString::fromUtf8(v.data(), qsizetype(v.size()));
}

} // namespace

double TimelineFrame::clampedXOf(int64_t t) const
{
    const LaneGeometry::Viewport &vp = m_s.viewport;
    return m_s.timeArea.left() + std::clamp(vp.toX(t), -2.0, vp.width + 2);
}

int64_t TimelineFrame::timeAtX(double x) const
{
    const LaneGeometry::Viewport &vp = m_s.viewport;
    const double px = vp.pxPerNs();
    if (px <= 0)
        return vp.t0;
    return vp.t0 + int64_t(std::llround((x - m_s.timeArea.left()) / px));
}

int TimelineFrame::rowTop(const TimelineLayout::Row &row) const
{
    // Pinned rows stay at the top; the others scroll below them.
    return m_s.rulerHeight + row.y - (row.pinned ? 0 : m_s.scroll);
}

int TimelineFrame::rowIndexAtY(int y) const
{
    if (y < m_s.rulerHeight)
        return -1;
    const int ly = y - m_s.rulerHeight;
    if (ly < m_s.layout->pinnedHeight())
        return m_s.layout->rowAt(ly);
    return m_s.layout->rowAt(ly + m_s.scroll);
}

TrackId TimelineFrame::trackAtY(int y) const
{
    const int ri = rowIndexAtY(y);
    if (ri < 0 || !m_s.layout->rows()[size_t(ri)].isTrack())
        return {};
    return m_s.layout->rows()[size_t(ri)].track();
}

GroupId TimelineFrame::groupAtY(int y) const
{
    const int ri = rowIndexAtY(y);
    if (ri < 0 || !m_s.layout->rows()[size_t(ri)].isGroup())
        return {};
    return m_s.layout->rows()[size_t(ri)].group();
}

const LaneGeometry &TimelineFrame::lane(size_t rowIndex) const
{
    return m_s.lanes->lane(*m_s.trace, *m_s.depthIndex, *m_s.layout, rowIndex, m_s.viewport);
}

QString TimelineFrame::trackName(TrackId id) const
{
    const Track &t = m_s.trace->track(id);
    const QString name = fromView(m_s.trace->str(t.name));
    return name.isEmpty() ? QStringLiteral("track %1").arg(t.externalId) : name;
}

int TimelineFrame::foldableRowAtY(int y) const
{
    const int ri = rowIndexAtY(y);
    return ri >= 0 && !m_s.layout->rows()[size_t(ri)].isTrack() ? ri : -1;
}

std::vector<std::string> TimelineFrame::visibleLanes() const
{
    std::vector<std::string> out;
    if (!m_s.trace)
        return out;
    const Trace &trace = *m_s.trace;
    const TimelineLayout &layout = *m_s.layout;
    const int top = rulerHeight(), bottom = m_s.size.height();
    const auto &rows = layout.rows();
    for (size_t i = 0; i < rows.size(); ++i) {
        const TimelineLayout::Row &row = rows[i];
        const int y = rowTop(row);
        // Scrolled rows under the pinned area are covered by it.
        const int visibleTop = row.pinned ? top : top + layout.pinnedHeight();
        if (y + row.height <= visibleTop || y >= bottom)
            continue;
        if (row.isTrack()) {
            out.push_back(trace.trackPath(row.track()));
        } else if (row.collapsed) {
            const std::string n = std::to_string(layout.rowTracks(row).size());
            out.push_back(row.isGroup() ? trace.groupPath(row.group()) + " (collapsed: " + n + " lanes)"
                                        : trace.groupPath(layout.grouping().sets()[row.id].group) + " / " + layout.rowName(row) +
                                              " (collapsed: " + n + " lanes)");
        }
    }
    return out;
}

QString TimelineFrame::foldName(const TimelineLayout::Row &row) const
{
    if (row.isGroup())
        return groupName(row.group());
    return QString::fromStdString(m_s.layout->rowName(row));
}

QString TimelineFrame::groupName(GroupId id) const
{
    const TrackGroup &g = m_s.trace->group(id);
    const QString name = fromView(m_s.trace->str(g.name));
    if (name.isEmpty())
        return QStringLiteral("group %1").arg(g.externalId);
    // Several processes often share a name ("python"): show the pid unless the name has it.
    const QString pid = QString::number(g.externalId);
    if (g.kind == GroupKind::Process && !name.contains(pid))
        return QStringLiteral("%1 (pid %2)").arg(name, pid);
    return name;
}

QRectF TimelineFrame::sliceRect(SliceId id) const
{
    const Trace *trace = m_s.trace;
    if (!trace || !id.isValid() || id.value >= trace->allSlices().size())
        return {};
    const int ri = m_s.layout->rowOfTrack(trace->trackOfSlice(id));
    if (ri < 0)
        return {};
    const TimelineLayout::Row &row = m_s.layout->rows()[size_t(ri)];
    const Slice &s = trace->slice(id);
    const double x0 = clampedXOf(s.start);
    const double x1 = clampedXOf(s.end());
    const int rowH = m_s.layout->metrics().rowHeight;
    return QRectF(x0, rowTop(row) + row.slicesTop + s.depth * rowH, std::max(1.0, x1 - x0), rowH - 1);
}

SliceId TimelineFrame::sliceAt(QPoint pos) const
{
    if (!m_s.trace || !m_s.timeArea.contains(pos))
        return {};
    const int ri = rowIndexAtY(pos.y());
    if (ri < 0)
        return {};
    const TimelineLayout::Row &row = m_s.layout->rows()[size_t(ri)];
    if (!row.isTrack() || row.depthCount == 0)
        return {};
    const int yIn = pos.y() - rowTop(row) - row.slicesTop;
    if (yIn < 0)
        return {};
    const int depth = yIn / m_s.layout->metrics().rowHeight;
    if (depth >= row.depthCount)
        return {};
    const double px = m_s.viewport.pxPerNs();
    const int64_t tolerance = px > 0 ? int64_t(std::ceil(2.0 / px)) : 0;
    return m_s.depthIndex->sliceAt(row.track(), depth, timeAtX(pos.x()), tolerance);
}

QRgb TimelineFrame::sliceColor(StringId nameOrCategory) const
{
    return m_s.colors->color(nameOrCategory);
}

QRgb TimelineFrame::sliceColorOf(uint32_t slice, StringId nameOrCategory) const
{
    return m_s.colors->colorOf(slice, nameOrCategory);
}

} // namespace lanescope
