#include "timelineview.h"

#include "details/slicedetailsview.h"
#include "overlays/chainoverlay.h"
#include "overlays/inputoverlay.h"
#include "overlays/marksoverlay.h"
#include "overlays/searchhitsoverlay.h"
#include "overlays/selectionoverlay.h"
#include "style/durationformat.h"
#include "timelineinput.h"
#include "timelinepainter.h"
#include "session/viewstate.h"

#include "analysis/slicesearch.h"
#include "model/trace.h"
#include "util/unittext.h"

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

TimelineView::TimelineView(QWidget *parent, ViewState *state)
    : QWidget(parent), m_state(state ? state : new ViewState(this)), m_ownsState(!state),
      m_vbar(new QScrollBar(Qt::Vertical, this)),
      m_input(std::make_unique<TimelineInput>(*this)), m_palette(TimelinePalette::light()),
      m_inputOverlay(std::make_unique<InputOverlay>(*m_input))
{
    MarksOverlay::Style rangeStyle;
    rangeStyle.durationLabels = true; // palette colours: rangeFill, rangeEdge
    m_marks = addOverlay(std::make_unique<MarksOverlay>(rangeStyle));
    m_search = addOverlay(std::make_unique<SearchHitsOverlay>());
    m_chain = addOverlay(std::make_unique<ChainOverlay>());
    m_selection = addOverlay(std::make_unique<SelectionOverlay>());
    m_flows = addOverlay(std::make_unique<FlowOverlay>());
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
    connect(m_state, &ViewState::visibleRangeChanged, this, [this] {
        invalidateGeometry();
        update();
    });
    connect(m_state, &ViewState::markedRangeChanged, this, &TimelineView::syncMarkedRange);
    connect(m_state, &ViewState::selectionChanged, this, [this](SliceId id) {
        if (!m_selection->setSelected(id))
            return;
        m_flows->setSelected(id);
        emit sliceSelected(id);
    });
    connect(m_vbar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    m_vbar->hide();
    // Opaque: shown or moved, it does not make the timeline repaint the strip beneath it (a second pass
    // over every lane right after a new trace's first frame).
    m_vbar->setAutoFillBackground(true);
}

TimelineView::~TimelineView() = default;

void TimelineView::addOverlayImpl(std::unique_ptr<TimelineOverlay> overlay)
{
    if (!overlay)
        return;
    overlay->setRepaintHandler([this] { update(); });
    m_overlays.push_back(std::move(overlay));
    update();
}

std::unique_ptr<TimelineOverlay> TimelineView::removeOverlay(TimelineOverlay *overlay)
{
    const auto builtIn = {static_cast<TimelineOverlay *>(m_marks), static_cast<TimelineOverlay *>(m_search),
                          static_cast<TimelineOverlay *>(m_chain), static_cast<TimelineOverlay *>(m_selection),
                          static_cast<TimelineOverlay *>(m_flows)};
    if (!overlay || std::find(builtIn.begin(), builtIn.end(), overlay) != builtIn.end())
        return {};
    const auto it = std::find_if(m_overlays.begin(), m_overlays.end(), [overlay](const auto &o) { return o.get() == overlay; });
    if (it == m_overlays.end())
        return {};
    std::unique_ptr<TimelineOverlay> out = std::move(*it);
    m_overlays.erase(it);
    out->setRepaintHandler({});
    update();
    return out;
}

TimelineFrame TimelineView::frame() const
{
    TimelineFrame::Setup s;
    s.trace = m_trace.get();
    s.layout = &m_layout;
    s.palette = &m_palette;
    s.colors = &m_colors;
    s.depthIndex = &m_depthIndex;
    s.lanes = &m_lanes;
    s.timeArea = timeArea();
    s.viewport.t0 = m_state->visibleStart();
    s.viewport.t1 = m_state->visibleEnd();
    s.viewport.width = s.timeArea.width();
    s.size = size();
    s.rulerHeight = m_rulerHeight;
    s.scroll = m_vbar->value();
    s.colorByCategory = m_colorByCategory;
    return TimelineFrame(s);
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_tracePainted = !m_trace;
    for (const auto &overlay : m_overlays)
        overlay->reset();
    m_colors.reset(m_trace.get());
    m_depthIndex.build(m_trace.get());
    m_layout.clear();
    relayout();
    // A shared state is started over by its owner (the Session, before it announces the trace), so
    // the views hear of the new range once; a state of the view's own is started over here.
    if (m_ownsState && m_trace) {
        m_state->setTraceRange(m_trace->startNs(), m_trace->endNs());
    } else if (m_ownsState) {
        m_state->setSelectedSlice(SliceId());
        m_state->clearMarkedRange();
    }
    syncMarkedRange();
    m_vbar->setValue(0);
    invalidateGeometry();
    update();
}

void TimelineView::syncMarkedRange()
{
    if (m_state->hasMarkedRange())
        m_marks->setRanges({{m_state->markedStart(), m_state->markedEnd()}});
    else
        m_marks->setRanges({});
}

void TimelineView::relayout()
{
    m_layout.build(m_trace.get());
    m_lanes.reset(m_layout.rows().size());
    updateScrollBar();
}

void TimelineView::layoutChanged()
{
    m_lanes.reset(m_layout.rows().size());
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
    return frame().trackAtY(y);
}

void TimelineView::toggleGroupCollapsed(GroupId group)
{
    m_layout.toggleCollapsed(group);
    layoutChanged();
}

void TimelineView::toggleRow(int rowIndex)
{
    if (m_layout.toggleRow(rowIndex))
        layoutChanged();
}

int TimelineView::laneScroll() const
{
    return m_vbar->value();
}

void TimelineView::setLaneScroll(int y)
{
    m_vbar->setValue(y);
}

void TimelineView::triggerLaneScroll(QAbstractSlider::SliderAction action)
{
    m_vbar->triggerAction(action);
}

void TimelineView::invalidateGeometry()
{
    m_lanes.invalidate();
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
    if (timeArea() != m_timeAreaSeen) {
        m_timeAreaSeen = timeArea();
        emit timeAreaChanged();
    }
}

std::pair<int64_t, int64_t> TimelineView::visibleRange() const
{
    return {m_state->visibleStart(), m_state->visibleEnd()};
}

void TimelineView::setVisibleRange(int64_t t0, int64_t t1)
{
    m_state->setVisibleRange(t0, t1);
}

void TimelineView::fitAll()
{
    m_state->fitAll();
}

int TimelineView::headerWidth() const
{
    return std::clamp(width() / 4, 120, TimelinePainter::kMaxHeaderWidth);
}

QRect TimelineView::timeArea() const
{
    const int left = headerWidth();
    const int right = width() - (m_vbar->isHidden() ? 0 : m_vbar->width()); // also before the window is shown
    return QRect(left, m_rulerHeight, std::max(1, right - left), std::max(0, height() - m_rulerHeight));
}

int64_t TimelineView::timeAtX(double x) const
{
    return frame().timeAtX(x);
}

SliceId TimelineView::sliceAt(QPoint pos) const
{
    return frame().sliceAt(pos);
}

QRectF TimelineView::sliceRect(SliceId id) const
{
    return frame().sliceRect(id);
}

void TimelineView::fitSlice(SliceId id)
{
    if (!m_trace || !id.isValid())
        return;
    const Slice &s = m_trace->slice(id);
    const int64_t margin = std::max<int64_t>(s.duration / 10, ViewState::kMinSpan);
    m_state->pushHistory();
    m_state->setVisibleRange(s.start - margin, s.end() + margin);
}

void TimelineView::fitSelection()
{
    if (selectedSlice().isValid()) {
        fitSlice(selectedSlice());
    } else if (m_state->hasMarkedRange()) {
        m_state->pushHistory();
        m_state->setVisibleRange(m_state->markedStart(), m_state->markedEnd());
    }
}

void TimelineView::scrollToTrack(TrackId track)
{
    if (m_layout.rowOfTrack(track) < 0 && m_layout.revealTrack(track))
        layoutChanged();
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
        m_state->pushHistory();
        m_state->setVisibleRange(mid - span / 2, mid - span / 2 + span);
    }
    scrollToTrack(m_trace->trackOfSlice(id));
}

