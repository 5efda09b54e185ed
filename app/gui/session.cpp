#include "session.h"

#include "io/ranks/multirankloader.h"
#include "session/comparesession.h"
#include "session/loadjob.h"
#include "session/viewstate.h"

#include "analysis/activityspan.h"
#include "analysis/traceanalysis.h"
#include "io/formats.h"
#include "io/neff/neffreader.h"
#include "model/trace.h"
#include "util/workerpool.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QSettings>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdio>
#include <exception>

namespace lanescope {

namespace {

struct NeffRead
{
    NeffInfo info;
    QString error; // empty: read
};

} // namespace

Session::Session(QObject *parent)
    : QObject(parent), m_job(new LoadJob(this)), m_compare(new CompareSession(this)), m_view(new ViewState(this))
{
    connect(m_view, &ViewState::selectionChanged, this, &Session::selectionChanged);
    connect(m_view, &ViewState::markedRangeChanged, this, &Session::markedRangeChanged);
    connect(m_view, &ViewState::visibleRangeChanged, this, &Session::visibleRangeChanged);
    connect(m_job, &LoadJob::finished, this, &Session::onLoaded);
    connect(m_job, &LoadJob::progress, this, &Session::loadProgress);
    connect(m_job, &LoadJob::notices, this, [this](const QStringList &notices, bool fromCache) {
        m_loadNotices = notices;
        m_loadFromCache = fromCache;
    });
    connect(m_job, &LoadJob::failed, this, [this](const QString &error) {
        m_loadNotices.clear();
        setBusy(false);
        emit loadFailed(error);
        reportError(tr("Could not open trace"), tr("Could not open %1").arg(displayName(m_loadingPath)), error);
    });
    connect(m_job, &LoadJob::cancelled, this, [this] {
        setBusy(false);
        emit statusMessage(tr("Loading %1 cancelled").arg(displayName(m_loadingPath)), 5000);
        emit loadCancelled();
        emit loadFinished(false, QString());
    });

    connect(m_compare, &CompareSession::progress, this, [this](int permille, const QString &what) {
        setBusy(true);
        emit loadProgress(permille);
        if (!what.isEmpty())
            emit statusMessage(what + QStringLiteral("..."), 0);
    });
    connect(m_compare, &CompareSession::comparisonReady, this, &Session::onComparisonReady);
    connect(m_compare, &CompareSession::diffReady, this, [this] { setBusy(false); });
    connect(m_compare, &CompareSession::failed, this, [this](const QString &error) {
        setBusy(false);
        if (m_comparing) {
            emit comparisonProblem(error); // the comparison stays on screen
            return;
        }
        emit loadFailed(error);
        reportError(tr("Could not compare"), tr("Could not compare"), error);
    });
    connect(m_compare, &CompareSession::cancelled, this, [this] {
        setBusy(false);
        emit statusMessage(tr("Comparison cancelled"), 5000);
        emit loadCancelled();
        emit loadFinished(false, QString());
    });
}

Session::~Session()
{
    if (m_neffCancel)
        *m_neffCancel = true;
}

QString Session::displayName(const QString &path)
{
    const QFileInfo info(path);
    return info.fileName().isEmpty() ? path : info.fileName();
}

bool Session::isNeff(const QString &path)
{
    return Formats::isCompiledProgram(path.toStdString());
}

bool Session::isJob(const QString &path)
{
    return JobFolder::isJob(path.toStdString());
}

QString Session::openFilter()
{
    return QString::fromStdString(Formats::dialogFilter(true));
}

QString Session::compareFilter()
{
    return QString::fromStdString(Formats::dialogFilter(false)); // a NEFF is a program, not a profile to compare
}

CacheOptions Session::cacheOptions()
{
    // Settings "cache/enabled" (default on) and "cache/maxMB" on top of the environment (LANESCOPE_NO_CACHE=1 wins).
    CacheOptions cache = CacheOptions::fromEnvironment();
    const QSettings settings;
    cache.enabled = cache.enabled && settings.value(QStringLiteral("cache/enabled"), true).toBool();
    cache.capBytes = settings.value(QStringLiteral("cache/maxMB"), qulonglong(cache.capBytes >> 20)).toULongLong() << 20;
    return cache;
}

void Session::clearCache()
{
    TraceCache cache(m_job->cacheOptions());
    std::string error;
    const bool ok = cache.open(&error) && cache.clear(&error);
    emit statusMessage(ok ? tr("Trace cache cleared (%1)").arg(QString::fromStdString(cache.databasePath()))
                          : tr("Could not clear the trace cache: %1").arg(QString::fromStdString(error)),
                       10000);
}

void Session::open(const QString &path)
{
    if (isNeff(path)) {
        readNeff(path);
        return;
    }
    if (isJob(path)) {
        readJob(path);
        return;
    }
    startLoad(path, {});
}

// One load job: `path`, or with `rankFiles` those Kineto traces of distinct ranks as one multi-rank trace.
void Session::startLoad(const QString &path, const QStringList &rankFiles)
{
    m_loadingPath = path;
    emit loadStarted(path);
    emit loadProgress(0);
    setBusy(true);
    emit statusMessage(tr("Loading %1...").arg(displayName(path)), 0);
    m_job->setCacheOptions(cacheOptions());
    m_loadNotices.clear();
    const QStringList key = QStringList{path} + rankFiles;
    const bool preloaded = m_preloadId != 0 && m_job->currentId() == m_preloadId && m_job->isRunning() && m_preloadKey == key;
    m_preloadId = 0;
    if (!preloaded)
        m_job->start(path, rankFiles);
}

// Whether openPaths(paths) loads a trace through the LoadJob (one trace file or folder, or a rank
// set: `rankFiles`), rather than a NEFF, rank summaries or a comparison.
bool Session::opensAsLoad(const QStringList &paths, QStringList *rankFiles)
{
    rankFiles->clear();
    if (paths.size() == 1)
        return !isNeff(paths.front()) && !isJob(paths.front());
    std::vector<std::string> files;
    for (const QString &p : paths)
        files.push_back(p.toStdString());
    if (paths.size() < 2 || !MultiRankLoader::looksLikeRankSet(files))
        return false;
    *rankFiles = paths;
    return true;
}

void Session::preload(const QStringList &paths)
{
    QStringList rankFiles;
    if (!opensAsLoad(paths, &rankFiles))
        return;
    // The window is being built meanwhile on the GUI thread: the load leaves it a core.
    CacheOptions options = cacheOptions();
    options.reserveCore = true;
    m_job->setCacheOptions(options);
    m_job->start(paths.front(), rankFiles);
    m_preloadId = m_job->currentId();
    m_preloadKey = QStringList{paths.front()} + rankFiles;
}

void Session::openPaths(const QStringList &paths)
{
    QStringList rankFiles;
    if (paths.size() >= 2 && opensAsLoad(paths, &rankFiles))
        startLoad(paths.front(), rankFiles);
    else if (paths.size() >= 2)
        openComparison(paths);
    else if (paths.size() == 1)
        open(paths.front());
}

void Session::openComparison(const QStringList &paths, const QStringList &labels)
{
    emit comparisonProblem(QString()); // a new attempt: the old message goes
    emit loadStarted(paths.value(0));
    setBusy(true);
    emit loadProgress(0);
    m_compare->setCacheOptions(cacheOptions());
    m_compare->open(paths, labels);
}

void Session::compareWithCurrent(const QString &path)
{
    if (m_currentPath.isEmpty()) {
        open(path);
        return;
    }
    // The first profile is loaded again: the one on screen may be a comparison already.
    openComparison(m_comparing ? m_compare->paths() + QStringList{path} : QStringList{m_currentPath, path});
}

void Session::leaveComparison()
{
    if (!m_comparing)
        return;
    m_comparing = false;
    emit comparisonLeft();
    const auto profiles = m_compare->profiles();
    const QStringList paths = m_compare->paths();
    m_compare->clear();
    if (!profiles.empty())
        showTrace(profiles.front(), paths.value(0));
}

void Session::cancel()
{
    m_compare->cancel();
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    emit statusMessage(tr("Cancelling..."), 0);
}

bool Session::isLoading() const
{
    return m_job->isRunning() || m_compare->isBusy();
}

void Session::setBusy(bool busy)
{
    emit busyChanged(busy);
}

QString Session::title() const
{
    if (!m_trace)
        return m_documentPath.isEmpty() ? QString() : displayName(m_documentPath);
    QString title = m_titleOverride.isEmpty() ? displayName(m_currentPath) : m_titleOverride;
    if (m_trace->metadata().synthetic)
        title += tr(" [synthetic]");
    return title;
}

void Session::onLoaded(std::shared_ptr<const Trace> trace)
{
    leaveComparison();
    showTrace(std::move(trace), m_loadingPath);
}

void Session::onComparisonReady()
{
    setBusy(false);
    const bool entering = !m_comparing;
    m_comparing = true;
    QStringList names;
    for (const QString &p : m_compare->paths())
        names << QFileInfo(p).fileName();
    showTrace(m_compare->comparison().combined, m_compare->paths().value(0),
              tr("Compare: %1").arg(names.join(QStringLiteral(" vs "))));
    emit comparisonShown(entering);
    emit statusMessage(tr("Comparing %1").arg(names.join(QStringLiteral(", "))), 5000);
}

void Session::showTrace(std::shared_ptr<const Trace> trace, const QString &path, const QString &title)
{
    setBusy(false);
    m_trace = std::move(trace);
    m_currentPath = path;
    m_titleOverride = title;
    // A new trace starts with nothing selected, no marked range and all of it visible (without
    // saying so), before anyone hears of it; where session-long counters dwarf the work (a Neuron
    // capture's host samples), it opens on the work (activityspan.h).
    if (m_trace) {
        m_view->setTraceRange(m_trace->startNs(), m_trace->endNs());
        const auto [start, end] = activityspan::initialView(*m_trace);
        if (start != m_trace->startNs() || end != m_trace->endNs())
            m_view->setVisibleRange(start, end);
    }
    // The views' shared analysis starts now, off the GUI thread; a view that asks before it is done waits on its own worker thread.
    m_analysis = m_trace ? std::make_shared<const TraceAnalysis>(m_trace) : nullptr;
    if (m_analysis)
        workerPool()->start([analysis = m_analysis] { analysis->launchIndex(); });
    emit traceChanged(m_trace);
    emit titleChanged();
    // Cache notices (stale or corrupt entry rebuilt, cache unavailable) are said once, with the load.
    emit statusMessage(m_loadNotices.isEmpty()
                           ? tr("Loaded %1").arg(displayName(m_currentPath))
                           : tr("Loaded %1: %2").arg(displayName(m_currentPath), m_loadNotices.join(QStringLiteral("; "))),
                       m_loadNotices.isEmpty() ? 5000 : 10000);
    m_loadNotices.clear();
    emit loadFinished(true, QString());
}

void Session::readNeff(const QString &path)
{
    // Read on a worker thread; the GUI keeps running. Only the latest NEFF asked for is shown.
    if (m_neffCancel)
        *m_neffCancel = true;
    const uint64_t id = ++m_neffId;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_neffCancel = cancel;
    emit statusMessage(tr("Reading %1...").arg(displayName(path)), 0);
    auto *watcher = new QFutureWatcher<NeffRead>(this);
    connect(watcher, &QFutureWatcher<NeffRead>::finished, this, [this, watcher, id, path] {
        watcher->deleteLater();
        if (id != m_neffId)
            return; // replaced by a newer request
        const NeffRead read = watcher->result();
        if (!read.error.isEmpty()) {
            emit loadFailed(read.error);
            reportError(tr("Could not open trace"), tr("Could not open %1").arg(displayName(path)), read.error);
            return;
        }
        m_documentPath = path;
        emit neffReady(path, read.info);
        if (!m_trace)
            emit titleChanged();
        emit statusMessage(tr("NEFF %1: compiler %2, %n subgraph(s)", nullptr, int(read.info.subgraphs.size()))
                               .arg(displayName(path), QString::fromStdString(read.info.compilerVersion)),
                           0);
        emit loadFinished(true, {});
    });
    const std::string file = path.toStdString();
    watcher->setFuture(QtConcurrent::run(workerPool(), [file, cancel] {
        NeffRead read;
        try {
            LoadOptions options;
            options.cancel = cancel.get();
            read.info = NeffReader::read(file, options);
        } catch (const std::exception &e) {
            read.error = QString::fromStdString(e.what());
        }
        return read;
    }));
}

void Session::readJob(const QString &path)
{
    // Like a NEFF: read on a worker thread, only the latest request shown; the trace on screen stays.
    if (m_neffCancel)
        *m_neffCancel = true;
    const uint64_t id = ++m_neffId;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_neffCancel = cancel;
    setBusy(true);
    emit statusMessage(tr("Reading the rank summaries of %1...").arg(displayName(path)), 0);
    using Result = std::shared_ptr<const JobFolder::Result>;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, id, path] {
        watcher->deleteLater();
        if (id != m_neffId)
            return;
        setBusy(false);
        const Result job = watcher->result();
        if (!job->ok()) {
            const QString error = QString::fromStdString(job->errors.empty() ? std::string("no rank summaries") : job->errors.front());
            emit loadFailed(error);
            reportError(tr("Could not open the job"), tr("Could not open %1").arg(displayName(path)), error);
            return;
        }
        m_documentPath = path;
        emit jobReady(path, job);
        if (!m_trace)
            emit titleChanged();
        emit statusMessage(tr("Job overview of %1: %n rank summaries", nullptr, int(job->summaries)).arg(displayName(path)), 5000);
        emit loadFinished(true, {});
    });
    const std::string folder = path.toStdString();
    watcher->setFuture(QtConcurrent::run(workerPool(), [folder, cancel] {
        LoadOptions options;
        options.cancel = cancel.get();
        return Result(std::make_shared<const JobFolder::Result>(JobFolder::open(folder, options)));
    }));
}

