#pragma once
// The Notes dock: where the notes are kept (or why they cannot be), the list of the trace's notes
// (number, kind, where, text, in the note's colour), and Go To / Edit / Delete. Double-click or
// Enter goes to a note, Delete removes it; selecting one emphasises it in the timeline. The panel only
// shows and asks: NotesController owns the notes, connects to the requests and calls setNotes(). Its
// widgets are made when the dock is first seen (most sessions never open it); until then it keeps what
// it was given, and its title counts the notes.
#include "panel.h"

#include "annotations/annotation.h"

#include <QString>

#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace lanescope {

class NotesPanel : public Panel
{
    Q_OBJECT
public:
    NotesPanel(Session *session, QMainWindow *window);

    // The notes to list and where they are kept (or why they cannot be).
    void setNotes(const std::vector<Annotation> &notes, const QString &location);
    void setAddToolTip(const QString &tip);

    // The list and the location line (made now if the dock has not been seen yet).
    QTreeWidget *list();
    QLabel *location();
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
    void ensureBody();
    void fill(); // the list and the location line from m_notes and m_where
    void fitColumns(); // the note's text fills what the dock shows; where and kind follow it
    std::vector<Annotation> m_notes;
    QString m_where;
    QString m_addTip;
    QLabel *m_location = nullptr;
    QTreeWidget *m_list = nullptr;
    QPushButton *m_goTo = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_add = nullptr;
};

} // namespace lanescope
