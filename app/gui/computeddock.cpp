#include "computeddock.h"

#include "dockjob.h"
#include "session.h"

#include "model/trace.h"

#include <QAction>

namespace lanescope {

ComputedDock::ComputedDock(const QString &title, const QString &objectName, Session *session, QMainWindow *window)
    : Panel(title, objectName, session, window), m_job(new DockJob(this, [this] {
          if (m_hasContent && this->session()->trace())
              compute();
      }, 0))
{
    connect(session, &Session::traceChanged, this, &ComputedDock::onTraceChanged);
    connect(toggleViewAction(), &QAction::triggered, this, [this](bool checked) { m_userClosed = !checked; });
}

void ComputedDock::resetVisibility()
{
    m_userClosed = false;
    setVisible(m_hasContent);
    m_job->request(); // runs now when visible, else once the dock is shown
}

void ComputedDock::onTraceChanged()
{
    m_job->drop();
    clear();
    const std::shared_ptr<const Trace> &trace = session()->trace();
    m_hasContent = trace && trace->metadata().format != "comparison" && hasContentFor(*trace);
    setVisible(m_hasContent && !m_userClosed);
    if (m_hasContent)
        m_job->request();
}

} // namespace lanescope
