#pragma once
// The Engines panel: Qt Charts over EngineBreakdown for the whole trace or a selected range.
//   - active / idle per engine (stacked bars, % of the window)
//   - instruction-time share by engine (pie; semaphore waits excluded)
//   - utilization over time (UtilizationStrip, bucketed)
//   - DMA throughput per queue (GB/s while active, bytes in the label)
// A header line names the window, the percentage base and MFU/HFU where the trace has FLOP counts.
// Every number comes from core (EngineBreakdown); the CLI's `engines` command prints the same.
#include "analysis/enginebreakdown.h"

#include <QWidget>

#include <memory>
#include <optional>

class QChartView;
class QComboBox;
class QLabel;

namespace lanescope {

class Trace;
class UtilizationStrip;

class EngineChartsView : public QWidget
{
    Q_OBJECT
public:
    explicit EngineChartsView(QWidget *parent = nullptr);
    ~EngineChartsView() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    void setDark(bool dark);
    const EngineBreakdownResult &result() const { return m_result; }
    // What the charts show: the result, or one core of it (the core box, for traces with several).
    const EngineBreakdownResult &shown() const { return m_shown; }
    QComboBox *coreBox() const { return m_coreBox; }
    QString headerText() const;
    // The chart views, for tests and screenshots (made and filled on first use).
    QChartView *activeIdleChart();
    QChartView *shareChart();
    QChartView *dmaChart();
    UtilizationStrip *utilizationChart();

    static constexpr int kMaxDmaQueues = 8; // the busiest queues by bytes (fewer when short of height)

public slots:
    // Recomputes for [start, end]; start >= end means the whole trace (ViewState::markedRangeChanged),
    // or the chosen execution's span (setExecution).
    void setRange(int64_t start, int64_t end);
    // One device execution of a profile folder (index into DeviceExecutions::all(), EngineBreakdown::Options::
    // execution), or every execution of every core (nullopt); takes effect at the next setRange().
    void setExecution(std::optional<size_t> execution) { m_execution = execution; }

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void rebuild();
    void ensureCharts();
    void fillCoreBox();
    void applyCoreFilter();
    int dmaQueuesThatFit() const;
    void buildActiveIdle();
    void buildShare();
    void buildDma();

    std::shared_ptr<const Trace> m_trace;
    EngineBreakdownResult m_result;
    EngineBreakdownResult m_shown;
    std::optional<size_t> m_execution;
    bool m_dark = false;
    int m_dmaShown = 0; // queues in the DMA chart as last built
    bool m_stale = true; // the charts do not show m_shown yet
    QLabel *m_header = nullptr;
    QComboBox *m_coreBox = nullptr;
    static constexpr int kMaxRowsForAllCores = 10; // more engine rows than this: one core at a time
    QChartView *m_activeIdle = nullptr;
    QChartView *m_share = nullptr;
    QChartView *m_dma = nullptr;
    UtilizationStrip *m_utilization = nullptr;
};

} // namespace lanescope
