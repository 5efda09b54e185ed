#include "querylanesstrip.h"

#include "slicecolors.h"

#include "session/viewstate.h"
#include "style/durationformat.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

namespace lanescope {

namespace {

constexpr int kButton = 14;   // the remove button's side
constexpr int kPickPx = 3;    // how close to a thin item a click or hover must be

QColor textOn(QRgb fill)
{
    const int lum = (qRed(fill) * 299 + qGreen(fill) * 587 + qBlue(fill) * 114) / 1000;
    return lum > 140 ? QColor(20, 20, 20) : QColor(250, 250, 250);
}

} // namespace

QueryLanesStrip::QueryLanesStrip(ViewState *state, QWidget *parent) : QWidget(parent), m_state(state)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    connect(m_state, &ViewState::visibleRangeChanged, this, qOverload<>(&QWidget::update));
    relayout();
}

void QueryLanesStrip::setTimeInsets(std::function<std::pair<int, int>()> insets)
{
    m_insets = std::move(insets);
    update();
}

void QueryLanesStrip::setTheme(TimelinePalette::Theme theme)
{
    m_palette = TimelinePalette::forTheme(theme);
    update();
}

void QueryLanesStrip::addLane(std::shared_ptr<const QueryLane> lane)
{
    if (!lane)
        return;
    m_lanes.push_back(std::move(lane));
    relayout();
    emit lanesChanged();
}

void QueryLanesStrip::removeLane(int index)
{
    if (index < 0 || index >= laneCount())
        return;
    m_lanes.erase(m_lanes.begin() + index);
    m_hoverRow = -1;
    m_hoverItem = -1;
    relayout();
    emit laneRemoved(index);
    emit lanesChanged();
}

void QueryLanesStrip::clear()
{
    if (m_lanes.empty())
        return;
    m_lanes.clear();
    relayout();
    emit lanesChanged();
}

void QueryLanesStrip::relayout()
{
    setFixedHeight(m_lanes.empty() ? 0 : laneCount() * kRowHeight + 1);
    setVisible(!m_lanes.empty());
    update();
}

QSize QueryLanesStrip::sizeHint() const { return {600, laneCount() * kRowHeight + 1}; }

std::pair<int, int> QueryLanesStrip::insets() const
{
    if (m_insets)
        return m_insets();
    return {std::min(200, width() / 4), 0};
}

double QueryLanesStrip::xOf(int64_t ns) const
{
    const auto [left, right] = insets();
    const double w = std::max(1, width() - left - right);
    const int64_t t0 = m_state->visibleStart(), t1 = m_state->visibleEnd();
    return left + (t1 > t0 ? double(ns - t0) * w / double(t1 - t0) : 0.0);
}

int QueryLanesStrip::rowAt(int y) const
{
    const int row = y / kRowHeight;
    return y >= 0 && row < laneCount() ? row : -1;
}

QRect QueryLanesStrip::removeButtonRect(int row) const
{
    const int left = insets().first;
    return QRect(left - kButton - 4, row * kRowHeight + (kRowHeight - kButton) / 2, kButton, kButton);
}

long QueryLanesStrip::itemAt(int row, double x) const
{
    if (row < 0 || row >= laneCount())
        return -1;
    const auto [left, right] = insets();
    if (x < left - kPickPx || x > width() - right + kPickPx)
        return -1;
    const QueryLane &lane = *m_lanes[size_t(row)];
    const int64_t t0 = m_state->visibleStart(), t1 = m_state->visibleEnd();
    const double w = std::max(1, width() - left - right);
    const double nsPerPx = double(t1 - t0) / w;
    const int64_t at = t0 + int64_t(std::llround((x - left) * nsPerPx));
    const int64_t slack = int64_t(std::ceil(kPickPx * nsPerPx));
    const auto [lo, hi] = lane.overlapping(at - slack, at + slack);
    // The shortest item under the cursor (a long slice does not hide the short ones drawn over it).
    long best = -1;
    int64_t bestDur = 0;
    for (size_t i = lo; i < hi; ++i) {
        const QueryLaneItem &it = lane.items[i];
        if (it.end() < at - slack || it.ts > at + slack)
            continue;
        const int64_t d = std::max<int64_t>(it.dur, 0);
        if (best < 0 || d < bestDur) {
            best = long(i);
            bestDur = d;
        }
    }
    return best;
}

