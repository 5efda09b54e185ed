#include "summarybars.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace lanescope {

namespace {

constexpr int kMaxLabelWidth = 190; // longer labels are elided in the middle
constexpr int kPadding = 4;

} // namespace

SummaryBars::SummaryBars(const QString &title, QWidget *parent) : QWidget(parent), m_title(title)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void SummaryBars::setBars(std::vector<Bar> bars, double maximum)
{
    m_bars = std::move(bars);
    m_maximum = maximum;
    updateGeometry();
    update();
}

void SummaryBars::setDark(bool dark)
{
    m_dark = dark;
    update();
}

int SummaryBars::rowHeight() const
{
    return fontMetrics().height() + kPadding;
}

QSize SummaryBars::sizeHint() const
{
    return {360, rowHeight() * int(m_bars.size() + 1) + kPadding};
}

QSize SummaryBars::minimumSizeHint() const
{
    return {200, sizeHint().height()};
}

void SummaryBars::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QColor text = m_dark ? QColor(0xe0e0e0) : QColor(0x202020);
    const QColor muted = m_dark ? QColor(0xa0a0a0) : QColor(0x606060);
    const QColor bar = m_dark ? QColor(0x56b4e9) : QColor(0x0072b2);
    const QColor accent = m_dark ? QColor(0xf0a040) : QColor(0xd55e00);
    const QColor track = m_dark ? QColor(0x3a3a3a) : QColor(0xe6e6e6);
    const QFontMetrics fm = fontMetrics();
    const int rh = rowHeight();

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(QRect(0, 0, width(), rh), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(m_title, Qt::ElideRight, width()));
    p.setFont(font());

    int labelWidth = 0, textWidth = 0;
    double maximum = m_maximum;
    for (const Bar &b : m_bars) {
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(b.label));
        textWidth = std::max(textWidth, fm.horizontalAdvance(b.text));
        if (m_maximum <= 0)
            maximum = std::max(maximum, b.value);
    }
    labelWidth = std::min({labelWidth, kMaxLabelWidth, width() * 2 / 5});
    const int barLeft = labelWidth + 2 * kPadding;
    const int barWidth = std::max(10, width() - barLeft - textWidth - 2 * kPadding);
    int y = rh;
    for (const Bar &b : m_bars) {
        p.setPen(text);
        p.drawText(QRect(0, y, labelWidth, rh), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(b.label, Qt::ElideRight, labelWidth));
        const QRect full(barLeft, y + 3, barWidth, rh - 6);
        p.fillRect(full, track);
        const double share = maximum > 0 ? std::clamp(b.value / maximum, 0.0, 1.0) : 0.0;
        p.fillRect(QRect(full.left(), full.top(), int(full.width() * share + 0.5), full.height()), b.highlight ? accent : bar);
        p.setPen(muted);
        p.drawText(QRect(full.right() + kPadding, y, textWidth + kPadding, rh), Qt::AlignLeft | Qt::AlignVCenter, b.text);
        y += rh;
    }
}

} // namespace lanescope
