#include "comparesession.h"

#include "loadjob.h"
#include "model/trace.h"
#include "util/workerpool.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace lanescope {

namespace {

struct BuildResult
{
    ComparisonResult comparison;
    ProfileDiffResult diff;
    QString error;
};

} // namespace

CompareSession::CompareSession(QObject *parent) : QObject(parent), m_job(new LoadJob(this))
{
    connect(m_job, &LoadJob::progress, this, [this](int permille) {
        const qsizetype done = m_paths.size() - m_pending.size() - 1;
        const int overall = int((done * 1000 + permille) / std::max<qsizetype>(1, m_paths.size()) * 9 / 10);
        emit progress(overall, tr("Loading %1").arg(QFileInfo(m_job->path()).fileName()));
    });
    connect(m_job, &LoadJob::finished, this, [this](std::shared_ptr<const Trace> trace) {
        m_profiles.push_back(std::move(trace));
        loadNext();
    });
    connect(m_job, &LoadJob::failed, this, [this](const QString &error) {
        m_busy = false;
        m_pending.clear();
        emit failed(error);
    });
    connect(m_job, &LoadJob::cancelled, this, [this] {
        m_busy = false;
        m_pending.clear();
        emit cancelled();
    });
}

CompareSession::~CompareSession() = default;

QStringList CompareSession::labels() const
{
    QStringList out;
    for (const std::string &l : m_comparison.labels)
        out << QString::fromStdString(l);
    return out;
}

void CompareSession::open(const QStringList &paths, const QStringList &labels)
{
    ++m_generation;
    m_paths = paths;
    m_pending = paths;
    m_profiles.clear();
    m_labels.clear();
    for (const QString &l : labels)
        m_labels.push_back(l.toStdString());
    m_busy = true;
    loadNext();
}

void CompareSession::setProfiles(std::vector<std::shared_ptr<const Trace>> profiles, const QStringList &paths,
                                 const QStringList &labels)
{
    m_job->cancel();
    m_pending.clear();
    m_paths = paths;
    m_profiles = std::move(profiles);
    m_labels.clear();
    for (const QString &l : labels)
        m_labels.push_back(l.toStdString());
    rebuild(true);
}

void CompareSession::setCacheOptions(const CacheOptions &options)
{
    m_job->setCacheOptions(options);
}

void CompareSession::loadNext()
{
    if (m_pending.isEmpty()) {
        rebuild(true);
        return;
    }
    m_job->start(m_pending.takeFirst());
}

void CompareSession::setOptions(const CompareOptions &options)
{
    m_options = options;
    if (m_profiles.size() >= 2)
        rebuild(true);
}

void CompareSession::setDiffPair(int base, int other)
{
    const int n = int(m_profiles.size());
    if (base < 0 || other < 0 || base >= n || other >= n || (base == m_base && other == m_other))
        return;
    m_base = base;
    m_other = other;
    rebuild(false);
}

void CompareSession::setMetric(DiffMetric metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    if (m_profiles.size() >= 2)
        rebuild(false);
}

void CompareSession::cancel()
{
    if (!m_busy)
        return;
    ++m_generation; // a running build's result is dropped
    m_pending.clear();
    if (m_job->isRunning())
        m_job->cancel(); // LoadJob::cancelled follows
    else {
        m_busy = false;
        emit cancelled();
    }
}

void CompareSession::clear()
{
    ++m_generation;
    m_job->cancel();
    m_pending.clear();
    m_paths.clear();
    m_profiles.clear();
    m_comparison = {};
    m_diff = {};
    m_busy = false;
}

void CompareSession::rebuild(bool comparisonToo)
{
    if (m_profiles.size() < 2) {
        m_busy = false;
        emit failed(tr("A comparison needs at least two profiles."));
        return;
    }
    m_base = std::clamp(m_base, 0, int(m_profiles.size()) - 1);
    m_other = std::clamp(m_other, 0, int(m_profiles.size()) - 1);
    if (m_base == m_other)
        m_other = m_base == 0 ? 1 : 0;
    const uint64_t generation = ++m_generation;
    m_busy = true;
    emit progress(comparisonToo ? 920 : 950, comparisonToo ? tr("Aligning lanes") : tr("Comparing"));
    CompareOptions options = m_options;
    options.labels = m_labels;
    const auto profiles = m_profiles;
    const int base = m_base, other = m_other;
    ProfileDiff::Options diffOptions;
    diffOptions.metric = m_metric;
    auto *watcher = new QFutureWatcher<BuildResult>(this);
    connect(watcher, &QFutureWatcher<BuildResult>::finished, this, [this, watcher, generation, comparisonToo] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        BuildResult r = watcher->result();
        m_busy = false;
        if (!r.error.isEmpty()) {
            emit failed(r.error);
            return;
        }
        if (comparisonToo)
            m_comparison = std::move(r.comparison);
        m_diff = std::move(r.diff);
        emit progress(1000, {});
        if (comparisonToo)
            emit comparisonReady();
        else
            emit diffReady();
    });
    watcher->setFuture(QtConcurrent::run(workerPool(), [=]() -> BuildResult {
        BuildResult r;
        try {
            if (comparisonToo) {
                r.comparison = TraceComparison::build(profiles, options);
                if (r.comparison.combined)
                    r.comparison.combined->depthTables(); // the timeline's, built here rather than on the GUI thread
            }
            r.diff = ProfileDiff::compute(*profiles[size_t(base)], *profiles[size_t(other)], diffOptions);
        } catch (const std::exception &e) {
            r.error = QString::fromUtf8(e.what());
        }
        return r;
    }));
}

} // namespace lanescope
