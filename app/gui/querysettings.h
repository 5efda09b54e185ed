#pragma once
// What the Query dock keeps in QSettings (per user): the history of run queries (the last kHistory,
// newest first, no repeats), saved queries (name -> SQL) and, per trace file, the pinned query lanes
// (title and SQL, in order), keyed by a hash of the file's absolute path as LaneLayoutSettings keys
// lane arrangements, so reopening the file pins them again.
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

class QSettings;

namespace lanescope {

class QuerySettings
{
public:
    static constexpr int kHistory = 50;

    struct PinnedLane
    {
        QString title;
        QString sql;
        bool operator==(const PinnedLane &) const = default;
    };

    static QStringList history(const QSettings &settings);
    // `sql` goes first (a repeat moves up); the list keeps kHistory entries.
    static void addToHistory(QSettings &settings, const QString &sql);

    static QMap<QString, QString> saved(const QSettings &settings);
    static void save(QSettings &settings, const QString &name, const QString &sql);
    static void remove(QSettings &settings, const QString &name);

    static QString lanesKey(const QString &tracePath);
    static QList<PinnedLane> pinnedLanes(const QSettings &settings, const QString &tracePath);
    // An empty list removes the entry.
    static void setPinnedLanes(QSettings &settings, const QString &tracePath, const QList<PinnedLane> &lanes);
};

} // namespace lanescope
