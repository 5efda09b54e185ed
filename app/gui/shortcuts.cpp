#include "shortcuts.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <array>

namespace lanescope {

namespace {

using Id = Shortcuts::Id;

// Timeline keys follow Perfetto and chrome://tracing.
constexpr std::array kEntries = {
    Shortcuts::Entry{"File", "Ctrl+O", "open a trace file (also drag and drop)", Id::Open, QKeySequence::Open},
    Shortcuts::Entry{"File", "Ctrl+Shift+O", "open a profile folder", Id::OpenFolder},
    Shortcuts::Entry{"File", "Ctrl+D", "compare with another profile", Id::Compare},
    Shortcuts::Entry{"File", "Ctrl+Shift+E", "export an image of the timeline, window or a panel", Id::ExportImage},
    Shortcuts::Entry{"File", "Ctrl+Shift+C", "copy that image to the clipboard", Id::CopyImage},
    Shortcuts::Entry{"File", "Esc", "cancel a load (while loading)", Id::CancelLoad},
    Shortcuts::Entry{"File", "Ctrl+Q", "quit", Id::Quit},
    Shortcuts::Entry{"Timeline", "W / S, + / -", "zoom in / out (at the cursor)"},
    Shortcuts::Entry{"Timeline", "Ctrl+wheel", "zoom at the cursor"},
    Shortcuts::Entry{"Timeline", "A / D, Left / Right", "pan"},
    Shortcuts::Entry{"Timeline", "drag, Shift+wheel", "pan"},
    Shortcuts::Entry{"Timeline", "wheel, Up / Down, PgUp / PgDn", "scroll lanes"},
    Shortcuts::Entry{"Timeline", "Home or 0", "fit the whole trace"},
    Shortcuts::Entry{"Timeline", "F", "fit the selection or the marked range"},
    Shortcuts::Entry{"Timeline", "double-click", "zoom to a slice"},
    Shortcuts::Entry{"Timeline", "Ctrl+drag", "box zoom"},
    Shortcuts::Entry{"Timeline", "Backspace", "undo a zoom"},
    Shortcuts::Entry{"Timeline", "Shift+drag", "mark a time range (the Range Summary dock lists count, total, self and average per name)"},
    Shortcuts::Entry{"Timeline", "M", "mark the selected slice's time range (clears it without a selection)"},
    Shortcuts::Entry{"Timeline", "click", "select a slice (Details: args, parent, children, flows as links)"},
    Shortcuts::Entry{"Timeline", "right-click a lane", "hide, pin or move lanes"},
    Shortcuts::Entry{"Timeline", "Esc", "clear the marked range, then the selection"},
    Shortcuts::Entry{"Timeline", "/", "search names (substring or regex, optionally args)"},
    Shortcuts::Entry{"Timeline", "Enter / Shift+Enter", "next / previous search match"},
    Shortcuts::Entry{"View", "Ctrl+F", "find slices", Id::Find, QKeySequence::Find},
    Shortcuts::Entry{"View", "[", "walk the selection's dependency chain back", Id::ChainPrevious},
    Shortcuts::Entry{"View", "]", "walk the selection's dependency chain forward", Id::ChainNext},
    Shortcuts::Entry{"View", "Ctrl+Shift+P", "show the selection's critical path", Id::CriticalPath},
    Shortcuts::Entry{"View", "[", "after Summary > Show: the finding's previous event or range (Clear Marks gives [ / ] back to the chain)", Id::FindingPrevious},
    Shortcuts::Entry{"View", "]", "after Summary > Show: the finding's next event or range", Id::FindingNext},
    Shortcuts::Entry{"View", "Shift+S", "duration statistics of the selected slice's name (Statistics dock)", Id::DurationStatistics},
    Shortcuts::Entry{"View", "Shift+F", "flame graph of the host threads' call stacks (of the marked range when there is one)", Id::FlameGraph},
    Shortcuts::Entry{"View", "Ctrl+U", "the Python source of the frame clicked in the flame graph or selected in the timeline, time per line (Source dock)", Id::Source},
    Shortcuts::Entry{"Notes", "N", "add a note to the marked range, else to the selected slice (M then N)", Id::AddNote},
    Shortcuts::Entry{"Notes", "right-click the time area", "Add Note Here: a note at the clicked time"},
    Shortcuts::Entry{"Notes", "Ctrl+Shift+N", "show / hide notes in the timeline", Id::ShowNotes},
    Shortcuts::Entry{"View", "Ctrl+Shift+R", "reset the window layout to the first-run layout", Id::ResetLayout},
    Shortcuts::Entry{"View", "Ctrl+Shift+Q", "the Query dock: SQL over the loaded trace, results as timeline lanes", Id::Query},
    Shortcuts::Entry{"View", "Ctrl+Enter", "in the Query dock: run the SQL"},
    Shortcuts::Entry{"View", "Ctrl+C", "in Details: copy the selected row's full value (several rows: field and value)"},
    Shortcuts::Entry{"Help", "F1", "this list of keys", Id::KeyboardShortcuts},
};

const Shortcuts::Entry *find(Id id)
{
    for (const Shortcuts::Entry &e : kEntries)
        if (e.id == id)
            return &e;
    return nullptr;
}

QString translated(const char *text)
{
    return QCoreApplication::translate("Shortcuts", text);
}

} // namespace

std::span<const Shortcuts::Entry> Shortcuts::entries()
{
    return kEntries;
}

QKeySequence Shortcuts::key(Id id)
{
    const Entry *e = find(id);
    if (!e)
        return {};
    if (e->standard != QKeySequence::UnknownKey)
        return QKeySequence(e->standard);
    return QKeySequence(QString::fromLatin1(e->keys), QKeySequence::PortableText);
}

void Shortcuts::bind(QAction *action, Id id)
{
    const QKeySequence k = key(id);
    action->setShortcut(k);
    const QString tip = action->toolTip();
    if (!k.isEmpty() && !tip.contains(k.toString(QKeySequence::NativeText)))
        action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, k.toString(QKeySequence::NativeText)));
}

