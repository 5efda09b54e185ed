#pragma once
// A dock of the main window that listens to the Session: each panel (details, warnings, range
// summary, engines, analysis, NEFF) connects the Session's signals to one of the views in widgets/
// and keeps whatever state it needs. The window only places the panels.
#include <QDockWidget>

#include <functional>
#include <initializer_list>
#include <utility>

class QAbstractItemModel;
class QLabel;
class QMainWindow;
class QTableView;

namespace lanescope {

class Session;

class Panel : public QDockWidget
{
    Q_OBJECT
public:
    // `objectName` keys the dock in the saved window layout.
    Panel(const QString &title, const QString &objectName, Session *session, QMainWindow *window);

    // The dock's table when it has one (tableWhenSeen), made now if it has not been seen yet; null
    // for a dock without one.
    QTableView *table();

protected:
    Session *session() const { return m_session; }
    QMainWindow *mainWindow() const { return m_window; }
    // A sortable table over `model`: sorted by its `sortRole` on `sortColumn` (descending), whole rows
    // selected, no row numbers, no word wrap; newTable leaves it to the caller to place, makeTable
    // makes it the dock's widget.
    QTableView *newTable(QAbstractItemModel *model, int sortRole, int sortColumn);
    QTableView *makeTable(QAbstractItemModel *model, int sortRole, int sortColumn);
    // A row of controls (each with its stretch factor), a status line (selectable, wrapped) and the
    // view filling the rest: the body of the Flame Graph and Source docks.
    void setBody(std::initializer_list<std::pair<QWidget *, int>> controls, QLabel *status, QWidget *view);
    // Runs `build` when the dock is seen: shown on its own, or its tab the current one of its group. For
    // widgets most sessions never look at (made then, not with the window); `build` must do nothing
    // once they exist, and the dock also runs it wherever it needs them sooner. The window's first show
    // tells every tabbed dock it is visible: whether it is seen is asked once that has settled.
    void buildWhenSeen(std::function<void()> build);
    // The dock's widget is a table (makeTable) made when the dock is first seen or table() is asked
    // for: for docks whose tab title says what they hold. `setUp` sizes its columns and connects it.
    void tableWhenSeen(QAbstractItemModel *model, int sortRole, int sortColumn, std::function<void(QTableView *)> setUp);
    // The table if it has been made, else null (nothing is made).
    QTableView *madeTable() const { return m_table; }

private:
    Session *m_session;
    QMainWindow *m_window;
    QTableView *m_table = nullptr;
    std::function<QTableView *()> m_makeTable; // set by tableWhenSeen

};

} // namespace lanescope
