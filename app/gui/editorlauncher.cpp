#include "editorlauncher.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>

namespace lanescope {

namespace {

const QString kKey = QStringLiteral("source/editorCommand");

} // namespace

QString EditorLauncher::commandTemplate()
{
    return QSettings().value(kKey).toString();
}

void EditorLauncher::setCommandTemplate(const QString &command)
{
    QSettings settings;
    if (command.trimmed().isEmpty())
        settings.remove(kKey);
    else
        settings.setValue(kKey, command.trimmed());
}

QStringList EditorLauncher::command(const QString &commandTemplate, const QString &file, uint32_t line)
{
    QStringList words = QProcess::splitCommand(commandTemplate);
    bool hasFile = false;
    for (QString &w : words) {
        hasFile = hasFile || w.contains(QLatin1String("{file}"));
        w.replace(QLatin1String("{file}"), file).replace(QLatin1String("{line}"), QString::number(line));
    }
    if (!words.isEmpty() && !hasFile)
        words << file;
    return words;
}

QStringList EditorLauncher::inTerminal(const QStringList &words, const QString &terminal)
{
    if (words.isEmpty() || terminal.isEmpty())
        return words;
    const QString program = QFileInfo(words.front()).fileName();
    static const QStringList kTerminalEditors = {QStringLiteral("vi"),    QStringLiteral("vim"),  QStringLiteral("nvim"),
                                                 QStringLiteral("nano"),  QStringLiteral("micro"), QStringLiteral("hx"),
                                                 QStringLiteral("helix"), QStringLiteral("joe"),  QStringLiteral("mcedit")};
    const bool emacsInTerminal = program == QLatin1String("emacs")
                                 && (words.contains(QLatin1String("-nw")) || words.contains(QLatin1String("--no-window-system")));
    if (!kTerminalEditors.contains(program) && !emacsInTerminal)
        return words;
    return QStringList{terminal, QStringLiteral("-e")} + words;
}

bool EditorLauncher::open(const QString &file, uint32_t line, QString *error)
{
    QString templ = commandTemplate();
    for (const char *variable : {"VISUAL", "EDITOR"})
        if (templ.isEmpty() && !qEnvironmentVariableIsEmpty(variable))
            templ = qEnvironmentVariable(variable) + QStringLiteral(" +{line} {file}");
    const QStringList words = inTerminal(command(templ, file, line), QStandardPaths::findExecutable(QStringLiteral("x-terminal-emulator")));
    if (words.isEmpty()) {
        if (QDesktopServices::openUrl(QUrl::fromLocalFile(file)))
            return true;
        if (error)
            *error = QObject::tr("No application opens %1: set an editor command (Source dock > Roots > Editor Command...)").arg(file);
        return false;
    }
    if (QProcess::startDetached(words.front(), words.mid(1)))
        return true;
    if (error)
        *error = QObject::tr("Could not start '%1' (the editor command is '%2')").arg(words.front(), templ);
    return false;
}

} // namespace lanescope
