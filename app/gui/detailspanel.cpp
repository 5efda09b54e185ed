#include "detailspanel.h"

#include "session.h"

#include "details/slicedetailsview.h"
#include "overlays/chaincontroller.h"

#include "analysis/executionneff.h"
#include "analysis/opbreakdown.h"
#include "timeline/timelineview.h"
#include "model/trace.h"

#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>

namespace lanescope {

DetailsPanel::DetailsPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Details"), QStringLiteral("detailsDock"), session, window), m_details(new SliceDetailsView),
      m_timeline(timeline), m_chain(new ChainController(timeline, m_details, this)), m_neffLink(new QLabel)
{
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_neffLink->setObjectName(QStringLiteral("openNeffLink"));
    m_neffLink->setContentsMargins(6, 4, 6, 2);
    m_neffLink->setTextFormat(Qt::RichText);
    m_neffLink->setWordWrap(true); // a long NEFF name wraps instead of widening the dock past its first-run width
    m_neffLink->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_neffLink->hide();
    connect(m_neffLink, &QLabel::linkActivated, this, [this] { openNeff(); });
    layout->addWidget(m_neffLink);
    layout->addWidget(m_details, 1);
    setWidget(content);
    connect(session, &Session::traceChanged, this, [this](const std::shared_ptr<const Trace> &trace) {
        m_details->setTrace(trace);
        m_chain->setTrace(trace);
        showSlice();
    });
    connect(session, &Session::selectionChanged, m_details, &SliceDetailsView::showSlice);
    connect(session, &Session::selectionChanged, this, &DetailsPanel::showSlice);
    connect(m_details, &SliceDetailsView::sliceActivated, session, &Session::revealSlice);
}

void DetailsPanel::showSlice()
{
    const std::shared_ptr<const Trace> &trace = session()->trace();
    const SliceId selected = session()->selectedSlice();
    if (trace && selected.isValid()) { // a layer / HLO op: its instructions light up
        const std::vector<SliceId> instructions = OpBreakdown::instructionsOf(*trace, selected);
        if (!instructions.empty()) {
            std::vector<uint32_t> ids;
            ids.reserve(instructions.size());
            for (SliceId s : instructions)
                ids.push_back(s.value);
            m_timeline->setSearchMatches(std::move(ids));
        }
    }
    const std::string neff = trace && selected.isValid() ? ExecutionNeff::find(*trace, selected) : std::string();
    m_neffPath = QString::fromStdString(neff);
    if (m_neffPath.isEmpty() || !QFileInfo::exists(m_neffPath)) {
        m_neffPath.clear();
        m_neffLink->hide();
        return;
    }
    updateNeffLink();
    m_neffLink->setToolTip(m_neffPath);
    m_neffLink->show();
}

void DetailsPanel::updateNeffLink()
{
    if (m_neffPath.isEmpty())
        return;
    m_neffLink->setText(tr("Program of this execution: <a href=\"neff\" style=\"color: %2\">Open NEFF %1</a>")
                            .arg(QFileInfo(m_neffPath).fileName().toHtmlEscaped(), palette().link().color().name()));
}

void DetailsPanel::changeEvent(QEvent *event)
{
    Panel::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateNeffLink(); // the link stays readable when the theme turns dark (or back)
}

void DetailsPanel::openNeff()
{
    if (!m_neffPath.isEmpty())
        session()->openPaths({m_neffPath});
}

} // namespace lanescope
