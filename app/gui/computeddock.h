#pragma once
// A dock whose content is computed from the trace on a worker thread while the dock is seen
// (DockJob) and that is shown only for traces that have such content (the Tensors and Collectives
// docks): on each new trace it forgets what it showed, asks hasContentFor() (cheap, on the GUI
// thread; a comparison never has content) and shows itself when there is some, unless the user
// closed it (its button or the View menu): then it stays closed for the next traces until View >
// Reset Layout (resetVisibility). `computed` is emitted once a result is shown.
#include "panel.h"

namespace lanescope {

class DockJob;
class Trace;

class ComputedDock : public Panel
{
    Q_OBJECT
public:
    ComputedDock(const QString &title, const QString &objectName, Session *session, QMainWindow *window);

    bool hasContent() const { return m_hasContent; }
    // View > Reset Layout: forget that the user closed the dock; shown iff the trace has content.
    void resetVisibility();

signals:
    void computed();

protected:
    // Whether `trace` has what the dock shows (called on the GUI thread for every new trace: cheap).
    virtual bool hasContentFor(const Trace &trace) const = 0;
    // Forgets what is shown (another trace is coming).
    virtual void clear() = 0;
    // Starts the computation for session()->trace(); ends in job()->start(...). Only called when
    // the trace has content.
    virtual void compute() = 0;
    DockJob *job() const { return m_job; }

private:
    void onTraceChanged();

    DockJob *m_job;
    bool m_hasContent = false;
    bool m_userClosed = false;
};

} // namespace lanescope
