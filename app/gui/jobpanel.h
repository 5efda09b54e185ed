#pragma once
// The Job dock: the overview of a distributed job opened from its rank summaries (a folder of
// `lanescope-cli summarize` output, or one summary; JobOverviewView over JobFolder's result). Created
// by JobPanel::attach when the window is made; it shows itself, tall, when the Session has read a job
// (the timeline is empty then), and loads a rank's full trace on demand: double-clicking a rank opens
// the trace file its summary records, found where JobFolder::locateTrace looks, else it says where it
// looked. The window only calls attach().
#include "panel.h"

#include "job/jobfolder.h"

#include <memory>

namespace lanescope {

class JobOverviewView;

class JobPanel : public Panel
{
    Q_OBJECT
public:
    JobPanel(Session *session, QMainWindow *window);

    // The dock of `window`, created and wired to the Session.
    static JobPanel *attach(Session *session, QMainWindow *window);

    // The overview, made on first use (most sessions never read a job).
    JobOverviewView *view();
    void showJob(const QString &path, const std::shared_ptr<const JobFolder::Result> &job);
    // Opens the trace of the shown job's summary `index` (what a double-click does); the message when
    // it is not found (also shown in the status bar), empty when the load started.
    QString openRank(size_t index);
    void setDark(bool dark);

private:
    JobOverviewView *m_view = nullptr;
    bool m_dark = false;
};

} // namespace lanescope
