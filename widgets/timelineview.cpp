#include "timelineview.h"

#include "durationformat.h"
#include "zoomcontrol.h"

#include "model/trace.h"

#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace lanescope {

namespace {

// A light theme of its own: the lanes must look the same whatever the desktop palette.
const QColor kBackground(0xff, 0xff, 0xff);
const QColor kHeaderBackground(0xf4, 0xf5, 0xf7);
const QColor kGroupBackground(0xe3, 0xe6, 0xec);
const QColor kRulerBackground(0xf9, 0xfa, 0xfb);
const QColor kGridLine(0xec, 0xee, 0xf1);
const QColor kSeparator(0xd5, 0xd9, 0xe0);
const QColor kText(0x1f, 0x23, 0x2b);
const QColor kMutedText(0x6b, 0x72, 0x80);
const QColor kSelection(0x11, 0x18, 0x27);

constexpr int kMaxHeaderWidth = 240;
constexpr double kMinTextWidth = 24; // px: narrower slices carry no label

QString fromView(std::string_view v)
{
    return QString::fromUtf8(v.data(), qsizetype(v.size()));
}

} // namespace

TimelineView::TimelineView(QWidget *parent)
    : QWidget(parent), m_zoom(new ZoomControl(this)), m_vbar(new QScrollBar(Qt::Vertical, this))
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
    connect(m_vbar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    m_vbar->hide();
}

TimelineView::~TimelineView() = default;

void TimelineView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_selected = SliceId();
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
    return std::clamp(width() / 4, 120, kMaxHeaderWidth);
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
    return m_rulerHeight + row.y - m_vbar->value();
}

int TimelineView::rowIndexAtY(int y) const
{
    if (y < m_rulerHeight)
        return -1;
    return m_layout.rowAt(y - m_rulerHeight + m_vbar->value());
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

void TimelineView::setSelectedSlice(SliceId id)
{
    if (id == m_selected)
        return;
    m_selected = id;
    update();
    emit sliceSelected(id);
}

// ---- painting -------------------------------------------------------------------------------

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), kBackground);
    if (!m_trace) {
        paintEmpty(p);
        return;
    }
    const QRect area = timeArea();
    int64_t step = 0;
    const auto ticks = TimeRuler::ticks(m_zoom->visibleStart(), m_zoom->visibleEnd(), m_trace->startNs(), area.width(),
                                        p.fontMetrics(), &step);
    p.fillRect(QRect(0, m_rulerHeight, headerWidth(), height()), kHeaderBackground);
    paintGrid(p, ticks);

    p.save();
    p.setClipRect(QRect(0, m_rulerHeight, area.right() + 1, area.height()));
    const int scroll = m_vbar->value();
    const auto &rows = m_layout.rows();
    for (size_t i = size_t(m_layout.firstRowBelow(scroll)); i < rows.size(); ++i) {
        const int y = rowTop(rows[i]);
        if (y >= height())
            break;
        if (rows[i].isTrack())
            paintTrackRow(p, i, y);
        else
            paintGroupRow(p, rows[i], y);
    }
    p.restore();
    // The header column's right edge.
    p.setPen(kSeparator);
    p.drawLine(area.left() - 1, m_rulerHeight, area.left() - 1, height());
    paintRuler(p, ticks, step);
}

void TimelineView::paintEmpty(QPainter &p)
{
    p.setPen(kMutedText);
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               tr("No trace loaded.\nOpen one with File > Open (Ctrl+O) or drop files here."));
}

void TimelineView::paintGrid(QPainter &p, const std::vector<TimeRuler::Tick> &ticks)
{
    const QRect area = timeArea();
    p.setPen(kGridLine);
    for (const auto &t : ticks)
        if (t.major)
            p.drawLine(QPointF(area.left() + t.x, area.top()), QPointF(area.left() + t.x, area.bottom()));
}

