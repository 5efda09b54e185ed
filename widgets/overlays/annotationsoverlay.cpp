#include "annotationsoverlay.h"

#include "overlaypainting.h"
#include "timeline/timelineframe.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace lanescope {

QColor AnnotationsOverlay::colorOf(const Annotation &note)
{
    const QColor c(QString::fromStdString(note.color));
    return c.isValid() ? c : defaultColor();
}

void AnnotationsOverlay::setNotes(std::vector<Annotation> notes)
{
    m_notes = std::move(notes);
    requestRepaint();
}

void AnnotationsOverlay::setCurrent(int id)
{
    m_current = id;
    requestRepaint();
}

void AnnotationsOverlay::setVisible(bool visible)
{
    m_visible = visible;
    requestRepaint();
}

void AnnotationsOverlay::paint(QPainter &p, const TimelineFrame &frame)
{
    if (!m_visible || m_notes.empty() || !frame.trace())
        return;
    const auto [v0, v1] = frame.visibleRange();
    const QRect area = frame.timeArea();
    std::vector<std::vector<std::pair<double, double>>> rows(kFlagRows); // flag x extents per row
    for (const Annotation &note : m_notes) {
        if (note.endNs < v0 || note.startNs > v1)
            continue;
        const QColor colour = colorOf(note);
        const bool current = note.id == m_current;
        const double x = frame.clampedXOf(note.startNs);
        if (note.kind == Annotation::Kind::Range) {
            QColor fill = colour;
            fill.setAlpha(current ? 70 : 40);
            OverlayPainting::rangeBand(p, frame, note.startNs, note.endNs, fill, colour);
        } else {
            p.setPen(QPen(colour, current ? 3 : 2, note.kind == Annotation::Kind::Event ? Qt::DashLine : Qt::SolidLine));
            p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        }
        if (note.kind == Annotation::Kind::Event && note.eventFound && note.sliceId != UINT32_MAX) {
            const QRectF r = frame.sliceRect(SliceId(note.sliceId));
            if (frame.isOnScreen(r)) {
                p.setPen(QPen(colour, current ? 3 : 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r.adjusted(-1, -1, 1, 1));
            }
        }
        paintFlag(p, frame, note, std::max(x, double(area.left())), rows);
    }
}

void AnnotationsOverlay::paintFlag(QPainter &p, const TimelineFrame &frame, const Annotation &note, double x,
                                   std::vector<std::vector<std::pair<double, double>>> &rows) const
{
    const QRect area = frame.timeArea();
    const QFontMetrics fm = p.fontMetrics();
    const QString label = fm.elidedText(QStringLiteral("%1  %2").arg(note.id).arg(QString::fromStdString(note.text)),
                                        Qt::ElideRight, kFlagMaxWidth);
    const double w = fm.horizontalAdvance(label) + 10, h = fm.height() + 4;
    const double left = std::min(x, double(area.right()) - w);
    // The first row where the flag overlaps no other (else the last row).
    size_t row = 0;
    for (; row + 1 < rows.size(); ++row)
        if (std::none_of(rows[row].begin(), rows[row].end(),
                         [&](const auto &e) { return left < e.second + 4 && left + w > e.first - 4; }))
            break;
    rows[row].emplace_back(left, left + w);
    const QRectF r(left, area.top() + 2 + row * (h + 2), w, h);
    const QColor colour = colorOf(note);
    p.setPen(QPen(colour.darker(140), note.id == m_current ? 2 : 1));
    p.setBrush(colour);
    p.drawRoundedRect(r, 3, 3);
    p.setPen(qGray(colour.rgb()) > 140 ? Qt::black : Qt::white);
    p.drawText(r.adjusted(5, 0, -5, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
}

} // namespace lanescope