QString QueryLanesStrip::toolTipOf(int row, long item) const
{
    if (row < 0 || row >= laneCount() || item < 0)
        return {};
    const QueryLane &lane = *m_lanes[size_t(row)];
    const QueryLaneItem &it = lane.items[size_t(item)];
    QString text = QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(lane.nameOf(it)).toHtmlEscaped());
    text += tr("start: %1 (from the trace start)").arg(DurationFormat::formatPrecise(it.ts - m_origin));
    text += QStringLiteral("<br>") + (it.instant() ? tr("instant") : tr("duration: %1").arg(DurationFormat::formatPrecise(it.dur)));
    if (it.sliceId >= 0)
        text += QStringLiteral("<br>") + tr("slice %1: click to select it").arg(it.sliceId);
    if (it.trackId >= 0)
        text += QStringLiteral("<br>") + tr("track %1").arg(it.trackId);
    text += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(lane.title).toHtmlEscaped());
    return text;
}

void QueryLanesStrip::activate(int row, long item)
{
    if (row < 0 || row >= laneCount() || item < 0)
        return;
    const QueryLaneItem &it = m_lanes[size_t(row)]->items[size_t(item)];
    if (it.sliceId >= 0 && it.sliceId <= int64_t(UINT32_MAX)) {
        emit sliceRequested(SliceId(uint32_t(it.sliceId)));
        return;
    }
    // No slice: bring the item's time to the middle, keeping the zoom unless the item is longer.
    m_state->pushHistory();
    const int64_t span = m_state->visibleSpan();
    const int64_t dur = std::max<int64_t>(it.dur, 0);
    if (dur > span * 9 / 10)
        m_state->setVisibleRange(it.ts - dur / 20, it.end() + dur / 20);
    else
        m_state->setVisibleRange(it.ts + dur / 2 - span / 2, it.ts + dur / 2 - span / 2 + span);
}

