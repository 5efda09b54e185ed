#pragma once
// A compact chart of NeuronCore engine utilization over time: one stepped line per engine, the busy
// fraction of each time bucket (EngineBreakdown's bucketed series, waits excluded), 0..100 %. Meant to
// sit under the timeline, following its visible range, and inside the Engines dock for the selected
// range. Shows numbers computed by core only.
#include "timeruler.h"

#include "analysis/enginebreakdown.h"

#include <QChartView>
#include <QColor>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

class UtilizationStrip : public QChartView
{
    Q_OBJECT
public:
    explicit UtilizationStrip(QWidget *parent = nullptr);
    ~UtilizationStrip() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    void setDark(bool dark);
    bool isDark() const { return m_dark; }
    // Buckets per range (default: about one per 6 px of width, at least 20).
    void setBucketCount(size_t buckets) { m_buckets = buckets; }
    const EngineBreakdownResult &result() const { return m_result; }
    // Series shown (one per engine per core); for tests.
    int seriesCount() const;

    // Compact layout under a timeline: the plot spans [left, width - right] of this widget, as the
    // callback answers (the timeline's time area), the legend sits in the left margin. The time axis
    // is then the timeline's own: its ruler's ticks and labels (TimeRuler) for the range shown, drawn
    // at the same x, so with the timeline's visible range (setRange) every time is where the timeline
    // has it.
    void setPlotInsets(std::function<std::pair<int, int>()> insets);
    // Widget x of an absolute time as the chart maps it (its axis over the plot area).
    double xForTime(int64_t ns) const;
    // The plot area in widget coordinates.
    QRectF plotRect() const;
    // The time axis's ticks in compact layout, x from the plot's left (what drawForeground draws).
    std::vector<TimeRuler::Tick> timeTicks() const;

    // The same colour for an engine in every chart.
    static QColor engineColor(NeuronEngine engine, bool dark);
    // "Tensor", or "#1 Tensor" when the result has several cores (#i = EngineBreakdownResult::cores[i]).
    static QString engineLabel(const EngineBreakdownResult &r, const EngineBreakdownRow &row);
    // "#1" when the result has several cores, else empty.
    static QString coreLabel(const EngineBreakdownResult &r, GroupId core);

public slots:
    // Recomputes for [start, end]; start >= end means the whole trace.
    void setRange(int64_t start, int64_t end);
    // Shows an already computed breakdown (the Engines dock passes its own); times on the axis are
    // from `originNs` (the trace start).
    void showResult(const EngineBreakdownResult &result, int64_t originNs);
    // Asks the insets callback again (the timeline's time area changed: TimelineView::timeAreaChanged).
    void updateInsets();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
    void rebuild();
    void build();
    void ensureBuilt() const;

    std::shared_ptr<const Trace> m_trace;
    EngineBreakdownResult m_result;
    std::function<std::pair<int, int>()> m_insets;
    size_t m_buckets = 0;
    bool m_dark = false;
    bool m_stale = true; // the chart does not show m_result yet
    int64_t m_start = 0, m_end = 0;
    int64_t m_origin = 0; // axis zero, absolute ns
    double m_scale = 1.0; // ns per axis unit
};

} // namespace lanescope
