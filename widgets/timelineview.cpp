#include "timelineview.h"

#include "durationformat.h"
#include "slicedetailsview.h"
#include "timelineinput.h"
#include "timelinepainter.h"
#include "zoomcontrol.h"

#include "analysis/slicesearch.h"
#include "model/trace.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace lanescope {

namespace {

QString fromView(std::string_view v)
{
    return QString::fromUtf8(v.data(), qsizetype(v.size()));
}

} // namespace

TimelineView::TimelineView(QWidget *parent)
    : QWidget(parent), m_zoom(new ZoomControl(this)), m_vbar(new QScrollBar(Qt::Vertical, this)),
      m_input(std::make_unique<TimelineInput>(*this)), m_palette(TimelinePalette::light())
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    const QFontMetrics fm(font());
    TimelineLayout::Metrics m;
    m.rowHeight = std::max(18, fm.height() + 4);
    m.groupHeaderHeight = std::max(20, fm.height() + 6);
    m.counterHeight = std::max(44, 2 * fm.height() + 10);
    m_layout.setMetrics(m);
    m_rulerHeight = std::max(24, fm.height() + 10);
    connect(m_zoom, &ZoomControl::visibleRangeChanged, this, [this] {
        invalidateGeometry();
        update();
    });
    connect(m_zoom, &ZoomControl::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(m_vbar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    m_vbar->hide();
}

TimelineView::~TimelineView() = default;

void TimelineView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_selected = SliceId();
    m_matches.clear();
    m_currentMatch = -1;
    m_flowArrows.clear();
    m_chain.reset();
    m_criticalPath.clear();
    m_colors.reset(m_trace.get());
    m_depthIndex.build(m_trace.get());
    m_layout.clear();
    relayout();
    if (m_trace)
        m_zoom->setTraceRange(m_trace->startNs(), m_trace->endNs());
    m_vbar->setValue(0);
    invalidateGeometry();
    update();
}

void TimelineView::relayout()
{
    m_layout.build(m_trace.get());
    m_lanes.assign(m_layout.rows().size(), LaneGeometry());
    updateScrollBar();
}

void TimelineView::layoutChanged()
{
    m_lanes.assign(m_layout.rows().size(), LaneGeometry());
    updateScrollBar();
    update();
    emit layoutStateChanged();
}

void TimelineView::setLaneState(const TimelineLayout::State &state)
{
    m_layout.setState(state);
    layoutChanged();
}

void TimelineView::setTrackHidden(TrackId track, bool hidden)
{
    m_layout.setHidden(track, hidden);
    layoutChanged();
}

void TimelineView::showAllTracks()
{
    m_layout.showAllTracks();
    layoutChanged();
}

void TimelineView::setTrackPinned(TrackId track, bool pinned)
{
    m_layout.setPinned(track, pinned);
    layoutChanged();
}

bool TimelineView::moveTrack(TrackId track, TrackId before)
{
    if (!m_layout.moveTrack(track, before))
        return false;
    layoutChanged();
    return true;
}

bool TimelineView::moveTrackBy(TrackId track, int delta)
{
    if (!m_layout.moveTrackBy(track, delta))
        return false;
    layoutChanged();
    return true;
}

TrackId TimelineView::trackAtY(int y) const
{
    const int ri = rowIndexAtY(y);
    if (ri < 0 || !m_layout.rows()[size_t(ri)].isTrack())
        return {};
    return m_layout.rows()[size_t(ri)].track();
}

void TimelineView::invalidateGeometry()
{
    for (LaneGeometry &g : m_lanes)
        g.valid = false;
}

void TimelineView::updateScrollBar()
{
    const int sbw = m_vbar->sizeHint().width();
    m_vbar->setGeometry(width() - sbw, m_rulerHeight, sbw, std::max(0, height() - m_rulerHeight));
    const int viewHeight = std::max(0, height() - m_rulerHeight);
    const int maxScroll = std::max(0, m_layout.totalHeight() - viewHeight);
    m_vbar->setRange(0, maxScroll);
    m_vbar->setPageStep(std::max(1, viewHeight));
    m_vbar->setSingleStep(m_layout.metrics().rowHeight);
    m_vbar->setVisible(m_trace != nullptr && maxScroll > 0);
}

std::pair<int64_t, int64_t> TimelineView::visibleRange() const
{
    return {m_zoom->visibleStart(), m_zoom->visibleEnd()};
}

