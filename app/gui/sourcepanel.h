#pragma once
// The Source dock (object name "sourceDock", issue 30): the Python files of a with_stack trace,
// each line with the time its frames hold (SourceLines over the merged call tree of the host
// threads: the numbers of `lanescope-cli source`), of the marked range when there is one.
// The file box lists the files by device time launched, then CPU time; each is found on this
// machine by SourceResolver under the roots (SourceRoots: this trace's, every trace's, the trace's
// folder) or listed line by line with its function names when it is not, with the paths tried.
// A frame clicked in the Flame Graph, or a frame slice selected in the timeline, is remembered;
// Ctrl+U shows the dock beside the Flame Graph at that line (when the dock is open it follows at
// once). Open in Editor (or a double-click / Enter on a line) starts the user's editor there
// (EditorLauncher). Computed on a worker thread while the dock is visible; an outdated result is dropped.
#include "panel.h"

#include "analysis/sourcelines.h"
#include "analysis/sourceresolver.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QPushButton;
class QToolButton;

namespace lanescope {

class DockJob;
class SourceView;
class Trace;

class SourcePanel : public Panel
{
    Q_OBJECT
public:
    // `beside`: the dock (the Flame Graph) the Source dock opens next to when both are shown.
    SourcePanel(Session *session, QDockWidget *beside, QMainWindow *window);
    ~SourcePanel() override;

    QAction *showAction() const { return m_action; }
    // Ctrl+U: shows and raises the dock (beside the Flame Graph when that is open) at the last frame.
    void present();
    // A frame by its name in the trace ("train.py(118): step"): its file and line are shown now when
    // the dock is open, else when it opens. False when the name is not a frame.
    bool showFrame(const QString &frameName);
    // Folders tried before the saved roots for this run only (lanescope --source-root).
    void setExtraRoots(const QStringList &roots);
    // After the roots changed in the settings: every file is looked up again.
    void reloadRoots();
    // Opens the shown file at the current line in the editor; false with the reason in the status.
    bool openInEditor();

    // The dock's widgets, made when it is first shown or asked for.
    SourceView *view();
    QComboBox *fileBox();
    QComboBox *weightBox();
    QLabel *statusLabel();
    bool isComputing() const;
    const std::vector<SourceFile> &files() const;
    // Where the file of the file box's entry `index` is here (empty when not found).
    QString resolvedPath(int index) const;

signals:
    void computed();

private:
    void ensureBody();
    void onTraceChanged();
    void recompute();
    void onComputed(const std::shared_ptr<const std::vector<SourceFile>> &files, double ms);
    void resolveFiles(); // the result's files on this machine, into the file box
    // The remembered frame's file and line, else the first file to show; without `reload` a file
    // already on screen only moves to the line.
    void goToWanted(bool reload = false);
    void keepCurrent();  // remembers the file and line on screen as the ones to show
    void showFile(int index, uint32_t line);
    void showStatus();
    void addRoot(bool allTraces);
    void buildRootsMenu();
    std::vector<std::string> roots() const;

    QDockWidget *m_beside;
    SourceView *m_view = nullptr; // null until ensureBody(), like the other widgets
    QComboBox *m_files = nullptr;
    QComboBox *m_weight = nullptr;
    QToolButton *m_rootsButton = nullptr;
    QPushButton *m_open = nullptr;
    QLabel *m_status = nullptr;
    QAction *m_action;
    DockJob *m_job;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const std::vector<SourceFile>> m_result;
    std::vector<std::optional<std::string>> m_resolved; // per file of m_result
    SourceResolver m_resolver;
    QStringList m_extraRoots;
    QString m_scope, m_message;
    std::string m_wantedPath; // the frame to show when the result is there
    uint32_t m_wantedLine = 0;
};

} // namespace lanescope
