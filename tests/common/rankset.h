#pragma once
// Rank sets written from one real Kineto trace, the way each rank's profiler writes its own file: the
// same events with distributedInfo.rank set to the rank (world_size and the process groups' ranks set
// to the job's), every timestamp on that rank's own clock (ts shifted by `shiftUs` and
// baseTimeNanoseconds by as much the other way: hosts of one job count from different origins, Kineto
// writes times relative to the base, so the ranks still run in step) and, for a rank made to
// misbehave, an edit of its events (a late-arriving rank: its collective kernels start later and end
// with the others'; a slow rank: its time runs slower, so its steps are longer). writeJobRanks writes a
// whole job of such ranks into a folder. Used by the collective matching, late-arrival and job summary
// tests and by the job summary benchmark (tests/bench/gen_rankset.cpp).
#include "filebytes.h"
#include "gzipjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <functional>

namespace lanescope::test {

using EventEdit = std::function<void(QJsonObject &event)>;

// `trace` as rank `rank` of a job of `worldSize` ranks: ts + shiftUs on every event and the base
// - shiftUs (whole microseconds keep the base exact), `edit` applied to each event (after the shift).
inline QByteArray rankVariant(const QJsonObject &trace, int64_t rank, int64_t worldSize, qint64 shiftUs, const EventEdit &edit = {})
{
    QJsonObject out = trace;
    QJsonObject info = out.value(QStringLiteral("distributedInfo")).toObject();
    info[QStringLiteral("rank")] = qint64(rank);
    info[QStringLiteral("world_size")] = qint64(worldSize);
    QJsonArray groups = info.value(QStringLiteral("pg_config")).toArray();
    QJsonArray ranks;
    for (int64_t r = 0; r < worldSize; ++r)
        ranks.append(qint64(r));
    for (qsizetype g = 0; g < groups.size(); ++g) {
        QJsonObject pg = groups[g].toObject();
        pg[QStringLiteral("pg_size")] = qint64(worldSize);
        pg[QStringLiteral("ranks")] = ranks;
        groups[g] = pg;
    }
    if (!groups.isEmpty())
        info[QStringLiteral("pg_config")] = groups;
    out[QStringLiteral("distributedInfo")] = info;
    if (out.contains(QStringLiteral("baseTimeNanoseconds")))
        out[QStringLiteral("baseTimeNanoseconds")] = out.value(QStringLiteral("baseTimeNanoseconds")).toInteger() - shiftUs * 1000;
    QJsonArray events = out.value(QStringLiteral("traceEvents")).toArray();
    for (qsizetype i = 0; i < events.size(); ++i) {
        QJsonObject e = events[i].toObject();
        if (e.contains(QStringLiteral("ts")))
            e[QStringLiteral("ts")] = e.value(QStringLiteral("ts")).toDouble() + shiftUs;
        if (edit)
            edit(e);
        events[i] = e;
    }
    out[QStringLiteral("traceEvents")] = events;
    return QJsonDocument(out).toJson(QJsonDocument::Compact);
}

// Whether an event is an NCCL / RCCL kernel (the collectives a rank enters).
inline bool isCollectiveKernel(const QJsonObject &e)
{
    return e.value(QStringLiteral("cat")).toString() == QLatin1String("kernel")
        && e.value(QStringLiteral("name")).toString().contains(QLatin1String("ccl"), Qt::CaseInsensitive);
}

// How late a rank made to arrive `delayUs` late enters a collective kernel of duration `durUs`: the
// delay, at most half the kernel (the kernel still runs after it arrives).
inline double lateBy(double delayUs, double durUs) { return std::min(delayUs, durUs / 2); }

// An edit making a rank arrive late at every collective: each collective kernel starts lateBy(delayUs,
// dur) later and ends when it did (the others' kernels, unchanged, then hold that wait).
inline EventEdit arriveLate(double delayUs)
{
    return [delayUs](QJsonObject &e) {
        if (!isCollectiveKernel(e))
            return;
        const double dur = e.value(QStringLiteral("dur")).toDouble(), late = lateBy(delayUs, dur);
        e[QStringLiteral("ts")] = e.value(QStringLiteral("ts")).toDouble() + late;
        e[QStringLiteral("dur")] = dur - late;
    };
}

// An edit making a rank slow: its time runs `factor` times slower, counted back from `endUs` (the
// trace's last end, after the shift): every ts moves to endUs - (endUs - ts) x factor and every dur is
// `factor` times longer, so each step is `factor` times longer and the rank reaches every collective
// earlier than the others, never later (the late-arriving rank stays the only late one).
inline EventEdit runSlower(double factor, double endUs)
{
    return [factor, endUs](QJsonObject &e) {
        if (e.contains(QStringLiteral("ts")) && e.value(QStringLiteral("ph")).toString() != QLatin1String("M"))
            e[QStringLiteral("ts")] = endUs - (endUs - e.value(QStringLiteral("ts")).toDouble()) * factor;
        if (e.contains(QStringLiteral("dur")))
            e[QStringLiteral("dur")] = e.value(QStringLiteral("dur")).toDouble() * factor;
    };
}

// The last end (ts + dur) of a trace's events, µs.
inline double lastEndUs(const QJsonObject &trace)
{
    double end = 0;
    for (const QJsonValue &v : trace.value(QStringLiteral("traceEvents")).toArray())
        end = std::max(end, v[QStringLiteral("ts")].toDouble() + v[QStringLiteral("dur")].toDouble());
    return end;
}

// What writeJobRanks makes: `ranks` ranks, each on its own clock (a shift of up to +-300 s, the same
// for a rank in every run), rank `slowRank` running `slowFactor` times slower, rank `lateRank` arriving
// `lateUs` late at every collective (-1: none).
struct JobRankSet
{
    int64_t ranks = 8;
    int64_t slowRank = -1, lateRank = -1;
    double slowFactor = 1.3;
    double lateUs = 1000.0;

    static qint64 shiftUs(int64_t rank) { return (rank * 7919 % 601 - 300) * qint64(1'000'000) + rank * 137; }
};

// Writes the ranks of `set` made from `trace` as DIR/rank<R>.pt.trace.json (as each rank's profiler
// writes its file); calls `written(rank, path)` after each. False when a file cannot be written.
inline bool writeJobRanks(const QJsonObject &trace, const JobRankSet &set, const QString &dir,
                          const std::function<void(int64_t, const QString &)> &written = {})
{
    const double end = lastEndUs(trace);
    for (int64_t r = 0; r < set.ranks; ++r) {
        const qint64 shift = JobRankSet::shiftUs(r);
        EventEdit edit;
        if (r == set.slowRank)
            edit = runSlower(set.slowFactor, end + double(shift));
        else if (r == set.lateRank)
            edit = arriveLate(set.lateUs);
        const QString path = dir + QStringLiteral("/rank%1.pt.trace.json").arg(r);
        if (!writeFile(path, rankVariant(trace, r, set.ranks, shift, edit)))
            return false;
        if (written)
            written(r, path);
    }
    return true;
}

} // namespace lanescope::test