void TimelineView::paintRuler(QPainter &p, const std::vector<TimeRuler::Tick> &ticks, int64_t step)
{
    const QRect area = timeArea();
    const QRect ruler(0, 0, width(), m_rulerHeight);
    p.fillRect(ruler, kRulerBackground);
    p.setPen(kSeparator);
    p.drawLine(0, m_rulerHeight - 1, width(), m_rulerHeight - 1);
    // Left corner: the visible span and the step of the major ticks.
    p.setPen(kMutedText);
    const QString corner = tr("%1 visible").arg(DurationFormat::format(m_zoom->visibleSpan()));
    p.drawText(QRect(6, 0, headerWidth() - 10, m_rulerHeight - 1), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(corner, Qt::ElideRight, headerWidth() - 10));
    Q_UNUSED(step);

    p.save();
    p.setClipRect(QRect(area.left(), 0, area.width(), m_rulerHeight));
    const int base = m_rulerHeight - 1;
    for (const auto &t : ticks) {
        const double x = area.left() + t.x;
        p.setPen(kMutedText);
        p.drawLine(QPointF(x, base - (t.major ? 8 : 4)), QPointF(x, base));
        if (t.major) {
            p.setPen(kText);
            p.drawText(QPointF(x + 3, base - 8), t.label);
        }
    }
    p.restore();
}

void TimelineView::paintGroupRow(QPainter &p, const TimelineLayout::Row &row, int y)
{
    const QRect r(0, y, width(), row.height);
    p.fillRect(r, kGroupBackground);
    p.setPen(kSeparator);
    p.drawLine(0, r.bottom(), width(), r.bottom());
    const int indent = m_layout.metrics().indent;
    const int x = 6 + row.level * indent;
    // Fold marker: a small triangle pointing right (folded) or down (open).
    const double cy = y + row.height / 2.0;
    QPainterPath arrow;
    if (row.collapsed) {
        arrow.moveTo(x, cy - 4);
        arrow.lineTo(x + 6, cy);
        arrow.lineTo(x, cy + 4);
    } else {
        arrow.moveTo(x - 1, cy - 3);
        arrow.lineTo(x + 7, cy - 3);
        arrow.lineTo(x + 3, cy + 2);
    }
    arrow.closeSubpath();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillPath(arrow, kMutedText);
    p.setRenderHint(QPainter::Antialiasing, false);

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(kText);
    const int textX = x + 12;
    const QRect textRect(textX, y, width() - textX - 8, row.height);
    p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
               QFontMetrics(bold).elidedText(groupName(row.group()), Qt::ElideRight, textRect.width()));
    p.setFont(font());
}

void TimelineView::paintTrackRow(QPainter &p, size_t rowIndex, int y)
{
    const TimelineLayout::Row &row = m_layout.rows()[rowIndex];
    const QRect area = timeArea();
    const int hw = headerWidth();
    const int rowH = m_layout.metrics().rowHeight;
    const Track &track = m_trace->track(row.track());

    // Header column: the track name on the first slice row, counters show their range below.
    const int x = 6 + row.level * m_layout.metrics().indent;
    p.setPen(kText);
    const QRect nameRect(x, y + row.slicesTop, hw - x - 6, std::min(rowH, row.height));
    p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(trackName(row.track()), Qt::ElideRight, nameRect.width()));
    if (track.counterCount && row.depthCount == 0) {
        p.setPen(kMutedText);
        const QString unit = fromView(m_trace->str(track.unit));
        QString range = tr("max %1").arg(QString::number(row.counterMax, 'g', 6));
        if (!unit.isEmpty())
            range += QLatin1Char(' ') + unit;
        p.drawText(QRect(x, y + rowH, hw - x - 6, rowH), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(range, Qt::ElideRight, hw - x - 6));
    }

    const LaneGeometry &g = laneGeometry(rowIndex);
    p.save();
    p.setClipRect(QRect(area.left(), y, area.width(), row.height).intersected(area));
    if (!g.counter.empty())
        paintCounter(p, row, g, y);
    paintSlices(p, row, g, y);
    paintInstants(p, row, g, y);
    p.restore();

    p.setPen(kSeparator);
    p.drawLine(0, y + row.height - 1, area.right(), y + row.height - 1);
}

