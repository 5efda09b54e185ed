#include "jobpanel.h"

#include "docklayout.h"
#include "session.h"

#include "job/joboverviewview.h"

#include <QMainWindow>
#include <QMessageBox>

#include <cstdio>

namespace lanescope {

JobPanel::JobPanel(Session *session, QMainWindow *window) : Panel(tr("Job"), QStringLiteral("jobDock"), session, window)
{
    buildWhenSeen([this] { view(); }); // a restored layout may show it before any job
}

JobOverviewView *JobPanel::view()
{
    if (!m_view) {
        m_view = new JobOverviewView(this);
        m_view->setDark(m_dark);
        setWidget(m_view);
        connect(m_view, &JobOverviewView::rankActivated, this, [this](size_t index) { openRank(index); });
    }
    return m_view;
}

JobPanel *JobPanel::attach(Session *session, QMainWindow *window)
{
    auto *panel = new JobPanel(session, window);
    window->addDockWidget(Qt::BottomDockWidgetArea, panel);
    panel->hide(); // until a job is read
    connect(session, &Session::jobReady, panel, &JobPanel::showJob);
    // A rank's trace opened from the overview: the timeline gets the room back, the overview stays.
    connect(session, &Session::traceChanged, panel, [panel, window] {
        if (panel->isVisible())
            window->resizeDocks({panel}, {int(window->height() * 0.3)}, Qt::Vertical);
    });
    return panel;
}

void JobPanel::showJob(const QString &path, const std::shared_ptr<const JobFolder::Result> &job)
{
    view()->setResult(job);
    setWindowTitle(tr("Job · %1").arg(Session::displayName(path)));
    if (isHidden())
        DockLayout::place(mainWindow(), this);
    show();
    raise();
    // The overview is what there is to see until a rank's trace is opened: most of the window's height.
    mainWindow()->resizeDocks({this}, {int(mainWindow()->height() * 0.7)}, Qt::Vertical);
}

QString JobPanel::openRank(size_t index)
{
    const JobOverview *job = view()->job();
    if (!job || index >= job->ranks.size())
        return tr("no such rank");
    const RankSummary &s = job->ranks[index];
    const JobFolder::TraceLocation where = JobFolder::locateTrace(s);
    if (!where.found.empty()) {
        session()->open(QString::fromStdString(where.found));
        return {};
    }
    QStringList tried;
    for (const std::string &p : where.tried)
        tried << QString::fromStdString(p);
    const QString message = tr("The trace of rank %1 (%2, %3 bytes) is not here; looked at:\n%4")
                                .arg(s.rank)
                                .arg(QString::fromStdString(s.file.name))
                                .arg(s.file.bytes)
                                .arg(tried.join(QLatin1Char('\n')));
    emit session()->statusMessage(tr("Trace of rank %1 not found").arg(s.rank), 10000);
    if (session()->quietErrors())
        std::fprintf(stderr, "lanescope: %s\n", qPrintable(message));
    else
        QMessageBox::information(this, tr("Trace not found"), message);
    return message;
}

void JobPanel::setDark(bool dark)
{
    m_dark = dark;
    if (m_view)
        m_view->setDark(dark);
}

} // namespace lanescope
