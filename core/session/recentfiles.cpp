#include "recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace lanescope {

namespace {

const auto kKey = QStringLiteral("recent/paths");

void store(QSettings &settings, const QStringList &paths)
{
    if (paths.isEmpty())
        settings.remove(kKey);
    else
        settings.setValue(kKey, paths);
}

} // namespace

QStringList RecentFiles::paths(const QSettings &settings)
{
    QStringList out;
    for (const QString &p : settings.value(kKey).toStringList())
        if (!p.isEmpty() && !out.contains(p) && out.size() < kMax)
            out << p;
    return out;
}

void RecentFiles::add(QSettings &settings, const QString &path)
{
    if (path.isEmpty())
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = paths(settings);
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMax)
        list.removeLast();
    store(settings, list);
}

void RecentFiles::remove(QSettings &settings, const QString &path)
{
    QStringList list = paths(settings);
    list.removeAll(path);
    store(settings, list);
}

void RecentFiles::clear(QSettings &settings)
{
    settings.remove(kKey);
}

QStringList RecentFiles::removeMissing(QSettings &settings)
{
    QStringList kept, missing;
    for (const QString &p : paths(settings))
        (QFileInfo::exists(p) ? kept : missing) << p;
    if (!missing.isEmpty())
        store(settings, kept);
    return missing;
}

} // namespace lanescope
