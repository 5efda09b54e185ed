#include "notescontroller.h"

#include "annotationdialog.h"
#include "notespanel.h"
#include "session.h"
#include "shortcuts.h"

#include "export/imageexportactions.h"
#include "overlays/annotationsoverlay.h"
#include "style/durationformat.h"
#include "timeline/timelineview.h"

#include "model/trace.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>

#include <algorithm>

namespace lanescope {

namespace {

const auto kShowKey = QStringLiteral("notes/show");

bool isComparison(const std::shared_ptr<const Trace> &trace)
{
    return trace && trace->metadata().format == "comparison";
}

} // namespace

NotesController::NotesController(Session *session, TimelineView *timeline, QMainWindow *window)
    : QObject(window), m_session(session), m_timeline(timeline), m_window(window)
{
    m_overlay = timeline->addOverlay(std::make_unique<AnnotationsOverlay>());
    m_menu = new QMenu(tr("&Notes"), window);
    m_addAction = m_menu->addAction(tr("&Add Note..."), this, &NotesController::addNoteForSelection);
    Shortcuts::bind(m_addAction, Shortcuts::Id::AddNote);
    m_addAction->setShortcutContext(Qt::WindowShortcut);
    m_addAction->setToolTip(tr("A note on the marked range (Shift+drag or M), else on the selected slice"));
    m_showAction = m_menu->addAction(tr("&Show Notes"));
    Shortcuts::bind(m_showAction, Shortcuts::Id::ShowNotes);
    m_showAction->setCheckable(true);
    m_showAction->setChecked(QSettings().value(kShowKey, true).toBool());
    m_overlay->setVisible(m_showAction->isChecked());
    connect(m_showAction, &QAction::toggled, this, [this](bool on) { setShown(on); });
    window->addAction(m_addAction); // the keys work while the menu bar is hidden too
    window->addAction(m_showAction);
    m_panel = new NotesPanel(session, window);
    m_panel->setAddToolTip(m_addAction->toolTip());
    connect(m_panel, &NotesPanel::addRequested, this, &NotesController::addNoteForSelection);
    connect(m_panel, &NotesPanel::goToRequested, this, &NotesController::jumpTo);
    connect(m_panel, &NotesPanel::editRequested, this, &NotesController::editNote);
    connect(m_panel, &NotesPanel::removeRequested, this, &NotesController::removeNote);
    connect(m_panel, &NotesPanel::currentChanged, this, &NotesController::setCurrent);
    connect(this, &NotesController::notesChanged, m_panel, [this] { m_panel->setNotes(m_store.notes(), locationText()); });
    m_menu->addSeparator();
    m_menu->addAction(m_panel->toggleViewAction());

    connect(session, &Session::traceChanged, this, &NotesController::onTraceChanged);
    connect(timeline, &TimelineView::contextMenuAboutToShow, this, [this](QMenu *menu, qint64 t) {
        if (!m_store.isOpen())
            return;
        menu->addSeparator();
        menu->addAction(tr("Add Note Here..."), this, [this, t] { addNoteAt(t); });
    });
    connect(this, &NotesController::notesChanged, this, [this] {
        m_overlay->setNotes(m_store.notes());
        if (m_export)
            m_export->setNotes(isShown() ? m_store.notes() : std::vector<Annotation>());
    });
}

NotesController::~NotesController() = default;

void NotesController::setImageExport(ImageExportActions *actions)
{
    m_export = actions;
    emit notesChanged();
}

void NotesController::setShown(bool shown, bool remember)
{
    if (m_showAction->isChecked() != shown) {
        const QSignalBlocker block(m_showAction);
        m_showAction->setChecked(shown);
    }
    m_overlay->setVisible(shown);
    if (remember)
        QSettings().setValue(kShowKey, shown);
    emit notesChanged();
}

bool NotesController::isShown() const
{
    return m_showAction->isChecked();
}

void NotesController::onTraceChanged()
{
    m_saveError.clear();
    const auto &trace = m_session->trace();
    if (!trace || isComparison(trace) || m_session->currentPath().isEmpty()) {
        m_store.close();
    } else if (!m_store.open(m_session->currentPath().toStdString())) {
        emit m_session->statusMessage(tr("Notes: %1").arg(QString::fromStdString(m_store.error())), 15000);
    } else if (const size_t lost = m_store.resolve(*trace)) {
        emit m_session->statusMessage(tr("Notes: %n note(s) no longer find their event; shown at the stored time", "", int(lost)), 10000);
    } else if (m_store.usesDataFolder()) {
        emit m_session->statusMessage(tr("The trace's folder is read-only: notes are saved in %1")
                                          .arg(QString::fromStdString(m_store.path())), 10000);
    }
    m_addAction->setEnabled(m_store.isOpen());
    emit notesChanged();
}

QString NotesController::locationText() const
{
    if (!m_store.isOpen())
        return isComparison(m_session->trace()) ? tr("Comparisons have no notes: open one profile to annotate it.")
                                                : tr("Open a trace to add notes.");
    const QString path = QString::fromStdString(m_store.path());
    if (m_store.isUnreadable())
        return tr("<b>The notes file cannot be read</b> and will not be overwritten: %1<br>Fix it or move it away, "
                  "then reopen the trace. Notes added now are not saved.")
            .arg(QString::fromStdString(m_store.error()).toHtmlEscaped());
    if (!m_saveError.isEmpty())
        return tr("<b>Not saved:</b> %1").arg(m_saveError.toHtmlEscaped());
    if (m_store.usesDataFolder())
        return tr("The trace's folder is read-only: notes are saved in %1").arg(path.toHtmlEscaped());
    return tr("Saved in %1").arg(path.toHtmlEscaped());
}

QString NotesController::describe(const Annotation &note) const
{
    const auto &trace = m_session->trace();
    const int64_t origin = trace ? trace->startNs() : 0;
    switch (note.kind) {
    case Annotation::Kind::Range:
        return tr("range %1 – %2 (%3)")
            .arg(DurationFormat::format(note.startNs - origin), DurationFormat::format(note.endNs - origin),
                 DurationFormat::format(note.endNs - note.startNs));
    case Annotation::Kind::Event:
        return tr("event \"%1\" at %2%3")
            .arg(QString::fromStdString(note.eventName), DurationFormat::format(note.startNs - origin),
                 note.eventFound ? QString() : tr(" (not in this trace)"));
    case Annotation::Kind::Point: break;
    }
    return tr("time %1").arg(DurationFormat::format(note.startNs - origin));
}

bool NotesController::prompt(const QString &title, Annotation &note)
{
    AnnotationDialog dialog(title, describe(note), m_window);
    dialog.setText(QString::fromStdString(note.text));
    dialog.setColor(QString::fromStdString(note.color));
    if (dialog.exec() != QDialog::Accepted || dialog.text().isEmpty())
        return false;
    note.text = dialog.text().toStdString();
    note.color = dialog.color().toStdString();
    return true;
}

void NotesController::addNoteForSelection()
{
    const auto &trace = m_session->trace();
    if (!m_store.isOpen() || !trace)
        return;
    Annotation note;
    if (m_session->hasMarkedRange())
        note = Annotation::range(m_session->markedStart(), m_session->markedEnd(), {});
    else if (m_session->selectedSlice().isValid())
        note = Annotation::event(*trace, m_session->selectedSlice(), {});
    else {
        emit m_session->statusMessage(tr("Add Note: mark a range (Shift+drag, or M on a selected slice) or select a "
                                         "slice first; right-click the timeline to add a note at a point in time"),
                                      8000);
        return;
    }
    if (prompt(tr("Add Note"), note))
        addNote(std::move(note));
}

void NotesController::addNoteAt(int64_t t)
{
    Annotation note = Annotation::point(t, {});
    if (m_store.isOpen() && prompt(tr("Add Note"), note))
        addNote(std::move(note));
}

void NotesController::saved()
{
    std::string error;
    m_saveError = m_store.save(&error) ? QString() : QString::fromStdString(error);
    if (!m_saveError.isEmpty())
        emit m_session->statusMessage(m_saveError, 15000);
    emit notesChanged();
}

int NotesController::addNote(Annotation note)
{
    if (!m_store.isOpen())
        return 0;
    const int id = m_store.add(std::move(note));
    saved();
    if (!isShown())
        setShown(true);
    return id;
}

void NotesController::editNote(int id)
{
    const Annotation *found = m_store.find(id);
    if (!found)
        return;
    Annotation note = *found;
    if (prompt(tr("Edit Note %1").arg(id), note))
        updateNote(note);
}

bool NotesController::updateNote(const Annotation &note)
{
    if (!m_store.update(note))
        return false;
    saved();
    return true;
}

void NotesController::removeNote(int id)
{
    if (m_store.remove(id))
        saved();
}

void NotesController::setCurrent(int id)
{
    m_overlay->setCurrent(id);
}

void NotesController::jumpTo(int id)
{
    const Annotation *note = m_store.find(id);
    if (!note)
        return;
    if (note->kind == Annotation::Kind::Event && note->eventFound) {
        m_session->setSelectedSlice(SliceId(note->sliceId));
        m_session->revealSlice(SliceId(note->sliceId));
    }
    const int64_t visible = std::max<int64_t>(1, m_session->visibleEnd() - m_session->visibleStart());
    const int64_t span = note->endNs > note->startNs ? note->endNs - note->startNs : visible;
    const int64_t margin = note->endNs > note->startNs ? span / 8 + 1 : span / 2;
    if (note->kind == Annotation::Kind::Point)
        m_session->setVisibleRange(note->startNs - margin, note->startNs + margin);
    else
        m_session->setVisibleRange(note->startNs - margin, note->endNs + margin);
    setCurrent(id);
}

} // namespace lanescope
