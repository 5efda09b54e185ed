#pragma once
// The viewer window: a timeline in the middle, slice details and import warnings in docks, loading
// in the background with progress and cancel in the status bar. Opening never loses what is already
// shown: a failed or cancelled load keeps the previous trace.
#include "model/ids.h"
#include "store/tracecache.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTableView;
class QVBoxLayout;

namespace lanescope {

class CompareController;
class RecentMenu;
class ImageExportActions;
class AnalysisTablesView;
class ChainController;
class NeffInfoView;
class EngineChartsView;
class UtilizationStrip;

class LoadJob;
class RangeSummaryModel;
class TimelineSearchBar;
class SliceDetailsView;
class TimelineView;
class Trace;
class WarningsModel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads a file or folder into this window; the current trace stays until the new one is ready.
    void openPath(const QString &path);
    // Shows a compiled program (NEFF) in the NEFF panel.
    void showNeff(const QString &path);
    // One path opens here; two or more open as a comparison (lanescope A B).
    void openPaths(const QStringList &paths);
    // Loads `paths` and shows them compared on one time axis (labels default to A, B, C, ...).
    void openComparison(const QStringList &paths, const QStringList &labels = {});
    CompareController *compare() const { return m_compare; }

    // Shows a trace that is already loaded (a load's result or a comparison's combined trace).
    // `title` replaces the file name in the window title when set.
    void showTrace(std::shared_ptr<const Trace> trace, const QString &path, const QString &title = {});
    // A widget shown above the timeline (e.g. the compare strip).
    void addTopBar(QWidget *bar);
    // Progress bar and Cancel button of the status bar, for any background work of the window.
    void setBusy(bool busy);
    void setProgress(int permille);
    // A message box, or stderr when errors are quiet.
    void reportError(const QString &title, const QString &error);
    QString currentPath() const { return m_currentPath; }
    // The trace cache as the settings and the environment say (File > Use Trace Cache).
    static CacheOptions cacheOptions();

    // Errors go to stderr instead of a message box, and the recent files and window layout are left
    // alone (for --screenshot and scripted runs).
    void setQuietErrors(bool quiet);

    TimelineView *timeline() const { return m_timeline; }
    TimelineSearchBar *searchBar() const { return m_searchBar; }
    RangeSummaryModel *rangeSummary() const { return m_rangeModel; }
    AnalysisTablesView *analysisTables() const { return m_analysis; }
    QDockWidget *analysisDock() const { return m_analysisDock; }
    ChainController *chainController() const { return m_chain; }
    // Light or dark timeline, remembered in the settings.
    void setDarkTheme(bool dark);
    const std::shared_ptr<const Trace> &trace() const { return m_trace; }
    bool isLoading() const;
    // Window geometry and dock arrangement of the last closed window (QSettings "window/...").
    void restoreWindowLayout();
    ImageExportActions *imageExport() const { return m_export; }

signals:
    // After every load attempt: ok, or the error text (empty when cancelled).
    void loadFinished(bool ok, const QString &error);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void createStatusBar();
    void createEnginesDock();
    void showEngines();
    // The Analysis dock (operator / kernel / device tables), wired to the timeline's selection.
    void createAnalysisDock();
    void openFileDialog();
    void openFolderDialog();
    void compareDialog();
    void about();
    void cancelLoad();

    void onLoaded(std::shared_ptr<const Trace> trace);
    void exportSqlite();
    void clearTraceCache();
    void onFailed(const QString &error);
    void onCancelled();
    void onProgress(int permille);
    void onSliceSelected(SliceId id);
    void setLoading(bool loading);
    void updateTitle();
    void updateStatus();

    TimelineView *m_timeline = nullptr;
    TimelineSearchBar *m_searchBar = nullptr;
    RangeSummaryModel *m_rangeModel = nullptr;
    QTableView *m_rangeView = nullptr;
    QDockWidget *m_rangeDock = nullptr;
    QAction *m_darkAction = nullptr;
    SliceDetailsView *m_details = nullptr;
    ChainController *m_chain = nullptr; // dependency graph in the background, chain of the selection
    WarningsModel *m_warningsModel = nullptr;
    QTableView *m_warningsView = nullptr;
    QDockWidget *m_detailsDock = nullptr;
    QDockWidget *m_warningsDock = nullptr;
    LoadJob *m_job = nullptr;
    NeffInfoView *m_neffView = nullptr; // created when a NEFF is opened
    QDockWidget *m_neffDock = nullptr;
    EngineChartsView *m_engineCharts = nullptr; // Engines dock: recomputed for the selected range
    QDockWidget *m_enginesDock = nullptr;
    UtilizationStrip *m_utilizationStrip = nullptr; // under the timeline, follows its visible range
    AnalysisTablesView *m_analysis = nullptr;
    QDockWidget *m_analysisDock = nullptr;

    QLabel *m_countsLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QAction *m_cancelAction = nullptr;
    RecentMenu *m_recentMenu = nullptr;
    ImageExportActions *m_export = nullptr;

    std::shared_ptr<const Trace> m_trace;
    QString m_currentPath; // what m_trace was loaded from
    QString m_loadingPath;
    QString m_titleOverride;
    CompareController *m_compare = nullptr;
    bool m_docksHiddenForCompare = false; // Analysis dock hidden while a comparison is shown
    bool m_analysisWasVisible = true;
    QVBoxLayout *m_centralLayout = nullptr;
    QStringList m_loadNotices; // trace cache notices of the load in flight
    bool m_loadFromCache = false;
    class SqliteExportJob *m_exportJob = nullptr;
    bool m_quietErrors = false;
};

} // namespace lanescope