void Session::reportError(const QString &title, const QString &summary, const QString &error)
{
    emit statusMessage(summary, 10000);
    emit loadFinished(false, error);
    if (m_quiet) {
        std::fprintf(stderr, "lanescope: %s\n", qPrintable(error));
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, title, summary + QLatin1Char('.'), QMessageBox::Ok, m_dialogParent);
    box->setInformativeText(error);
    // Wide enough for a path and a position on few lines (QMessageBox alone wraps at about 250 px).
    box->setStyleSheet(QStringLiteral("QLabel#qt_msgbox_informativelabel { min-width: 36em; }"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

SliceId Session::selectedSlice() const
{
    return m_view->selectedSlice();
}

void Session::setSelectedSlice(SliceId id)
{
    m_view->setSelectedSlice(id);
}

void Session::setMarkedRange(int64_t start, int64_t end)
{
    m_view->setMarkedRange(start, end);
}

bool Session::hasMarkedRange() const
{
    return m_view->hasMarkedRange();
}

int64_t Session::markedStart() const
{
    return m_view->markedStart();
}

int64_t Session::markedEnd() const
{
    return m_view->markedEnd();
}

void Session::setVisibleRange(int64_t start, int64_t end)
{
    m_view->setVisibleRange(start, end);
}

int64_t Session::visibleStart() const
{
    return m_view->visibleStart();
}

int64_t Session::visibleEnd() const
{
    return m_view->visibleEnd();
}

} // namespace lanescope
