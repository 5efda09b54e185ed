#pragma once
// The Notes dock: where the notes are kept (or why they cannot be), the list of the trace's notes
// (number, kind, where, text, in the note's colour), and Go To / Edit / Delete. Double-click or
// Enter goes to a note, Delete removes it; selecting one emphasises it in the timeline. The panel only
// shows and asks: NotesController owns the notes, connects to the requests and calls setNotes().
#include "panel.h"

#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace lanescope {

struct Annotation;

class NotesPanel : public Panel
{
    Q_OBJECT
public:
    NotesPanel(Session *session, QMainWindow *window);

    // The notes to list and where they are kept (or why they cannot be).
    void setNotes(const std::vector<Annotation> &notes, const QString &location);
    void setAddToolTip(const QString &tip);

    QTreeWidget *list() const { return m_list; }
    QLabel *location() const { return m_location; }
    // The id of the selected note, 0 when none.
    int currentId() const;

signals:
    void goToRequested(int id);
    void editRequested(int id);
    void removeRequested(int id);
    void addRequested();
    void currentChanged(int id); // 0: none

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fitColumns(); // the note's text fills what the dock shows; where and kind follow it
    QLabel *m_location;
    QTreeWidget *m_list;
    QPushButton *m_goTo;
    QPushButton *m_edit;
    QPushButton *m_delete;
    QPushButton *m_add;
};

} // namespace lanescope
