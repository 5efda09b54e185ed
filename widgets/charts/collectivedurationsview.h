#pragma once
// Durations of collective instances per group (one kind / process group / message size row of the
// collectives table), Neuron Explorer's box and scatter plots of collective durations: one box per
// group (shortest, 25th percentile, median, 75th percentile, longest: the table's own numbers) with
// every instance drawn over it as a point (spread sideways by a fixed jitter so equal durations stay
// apart), on a logarithmic duration axis. Hovering a point names its rank and duration; clicking it
// emits the instance. The groups come computed (core/analysis/collectivetable.h); this view only draws.
#include <QWidget>

#include <cstdint>
#include <vector>

class QChartView;
class QLabel;

namespace lanescope {

class CollectiveDurationsView : public QWidget
{
    Q_OBJECT
public:
    struct Point
    {
        int64_t ns = 0;
        uint32_t instance = 0; // the caller's index (CollectiveTableResult::instances)
        int64_t rank = -1;
    };
    struct Group
    {
        QString label; // "allreduce 30 MiB"
        int64_t minNs = 0, p25Ns = 0, medianNs = 0, p75Ns = 0, maxNs = 0;
        std::vector<Point> points;
    };

    // At most this many points are drawn per group (evenly sampled, the longest always kept).
    static constexpr size_t kMaxPoints = 1500;

    explicit CollectiveDurationsView(QWidget *parent = nullptr);

    void setGroups(std::vector<Group> groups);
    const std::vector<Group> &groups() const { return m_groups; }
    void setDark(bool dark);
    // Where the `i`th drawn point of a group is, in this widget's coordinates (tests click there);
    // (-1, -1) when it is not drawn.
    QPoint pointPosition(size_t group, size_t i) const;
    // The drawn points of a group (after sampling), in drawing order.
    const std::vector<Point> &drawnPoints(size_t group) const;

signals:
    void instanceClicked(uint32_t instance);

private:
    void rebuild();
    double jitterX(size_t group, uint32_t instance) const;

    QChartView *m_view;
    QLabel *m_empty;
    std::vector<Group> m_groups;
    std::vector<std::vector<Point>> m_drawn; // per group
    std::vector<const Point *> m_seriesPoints; // the scatter series' points, in order
    bool m_dark = false;
};

} // namespace lanescope
