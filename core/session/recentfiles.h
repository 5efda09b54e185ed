#pragma once
// The recently opened trace files and profile folders, newest first, kept in QSettings
// ("recent/paths"). At most kMax entries; a path opened again moves to the top.
#include <QStringList>

class QSettings;

namespace lanescope {

class RecentFiles
{
public:
    static constexpr int kMax = 10;

    static QStringList paths(const QSettings &settings);
    // Adds (or moves) the absolute path to the top.
    static void add(QSettings &settings, const QString &path);
    static void remove(QSettings &settings, const QString &path);
    static void clear(QSettings &settings);
    // Drops the entries that no longer exist on disk and returns them.
    static QStringList removeMissing(QSettings &settings);
};

} // namespace lanescope
