#pragma once
// What a window shows, without the window: the open trace (a loaded file or folder, or in compare
// mode the comparison's combined trace), the load in flight (LoadJob) and the comparison's loads
// (CompareSession), the trace cache options, the selection and the time ranges, and background work
// such as reading a NEFF. Panels, menus and screenshot mode listen to its signals and drive it; the
// window only places them. Opening never loses what is shown: a failed or cancelled load keeps the
// previous trace. Errors take one path (reportError): a message box, or stderr when quiet.
#include "job/jobfolder.h"
#include "model/ids.h"
#include "store/tracecache.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <memory>

class QWidget;

namespace lanescope {

class CompareSession;
class LoadJob;
class Trace;
class TraceAnalysis;
class ViewState;
struct NeffInfo;

class Session : public QObject
{
    Q_OBJECT
    Q_MOC_INCLUDE("io/neff/neffinfo.h")
public:
    explicit Session(QObject *parent = nullptr);
    ~Session() override;

    // A file or folder; a NEFF (a compiled program, not a trace) is read in the background and
    // announced by neffReady(), a folder of rank summaries (or one) by jobReady() (JobFolder: the job
    // overview). The current trace stays until the new one is ready.
    void open(const QString &path);
    // One path opens; two or more open as one multi-rank trace when every file carries a distinct rank
    // (MultiRankLoader::looksLikeRankSet), else as a comparison (lanescope A B).
    void openPaths(const QStringList &paths);
    // Starts reading what openPaths(paths) will open (one trace file or folder, or a rank set) before
    // anything listens, so that the load runs while the window is still being built; it announces
    // nothing. The openPaths(paths) that follows takes the load over instead of starting another one.
    void preload(const QStringList &paths);
    // preload() started a load that openPaths() has not taken over yet.
    bool isPreloading() const { return m_preloadId != 0; }
    // Loads `paths` and shows them compared on one time axis (labels default to A, B, C, ...).
    void openComparison(const QStringList &paths, const QStringList &labels = {});
    // Compares the profile on screen with `path` (opens it when nothing is shown).
    void compareWithCurrent(const QString &path);
    // Back from compare mode to the first profile of the comparison.
    void leaveComparison();
    // Stops the load or comparison in flight.
    void cancel();

    bool isLoading() const;
    bool isComparing() const { return m_comparing; }
    CompareSession *compareSession() const { return m_compare; }
    const std::shared_ptr<const Trace> &trace() const { return m_trace; }
    // What is computed once per trace() and shared by the views (the LaunchIndex), started in the
    // background as the trace is shown; null when no trace is.
    const std::shared_ptr<const TraceAnalysis> &analysis() const { return m_analysis; }
    QString currentPath() const { return m_currentPath; } // what trace() was loaded from
    // The file name, or the comparison's title; "[synthetic]" added for generated profiles.
    QString title() const;
    // Cache notices of the load just shown (valid while traceChanged is emitted), and whether it came
    // from the cache (then the first notice only says so).
    const QStringList &loadNotices() const { return m_loadNotices; }
    bool loadedFromCache() const { return m_loadFromCache; }

    // The trace cache as the settings and the environment say (File > Use Trace Cache).
    static CacheOptions cacheOptions();
    // Empties the trace cache; the outcome is a status message.
    void clearCache();

    // The file or folder name of a path, as titles and messages show it.
    static QString displayName(const QString &path);
    // Which paths open as a NEFF, and the file dialogs' filters (kept here in one place).
    static bool isNeff(const QString &path);
    // Rank summaries: a summary file or a folder holding them (JobFolder::isJob).
    static bool isJob(const QString &path);
    static QString openFilter();
    static QString compareFilter();

    // Selection and time ranges, absolute ns: the one ViewState of the window (the timeline shows and
    // drives it); the accessors and signals below are its, for the panels. Setting a value it already
    // has does nothing.
    ViewState *viewState() const { return m_view; }
    SliceId selectedSlice() const;
    void setSelectedSlice(SliceId id);
    void setMarkedRange(int64_t start, int64_t end);
    bool hasMarkedRange() const;
    int64_t markedStart() const;
    int64_t markedEnd() const;
    void setVisibleRange(int64_t start, int64_t end);
    int64_t visibleStart() const;
    int64_t visibleEnd() const;
    // Asks the views to bring a slice into sight, or to search slice names and go to the first match.
    void revealSlice(SliceId id) { emit revealRequested(id); }
    void findSlices(const QString &text) { emit findRequested(text); }

    // Errors go to stderr instead of a message box (for --screenshot and scripted runs).
    void setQuietErrors(bool quiet) { m_quiet = quiet; }
    bool quietErrors() const { return m_quiet; }
    // Parent of the error message boxes (the window).
    void setDialogParent(QWidget *parent) { m_dialogParent = parent; }
    // The one error path: the status message `summary`, loadFinished(false, error), then a message
    // box titled `title` (or stderr when quiet).
    void reportError(const QString &title, const QString &summary, const QString &error);
    // Shows a trace that is already loaded; `title` replaces the file name in title() when set.
    void showTrace(std::shared_ptr<const Trace> trace, const QString &path, const QString &title = {});

signals:
    void traceChanged(const std::shared_ptr<const lanescope::Trace> &trace);
    void loadStarted(const QString &path);
    void loadProgress(int permille);
    void busyChanged(bool busy);
    // After every load attempt: ok, or the error text (empty when cancelled).
    void loadFinished(bool ok, const QString &error);
    void loadFailed(const QString &error);
    void loadCancelled();
    void neffReady(const QString &path, const lanescope::NeffInfo &info);
    void jobReady(const QString &path, const std::shared_ptr<const lanescope::JobFolder::Result> &job);
    void selectionChanged(lanescope::SliceId id);
    void markedRangeChanged(int64_t start, int64_t end);
    void visibleRangeChanged(int64_t start, int64_t end);
    void revealRequested(lanescope::SliceId id);
    void findRequested(const QString &text);
    void statusMessage(const QString &text, int timeoutMs);
    void titleChanged();
    // Compare mode: a comparison is shown (entering: it was not before) / left; a problem with the
    // comparison on screen (e.g. a bad alignment), said next to its controls instead of in a box
    // (empty: the last one is gone).
    void comparisonShown(bool entering);
    void comparisonLeft();
    void comparisonProblem(const QString &error);

private:
    void startLoad(const QString &path, const QStringList &rankFiles);
    static bool opensAsLoad(const QStringList &paths, QStringList *rankFiles);
    void readNeff(const QString &path);
    void readJob(const QString &path);
    void onLoaded(std::shared_ptr<const Trace> trace);
    void onComparisonReady();
    void setBusy(bool busy);

    LoadJob *m_job;
    CompareSession *m_compare;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    QString m_currentPath;
    QString m_loadingPath;
    uint64_t m_preloadId = 0; // the job preload() started, until openPaths() takes it over
    QStringList m_preloadKey; // its path and rank files
    QString m_titleOverride;
    QString m_documentPath; // the last NEFF or job overview shown (the title when no trace is open)
    QStringList m_loadNotices;
    bool m_loadFromCache = false;
    bool m_comparing = false;
    bool m_quiet = false;
    QPointer<QWidget> m_dialogParent;
    uint64_t m_neffId = 0; // a NEFF or job read that is not the latest is dropped
    std::shared_ptr<std::atomic<bool>> m_neffCancel;
    ViewState *m_view;
};

} // namespace lanescope
