#include "opendialogs.h"

#include "session.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace lanescope::OpenDialogs {

namespace {

const auto kLastDirKey = QStringLiteral("lastOpenDir");

} // namespace

void openFiles(QWidget *parent, Session *session)
{
    QSettings settings;
    const QStringList files = QFileDialog::getOpenFileNames(parent, QFileDialog::tr("Open Trace"),
                                                            settings.value(kLastDirKey).toString(), Session::openFilter());
    if (files.isEmpty())
        return;
    settings.setValue(kLastDirKey, QFileInfo(files.first()).absolutePath());
    session->openPaths(files);
}

void openFolder(QWidget *parent, Session *session)
{
    QSettings settings;
    const QString dir = QFileDialog::getExistingDirectory(parent, QFileDialog::tr("Open Profile Folder"),
                                                          settings.value(kLastDirKey).toString());
    if (dir.isEmpty())
        return;
    settings.setValue(kLastDirKey, dir);
    session->open(dir);
}

void compare(QWidget *parent, Session *session)
{
    QSettings settings;
    const QStringList paths = QFileDialog::getOpenFileNames(
        parent,
        session->trace() ? QFileDialog::tr("Compare %1 with").arg(Session::displayName(session->currentPath()))
                         : QFileDialog::tr("Choose two or more profiles to compare"),
        settings.value(kLastDirKey).toString(), Session::compareFilter());
    if (paths.isEmpty())
        return;
    settings.setValue(kLastDirKey, QFileInfo(paths.front()).absolutePath());
    if (paths.size() == 1 && session->trace())
        session->compareWithCurrent(paths.front());
    else
        session->openPaths(paths);
}

} // namespace lanescope::OpenDialogs