void TimelineView::setVisibleRange(int64_t t0, int64_t t1)
{
    m_zoom->setVisibleRange(t0, t1);
}

void TimelineView::fitAll()
{
    m_zoom->fitAll();
}

int TimelineView::headerWidth() const
{
    return std::clamp(width() / 4, 120, TimelinePainter::kMaxHeaderWidth);
}

QRect TimelineView::timeArea() const
{
    const int left = headerWidth();
    const int right = width() - (m_vbar->isVisible() ? m_vbar->width() : 0);
    return QRect(left, m_rulerHeight, std::max(1, right - left), std::max(0, height() - m_rulerHeight));
}

LaneGeometry::Viewport TimelineView::viewport() const
{
    LaneGeometry::Viewport vp;
    vp.t0 = m_zoom->visibleStart();
    vp.t1 = m_zoom->visibleEnd();
    vp.width = timeArea().width();
    return vp;
}

LaneGeometry &TimelineView::laneGeometry(size_t rowIndex)
{
    const LaneGeometry::Viewport vp = viewport();
    if (vp.t0 != m_cacheViewport.t0 || vp.t1 != m_cacheViewport.t1 || vp.width != m_cacheViewport.width) {
        invalidateGeometry();
        m_cacheViewport = vp;
    }
    LaneGeometry &g = m_lanes[rowIndex];
    if (!g.valid)
        g.build(*m_trace, m_depthIndex, m_layout.rows()[rowIndex].track(), vp);
    return g;
}

int64_t TimelineView::timeAtX(double x) const
{
    const LaneGeometry::Viewport vp = viewport();
    const double px = vp.pxPerNs();
    if (px <= 0)
        return vp.t0;
    return vp.t0 + int64_t(std::llround((x - timeArea().left()) / px));
}

int TimelineView::rowTop(const TimelineLayout::Row &row) const
{
    // Pinned rows stay at the top; the others scroll below them.
    return m_rulerHeight + row.y - (row.pinned ? 0 : m_vbar->value());
}

int TimelineView::rowIndexAtY(int y) const
{
    if (y < m_rulerHeight)
        return -1;
    const int ly = y - m_rulerHeight;
    if (ly < m_layout.pinnedHeight())
        return m_layout.rowAt(ly);
    return m_layout.rowAt(ly + m_vbar->value());
}

QString TimelineView::trackName(TrackId id) const
{
    const Track &t = m_trace->track(id);
    const QString name = fromView(m_trace->str(t.name));
    return name.isEmpty() ? QStringLiteral("track %1").arg(t.externalId) : name;
}

QString TimelineView::groupName(GroupId id) const
{
    const TrackGroup &g = m_trace->group(id);
    const QString name = fromView(m_trace->str(g.name));
    if (name.isEmpty())
        return QStringLiteral("group %1").arg(g.externalId);
    // Several processes often share a name ("python"): show the pid unless the name has it.
    const QString pid = QString::number(g.externalId);
    if (g.kind == GroupKind::Process && !name.contains(pid))
        return QStringLiteral("%1 (pid %2)").arg(name, pid);
    return name;
}

SliceId TimelineView::sliceAt(QPoint pos) const
{
    if (!m_trace || !timeArea().contains(pos))
        return {};
    const int ri = rowIndexAtY(pos.y());
    if (ri < 0)
        return {};
    const TimelineLayout::Row &row = m_layout.rows()[size_t(ri)];
    if (!row.isTrack() || row.depthCount == 0)
        return {};
    const int yIn = pos.y() - rowTop(row) - row.slicesTop;
    if (yIn < 0)
        return {};
    const int depth = yIn / m_layout.metrics().rowHeight;
    if (depth >= row.depthCount)
        return {};
    const double px = viewport().pxPerNs();
    const int64_t tolerance = px > 0 ? int64_t(std::ceil(2.0 / px)) : 0;
    return m_depthIndex.sliceAt(row.track(), depth, timeAtX(pos.x()), tolerance);
}

QRectF TimelineView::sliceRect(SliceId id) const
{
    if (!m_trace || !id.isValid() || id.value >= m_trace->allSlices().size())
        return {};
    const int ri = m_layout.rowOfTrack(m_trace->trackOfSlice(id));
    if (ri < 0)
        return {};
    const TimelineLayout::Row &row = m_layout.rows()[size_t(ri)];
    const Slice &s = m_trace->slice(id);
    const LaneGeometry::Viewport vp = viewport();
    const QRect area = timeArea();
    const double x0 = std::clamp(vp.toX(s.start), -2.0, vp.width + 2);
    const double x1 = std::clamp(vp.toX(s.end()), -2.0, vp.width + 2);
    const int rowH = m_layout.metrics().rowHeight;
    return QRectF(area.left() + x0, rowTop(row) + row.slicesTop + s.depth * rowH, std::max(1.0, x1 - x0), rowH - 1);
}

