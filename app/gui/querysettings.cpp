#include "querysettings.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>
#include <QVariantList>
#include <QVariantMap>

namespace lanescope {

namespace {

const auto kHistoryKey = QStringLiteral("query/history");
const auto kSavedKey = QStringLiteral("query/saved");

} // namespace

QStringList QuerySettings::history(const QSettings &settings) { return settings.value(kHistoryKey).toStringList(); }

void QuerySettings::addToHistory(QSettings &settings, const QString &sql)
{
    const QString text = sql.trimmed();
    if (text.isEmpty())
        return;
    QStringList list = history(settings);
    list.removeAll(text);
    list.prepend(text);
    while (list.size() > kHistory)
        list.removeLast();
    settings.setValue(kHistoryKey, list);
}

QMap<QString, QString> QuerySettings::saved(const QSettings &settings)
{
    QMap<QString, QString> out;
    const QVariantMap map = settings.value(kSavedKey).toMap();
    for (auto it = map.begin(); it != map.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}

void QuerySettings::save(QSettings &settings, const QString &name, const QString &sql)
{
    QVariantMap map = settings.value(kSavedKey).toMap();
    map.insert(name, sql);
    settings.setValue(kSavedKey, map);
}

void QuerySettings::remove(QSettings &settings, const QString &name)
{
    QVariantMap map = settings.value(kSavedKey).toMap();
    map.remove(name);
    settings.setValue(kSavedKey, map);
}

QString QuerySettings::lanesKey(const QString &tracePath)
{
    const QString absolute = QFileInfo(tracePath).absoluteFilePath();
    return QStringLiteral("queryLanes/") + QString::fromLatin1(QCryptographicHash::hash(absolute.toUtf8(), QCryptographicHash::Sha1).toHex());
}

QList<QuerySettings::PinnedLane> QuerySettings::pinnedLanes(const QSettings &settings, const QString &tracePath)
{
    QList<PinnedLane> out;
    for (const QVariant &v : settings.value(lanesKey(tracePath)).toList()) {
        const QVariantMap m = v.toMap();
        const QString sql = m.value(QStringLiteral("sql")).toString();
        if (!sql.isEmpty())
            out.append({m.value(QStringLiteral("title")).toString(), sql});
    }
    return out;
}

void QuerySettings::setPinnedLanes(QSettings &settings, const QString &tracePath, const QList<PinnedLane> &lanes)
{
    if (lanes.isEmpty()) {
        settings.remove(lanesKey(tracePath));
        return;
    }
    QVariantList list;
    for (const PinnedLane &l : lanes)
        list << QVariantMap{{QStringLiteral("title"), l.title}, {QStringLiteral("sql"), l.sql}};
    settings.setValue(lanesKey(tracePath), list);
}

} // namespace lanescope
