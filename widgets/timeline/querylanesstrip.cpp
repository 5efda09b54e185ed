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
constexpr uint32_t kFoldedRowsSearched = 64; // folded rows drawn row by row up to this many

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
    m_colors.emplace_back(lane->names.size(), QRgb(0));
    m_lanes.push_back(std::move(lane));
    relayout();
    emit lanesChanged();
}

void QueryLanesStrip::removeLane(int index)
{
    if (index < 0 || index >= laneCount())
        return;
    m_lanes.erase(m_lanes.begin() + index);
    m_colors.erase(m_colors.begin() + index);
    m_hoverLane = -1;
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
    m_colors.clear();
    m_hoverLane = -1;
    m_hoverItem = -1;
    relayout();
    emit lanesChanged();
}

int QueryLanesStrip::shownRows(int lane) const
{
    const uint32_t rows = m_lanes[size_t(lane)]->rowCount;
    return std::clamp(int(std::min<uint32_t>(rows, kMaxShownRows)), 1, kMaxShownRows);
}

void QueryLanesStrip::relayout()
{
    m_tops.assign(1, 0);
    for (int i = 0; i < laneCount(); ++i)
        m_tops.push_back(m_tops.back() + std::max(kRowHeight, shownRows(i) * kSubRowHeight + 4));
    setFixedHeight(m_lanes.empty() ? 0 : m_tops.back() + 1);
    setVisible(!m_lanes.empty());
    update();
}

QSize QueryLanesStrip::sizeHint() const { return {600, m_tops.back() + 1}; }

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

int QueryLanesStrip::laneAt(int y) const
{
    if (y < 0 || y >= m_tops.back())
        return -1;
    return int(std::upper_bound(m_tops.begin(), m_tops.end(), y) - m_tops.begin()) - 1;
}

int QueryLanesStrip::rowAt(int lane, int y) const
{
    if (lane < 0 || lane >= laneCount() || y < laneTop(lane) || y >= laneTop(lane) + laneHeight(lane))
        return -1;
    return std::clamp((y - laneTop(lane) - 2) / kSubRowHeight, 0, shownRows(lane) - 1);
}

int QueryLanesStrip::shownRowOf(int lane, long item) const
{
    return std::min(int(m_lanes[size_t(lane)]->items[size_t(item)].row), shownRows(lane) - 1);
}

QRect QueryLanesStrip::removeButtonRect(int lane) const
{
    const int left = insets().first;
    return QRect(left - kButton - 4, laneTop(lane) + (kRowHeight - kButton) / 2, kButton, kButton);
}

long QueryLanesStrip::itemAt(int lane, int row, double x) const
{
    if (lane < 0 || lane >= laneCount() || row < 0 || row >= shownRows(lane))
        return -1;
    const auto [left, right] = insets();
    if (x < left - kPickPx || x > width() - right + kPickPx)
        return -1;
    const QueryLane &l = *m_lanes[size_t(lane)];
    const int64_t t0 = m_state->visibleStart(), t1 = m_state->visibleEnd();
    const double w = std::max(1, width() - left - right);
    const double nsPerPx = double(t1 - t0) / w;
    const int64_t at = t0 + int64_t(std::llround((x - left) * nsPerPx));
    const int64_t slack = int64_t(std::ceil(kPickPx * nsPerPx));
    // The shortest item under the cursor (in the folded row a long slice does not hide the short ones
    // drawn over it; in a row of its own, of two within the slack the shorter, thinner one).
    long best = -1;
    int64_t bestDur = 0;
    const auto consider = [&](size_t i) {
        const QueryLaneItem &it = l.items[i];
        if (it.end() < at - slack || it.ts > at + slack)
            return;
        const int64_t d = std::max<int64_t>(it.dur, 0);
        if (best < 0 || d < bestDur) {
            best = long(i);
            bestDur = d;
        }
    };
    if (row < shownRows(lane) - 1 || l.rowCount <= uint32_t(row) + 1) {
        const auto [lo, hi] = l.overlappingInRow(uint32_t(row), at - slack, at + slack);
        for (size_t p = lo; p < hi; ++p)
            consider(l.rowItems[p]);
    } else {
        const auto [lo, hi] = l.overlapping(at - slack, at + slack);
        for (size_t i = lo; i < hi; ++i)
            if (l.items[i].row >= uint32_t(row))
                consider(i);
    }
    return best;
}

