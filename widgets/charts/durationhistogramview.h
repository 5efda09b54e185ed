#pragma once
// A painted histogram of slice durations on a log duration axis (Tracy's "Find zone"): one or more
// series of counts over the same bins (DurationStats::Bin, computed by core), drawn as bars at their
// [from, to) extent (at least a factor of 4 in sight, bars at least 6 px), two series on one axis
// with a legend (compare mode: A and B side by side within each bin), and vertical markers (median,
// p90, p99). Hover shows a bin's range and counts; a click on a bar emits
// binClicked, and that bin stays highlighted.
#include "analysis/durationstats.h"

#include <QColor>
#include <QWidget>

#include <utility>
#include <vector>

namespace lanescope {

class DurationHistogramView : public QWidget
{
    Q_OBJECT
public:
    struct Series
    {
        QString label; // legend text ("A", "B"); empty: no legend
        std::vector<DurationStats::Bin> bins;
    };
    struct Marker
    {
        QString label;
        int64_t ns = 0;
    };

    explicit DurationHistogramView(QWidget *parent = nullptr);

    // All series share the bins' edges (DurationStats::bins over their common min and max).
    void setSeries(std::vector<Series> series);
    void setMarkers(std::vector<Marker> markers);
    const std::vector<Series> &series() const { return m_series; }
    void setDark(bool dark);
    static QColor seriesColor(int index, bool dark);

    // The bin under a point of the plot, -1 when none; its bar centre, for tests.
    int binAt(const QPoint &pos) const;
    QPoint binCenter(int bin) const;
    int selectedBin() const { return m_selected; }
    void setSelectedBin(int bin);

    QSize sizeHint() const override { return {420, 180}; }
    QSize minimumSizeHint() const override { return {200, 110}; }

signals:
    void binClicked(int bin);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    static constexpr double kMinLogSpan = 0.6; // decades in sight at least
    static constexpr double kMinBarPx = 6;
    QRect plotRect() const;
    std::pair<double, double> axisRange() const; // log10 ns at the plot's left and right
    double xOf(int64_t ns) const;
    std::pair<double, double> barExtent(size_t bin) const;
    void paintAxis(class QPainter &p, const QRect &plot, const QColor &text) const;
    const std::vector<DurationStats::Bin> &edges() const;

    std::vector<Series> m_series;
    std::vector<Marker> m_markers;
    bool m_dark = false;
    int m_hover = -1;
    int m_selected = -1;
};

} // namespace lanescope
