#pragma once
// The Statistics dock (object name "statisticsDock"): duration statistics of one slice name
// (DurationStats, the numbers `lanescope-cli stats` prints) with a histogram on a log duration axis.
// Select a slice and press Shift+S (statisticsAction(); plain S zooms out in the timeline), or type a
// name in the field (completion over the trace's slice names; text that is not a name is a regular
// expression, and a combo picks among the names it matches). Restricted to the marked range when
// there is one. Clicking a bar makes its occurrences the timeline's search matches (Enter /
// Shift+Enter step through them); Slowest / Fastest select and reveal those slices. In compare mode
// each profile's lanes are counted apart and the distributions are overlaid on the same bins.
// Computed on a worker thread; an outdated result is dropped.
#include "panel.h"

#include "analysis/durationstats.h"
#include "model/ids.h"

#include <QStringList>

#include <memory>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStringListModel;

namespace lanescope {

class DurationHistogramView;
class Throttle;
class TimelineView;
class Trace;

class StatisticsPanel : public Panel
{
    Q_OBJECT
public:
    StatisticsPanel(Session *session, TimelineView *timeline, QMainWindow *window);
    ~StatisticsPanel() override;

    // "Duration Statistics of Selected Name", Shift+S: the one place the key is bound.
    QAction *statisticsAction() const { return m_action; }

    // Statistics of exactly `name` (shows and raises the dock).
    void showName(const QString &name);
    // Statistics of the names matching `text` (an exact name, else a regular expression).
    void showPattern(const QString &text);
    void setDark(bool dark);

    // One per profile (one outside compare mode), as last computed.
    struct Side
    {
        QString label; // "A", "B"; empty outside compare mode
        DurationStats::Result result;
    };
    const std::vector<Side> &sides() const { return m_sides; }
    // The row of the shown name on side `i`, or null.
    const DurationStats::Row *shownRow(size_t side) const;
    QString shownName() const { return m_shownName; }
    bool isComputing() const { return m_pending; }
    DurationHistogramView *histogram() const { return m_histogram; }
    QLabel *numbersLabel() const { return m_numbers; }
    QLineEdit *nameEdit() const { return m_edit; }
    QPushButton *slowestButton() const { return m_slowest; }
    QPushButton *fastestButton() const { return m_fastest; }
    // Makes the occurrences in histogram bin `bin` (of every side) the timeline's matches.
    void selectBin(int bin);

signals:
    void computed(); // new numbers are shown

private:
    void onTraceChanged();
    static constexpr int kMinHeight = 250;
    void present();
    void showForSelection();
    void recompute();
    void onComputed(uint64_t generation, std::vector<Side> sides);
    void showRow(const QString &name);
    void jumpTo(bool slowest);
    void ensureNames();

    TimelineView *m_timeline;
    QAction *m_action;
    QLineEdit *m_edit;
    QStringListModel *m_names;
    QComboBox *m_rows;
    QLabel *m_scope;
    QLabel *m_numbers;
    QLabel *m_matches;
    DurationHistogramView *m_histogram;
    QPushButton *m_slowest;
    QPushButton *m_fastest;
    Throttle *m_rangeThrottle;

    std::shared_ptr<const Trace> m_trace;
    bool m_namesBuilt = false;
    QStringList m_sortedNames;
    QString m_pattern;   // as computed (regex)
    QString m_shownName; // the row shown
    std::vector<Side> m_sides;
    std::vector<std::vector<DurationStats::Bin>> m_bins; // per side, on the shared edges
    uint64_t m_generation = 0;
    bool m_pending = false;
    bool m_stale = false; // the marked range changed while the dock was hidden
    bool m_dark = false;
};

} // namespace lanescope