QString Shortcuts::markdownTable()
{
    QString out = QStringLiteral("| group | key / mouse | action |\n|---|---|---|\n");
    for (const Entry &e : kEntries)
        out += QStringLiteral("| %1 | %2 | %3 |\n")
                   .arg(QString::fromLatin1(e.group), QString::fromLatin1(e.keys).replace(QLatin1Char('|'), QStringLiteral("\\|")),
                        QString::fromLatin1(e.action));
    return out;
}

QDialog *Shortcuts::createDialog(QWidget *parent)
{
    auto *dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("keyboardShortcutsDialog"));
    dialog->setWindowTitle(QCoreApplication::translate("Shortcuts", "Keyboard Shortcuts"));
    auto *table = new QTableWidget(int(kEntries.size()), 3, dialog);
    table->setHorizontalHeaderLabels({QCoreApplication::translate("Shortcuts", "Where"),
                                      QCoreApplication::translate("Shortcuts", "Key / mouse"),
                                      QCoreApplication::translate("Shortcuts", "Action")});
    for (int row = 0; row < int(kEntries.size()); ++row) {
        const Entry &e = kEntries[size_t(row)];
        // A bound key is shown as the platform writes it (Ctrl+O, or Cmd+O on a Mac).
        const QString keys = e.id != Id::None ? key(e.id).toString(QKeySequence::NativeText) : translated(e.keys);
        const QStringList cells = {translated(e.group), keys, translated(e.action)};
        for (int c = 0; c < 3; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            table->setItem(row, c, item);
        }
    }
    table->verticalHeader()->hide();
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    table->setWordWrap(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(760, 620);
    return dialog;
}

} // namespace lanescope
