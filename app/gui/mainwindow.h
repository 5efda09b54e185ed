#pragma once
// The viewer window: a timeline in the middle, slice details and import warnings in docks, loading
// in the background with progress and cancel in the status bar. Opening never loses what is already
// shown: a failed or cancelled load keeps the previous trace.
#include "model/ids.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTableView;

namespace lanescope {

class ImageExportActions;
class NeffInfoView;

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
    // The first path opens here, every further one in a window of its own.
    void openPaths(const QStringList &paths);

    // Errors go to stderr instead of a message box, and the recent files and window layout are left
    // alone (for --screenshot and scripted runs).
    void setQuietErrors(bool quiet) { m_quietErrors = quiet; }

    TimelineView *timeline() const { return m_timeline; }
    TimelineSearchBar *searchBar() const { return m_searchBar; }
    RangeSummaryModel *rangeSummary() const { return m_rangeModel; }
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
    void openFileDialog();
    void openFolderDialog();
    void about();
    void cancelLoad();
    void updateRecentMenu();
    void openRecent(const QString &path);
    void rememberRecent(const QString &path);

    void onLoaded(std::shared_ptr<const Trace> trace);
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
    WarningsModel *m_warningsModel = nullptr;
    QTableView *m_warningsView = nullptr;
    QDockWidget *m_detailsDock = nullptr;
    QDockWidget *m_warningsDock = nullptr;
    LoadJob *m_job = nullptr;
    NeffInfoView *m_neffView = nullptr; // created when a NEFF is opened
    QDockWidget *m_neffDock = nullptr;

    QLabel *m_countsLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QAction *m_cancelAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    ImageExportActions *m_export = nullptr;

    std::shared_ptr<const Trace> m_trace;
    QString m_currentPath; // what m_trace was loaded from
    QString m_loadingPath;
    bool m_quietErrors = false;
};

} // namespace lanescope