QString QueryLanesStrip::toolTipOf(int lane, long item) const
{
    if (lane < 0 || lane >= laneCount() || item < 0)
        return {};
    const QueryLane &l = *m_lanes[size_t(lane)];
    const QueryLaneItem &it = l.items[size_t(item)];
    QString text = QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(l.nameOf(it)).toHtmlEscaped());
    text += tr("start: %1 (from the trace start)").arg(DurationFormat::formatPrecise(it.ts - m_origin));
    text += QStringLiteral("<br>") + (it.instant() ? tr("instant") : tr("duration: %1").arg(DurationFormat::formatPrecise(it.dur)));
    if (it.sliceId >= 0)
        text += QStringLiteral("<br>") + tr("slice %1: click to select it").arg(it.sliceId);
    if (it.trackId >= 0)
        text += QStringLiteral("<br>") + tr("track %1").arg(it.trackId);
    if (l.rowCount > 1)
        text += QStringLiteral("<br>") + tr("row %1 of %2").arg(it.row + 1).arg(l.rowCount);
    text += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(l.title).toHtmlEscaped());
    return text;
}

void QueryLanesStrip::activate(int lane, long item)
{
    if (lane < 0 || lane >= laneCount() || item < 0)
        return;
    const QueryLaneItem &it = m_lanes[size_t(lane)]->items[size_t(item)];
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
    for (int lane = 0; lane < laneCount(); ++lane)
        paintLane(p, lane, left, width() - right);
}

void QueryLanesStrip::paintLane(QPainter &p, int lane, int left, int timeRight)
{
    const QueryLane &l = *m_lanes[size_t(lane)];
    const int64_t t0 = m_state->visibleStart(), t1 = m_state->visibleEnd();
    const QFontMetrics fm = p.fontMetrics();
    const int y = laneTop(lane), height = laneHeight(lane), shown = shownRows(lane);
    const bool folded = l.rowCount > uint32_t(shown);

    // Header: title, remove button and, when rows are folded, "+N rows" at the last shown row.
    p.fillRect(QRect(0, y, left, height), m_palette.headerBackground);
    const QRect button = removeButtonRect(lane);
    p.setPen(m_palette.text);
    const QString title = QString::fromStdString(l.title);
    p.drawText(QRect(6, y, std::max(0, button.left() - 10), kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(title, Qt::ElideRight, std::max(0, button.left() - 10)));
    if (folded) {
        p.setPen(m_palette.mutedText);
        p.drawText(QRect(6, rowTop(lane, shown - 1), std::max(0, left - 10), kSubRowHeight - 1),
                   Qt::AlignVCenter | Qt::AlignRight, l.rowCount - uint32_t(shown) == 1 ? tr("+1 row") : tr("+%1 rows").arg(l.rowCount - uint32_t(shown)));
    }
    p.setPen(QPen(m_palette.mutedText, 1.4));
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF cross = QRectF(button).adjusted(3.5, 3.5, -3.5, -3.5);
    p.drawLine(cross.topLeft(), cross.bottomRight());
    p.drawLine(cross.topRight(), cross.bottomLeft());
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(m_palette.separator);
    p.drawLine(0, y + height - 1, width(), y + height - 1);

    p.save();
    p.setClipRect(QRect(left, y, std::max(0, timeRight - left), height - 1));
    const double nsPerPx = double(t1 - t0) / std::max(1, timeRight - left);
    const double h = (shown == 1 ? kRowHeight - 4 : kSubRowHeight) - 1;
    // Draws the items of lane row `laneRow` (-1: every visible item of the rows from `row` on, a scan)
    // in shown row `row`: slices as bars, an item narrower than a pixel once per pixel column, then the
    // instants over them. Within one lane row, past a thin item or an instant the items that end within
    // its pixel column are skipped by a binary search (a row's items do not overlap, so their ends are
    // in order): a row costs about its pixel columns, not its items.
    std::vector<std::pair<double, QRgb>> instants;
    std::vector<QRgb> &colors = m_colors[size_t(lane)];
    const auto drawItems = [&](int row, int64_t laneRow) {
        const double top = rowTop(lane, row);
        const bool scan = laneRow < 0, labels = !(folded && row == shown - 1); // folded: labels would overlap
        const auto [lo, hi] = scan ? l.overlapping(t0, t1) : l.overlappingInRow(uint32_t(laneRow), t0, t1);
        int lastPx = INT_MIN, lastInstantPx = INT_MIN;
        instants.clear();
        for (size_t k = lo; k < hi; ++k) {
            const QueryLaneItem &it = l.items[scan ? k : l.rowItems[k]];
            if (it.end() < t0 || (scan && it.row < uint32_t(row)))
                continue;
            const double x0 = std::max(double(left) - 1, xOf(it.ts));
            const double x1 = it.instant() ? x0 : std::min(double(timeRight) + 1, xOf(it.end()));
            QRgb &fill = colors[it.name];
            if (fill == 0)
                fill = SliceColors::colorForName(l.nameOf(it)) | 0xff000000u; // opaque: never 0
            if (x1 - x0 >= 1.0) {
                const QRectF r(x0, top, x1 - x0, h);
                p.fillRect(r, QColor::fromRgb(fill));
                lastPx = int(x1);
                if (labels && r.width() > 30 && !l.nameOf(it).empty()) {
                    p.setPen(textOn(fill));
                    p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                               fm.elidedText(QString::fromStdString(l.nameOf(it)), Qt::ElideRight, int(r.width()) - 5));
                }
                continue;
            }
            const int px = int(x0);
            if (it.instant()) {
                if (px != lastInstantPx && it.ts >= t0)
                    instants.emplace_back(xOf(it.ts), fill);
                lastInstantPx = px;
            } else if (px != lastPx) {
                p.fillRect(QRectF(px, top, 1, h), QColor::fromRgb(fill));
                lastPx = px;
            }
            if (!scan) { // on to the position before the next item that ends at or past column px + 1
                const int64_t next = t0 + int64_t(std::ceil((px + 1 - left) * nsPerPx));
                const auto at = std::lower_bound(l.rowItems.begin() + long(k) + 1, l.rowItems.begin() + long(hi), next,
                                                 [&l](uint32_t i, int64_t t) { return l.items[i].end() < t; });
                k = size_t(at - l.rowItems.begin()) - 1;
            }
        }
        if (instants.empty())
            return;
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(QPen(m_palette.text, 0.8));
        const double cy = top + h / 2.0, half = std::min(5.0, h / 2.0 - 0.5);
        for (const auto &[x, fill] : instants) {
            QPainterPath diamond;
            diamond.moveTo(x, cy - half);
            diamond.lineTo(x + half * 0.8, cy);
            diamond.lineTo(x, cy + half);
            diamond.lineTo(x - half * 0.8, cy);
            diamond.closeSubpath();
            p.setBrush(QColor::fromRgb(fill));
            p.drawPath(diamond);
        }
        p.setBrush(Qt::NoBrush);
        p.setRenderHint(QPainter::Antialiasing, false);
    };
    // The folded rows one by one while they are few (each searched as above); past that a scan of the
    // visible items, which does not grow with the row count.
    const uint32_t foldedRows = folded ? l.rowCount - uint32_t(shown - 1) : 0;
    for (int row = 0; row < shown; ++row) {
        if (row < shown - 1 || !folded)
            drawItems(row, row);
        else if (foldedRows > kFoldedRowsSearched)
            drawItems(row, -1);
        else
            for (uint32_t r = uint32_t(row); r < l.rowCount; ++r)
                drawItems(row, int64_t(r));
    }
    if (lane == m_hoverLane && m_hoverItem >= 0) {
        const QueryLaneItem &it = l.items[size_t(m_hoverItem)];
        const double top = rowTop(lane, shownRowOf(lane, m_hoverItem));
        p.setPen(QPen(m_palette.selection, 1.5));
        const double x0 = xOf(it.ts), x1 = std::max(x0 + 2, xOf(it.end()));
        p.drawRect(QRectF(x0 - (it.instant() ? 4 : 0), top - 1, x1 - x0 + (it.instant() ? 6 : 0), h + 2));
    }
    p.restore();
}