void TimelineView::fitSlice(SliceId id)
{
    if (!m_trace || !id.isValid())
        return;
    const Slice &s = m_trace->slice(id);
    const int64_t margin = std::max<int64_t>(s.duration / 10, ZoomControl::kMinSpan);
    m_zoom->pushHistory();
    m_zoom->setVisibleRange(s.start - margin, s.end() + margin);
}

void TimelineView::fitSelection()
{
    if (m_selected.isValid()) {
        fitSlice(m_selected);
    } else if (m_zoom->hasSelection()) {
        m_zoom->pushHistory();
        m_zoom->setVisibleRange(m_zoom->selectionStart(), m_zoom->selectionEnd());
    }
}

void TimelineView::scrollToTrack(TrackId track)
{
    const int ri = m_layout.rowOfTrack(track);
    if (ri < 0)
        return;
    const TimelineLayout::Row &row = m_layout.rows()[size_t(ri)];
    if (row.pinned)
        return;
    const int pinned = m_layout.pinnedHeight();
    const int viewH = height() - m_rulerHeight;
    const int top = row.y, bottom = row.y + row.height;
    if (top < m_vbar->value() + pinned)
        m_vbar->setValue(top - pinned);
    else if (bottom > m_vbar->value() + viewH)
        m_vbar->setValue(std::min(top - pinned, bottom - viewH));
}

void TimelineView::revealSlice(SliceId id)
{
    if (!m_trace || !id.isValid() || id.value >= m_trace->allSlices().size())
        return;
    setSelectedSlice(id);
    const Slice &s = m_trace->slice(id);
    const auto [t0, t1] = visibleRange();
    if (s.end() < t0 || s.start > t1) {
        // Off screen: centre it, zooming out when it is wider than the view.
        const int64_t span = std::max(t1 - t0, s.duration + s.duration / 5);
        const int64_t mid = s.start + s.duration / 2;
        m_zoom->pushHistory();
        m_zoom->setVisibleRange(mid - span / 2, mid - span / 2 + span);
    }
    scrollToTrack(m_trace->trackOfSlice(id));
}

void TimelineView::setSearchMatches(std::vector<uint32_t> matches)
{
    m_matches = std::move(matches);
    m_currentMatch = -1;
    emit currentMatchChanged(m_currentMatch, int(m_matches.size()));
    update();
}

int TimelineView::stepMatch(bool forward)
{
    if (m_matches.empty() || !m_trace)
        return -1;
    int index;
    if (m_currentMatch >= 0) {
        const int n = int(m_matches.size());
        index = ((forward ? m_currentMatch + 1 : m_currentMatch - 1) % n + n) % n;
    } else {
        const int64_t t = forward ? m_zoom->visibleStart() - 1 : m_zoom->visibleEnd() + 1;
        index = int(SliceSearch::step(*m_trace, m_matches, t, forward));
    }
    goToMatch(index);
    return index;
}

void TimelineView::goToMatch(int index)
{
    if (index < 0 || size_t(index) >= m_matches.size())
        return;
    m_currentMatch = index;
    revealSlice(SliceId(m_matches[size_t(index)]));
    emit currentMatchChanged(m_currentMatch, int(m_matches.size()));
    update();
}

void TimelineView::setShowAllFlows(bool on)
{
    m_showAllFlows = on;
    update();
}

void TimelineView::setColorByCategory(bool on)
{
    m_colorByCategory = on;
    update();
}

void TimelineView::setTheme(TimelinePalette::Theme theme)
{
    m_palette = TimelinePalette::forTheme(theme);
    update();
}

void TimelineView::setSelectedSlice(SliceId id)
{
    if (id == m_selected)
        return;
    m_selected = id;
    update();
    emit sliceSelected(id);
}

