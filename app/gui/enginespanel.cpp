#include "enginespanel.h"

#include "session.h"
#include "throttle.h"

#include "charts/enginechartsview.h"
#include "timeline/timelineview.h"
#include "timeline/utilizationstrip.h"

#include "analysis/deviceexecutions.h"
#include "model/trace.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QScrollArea>
#include <QVBoxLayout>

namespace lanescope {

EnginesPanel::EnginesPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Engines"), QStringLiteral("enginesDock"), session, window), m_timeline(timeline),
      m_charts(new EngineChartsView(this)), m_executionBox(new QComboBox(this)), m_strip(new UtilizationStrip), m_markedThrottle(new Throttle([this] {
          if (this->session()->trace() && !m_charts->result().empty())
              m_charts->setRange(this->session()->markedStart(), this->session()->markedEnd());
      }, this)),
      m_visibleThrottle(new Throttle([this] {
          if (m_strip->isVisible())
              m_strip->setRange(this->session()->visibleStart(), this->session()->visibleEnd());
      }, this))
{
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QWidget(content); // hidden without executions (m_executionBox's parent)
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 4, 6, 0);
    row->addWidget(new QLabel(tr("Execution:"), bar));
    m_executionBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_executionBox->setMinimumContentsLength(40);
    m_executionBox->setToolTip(tr("Every execution of every NeuronCore, or one device execution (its lanes and span)"));
    row->addWidget(m_executionBox, 1);
    layout->addWidget(bar);
    // The four charts scroll inside the dock, so its tab group keeps the first-run height (DockLayout).
    auto *scroll = new QScrollArea(content);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_charts);
    layout->addWidget(scroll, 1);
    setWidget(content);
    connect(m_executionBox, &QComboBox::activated, this, &EnginesPanel::onExecutionChosen);
    m_strip->setFixedHeight(130);
    m_strip->hide(); // shown for traces with NeuronCore engines
    m_strip->setPlotInsets([timeline] { // the plot lines up with the timeline's time axis
        const QRect area = timeline->timeArea();
        return std::make_pair(area.left(), std::max(0, timeline->width() - area.right() - 1));
    });
    connect(timeline, &TimelineView::timeAreaChanged, m_strip, &UtilizationStrip::updateInsets);
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
    m_charts->setExecution(std::nullopt);
    fillExecutionBox();
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

namespace lanescope {

// Shown when the trace has an executions lane (a profile folder with device timelines).
void EnginesPanel::fillExecutionBox()
{
    const std::shared_ptr<const Trace> &trace = session()->trace();
    m_executions = std::make_shared<const DeviceExecutions>(DeviceExecutions::build(*trace));
    m_executionBox->clear();
    m_executionBox->addItem(tr("All executions (%n, every core)", nullptr, int(m_executions->all().size())));
    for (size_t i = 0; i < m_executions->all().size(); ++i)
        m_executionBox->addItem(QString::fromStdString(m_executions->label(*trace, i)));
    m_executionBox->parentWidget()->setVisible(!m_executions->empty());
}

void EnginesPanel::onExecutionChosen(int index)
{
    if (!m_executions || !session()->trace())
        return;
    if (index <= 0 || size_t(index) > m_executions->all().size()) {
        m_charts->setExecution(std::nullopt);
        m_charts->setRange(session()->markedStart(), session()->markedEnd());
        return;
    }
    const DeviceExecution &e = m_executions->all()[size_t(index - 1)];
    m_charts->setExecution(size_t(index - 1));
    session()->setMarkedRange(e.start, e.end); // the timeline shows it; the charts follow (throttled)
    m_charts->setRange(e.start, e.end);
}

} // namespace lanescope
