#pragma once
// The controls of compare mode: the alignment strip above the timeline (CompareBar, placed by the
// window) and the diff panel in a dock (DiffView). The profiles and the comparison itself are the
// Session's (its CompareSession); this follows it into and out of compare mode. Entered by
// `lanescope A B`, File > Compare, dropping a second profile, or Help > Samples.
#include <QObject>

class QDockWidget;
class QMainWindow;

namespace lanescope {

class CompareBar;
class DiffView;
class Session;
class TimelineSearchBar;

class CompareController : public QObject
{
    Q_OBJECT
public:
    CompareController(Session *session, QMainWindow *window, TimelineSearchBar *search);

    CompareBar *bar() const { return m_bar; }
    // The diff tables, made when a comparison is first shown (or asked for).
    DiffView *diffView();
    QDockWidget *dock() const { return m_dock; }

private:
    void onShown(bool entering);
    void alignToSelection();
    void showOccurrences(const QString &name);

    Session *m_session;
    QMainWindow *m_window;
    TimelineSearchBar *m_search;
    CompareBar *m_bar;
    DiffView *m_view = nullptr;
    QDockWidget *m_dock;
};

} // namespace lanescope
