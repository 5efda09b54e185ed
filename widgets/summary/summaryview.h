#pragma once
// The Summary page (issue 17, Explorer's landing page done natively): a region box (whole trace,
// marked range, one ProfilerStep#N, one NEFF execution), the key metrics as text and small bar
// charts (device busy %, engine active %, DMA bytes by queue kind, step times; a chart without data
// is hidden), a Capture section with the capture checks (issue 20) and the ranked findings. In
// compare mode the findings of A and B side by side, resolved / new / changed marked. Only presents
// what core computed (Insights::run, FindingsDiff); the Session glue is app/gui/summarypanel.
// The key-metrics column is as wide as its longest row in the current font (at most half the page,
// at least kMinLeftWidth) until the user drags the splitter, so values are not clipped or wrapped.
#include "analysis/insights/finding.h"
#include "analysis/insights/findingsdiff.h"
#include "analysis/insights/keymetrics.h"
#include "analysis/summaryregions.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSplitter;

namespace lanescope {

class FindingsListView;
class SummaryBars;

// A capture check (issue 20): shown in its own section (Finding::isCapture says which rules are).
inline bool isCaptureCheck(const Finding &f)
{
    return Finding::isCapture(f.rule);
}

class SummaryView : public QWidget
{
    Q_OBJECT
public:
    explicit SummaryView(QWidget *parent = nullptr);

    QComboBox *regionBox() const { return m_region; }
    QPushButton *clearButton() const { return m_clear; }
    void setStatus(const QString &text);
    QString status() const;

    // One trace (or region): metrics, the steps inside the region, findings (most severe first);
    // capture-* findings go to the Capture section, the rest to Findings, in their order.
    void setResult(const KeyMetrics &metrics, const std::vector<Finding> &findings, const std::vector<SummaryRegion> &steps);
    // Compare mode: the findings of A and B side by side, the diff's resolved / new / changed tagged.
    void setComparison(const QString &labelA, const std::vector<Finding> &a, const QString &labelB,
                       const std::vector<Finding> &b, const FindingsDiffResult &diff);
    bool isComparison() const { return m_comparison; }

    FindingsListView *captureList() const { return m_capture; }
    FindingsListView *findingsList() const { return m_findings; }
    FindingsListView *compareList(int side) const { return side == 0 ? m_compareA : m_compareB; }
    SummaryBars *deviceChart() const { return m_deviceBars; }
    SummaryBars *engineChart() const { return m_engineBars; }
    SummaryBars *dmaChart() const { return m_dmaBars; }
    SummaryBars *stepChart() const { return m_stepBars; }
    QString metricsText() const;
    QLabel *metricsLabel() const { return m_metrics; }
    // The width the key-metrics table needs without wrapping a row, from the font's metrics.
    int metricsWidth() const { return m_metricsWidth; }
    static constexpr int kMinLeftWidth = 280;
    static constexpr int kMinRightWidth = 320;

    // Brings the Capture section into view (the capture banner's link).
    void scrollToCapture();
    void setDark(bool dark);
    bool isDark() const { return m_dark; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The left pane's width from m_metricsWidth, unless the user moved the splitter.
    void fitMetricsColumn();
    void setMetrics(const KeyMetrics &m, const std::vector<SummaryRegion> &steps);
    void applyPalette();

    QComboBox *m_region;
    QLabel *m_status;
    QPushButton *m_clear;
    QSplitter *m_splitter;
    QScrollArea *m_left;
    QScrollArea *m_right;
    QLabel *m_metrics;
    SummaryBars *m_deviceBars;
    SummaryBars *m_engineBars;
    SummaryBars *m_dmaBars;
    SummaryBars *m_stepBars;
    FindingsListView *m_capture;
    FindingsListView *m_findings;
    QWidget *m_compareRow;
    FindingsListView *m_compareA;
    FindingsListView *m_compareB;
    bool m_comparison = false;
    bool m_dark = false;
    int m_metricsWidth = 0;
    bool m_userSplit = false;
};

} // namespace lanescope