void TimelineView::setChain(std::shared_ptr<const DependencyChain> chain, std::vector<SliceId> criticalPath)
{
    m_chain = std::move(chain);
    m_criticalPath = std::move(criticalPath);
    update();
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    TimelinePainter(*this, p).paint();
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateScrollBar();
    invalidateGeometry();
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    if (m_input->wheel(event))
        event->accept();
    else
        event->ignore();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (!m_input->press(event))
        QWidget::mousePressEvent(event);
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    m_input->move(event);
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_input->release(event))
        QWidget::mouseReleaseEvent(event);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (!m_input->doubleClick(event))
        QWidget::mouseDoubleClickEvent(event);
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    if (m_input->key(event))
        event->accept();
    else
        QWidget::keyPressEvent(event);
}

void TimelineView::contextMenuEvent(QContextMenuEvent *event)
{
    m_input->contextMenu(event);
}

void TimelineView::leaveEvent(QEvent *event)
{
    m_input->leave();
    QWidget::leaveEvent(event);
}

bool TimelineView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

QString TimelineView::toolTipAt(QPoint pos) const
{
    if (!m_trace)
        return {};
    const int ri = rowIndexAtY(pos.y());
    if (ri < 0)
        return {};
    const TimelineLayout::Row &row = m_layout.rows()[size_t(ri)];
    const auto esc = [](std::string_view v) { return fromView(v).toHtmlEscaped(); };
    if (!row.isTrack())
        return esc(m_trace->groupPath(row.group()));
    const Track &track = m_trace->track(row.track());
    if (pos.x() < timeArea().left()) {
        QString text = QStringLiteral("<b>%1</b>").arg(esc(m_trace->trackPath(row.track())));
        if (track.sliceCount)
            text += tr("<br>%1 slices, %2 levels").arg(track.sliceCount).arg(row.depthCount);
        if (track.instantCount)
            text += tr("<br>%1 instants").arg(track.instantCount);
        if (track.counterCount)
            text += tr("<br>%1 samples, %2 to %3").arg(track.counterCount).arg(row.counterMin).arg(row.counterMax);
        return text;
    }
    const SliceId id = sliceAt(pos);
    if (id.isValid()) {
        const Slice &s = m_trace->slice(id);
        QString text = QStringLiteral("<b>%1</b><br>").arg(esc(m_trace->str(s.name)));
        text += tr("Duration: %1").arg(DurationFormat::format(s.duration));
        text += tr("<br>Start: %1").arg(DurationFormat::formatPrecise(s.start - m_trace->startNs()));
        if (!m_trace->str(s.category).empty())
            text += tr("<br>Category: %1").arg(esc(m_trace->str(s.category)));
        text += tr("<br>Track: %1").arg(esc(m_trace->trackPath(row.track())));
        // The first few args: enough to tell one launch or kernel from another.
        const auto args = m_trace->args().args(s.args);
        for (size_t i = 0; i < args.size() && i < kTooltipArgs; ++i) {
            QString value = SliceDetailsView::formatArg(*m_trace, args[i]);
            if (value.size() > 80)
                value = value.left(77) + QStringLiteral("...");
            text += QStringLiteral("<br>%1: %2").arg(esc(m_trace->str(args[i].key)), value.toHtmlEscaped());
        }
        if (args.size() > kTooltipArgs)
            text += tr("<br>(%1 more args in Details)").arg(args.size() - kTooltipArgs);
        return text;
    }
    const int64_t t = timeAtX(pos.x());
    if (track.counterCount) {
        const auto samples = m_trace->counterSamples(row.track());
        auto it = std::upper_bound(samples.begin(), samples.end(), t,
                                   [](int64_t v, const CounterSample &s) { return v < s.ts; });
        if (it != samples.begin()) {
            --it;
            return QStringLiteral("<b>%1</b><br>%2 at %3")
                .arg(esc(m_trace->str(track.name)), QString::number(it->value, 'g', 10),
                     DurationFormat::formatPrecise(it->ts - m_trace->startNs()));
        }
    }
    if (track.instantCount) {
        const double px = viewport().pxPerNs();
        const int64_t tolerance = px > 0 ? int64_t(std::ceil(4.0 / px)) : 0;
        const auto instants = m_trace->instants(row.track());
        auto it = std::lower_bound(instants.begin(), instants.end(), t - tolerance,
                                   [](const Instant &a, int64_t v) { return a.ts < v; });
        if (it != instants.end() && it->ts <= t + tolerance)
            return QStringLiteral("<b>%1</b><br>%2")
                .arg(esc(m_trace->str(it->name)),
                     tr("instant at %1").arg(DurationFormat::formatPrecise(it->ts - m_trace->startNs())));
    }
    return {};
}

} // namespace lanescope
