#include "sourceroots.h"

#include "analysis/sourceresolver.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>

namespace lanescope {

namespace {

const QString kAll = QStringLiteral("source/roots");

// A settings key per trace path: paths hold '/', which QSettings reads as groups.
QString traceKey(const QString &tracePath)
{
    const QString path = QFileInfo(tracePath).absoluteFilePath();
    return QStringLiteral("source/traceRoots/") + QString::fromLatin1(QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace

QStringList SourceRoots::forTrace(const QString &tracePath)
{
    return tracePath.isEmpty() ? QStringList() : QSettings().value(traceKey(tracePath)).toStringList();
}

void SourceRoots::setForTrace(const QString &tracePath, const QStringList &roots)
{
    if (tracePath.isEmpty())
        return;
    QSettings settings;
    if (roots.isEmpty())
        settings.remove(traceKey(tracePath));
    else
        settings.setValue(traceKey(tracePath), roots);
}

QStringList SourceRoots::forAllTraces()
{
    return QSettings().value(kAll).toStringList();
}

void SourceRoots::setForAllTraces(const QStringList &roots)
{
    QSettings().setValue(kAll, roots);
}

std::vector<std::string> SourceRoots::all(const QString &tracePath, const QStringList &first)
{
    std::vector<std::string> roots;
    for (const QString &r : first + forTrace(tracePath) + forAllTraces()) {
        std::string s = r.toStdString();
        if (!s.empty() && std::find(roots.begin(), roots.end(), s) == roots.end())
            roots.push_back(std::move(s));
    }
    return SourceResolver::withTraceFolder(std::move(roots), tracePath.toStdString());
}

} // namespace lanescope
