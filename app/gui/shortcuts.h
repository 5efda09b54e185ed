#pragma once
// The one list of keys: what the window binds (File > Open is Ctrl+O because this list says so), what
// the timeline handles itself (W/A/S/D, M, ...: described here, handled in widgets/timeline/timelineinput), the
// Help > Keyboard Shortcuts dialog and the README's key table (tests/app/tst_shortcuts compares them).
#include <QKeySequence>
#include <QString>

#include <span>

class QAction;
class QDialog;
class QWidget;

namespace lanescope {

class Shortcuts
{
public:
    // Keys bound to a QAction of the window; each has one row in the list.
    enum class Id {
        Open,
        OpenFolder,
        Compare,
        ExportImage,
        CopyImage,
        Quit,
        CancelLoad,
        Find,
        ChainPrevious,
        ChainNext,
        CriticalPath,
        FindingPrevious,
        FindingNext,
        DurationStatistics,
        FlameGraph,
        Source,
        AddNote,
        ShowNotes,
        ResetLayout,
        Query,
        KeyboardShortcuts,
        None // a key the timeline handles itself (not a QAction)
    };

    struct Entry
    {
        const char *group;  // "File", "View", "Timeline", "Help"
        const char *keys;   // as the user reads it: "Ctrl+Shift+O", "W / S, + / -", "Shift+drag"
        const char *action; // what it does
        Id id = Id::None;
        QKeySequence::StandardKey standard = QKeySequence::UnknownKey; // the platform's key where there is one
    };

    static std::span<const Entry> entries();
    // The key bound for an action of the list (the standard key, else the "keys" text).
    static QKeySequence key(Id id);
    // Gives the action its key from the list and says so in its tooltip.
    static void bind(QAction *action, Id id);
    // The README's table: "| key / mouse | action |" rows, one per entry, grouped as in the list.
    static QString markdownTable();
    // Help > Keyboard Shortcuts: the list as a table, grouped.
    static QDialog *createDialog(QWidget *parent);
};

} // namespace lanescope
