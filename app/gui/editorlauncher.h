#pragma once
// Open in Editor (the Source dock): the command that opens a file at a line. The user's template
// (settings "source/editorCommand", set from the dock's Roots menu), e.g. `code -g {file}:{line}`,
// `emacsclient -n +{line} {file}`, `kate --line {line} {file}`; else $VISUAL, else $EDITOR, as
// `EDITOR +{line} {file}`; else the desktop's handler for the file (the line is lost). An editor
// that needs a terminal (vi, vim, nvim, nano, micro, hx, emacs -nw...) runs in one
// (x-terminal-emulator -e, Debian's alternative) when there is one. The template is split into
// words at spaces (double quotes keep a word together: QProcess::splitCommand), then {file} and
// {line} are replaced inside each word, so a path with spaces stays one argument; a template
// without {file} gets the file as its last argument.
#include <QString>
#include <QStringList>

#include <cstdint>

namespace lanescope {

class EditorLauncher
{
public:
    static QString commandTemplate();
    static void setCommandTemplate(const QString &command);
    // The program and its arguments for `command` (empty when the template is empty or splits to nothing).
    static QStringList command(const QString &commandTemplate, const QString &file, uint32_t line);
    // `words` run inside `terminal` (a terminal emulator taking `-e PROGRAM ARGS`) when the program
    // is a terminal editor and a terminal is given; unchanged otherwise.
    static QStringList inTerminal(const QStringList &words, const QString &terminal);
    // Starts the editor detached. False with a message in `error` when it could not start.
    static bool open(const QString &file, uint32_t line, QString *error);
};

} // namespace lanescope