void TimelineView::paintSlices(QPainter &p, const TimelineLayout::Row &row, const LaneGeometry &g, int y)
{
    if (g.slices.empty())
        return;
    const QRect area = timeArea();
    const double left = area.left();
    const int rowH = m_layout.metrics().rowHeight;
    const auto all = m_trace->allSlices();
    const QFontMetrics fm = p.fontMetrics();
    const double top = y + row.slicesTop;
    for (const auto &item : g.slices) {
        const Slice &s = all[item.slice];
        QColor c = QColor::fromRgb(m_colors.color(s.name));
        if (item.count > 1)
            c = c.darker(112); // a merged run of sub-pixel slices
        const QRectF r(left + item.x0, top + item.depth * rowH, std::max(1.0f, item.x1 - item.x0), rowH - 1);
        p.fillRect(r, c);
        if (item.count > 1)
            continue;
        // Label the part that is on screen.
        const double vx0 = std::max<double>(item.x0, 0), vx1 = std::min<double>(item.x1, area.width());
        if (vx1 - vx0 < kMinTextWidth)
            continue;
        const QRectF textRect(left + vx0 + 3, r.top(), vx1 - vx0 - 6, r.height());
        const QString text = fm.elidedText(fromView(m_trace->str(s.name)), Qt::ElideRight, int(textRect.width()));
        if (text.isEmpty())
            continue;
        // Dark text on light colours, white on dark ones (perceived luminance).
        const int luminance = (299 * c.red() + 587 * c.green() + 114 * c.blue()) / 1000;
        p.setPen(luminance < 135 ? QColor(Qt::white) : kText);
        p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, text);
    }
    if (m_selected.isValid() && m_trace->trackOfSlice(m_selected) == row.track()) {
        const QRectF r = sliceRect(m_selected);
        p.setPen(QPen(kSelection, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(0, 0, 0, 0));
        p.setPen(QPen(Qt::white, 1));
        p.drawRect(r.adjusted(2, 2, -2, -2));
    }
}

void TimelineView::paintInstants(QPainter &p, const TimelineLayout::Row &row, const LaneGeometry &g, int y)
{
    if (g.instants.empty())
        return;
    const double left = timeArea().left();
    const auto all = m_trace->allInstants();
    // In the strip above the slices, or centred in a lane of instants only.
    const double h = row.depthCount ? row.slicesTop : row.height;
    const double cy = y + h / 2.0;
    const double half = std::min(5.0, h / 2.0 - 1);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(kText, 0.8));
    for (const auto &item : g.instants) {
        const double x = left + item.x;
        QPainterPath diamond;
        diamond.moveTo(x, cy - half);
        diamond.lineTo(x + half * 0.8, cy);
        diamond.lineTo(x, cy + half);
        diamond.lineTo(x - half * 0.8, cy);
        diamond.closeSubpath();
        p.setBrush(QColor::fromRgb(m_colors.color(all[item.instant].name)));
        p.drawPath(diamond);
    }
    p.setBrush(Qt::NoBrush);
    p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineView::paintCounter(QPainter &p, const TimelineLayout::Row &row, const LaneGeometry &g, int y)
{
    const double left = timeArea().left();
    const double lo = std::min(0.0, row.counterMin);
    const double hi = row.counterMax > lo ? row.counterMax : lo + 1;
    const double bottom = y + row.height - 3;
    const double top = y + 4;
    const auto toY = [&](double v) { return bottom - (v - lo) / (hi - lo) * (bottom - top); };
    QColor c = QColor::fromRgb(m_colors.color(m_trace->track(row.track()).name));
    const QColor line = c.darker(140);
    c.setAlpha(150);
    // A step chart: one filled rectangle per step (at most a few per pixel column) and the outline
    // of the steps as one polyline. Rectangles and aliased lines are cheap; a filled path is not.
    QPolygonF outline;
    outline.reserve(qsizetype(2 * g.counter.size() + 1));
    for (size_t i = 0; i < g.counter.size(); ++i) {
        const double x = left + g.counter[i].x;
        const double nextX = std::max(x, left + (i + 1 < g.counter.size() ? g.counter[i + 1].x : g.counterEndX));
        const double vy = toY(g.counter[i].value);
        p.fillRect(QRectF(x, std::min(vy, bottom), nextX - x, std::abs(bottom - vy)), c);
        outline << QPointF(x, vy) << QPointF(nextX, vy);
    }
    p.setPen(QPen(line, 0));
    p.drawPolyline(outline);
    p.drawLine(QPointF(left, bottom), QPointF(left + timeArea().width(), bottom));
}

