#include "lanelayoutsettings.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>
#include <QVariantList>

namespace lanescope {

namespace {

template<typename Range>
QVariantList toList(const Range &values)
{
    QVariantList out;
    for (uint32_t v : values)
        out << QVariant(uint(v));
    return out;
}

} // namespace

QString LaneLayoutSettings::key(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const QByteArray hash = QCryptographicHash::hash(absolute.toUtf8(), QCryptographicHash::Sha1).toHex();
    return QStringLiteral("laneLayout/") + QString::fromLatin1(hash);
}

QVariantMap LaneLayoutSettings::toVariant(const TimelineLayout::State &state)
{
    QVariantMap map;
    map.insert(QStringLiteral("collapsed"), toList(state.collapsed));
    map.insert(QStringLiteral("expandedSets"), toList(state.expandedSets));
    map.insert(QStringLiteral("hidden"), toList(state.hidden));
    map.insert(QStringLiteral("pinned"), toList(state.pinned));
    QVariantList rank;
    for (const auto &[track, r] : state.rank)
        rank << QVariant(uint(track)) << QVariant(r);
    map.insert(QStringLiteral("rank"), rank);
    return map;
}

TimelineLayout::State LaneLayoutSettings::fromVariant(const QVariantMap &map)
{
    TimelineLayout::State state;
    for (const QVariant &v : map.value(QStringLiteral("collapsed")).toList())
        state.collapsed.insert(v.toUInt());
    for (const QVariant &v : map.value(QStringLiteral("expandedSets")).toList())
        state.expandedSets.insert(v.toUInt());
    for (const QVariant &v : map.value(QStringLiteral("hidden")).toList())
        state.hidden.insert(v.toUInt());
    for (const QVariant &v : map.value(QStringLiteral("pinned")).toList())
        state.pinned.push_back(v.toUInt());
    const QVariantList rank = map.value(QStringLiteral("rank")).toList();
    for (qsizetype i = 0; i + 1 < rank.size(); i += 2)
        state.rank[rank[i].toUInt()] = rank[i + 1].toInt();
    return state;
}

void LaneLayoutSettings::save(QSettings &settings, const QString &path, const TimelineLayout::State &state,
                              const TimelineLayout::State &defaults)
{
    if (state == defaults)
        settings.remove(key(path));
    else
        settings.setValue(key(path), toVariant(state));
}

std::optional<TimelineLayout::State> LaneLayoutSettings::load(const QSettings &settings, const QString &path)
{
    const QVariant v = settings.value(key(path));
    if (!v.isValid())
        return std::nullopt;
    return fromVariant(v.toMap());
}

} // namespace lanescope
