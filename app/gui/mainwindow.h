#pragma once
// The viewer window: menus and actions, the timeline in the middle (with the search bar, the compare
// strip above it and the utilization strip under it), the panels placed around it, the status bar,
// drag and drop. What is shown (the trace, loads, selection, ranges, errors) is the Session's; each
// dock is a panel that listens to it.
#include "session/exportjob.h"
#include "style/backingstoreprefault.h"

#include <QMainWindow>

class QAction;
class QVBoxLayout;

namespace lanescope {

class AnalysisPanel;
class ChainController;
class CompareController;
class DetailsPanel;
class EnginesPanel;
class TensorsPanel;
class CollectivesPanel;
class FilesPanel;
class JobPanel;
class ImageExportActions;
class NeffPanel;
class NeffInfoView;
class NotesController;
class QueryDock;
class RangePanel;
class RecentMenu;
class Session;
class SessionStatusBar;
class FlameGraphPanel;
class SourcePanel;
class StatisticsPanel;
class SummaryPanel;
class TimelineSearchBar;
class TimelineView;
class WarningsPanel;
struct NeffInfo;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    // Starts reading `opening` (what session()->openPaths() is called with once the window is shown)
    // before the window is built, so that the load and the window's construction overlap.
    explicit MainWindow(const QStringList &opening, QWidget *parent = nullptr);
    ~MainWindow() override;

    Session *session() const { return m_session; }
    TimelineView *timeline() const { return m_timeline; }
    TimelineSearchBar *searchBar() const { return m_searchBar; }
    AnalysisPanel *analysisPanel() const { return m_analysis; }
    RangePanel *rangePanel() const { return m_range; }
    FilesPanel *filesPanel() const { return m_files; }
    StatisticsPanel *statisticsPanel() const { return m_statistics; }
    FlameGraphPanel *flameGraphPanel() const { return m_flameGraph; }
    TensorsPanel *tensorsPanel() const { return m_tensors; }
    EnginesPanel *enginesPanel() const { return m_engines; }
    CollectivesPanel *collectivesPanel() const { return m_collectives; }
    SourcePanel *sourcePanel() const { return m_source; }
    SummaryPanel *summaryPanel() const { return m_summary; }
    JobPanel *jobPanel() const { return m_job; }
    QueryDock *queryDock() const { return m_query; }
    ChainController *chainController() const;
    CompareController *compare() const { return m_compare; }
    ImageExportActions *imageExport() const { return m_export; }
    NotesController *notes() const { return m_notes; }
    NeffInfoView *neffView() const; // null until a NEFF was opened

    // Errors go to stderr instead of a message box, and the recent files and window layout are left
    // alone (for --screenshot and scripted runs).
    void setQuietErrors(bool quiet);
    // Light or dark window (every dock, the timeline, the charts), remembered in the settings.
    void setDarkTheme(bool dark);
    // The same without remembering it (--screenshot --dark).
    void applyTheme(bool dark);
    // Window geometry and dock arrangement of the last closed window (QSettings "window/...").
    void restoreWindowLayout();
    // Shows the window once the trace it was made with (MainWindow(paths) preloads it) is shown in it,
    // or the load has ended otherwise, or after `withinMs` at the latest (a long parse shows its
    // progress): the first frame is the trace, not an empty window painted a moment before the trace
    // replaces it (a reopened trace is loaded about when the window is built). Without a preload it
    // shows the window now.
    void showWhenLoaded(int withinMs = kShowWithinMs);
    static constexpr int kShowWithinMs = 150;
    // View > Reset Layout: the first-run arrangement of the docks (DockLayout's table).
    void resetLayout();
    // Help > Keyboard Shortcuts (the Shortcuts list).
    void showKeyboardShortcuts();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void layOutForFirstShow(); // the first-run dock sizes, applied before the first frame
    void createCentralArea();
    void createPanels();
    void createActions();
    void connectTimeline();
    void about();
    void exportTrace(ExportJob::Format format);
    void showNeff(const QString &path, const NeffInfo &info);
    void onTraceChanged();
    void updateTitle();

    Session *m_session;
    // The central area: the compare strip, the search bar, the timeline, the utilization strip.
    TimelineView *m_timeline = nullptr;
    TimelineSearchBar *m_searchBar = nullptr;
    QVBoxLayout *m_centralLayout = nullptr;

    // The panels (docks) around it; the NEFF panel is created when a NEFF is opened.
    DetailsPanel *m_details = nullptr;
    WarningsPanel *m_warnings = nullptr;
    FilesPanel *m_files = nullptr;
    RangePanel *m_range = nullptr;
    EnginesPanel *m_engines = nullptr;
    TensorsPanel *m_tensors = nullptr;
    CollectivesPanel *m_collectives = nullptr;
    AnalysisPanel *m_analysis = nullptr;
    StatisticsPanel *m_statistics = nullptr;
    FlameGraphPanel *m_flameGraph = nullptr;
    SourcePanel *m_source = nullptr;
    SummaryPanel *m_summary = nullptr;
    JobPanel *m_job = nullptr; // a job overview of rank summaries
    QueryDock *m_query = nullptr; // SQL over the trace; its pinned lanes sit above the timeline

    NeffPanel *m_neff = nullptr;
    NotesController *m_notes = nullptr; // the Notes dock, menu and timeline overlay
    CompareController *m_compare = nullptr;

    // Menus and actions that keep state, and the status bar.
    QAction *m_darkAction = nullptr;
    RecentMenu *m_recentMenu = nullptr;
    ImageExportActions *m_export = nullptr;
    ExportJob *m_exportJob = nullptr;

    SessionStatusBar *m_status = nullptr;
    QAction *m_cancelAction = nullptr; // Esc, enabled while the Session is busy
    bool m_layoutRestored = false; // the last session's dock arrangement was restored
    bool m_layoutApplied = false;  // the first-run layout was sized for the shown window
    bool m_showPending = false;    // showWhenLoaded() waits for the preloaded trace
    BackingStorePrefault m_prefault; // the first paint's memory, mapped on another core meanwhile
};

} // namespace lanescope
