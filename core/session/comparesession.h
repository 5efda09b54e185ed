#pragma once
// The state of a comparison in the GUI: the profiles (loaded one after the other with LoadJob, so
// progress and cancel work as for one file), the alignment options, the combined trace the timeline
// shows (TraceComparison) and the diff of a chosen pair (ProfileDiff). Rebuilding runs on a worker
// thread; results of an outdated request are dropped.
#include "analysis/profilediff.h"
#include "analysis/tracecomparison.h"
#include "store/tracecache.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

namespace lanescope {

class LoadJob;
class Trace;

class CompareSession : public QObject
{
    Q_OBJECT
public:
    explicit CompareSession(QObject *parent = nullptr);
    ~CompareSession() override;

    // Loads `paths` (files or folders) one after the other, then builds the comparison.
    void open(const QStringList &paths, const QStringList &labels = {});
    // Compares profiles that are already loaded (e.g. the one on screen and a new one).
    void setProfiles(std::vector<std::shared_ptr<const Trace>> profiles, const QStringList &paths,
                     const QStringList &labels = {});
    void setOptions(const CompareOptions &options); // rebuilds the combined trace and the diff
    void setDiffPair(int base, int other);          // recomputes the diff only
    void setMetric(DiffMetric metric);              // recomputes the diff only
    void cancel();
    void clear();
    // Loads go through the trace cache with these options (default: the environment's).
    void setCacheOptions(const CacheOptions &options);

    bool isBusy() const { return m_busy; }
    bool isActive() const { return m_comparison.combined != nullptr; }
    const QStringList &paths() const { return m_paths; }
    QStringList labels() const;
    const std::vector<std::shared_ptr<const Trace>> &profiles() const { return m_profiles; }
    const CompareOptions &options() const { return m_options; }
    const ComparisonResult &comparison() const { return m_comparison; }
    const ProfileDiffResult &diff() const { return m_diff; }
    int diffBase() const { return m_base; }
    int diffOther() const { return m_other; }
    DiffMetric metric() const { return m_metric; }

signals:
    void progress(int permille, const QString &what);
    void comparisonReady(); // a new combined trace (and its diff) is there
    void diffReady();       // only the diff changed
    void failed(const QString &error);
    void cancelled();

private:
    void loadNext();
    void rebuild(bool comparisonToo);

    LoadJob *m_job = nullptr;
    QStringList m_paths, m_pending;
    std::vector<std::string> m_labels;
    std::vector<std::shared_ptr<const Trace>> m_profiles;
    CompareOptions m_options;
    ComparisonResult m_comparison;
    ProfileDiffResult m_diff;
    DiffMetric m_metric = DiffMetric::Device;
    int m_base = 0, m_other = 1;
    bool m_busy = false;
    uint64_t m_generation = 0;
};

} // namespace lanescope