void QueryLanesStrip::mousePressEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    const int lane = laneAt(pos.y());
    if (lane < 0 || event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (removeButtonRect(lane).adjusted(-2, -2, 2, 2).contains(pos)) {
        removeLane(lane);
        return;
    }
    activate(lane, itemAt(lane, rowAt(lane, pos.y()), pos.x()));
}

void QueryLanesStrip::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    const int lane = laneAt(pos.y());
    const long item = itemAt(lane, rowAt(lane, pos.y()), pos.x());
    const bool onButton = lane >= 0 && removeButtonRect(lane).adjusted(-2, -2, 2, 2).contains(pos);
    setCursor(onButton || item >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (lane != m_hoverLane || item != m_hoverItem) {
        m_hoverLane = lane;
        m_hoverItem = item;
        update();
    }
}

void QueryLanesStrip::leaveEvent(QEvent *event)
{
    m_hoverLane = -1;
    m_hoverItem = -1;
    update();
    QWidget::leaveEvent(event);
}

bool QueryLanesStrip::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int lane = laneAt(help->pos().y());
        QString text;
        if (lane >= 0 && removeButtonRect(lane).adjusted(-2, -2, 2, 2).contains(help->pos())) {
            text = tr("Remove this query lane");
        } else if (lane >= 0 && help->pos().x() < insets().first) {
            const QueryLane &l = *m_lanes[size_t(lane)];
            QString rows = tr("%1 items in %2 rows").arg(l.items.size()).arg(l.rowCount);
            if (l.rowCount > uint32_t(shownRows(lane)))
                rows += tr(" (rows %1 to %2 drawn together in the last)").arg(shownRows(lane)).arg(l.rowCount);
            text = QStringLiteral("<b>%1</b><br><pre>%2</pre>%3")
                       .arg(QString::fromStdString(l.title).toHtmlEscaped(), QString::fromStdString(l.sql).toHtmlEscaped(), rows);
        } else {
            text = toolTipOf(lane, itemAt(lane, rowAt(lane, help->pos().y()), help->pos().x()));
        }
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace lanescope
