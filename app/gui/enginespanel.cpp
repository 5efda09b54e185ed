#include "enginespanel.h"

#include "session.h"
#include "throttle.h"

#include "enginechartsview.h"
#include "timelineview.h"
#include "utilizationstrip.h"

#include "model/trace.h"

#include <QMainWindow>

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
    setWidget(m_charts);
    m_strip->setFixedHeight(130);
    m_strip->hide(); // shown for traces with NeuronCore engines
    m_strip->setPlotInsets([timeline] { // the plot lines up with the timeline's time axis
        const QRect area = timeline->timeArea();
        return std::make_pair(area.left(), std::max(0, timeline->width() - area.right() - 1));
    });
    connect(session, &Session::traceChanged, this, &EnginesPanel::onTraceChanged);
    connect(session, &Session::markedRangeChanged, m_markedThrottle, &Throttle::poke);
    connect(session, &Session::visibleRangeChanged, m_visibleThrottle, &Throttle::poke);
}

void EnginesPanel::setDark(bool dark)
{
    m_charts->setDark(dark);
    m_strip->setDark(dark);
}

void EnginesPanel::onTraceChanged()
{
    const std::shared_ptr<const Trace> &trace = session()->trace();
    // A comparison's combined trace would mix the profiles (the Compare dock has their diff).
    if (trace->metadata().format == "comparison") {
        hide();
        m_strip->hide();
        return;
    }
    m_charts->setTrace(trace);
    const bool engines = !m_charts->result().empty();
    m_strip->setVisible(engines);
    m_strip->setTrace(engines ? trace : nullptr);
    if (!engines) {
        hide(); // as the header says: shown for NeuronCore traces (empty charts took the Summary's room)
        return;
    }
    const auto [start, end] = m_timeline->visibleRange();
    m_strip->setRange(start, end);
    show();
    raise();
    mainWindow()->resizeDocks({this}, {420}, Qt::Vertical);
    mainWindow()->resizeDocks({this}, {mainWindow()->width() * 2 / 3}, Qt::Horizontal);
}

} // namespace lanescope
