#include "detailspanel.h"

#include "session.h"

#include "chaincontroller.h"
#include "slicedetailsview.h"

namespace lanescope {

DetailsPanel::DetailsPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Details"), QStringLiteral("detailsDock"), session, window), m_details(new SliceDetailsView(this)),
      m_chain(new ChainController(timeline, m_details, this))
{
    setWidget(m_details);
    connect(session, &Session::traceChanged, this, [this](const std::shared_ptr<const Trace> &trace) {
        m_details->setTrace(trace);
        m_chain->setTrace(trace);
    });
    connect(session, &Session::selectionChanged, m_details, &SliceDetailsView::showSlice);
    connect(m_details, &SliceDetailsView::sliceActivated, session, &Session::revealSlice);
}

} // namespace lanescope