void TimelineView::setSearchMatches(std::vector<uint32_t> matches)
{
    m_search->setMatches(std::move(matches));
    emit currentMatchChanged(m_search->current(), int(m_search->matches().size()));
}

const std::vector<uint32_t> &TimelineView::searchMatches() const
{
    return m_search->matches();
}

int TimelineView::currentMatch() const
{
    return m_search->current();
}

int TimelineView::stepMatch(bool forward)
{
    const auto &matches = m_search->matches();
    if (matches.empty() || !m_trace)
        return -1;
    int index;
    if (m_search->current() >= 0) {
        const int n = int(matches.size());
        index = ((forward ? m_search->current() + 1 : m_search->current() - 1) % n + n) % n;
    } else {
        const int64_t t = forward ? m_state->visibleStart() - 1 : m_state->visibleEnd() + 1;
        index = int(SliceSearch::step(*m_trace, matches, t, forward));
    }
    goToMatch(index);
    return index;
}

void TimelineView::goToMatch(int index)
{
    if (index < 0 || !m_search->setCurrent(index))
        return;
    revealSlice(SliceId(m_search->matches()[size_t(index)]));
    emit currentMatchChanged(m_search->current(), int(m_search->matches().size()));
}

void TimelineView::setShowAllFlows(bool on)
{
    m_flows->setShowAll(on);
}