// ---- interaction ----------------------------------------------------------------------------

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateScrollBar();
    invalidateGeometry();
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    if (!m_trace) {
        event->ignore();
        return;
    }
    const QPoint angle = event->angleDelta();
    const QPointF pos = event->position();
    if (event->modifiers() & Qt::ControlModifier) {
        const double factor = std::pow(0.85, angle.y() / 120.0);
        const int64_t anchor =
            pos.x() >= timeArea().left() ? timeAtX(pos.x()) : m_zoom->visibleStart() + m_zoom->visibleSpan() / 2;
        m_zoom->zoom(factor, anchor);
    } else if ((event->modifiers() & Qt::ShiftModifier) || std::abs(angle.x()) > std::abs(angle.y())) {
        const int d = angle.x() ? angle.x() : angle.y();
        m_zoom->pan(-int64_t(double(d) / 120.0 * 0.1 * double(m_zoom->visibleSpan())));
    } else {
        const int dy =
            event->pixelDelta().y() ? event->pixelDelta().y() : angle.y() * 3 * m_layout.metrics().rowHeight / 120;
        m_vbar->setValue(m_vbar->value() - dy);
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_trace) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_mouseDown = true;
    m_dragging = false;
    m_pressPos = event->position().toPoint();
    m_pressRange = visibleRange();
    m_pressScroll = m_vbar->value();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    m_lastMousePos = pos;
    if (!m_mouseDown)
        return;
    if (!m_dragging && (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
        m_dragging = true;
        setCursor(Qt::ClosedHandCursor);
    }
    if (!m_dragging)
        return;
    const double px = viewport().pxPerNs();
    if (px > 0) {
        const int64_t dt = int64_t(std::llround((pos.x() - m_pressPos.x()) / px));
        m_zoom->setVisibleRange(m_pressRange.first - dt, m_pressRange.second - dt);
    }
    m_vbar->setValue(m_pressScroll - (pos.y() - m_pressPos.y()));
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_mouseDown) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const bool wasDrag = m_dragging;
    m_mouseDown = m_dragging = false;
    unsetCursor();
    if (wasDrag)
        return;
    const QPoint pos = event->position().toPoint();
    const int ri = rowIndexAtY(pos.y());
    if (ri >= 0 && !m_layout.rows()[size_t(ri)].isTrack()) {
        m_layout.toggleCollapsed(m_layout.rows()[size_t(ri)].group());
        m_lanes.assign(m_layout.rows().size(), LaneGeometry());
        updateScrollBar();
        update();
        return;
    }
    setSelectedSlice(sliceAt(pos));
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const SliceId id = sliceAt(event->position().toPoint());
    if (!id.isValid()) {
        QWidget::mouseDoubleClickEvent(event);
        return;
    }
    const Slice &s = m_trace->slice(id);
    const int64_t margin = std::max<int64_t>(s.duration / 10, ZoomControl::kMinSpan);
    setSelectedSlice(id);
    m_zoom->setVisibleRange(s.start - margin, s.end() + margin);
}

int64_t TimelineView::keyAnchor() const
{
    // Zoom at the mouse when it is over the lanes, else at the centre.
    if (underMouse() && timeArea().contains(m_lastMousePos))
        return timeAtX(m_lastMousePos.x());
    return m_zoom->visibleStart() + m_zoom->visibleSpan() / 2;
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    if (!m_trace) {
        QWidget::keyPressEvent(event);
        return;
    }
    const int64_t panStep = std::max<int64_t>(1, int64_t(double(m_zoom->visibleSpan()) * kKeyPanFraction));
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_zoom->zoom(kKeyZoomFactor, keyAnchor());
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        m_zoom->zoom(1.0 / kKeyZoomFactor, keyAnchor());
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        m_zoom->pan(-panStep);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        m_zoom->pan(panStep);
        break;
    case Qt::Key_Home:
    case Qt::Key_0:
        m_zoom->fitAll();
        break;
    case Qt::Key_Up:
        m_vbar->triggerAction(QAbstractSlider::SliderSingleStepSub);
        break;
    case Qt::Key_Down:
        m_vbar->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        break;
    case Qt::Key_PageUp:
        m_vbar->triggerAction(QAbstractSlider::SliderPageStepSub);
        break;
    case Qt::Key_PageDown:
        m_vbar->triggerAction(QAbstractSlider::SliderPageStepAdd);
        break;
    case Qt::Key_Escape:
        if (!m_selected.isValid()) {
            QWidget::keyPressEvent(event);
            return;
        }
        setSelectedSlice(SliceId());
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
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