void QueryLanesStrip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), m_palette.background);
    const auto [left, right] = insets();
    const int timeRight = width() - right;
    const int64_t t0 = m_state->visibleStart(), t1 = m_state->visibleEnd();
    const QFontMetrics fm = p.fontMetrics();
    for (int row = 0; row < laneCount(); ++row) {
        const QueryLane &lane = *m_lanes[size_t(row)];
        const int y = row * kRowHeight;
        // Header: title and remove button.
        p.fillRect(QRect(0, y, left, kRowHeight), m_palette.headerBackground);
        const QRect button = removeButtonRect(row);
        p.setPen(m_palette.text);
        const QString title = QString::fromStdString(lane.title);
        p.drawText(QRect(6, y, std::max(0, button.left() - 10), kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(title, Qt::ElideRight, std::max(0, button.left() - 10)));
        p.setPen(QPen(m_palette.mutedText, 1.4));
        p.setRenderHint(QPainter::Antialiasing, true);
        const QRectF cross = QRectF(button).adjusted(3.5, 3.5, -3.5, -3.5);
        p.drawLine(cross.topLeft(), cross.bottomRight());
        p.drawLine(cross.topRight(), cross.bottomLeft());
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(m_palette.separator);
        p.drawLine(0, y + kRowHeight - 1, width(), y + kRowHeight - 1);

        // Items: slices as bars (items narrower than a pixel drawn once per pixel column), then instants.
        p.save();
        p.setClipRect(QRect(left, y, std::max(0, timeRight - left), kRowHeight - 1));
        const auto [lo, hi] = lane.overlapping(t0, t1);
        const double top = y + 2, h = kRowHeight - 5;
        int lastPx = INT_MIN;
        for (size_t i = lo; i < hi; ++i) {
            const QueryLaneItem &it = lane.items[i];
            if (it.instant() || it.end() < t0)
                continue;
            const double x0 = std::max(double(left) - 1, xOf(it.ts));
            const double x1 = std::min(double(timeRight) + 1, xOf(it.end()));
            const QRgb fill = SliceColors::colorForName(lane.nameOf(it));
            if (x1 - x0 < 1.0) {
                const int px = int(x0);
                if (px == lastPx)
                    continue;
                lastPx = px;
                p.fillRect(QRectF(px, top, 1, h), QColor::fromRgb(fill));
                continue;
            }
            const QRectF r(x0, top, x1 - x0, h);
            p.fillRect(r, QColor::fromRgb(fill));
            lastPx = int(x1);
            if (r.width() > 30 && !lane.nameOf(it).empty()) {
                p.setPen(textOn(fill));
                p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           fm.elidedText(QString::fromStdString(lane.nameOf(it)), Qt::ElideRight, int(r.width()) - 5));
            }
        }
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(QPen(m_palette.text, 0.8));
        const double cy = y + (kRowHeight - 1) / 2.0, half = 5;
        lastPx = INT_MIN;
        for (size_t i = lo; i < hi; ++i) {
            const QueryLaneItem &it = lane.items[i];
            if (!it.instant() || it.ts < t0)
                continue;
            const double x = xOf(it.ts);
            if (int(x) == lastPx)
                continue;
            lastPx = int(x);
            QPainterPath diamond;
            diamond.moveTo(x, cy - half);
            diamond.lineTo(x + half * 0.8, cy);
            diamond.lineTo(x, cy + half);
            diamond.lineTo(x - half * 0.8, cy);
            diamond.closeSubpath();
            p.setBrush(QColor::fromRgb(SliceColors::colorForName(lane.nameOf(it))));
            p.drawPath(diamond);
        }
        p.setBrush(Qt::NoBrush);
        p.setRenderHint(QPainter::Antialiasing, false);
        if (row == m_hoverRow && m_hoverItem >= 0) {
            const QueryLaneItem &it = lane.items[size_t(m_hoverItem)];
            p.setPen(QPen(m_palette.selection, 1.5));
            const double x0 = xOf(it.ts), x1 = std::max(x0 + 2, xOf(it.end()));
            p.drawRect(QRectF(x0 - (it.instant() ? 4 : 0), top - 1, x1 - x0 + (it.instant() ? 6 : 0), h + 2));
        }
        p.restore();
    }
}

void QueryLanesStrip::mousePressEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    const int row = rowAt(pos.y());
    if (row < 0 || event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (removeButtonRect(row).adjusted(-2, -2, 2, 2).contains(pos)) {
        removeLane(row);
        return;
    }
    activate(row, itemAt(row, pos.x()));
}

void QueryLanesStrip::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    const int row = rowAt(pos.y());
    const long item = itemAt(row, pos.x());
    const bool onButton = row >= 0 && removeButtonRect(row).adjusted(-2, -2, 2, 2).contains(pos);
    setCursor(onButton || item >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (row != m_hoverRow || item != m_hoverItem) {
        m_hoverRow = row;
        m_hoverItem = item;
        update();
    }
}

void QueryLanesStrip::leaveEvent(QEvent *event)
{
    m_hoverRow = -1;
    m_hoverItem = -1;
    update();
    QWidget::leaveEvent(event);
}

bool QueryLanesStrip::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = rowAt(help->pos().y());
        QString text;
        if (row >= 0 && removeButtonRect(row).adjusted(-2, -2, 2, 2).contains(help->pos()))
            text = tr("Remove this query lane");
        else if (row >= 0 && help->pos().x() < insets().first)
            text = QStringLiteral("<b>%1</b><br><pre>%2</pre>%3")
                       .arg(QString::fromStdString(m_lanes[size_t(row)]->title).toHtmlEscaped(),
                            QString::fromStdString(m_lanes[size_t(row)]->sql).toHtmlEscaped(),
                            tr("%1 items").arg(m_lanes[size_t(row)]->items.size()));
        else
            text = toolTipOf(row, itemAt(row, help->pos().x()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace lanescope
