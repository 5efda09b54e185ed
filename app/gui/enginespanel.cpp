#include "enginespanel.h"

#include "session.h"
#include "throttle.h"

#include "enginechartsview.h"
#include "timelineview.h"
#include "utilizationstrip.h"

#include "model/trace.h"

#include <QAction>
#include <QCloseEvent>
#include <QMainWindow>
#include <QScrollArea>

namespace lanescope {

EnginesPanel::EnginesPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Engines"), QStringLiteral("enginesDock"), session, window), m_timeline(timeline),
      m_charts(new EngineChartsView(this)), m_strip(new UtilizationStrip), m_markedThrottle(new Throttle([this] {
          if (this->session()->trace() && !m_charts->result().empty())
              m_charts->setRange(this->session()->markedStart(), this->session()->markedEnd());
      }, this)),
      m_visibleThrottle(new Throttle([this] {
          if (m_strip->isVisible())
              m_strip->setRange(this->session()->visibleStart(), this->session()->visibleEnd());
      }, this))
{
    // The four charts scroll inside the dock, so its tab group keeps the first-run height (DockLayout).
    auto *scroll = new QScrollArea(this);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_charts);
    setWidget(scroll);
    m_strip->setFixedHeight(130);
    m_strip->hide(); // shown for traces with NeuronCore engines
    m_strip->setPlotInsets([timeline] { // the plot lines up with the timeline's time axis
        const QRect area = timeline->timeArea();
        return std::make_pair(area.left(), std::max(0, timeline->width() - area.right() - 1));
    });
    connect(session, &Session::traceChanged, this, &EnginesPanel::onTraceChanged);
    connect(toggleViewAction(), &QAction::triggered, this, [this](bool checked) { m_userClosed = !checked; });
    connect(session, &Session::markedRangeChanged, m_markedThrottle, &Throttle::poke);
    connect(session, &Session::visibleRangeChanged, m_visibleThrottle, &Throttle::poke);
}

void EnginesPanel::setDark(bool dark)
{
    m_charts->setDark(dark);
    m_strip->setDark(dark);
}

void EnginesPanel::closeEvent(QCloseEvent *event)
{
    m_userClosed = true;
    Panel::closeEvent(event);
}

void EnginesPanel::resetVisibility()
{
    m_userClosed = false;
    setVisible(m_hasEngines);
    if (m_hasEngines)
        raise();
}

void EnginesPanel::onTraceChanged()
{
    const std::shared_ptr<const Trace> &trace = session()->trace();
    // A comparison's combined trace would mix the profiles (the Compare dock has their diff).
    if (trace->metadata().format == "comparison") {
        m_hasEngines = false;
        hide();
        m_strip->hide();
        return;
    }
    m_charts->setTrace(trace);
    m_hasEngines = !m_charts->result().empty();
    m_strip->setVisible(m_hasEngines);
    m_strip->setTrace(m_hasEngines ? trace : nullptr);
    if (!m_hasEngines) { // a GPU trace: four empty charts say nothing
        hide();
        return;
    }
    const auto [start, end] = m_timeline->visibleRange();
    m_strip->setRange(start, end);
    if (m_userClosed)
        return;
    show();
    raise(); // in front of its tab group (DockLayout)
}

} // namespace lanescope