bool TimelineView::showAllFlows() const
{
    return m_flows->showAll();
}

const std::vector<TimelineView::FlowArrow> &TimelineView::flowArrows() const
{
    return m_flows->arrows();
}

void TimelineView::setColorByCategory(bool on)
{
    m_colorByCategory = on;
    update();
}

void TimelineView::setColorByOperator(bool on)
{
    m_colors.setByOperator(on);
    update();
}

void TimelineView::setTheme(TimelinePalette::Theme theme)
{
    m_palette = TimelinePalette::forTheme(theme);
    update();
}

SliceId TimelineView::selectedSlice() const
{
    return m_state->selectedSlice();
}

void TimelineView::setSelectedSlice(SliceId id)
{
    m_state->setSelectedSlice(id);
}

void TimelineView::setChain(std::shared_ptr<const DependencyChain> chain, std::vector<SliceId> criticalPath)
{
    m_chain->setChain(std::move(chain), std::move(criticalPath));
}

const std::shared_ptr<const DependencyChain> &TimelineView::chain() const
{
    return m_chain->chain();
}

const std::vector<SliceId> &TimelineView::criticalPath() const
{
    return m_chain->criticalPath();
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    std::vector<TimelineOverlay *> overlays;
    overlays.reserve(m_overlays.size() + 1);
    for (const auto &overlay : m_overlays)
        overlays.push_back(overlay.get());
    overlays.push_back(m_inputOverlay.get());
    TimelinePainter(p, frame(), overlays).paint();
    if (!m_tracePainted) {
        m_tracePainted = true;
        emit tracePainted();
    }
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
    const TimelineFrame f = frame();
    const int ri = f.rowIndexAtY(pos.y());
    if (ri < 0)
        return {};
    const TimelineLayout::Row &row = m_layout.rows()[size_t(ri)];
    const auto esc = [](std::string_view v) { return fromView(v).toHtmlEscaped(); };
    if (row.isLaneSet())
        return tr("<b>%1</b><br>%2 lanes; click to %3").arg(esc(m_layout.rowName(row))).arg(m_layout.rowTracks(row).size()).arg(row.collapsed ? tr("expand") : tr("collapse"));
    if (!row.isTrack())
        return esc(m_trace->groupPath(row.group()));
    const Track &track = m_trace->track(row.track());
    // Counter values in the units of the lane's header ("12.3 MiB"); the value under the mouse also
    // with every digit when those units round it: "12.3 MiB (12910592 bytes)".
    const std::string_view unit = m_trace->str(track.unit);
    const auto human = [unit](double v) { return QString::fromStdString(UnitText::value(v, unit)); };
    const auto withDigits = [&](double v) {
        const QString text = human(v);
        QString raw = QString::number(v, 'g', 15);
        if (!unit.empty())
            raw += QLatin1Char(' ') + fromView(unit);
        return QString(text).remove(QLatin1Char(',')) == raw ? text : text + QStringLiteral(" (") + raw + QLatin1Char(')');
    };
    if (pos.x() < timeArea().left()) {
        QString text = QStringLiteral("<b>%1</b>").arg(esc(m_trace->trackPath(row.track())));
        if (track.sliceCount)
            text += tr("<br>%1 slices, %2 levels").arg(track.sliceCount).arg(row.depthCount);
        if (track.instantCount)
            text += tr("<br>%1 instants").arg(track.instantCount);
        if (track.counterCount)
            text += tr("<br>%1 samples, %2 to %3")
                        .arg(QString::fromStdString(UnitText::thousands(double(track.counterCount))),
                             human(row.counterMin), human(row.counterMax));
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
                .arg(esc(m_trace->str(track.name)), withDigits(it->value).toHtmlEscaped(),
                     DurationFormat::formatPrecise(it->ts - m_trace->startNs()));
        }
    }
    if (track.instantCount) {
        const double px = f.viewport().pxPerNs();
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
