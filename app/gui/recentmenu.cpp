#include "recentmenu.h"

#include "session/recentfiles.h"

#include <QAction>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

#include <algorithm>
#include <cstdio>

namespace lanescope {

namespace {

QString fileNameOf(const QString &path)
{
    const QFileInfo info(path);
    return info.fileName().isEmpty() ? path : info.fileName();
}

// The last `levels` folders of the path's directory ("runs/a").
QString dirTail(const QString &path, qsizetype levels)
{
    const QStringList dirs = QFileInfo(path).absolutePath().split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return dirs.mid(std::max<qsizetype>(0, dirs.size() - levels)).join(QLatin1Char('/'));
}

// "trace.json" alone, or "trace.json — runs/a" when another entry has the same file name: as many of
// the last folders as it takes to tell them apart (the full path is in the tool tip).
QString labelOf(const QString &path, const QStringList &all)
{
    const QString name = fileNameOf(path);
    QStringList twins;
    for (const QString &p : all)
        if (p != path && fileNameOf(p) == name)
            twins << p;
    if (twins.isEmpty())
        return name;
    for (qsizetype levels = 1; levels < 64; ++levels) {
        const QString tail = dirTail(path, levels);
        if (std::none_of(twins.begin(), twins.end(), [&](const QString &t) { return dirTail(t, levels) == tail; }))
            return name + QStringLiteral(" — ") + tail;
    }
    return path;
}

} // namespace

RecentMenu::RecentMenu(const QString &title, QWidget *parent) : QMenu(title, parent)
{
    connect(this, &QMenu::aboutToShow, this, &RecentMenu::refresh);
}

void RecentMenu::refresh()
{
    clear();
    QSettings settings;
    const QStringList missing = RecentFiles::removeMissing(settings);
    if (!missing.isEmpty())
        emit statusMessage(tr("Removed from Open Recent (no longer on disk): %1").arg(missing.join(QStringLiteral(", "))),
                           10000);
    const QStringList paths = RecentFiles::paths(settings);
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const QString path = paths[i];
        const QString label = QStringLiteral("&%1 %2").arg(i < 9 ? QString::number(i + 1) : QStringLiteral("0"),
                                                           labelOf(path, paths));
        QAction *a = addAction(label, this, [this, path] { open(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
    }
    if (paths.isEmpty())
        addAction(tr("No recent files"))->setEnabled(false);
    addSeparator();
    QAction *clearAll = addAction(tr("&Clear Menu"), this, [] {
        QSettings settings;
        RecentFiles::clear(settings);
    });
    clearAll->setEnabled(!paths.isEmpty());
}

void RecentMenu::open(const QString &path)
{
    if (!QFileInfo::exists(path)) {
        QSettings settings;
        RecentFiles::remove(settings, path);
        const QString text = tr("%1 no longer exists; it was removed from Open Recent.").arg(path);
        if (m_quiet)
            std::fprintf(stderr, "lanescope: %s\n", qPrintable(text));
        else
            QMessageBox::information(parentWidget(), tr("Open Recent"), text);
        return;
    }
    emit openRequested(path);
}

void RecentMenu::remember(const QString &path)
{
    if (path.isEmpty() || m_quiet)
        return;
    QSettings settings;
    RecentFiles::add(settings, path);
}

} // namespace lanescope
