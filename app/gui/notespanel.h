#pragma once
// The Notes dock: where the notes are kept (or why they cannot be), the list of the trace's notes
// (number, kind, where, text, in the note's colour), and Go To / Edit / Delete. Double-click or
// Enter goes to a note, Delete removes it; selecting one emphasises it in the timeline.
#include "panel.h"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace lanescope {

class NotesController;

class NotesPanel : public Panel
{
    Q_OBJECT
public:
    NotesPanel(NotesController *notes, Session *session, QMainWindow *window);

    QTreeWidget *list() const { return m_list; }
    QLabel *location() const { return m_location; }
    // The id of the selected note, 0 when none.
    int currentId() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();

    NotesController *m_notes;
    QLabel *m_location;
    QTreeWidget *m_list;
    QPushButton *m_goTo;
    QPushButton *m_edit;
    QPushButton *m_delete;
};

} // namespace lanescope
