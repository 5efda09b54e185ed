#pragma once
// The notes of the trace on screen: opens its AnnotationStore when a trace is shown (the sidecar
// next to the file or folder, or the data folder when that is read-only; an unreadable sidecar is
// reported and never overwritten), draws them with an AnnotationsOverlay, and adds, edits, removes
// and jumps to them, saving after every change. The keys are bound here, through QActions:
//   N                  Add Note: to the marked range (Shift+drag, M), else to the selected slice
//   right-click > Add Note Here   a note at the clicked time
//   Ctrl+Shift+N       Show Notes on / off (remembered)
// Comparisons have no notes (there is no one file to keep them next to).
#include "annotations/annotationstore.h"

#include <QObject>
#include <QString>

#include <vector>

class QAction;
class QMainWindow;
class QMenu;

namespace lanescope {

class AnnotationsOverlay;
class ImageExportActions;
class NotesPanel;
class Session;
class TimelineView;

class NotesController : public QObject
{
    Q_OBJECT
public:
    NotesController(Session *session, TimelineView *timeline, QMainWindow *window);
    ~NotesController() override;

    NotesPanel *panel() const { return m_panel; }
    QMenu *menu() const { return m_menu; }
    QAction *addAction() const { return m_addAction; }
    QAction *showAction() const { return m_showAction; }
    const AnnotationStore &store() const { return m_store; }
    AnnotationsOverlay *overlay() const { return m_overlay; }
    // Where the notes are kept, or why they cannot be (for the dock's header line).
    QString locationText() const;

    // Drawn in the timeline and in image exports; remembered unless `remember` is false.
    void setShown(bool shown, bool remember = true);
    bool isShown() const;
    // The picture actions get the notes to draw on exported timelines.
    void setImageExport(ImageExportActions *actions);

    // N: a note on the marked range, else the selected slice (asks with AnnotationDialog).
    void addNoteForSelection();
    // A point note at `t` (absolute ns; asks with AnnotationDialog).
    void addNoteAt(int64_t t);
    // Adds `note` and saves; returns its id, 0 when no trace (with notes) is open.
    int addNote(Annotation note);
    void editNote(int id);
    bool updateNote(const Annotation &note);
    void removeNote(int id);
    // Shows the note: its range or point with a margin, its event selected.
    void jumpTo(int id);
    void setCurrent(int id);

signals:
    void notesChanged();

private:
    void onTraceChanged();
    bool prompt(const QString &title, Annotation &note);
    QString describe(const Annotation &note) const;
    void saved();

    Session *m_session;
    TimelineView *m_timeline;
    QMainWindow *m_window;
    AnnotationStore m_store;
    AnnotationsOverlay *m_overlay = nullptr; // owned by the timeline
    ImageExportActions *m_export = nullptr;
    NotesPanel *m_panel = nullptr;
    QMenu *m_menu = nullptr;
    QAction *m_addAction = nullptr;
    QAction *m_showAction = nullptr;
    QString m_saveError;
};

} // namespace lanescope
