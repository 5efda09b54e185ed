#pragma once
// The Summary dock (issue 17; the Capture section and banner of issue 20): the first thing shown
// after every load. Runs Insights (core) in the background for the chosen region — the whole
// trace, the marked range, one ProfilerStep#N or one NEFF execution (SummaryRegions) — and drops
// stale results; in compare mode runs them over each profile's own trace and shows A and B side by
// side with FindingsDiff's resolved / new marked. "Show" marks a finding's events and ranges in the
// timeline (its own MarksOverlay), zooms to the first, and [ / ] step through them (they take the
// keys from the dependency chain's actions until Clear Marks or the next load). A capture check also
// shows once per load as a banner above the timeline.
#include "panel.h"

#include "analysis/insights/findingsdiff.h"
#include "analysis/insights/insights.h"
#include "analysis/summaryregions.h"

#include <QFutureWatcher>

#include <cstdint>
#include <memory>
#include <vector>

class QAction;
class QVBoxLayout;

namespace lanescope {

class CaptureBanner;
class ChainController;
class MarksOverlay;
class RuleRegistry;
class SummaryView;
class Throttle;
class TimelineView;
class Trace;

class SummaryPanel : public Panel
{
    Q_OBJECT
public:
    // Docks itself in the bottom area, tabbed with the Warnings dock, and puts the capture banner
    // into `central` right above the timeline.
    SummaryPanel(Session *session, TimelineView *timeline, QVBoxLayout *central, ChainController *chain, QMainWindow *window);
    ~SummaryPanel() override;

    SummaryView *view() const { return m_view; }
    CaptureBanner *banner() const { return m_banner; }
    MarksOverlay *overlay() const { return m_overlay; }
    QAction *previousAction() const { return m_previous; }
    QAction *nextAction() const { return m_next; }
    const std::vector<SummaryRegion> &regions() const { return m_regions; }
    // Region box entries: 0 whole trace, 1 marked range, then regions()[1...] (steps, executions).
    static constexpr int kMarkedEntry = 1;
    // The result on screen (single profile), and the range it is for.
    const Insights::Result &result() const { return m_result; }
    bool isComputing() const { return m_shown != m_generation; } // the latest request is not on screen yet
    // The rules to run (nullptr: RuleRegistry::defaults()); recomputes. For tests and custom rule sets.
    void setRules(const RuleRegistry *rules);

    // Marks finding `index` of the section (capture: the Capture section, else Findings) in the
    // timeline and goes to its first event or range.
    void showFinding(bool capture, int index);
    void step(bool forward);
    void clearMarks();
    int currentItem() const { return m_current; }
    int itemCount() const { return int(m_items.size()); }
    void setDark(bool dark);

signals:
    // A result (or a comparison) is on screen.
    void computed();

private:
    struct Item
    {
        bool isRange = false;
        uint32_t slice = 0;
        int64_t t0 = 0, t1 = 0;
    };
    struct Computed
    {
        uint64_t id = 0;
        bool listedRegions = false; // the first job of a trace lists its regions
        std::vector<SummaryRegion> regions;
        Insights::Result result;
        Insights::Result a, b; // compare mode
        FindingsDiffResult diff;
        bool comparison = false;
        bool hasRange = false; // the region computed
        int64_t t0 = 0, t1 = 0;
        double ms = 0;
    };

    void onTraceChanged();
    void bringToFront();
    void recompute();
    void onComputed();
    void fillRegionBox();
    void goTo(int item);
    void setStepping(bool on);

    TimelineView *m_timeline;
    ChainController *m_chain;
    SummaryView *m_view;
    CaptureBanner *m_banner;
    MarksOverlay *m_overlay;
    QAction *m_previous;
    QAction *m_next;
    Throttle *m_markedThrottle;
    QFutureWatcher<Computed> m_watcher;
    uint64_t m_generation = 0;
    uint64_t m_shown = 0; // the generation on screen
    std::shared_ptr<const Trace> m_trace;
    bool m_regionsListed = false;
    std::vector<SummaryRegion> m_regions;
    Insights::Result m_result;
    const RuleRegistry *m_rules = nullptr;
    std::vector<Item> m_items;
    int m_current = -1;
    bool m_bannerPending = false; // the first whole-trace result of a load may show the banner
};

} // namespace lanescope
