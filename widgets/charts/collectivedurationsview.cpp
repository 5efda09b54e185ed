#include "collectivedurationsview.h"

#include "style/durationformat.h"

#include <QBarCategoryAxis>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lanescope {

namespace {

constexpr double kUsPerNs = 1e-3;

double us(int64_t ns) { return std::max(double(ns) * kUsPerNs, 1e-3); } // the log axis needs > 0

} // namespace

CollectiveDurationsView::CollectiveDurationsView(QWidget *parent) : QWidget(parent), m_view(new QChartView(this)), m_empty(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No collective instances to plot"));
    layout->addWidget(m_empty);
    layout->addWidget(m_view, 1);
    m_view->setMinimumHeight(240); // the boxes and their points need the height: the dock grows to it
    rebuild();
}

void CollectiveDurationsView::setGroups(std::vector<Group> groups)
{
    m_groups = std::move(groups);
    m_drawn.assign(m_groups.size(), {});
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const std::vector<Point> &all = m_groups[g].points;
        std::vector<Point> &drawn = m_drawn[g];
        if (all.size() <= kMaxPoints) {
            drawn = all;
            continue;
        }
        const auto longest = std::max_element(all.begin(), all.end(), [](const Point &a, const Point &b) { return a.ns < b.ns; });
        const double step = double(all.size()) / double(kMaxPoints - 1);
        for (size_t i = 0; i + 1 < kMaxPoints; ++i)
            drawn.push_back(all[size_t(double(i) * step)]);
        drawn.push_back(*longest);
    }
    rebuild();
}

void CollectiveDurationsView::setDark(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    rebuild();
}

const std::vector<CollectiveDurationsView::Point> &CollectiveDurationsView::drawnPoints(size_t group) const
{
    static const std::vector<Point> none;
    return group < m_drawn.size() ? m_drawn[group] : none;
}

double CollectiveDurationsView::jitterX(size_t group, uint32_t instance) const
{
    // a fixed spread in [-0.3, 0.3] from the instance index (Knuth's multiplicative hash)
    const uint32_t h = instance * 2654435761u;
    return double(group) + (double(h >> 16) / 65535.0 - 0.5) * 0.6;
}

void CollectiveDurationsView::rebuild()
{
    auto *chart = new QChart();
    chart->setTheme(m_dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    chart->legend()->hide();
    m_seriesPoints.clear();
    const bool empty = m_groups.empty();
    m_empty->setVisible(empty);
    m_view->setVisible(!empty);
    if (!empty) {
        chart->setTitle(tr("Duration per collective (box: min, 25 %, median, 75 %, max; a point per instance)"));
        auto *boxes = new QBoxPlotSeries();
        boxes->setBoxWidth(0.6);
        auto *points = new QScatterSeries();
        points->setMarkerSize(6.0);
        points->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        QColor pointColor = m_dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28);
        pointColor.setAlpha(150);
        points->setColor(pointColor);
        points->setBorderColor(Qt::transparent);
        QStringList categories;
        double lo = 1e300, hi = 0;
        for (size_t g = 0; g < m_groups.size(); ++g) {
            const Group &group = m_groups[g];
            categories << group.label;
            auto *box = new QBoxSet(us(group.minNs), us(group.p25Ns), us(group.medianNs), us(group.p75Ns), us(group.maxNs), group.label);
            QColor fill = m_dark ? QColor(0x56, 0xb4, 0xe9) : QColor(0x00, 0x72, 0xb2);
            fill.setAlpha(70);
            box->setBrush(fill);
            box->setPen(QPen(m_dark ? QColor(0x9e, 0xd2, 0xf5) : QColor(0x00, 0x4c, 0x7a), 1.2));
            boxes->append(box);
            lo = std::min(lo, us(group.minNs));
            hi = std::max(hi, us(group.maxNs));
            for (const Point &p : m_drawn[g]) {
                points->append(jitterX(g, p.instance), us(p.ns));
                m_seriesPoints.push_back(&p);
            }
        }
        chart->addSeries(boxes);
        chart->addSeries(points);
        auto *x = new QBarCategoryAxis();
        x->append(categories);
        auto *y = new QLogValueAxis();
        y->setBase(10);
        y->setLabelFormat(QStringLiteral("%g"));
        y->setTitleText(tr("us"));
        y->setRange(lo / 1.5, hi * 1.5);
        y->setMinorTickCount(-1);
        y->setMinorGridLineVisible(false);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(boxes), static_cast<QAbstractSeries *>(points)}) {
            s->attachAxis(x);
            s->attachAxis(y);
        }
        const auto pointAt = [this, points](const QPointF &at) -> const Point * {
            const QList<QPointF> all = points->points();
            for (qsizetype i = 0; i < all.size() && size_t(i) < m_seriesPoints.size(); ++i)
                if (all[i] == at)
                    return m_seriesPoints[size_t(i)];
            return nullptr;
        };
        connect(points, &QScatterSeries::clicked, this, [this, pointAt](const QPointF &at) {
            if (const Point *p = pointAt(at))
                emit instanceClicked(p->instance);
        });
        connect(points, &QScatterSeries::hovered, this, [this, pointAt](const QPointF &at, bool state) {
            const Point *p = state ? pointAt(at) : nullptr;
            if (!p) {
                QToolTip::hideText();
                return;
            }
            QString text = DurationFormat::format(p->ns);
            if (p->rank >= 0)
                text = tr("rank %1: %2").arg(p->rank).arg(text);
            QToolTip::showText(QCursor::pos(), text + tr(" (click: find it on every rank)"), this);
        });
    }
    QChart *old = m_view->chart();
    m_view->setChart(chart);
    delete old;
}

QPoint CollectiveDurationsView::pointPosition(size_t group, size_t i) const
{
    if (group >= m_drawn.size() || i >= m_drawn[group].size())
        return {-1, -1};
    QChart *chart = m_view->chart();
    const QList<QAbstractSeries *> series = chart->series();
    if (series.size() < 2)
        return {-1, -1};
    const Point &p = m_drawn[group][i];
    const QPointF scene = chart->mapToPosition(QPointF(jitterX(group, p.instance), us(p.ns)), series[1]);
    return m_view->mapTo(this, m_view->mapFromScene(scene));
}

} // namespace lanescope
