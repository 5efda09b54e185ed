#pragma once
// Compare mode of a MainWindow: loads the profiles (CompareSession), shows the combined timeline
// in the window, the alignment strip above it (CompareBar) and the diff panel in a dock (DiffView).
// Entered by `lanescope A B`, File > Compare, dropping a second profile, or Help > Samples.
#include <QObject>
#include <QStringList>

class QDockWidget;

namespace lanescope {

class CompareBar;
class CompareSession;
class DiffView;
class MainWindow;

class CompareController : public QObject
{
    Q_OBJECT
public:
    explicit CompareController(MainWindow *window);

    // Loads and compares `paths` (two or more files or folders).
    void open(const QStringList &paths, const QStringList &labels = {});
    // Compares the profile on screen with `path`.
    void compareWithCurrent(const QString &path);
    void cancel();
    void leave();
    bool isActive() const { return m_active; }
    bool isBusy() const;

    CompareSession *session() const { return m_session; }
    CompareBar *bar() const { return m_bar; }
    DiffView *diffView() const { return m_view; }
    QDockWidget *dock() const { return m_dock; }

private:
    void onReady();
    void alignToSelection();
    void showOccurrences(const QString &name);

    MainWindow *m_window;
    CompareSession *m_session;
    CompareBar *m_bar;
    DiffView *m_view;
    QDockWidget *m_dock;
    bool m_active = false;
};

} // namespace lanescope
