#include "enginespanel.h"

#include "session.h"
#include "throttle.h"
#include "dockjob.h"

#include "charts/enginechartsview.h"
#include "timeline/timelineview.h"
#include "timeline/utilizationstrip.h"

#include "tables/rowtablemodel.h"

#include "analysis/deviceexecutions.h"
#include "analysis/neuroncoretracks.h"
#include "analysis/opbreakdown.h"
#include "analysis/tablerows.h"
#include "model/trace.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace lanescope {

EnginesPanel::EnginesPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Engines"), QStringLiteral("enginesDock"), session, window), m_timeline(timeline),
      m_opModel(new RowModel<OpBreakdownRow, OpBreakdownResult>(TableRows::opRows(), {}, this)),
      m_opJob(new DockJob(this, [this] { computeOps(); }, 0)), m_stripArea(new QWidget), m_markedThrottle(new Throttle([this] {
          if (this->session()->trace() && m_charts && !m_charts->result().empty())
              m_charts->setRange(this->session()->markedStart(), this->session()->markedEnd());
      }, this)),
      m_visibleThrottle(new Throttle([this] {
          if (m_strip && m_strip->isVisible())
              m_strip->setRange(this->session()->visibleStart(), this->session()->visibleEnd());
      }, this))
{
    auto *area = new QVBoxLayout(m_stripArea); // empty (no height) until a trace with engines
    area->setContentsMargins(0, 0, 0, 0);
    connect(session, &Session::traceChanged, this, &EnginesPanel::onTraceChanged);
    connect(toggleViewAction(), &QAction::triggered, this, [this](bool checked) { m_userClosed = !checked; });
    connect(session, &Session::markedRangeChanged, m_markedThrottle, &Throttle::poke);
    connect(session, &Session::visibleRangeChanged, m_visibleThrottle, &Throttle::poke);
}

// The charts, the op tables and the strip under the timeline: made for the first trace with NeuronCore
// engines (or when asked for), so that every other window starts without them.
void EnginesPanel::ensureBody()
{
    if (m_charts)
        return;
    m_charts = new EngineChartsView(this);
    m_charts->setDark(m_dark);
    m_executionBox = new QComboBox(this);
    m_modeBox = new QComboBox(this);
    m_stack = new QStackedWidget(this);
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QWidget(content);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 4, 6, 0);
    row->addWidget(new QLabel(tr("Show:"), bar));
    m_modeBox->addItems({tr("Engine charts"), tr("By layer"), tr("By HLO op")});
    m_modeBox->setToolTip(tr("The charts per engine, or a table per framework layer / HLO op (neuron-profile JSON exports name them)"));
    row->addWidget(m_modeBox);
    m_executionRow = new QWidget(bar); // hidden without executions
    auto *exec = new QHBoxLayout(m_executionRow);
    exec->setContentsMargins(12, 0, 0, 0);
    exec->addWidget(new QLabel(tr("Execution:"), m_executionRow));
    m_executionBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_executionBox->setMinimumContentsLength(40);
    m_executionBox->setToolTip(tr("Every execution of every NeuronCore, or one device execution (its lanes and span)"));
    exec->addWidget(m_executionBox, 1);
    row->addWidget(m_executionRow, 1);
    row->addStretch();
    layout->addWidget(bar);
    // The four charts scroll inside the dock, so its tab group keeps the first-run height (DockLayout).
    auto *scroll = new QScrollArea(content);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_charts);
    m_stack->addWidget(scroll);
    m_opView = makeTable(m_opModel, RowTableModel::SortRole, m_opModel->column("start_ns"));
    m_opView->sortByColumn(m_opModel->column("start_ns"), Qt::AscendingOrder);
    m_opView->setToolTip(tr("Double-click or Enter: the row's instructions become the timeline's matches"));
    auto *page = new QWidget(m_stack);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    m_opStatus = new QLabel(page);
    m_opStatus->setWordWrap(true);
    m_opStatus->setContentsMargins(6, 2, 6, 2);
    m_opStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pageLayout->addWidget(m_opStatus);
    pageLayout->addWidget(m_opView, 1);
    m_stack->addWidget(page);
    layout->addWidget(m_stack, 1);
    setWidget(content);
    connect(m_executionBox, &QComboBox::activated, this, &EnginesPanel::onExecutionChosen);
    connect(m_modeBox, &QComboBox::activated, this, [this](int index) { setMode(Mode(index)); });
    connect(m_opView, &QTableView::activated, this, [this](const QModelIndex &index) {
        findOp(static_cast<const QSortFilterProxyModel *>(m_opView->model())->mapToSource(index).row());
    });
    m_strip = new UtilizationStrip(m_stripArea);
    m_strip->setFixedHeight(130);
    m_strip->hide(); // shown for traces with NeuronCore engines
    m_strip->setDark(m_dark);
    TimelineView *timeline = m_timeline;
    m_strip->setPlotInsets([timeline] { // the plot lines up with the timeline's time axis
        const QRect area = timeline->timeArea();
        return std::make_pair(area.left(), std::max(0, timeline->width() - area.right() - 1));
    });
    m_stripArea->layout()->addWidget(m_strip);
    connect(timeline, &TimelineView::timeAreaChanged, m_strip, &UtilizationStrip::updateInsets);
}

UtilizationStrip *EnginesPanel::strip()
{
    ensureBody();
    return m_strip;
}

EngineChartsView *EnginesPanel::charts()
{
    ensureBody();
    return m_charts;
}

QComboBox *EnginesPanel::executionBox()
{
    ensureBody();
    return m_executionBox;
}

QTableView *EnginesPanel::opTable()
{
    ensureBody();
    return m_opView;
}

void EnginesPanel::setDark(bool dark)
{
    m_dark = dark;
    if (!m_charts)
        return;
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
    if (trace->metadata().format == "comparison" || (!m_charts && coretracks::find(*trace).empty())) {
        m_hasEngines = false;
        hide();
        if (m_strip)
            m_strip->hide();
        return;
    }
    ensureBody();
    m_charts->setExecution(std::nullopt);
    m_opJob->drop();
    m_opModel->setResult({});
    if (mode() != Mode::Charts)
        m_opJob->request();
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
    m_executionRow->setVisible(!m_executions->empty() && mode() == Mode::Charts);
}

void EnginesPanel::setMode(Mode mode)
{
    ensureBody();
    m_modeBox->setCurrentIndex(int(mode));
    m_stack->setCurrentIndex(mode == Mode::Charts ? 0 : 1);
    m_executionRow->setVisible(mode == Mode::Charts && m_executions && !m_executions->empty());
    if (mode != Mode::Charts) {
        m_opJob->drop(); // another grouping: recompute
        m_opJob->request();
    }
}

EnginesPanel::Mode EnginesPanel::mode() const
{
    return m_modeBox ? Mode(m_modeBox->currentIndex()) : Mode::Charts;
}

void EnginesPanel::computeOps()
{
    std::shared_ptr<const Trace> trace = session()->trace();
    if (!trace || mode() == Mode::Charts)
        return;
    const OpBreakdown::By by = mode() == Mode::ByLayer ? OpBreakdown::By::Layer : OpBreakdown::By::HloOp;
    m_opJob->start<OpBreakdownResult>([trace, by] { return OpBreakdown::compute(*trace, by); },
                                      [this](const OpBreakdownResult &r, double) {
                                          m_opModel->setResult(r);
                                          m_opView->resizeColumnsToContents();
                                          QString status = r.any ? tr("%n row(s); double-click one: its instructions become the timeline's matches",
                                                                      nullptr, int(r.rows.size()))
                                                                 : tr("No instruction names a layer or HLO op: neuron-profile JSON exports carry them "
                                                                      "(an NTFF alone does not); the whole program only.");
                                          m_opStatus->setText(status + QStringLiteral(" · ") + QString::fromStdString(r.flopsNote));
                                          emit opsComputed();
                                      });
}

size_t EnginesPanel::findOp(int sourceRow)
{
    const OpBreakdownRow *row = m_opModel->row(sourceRow);
    const std::shared_ptr<const Trace> &trace = session()->trace();
    if (!row || !trace || row->op.empty())
        return 0;
    const OpBreakdown::By by = mode() == Mode::ByLayer ? OpBreakdown::By::Layer : OpBreakdown::By::HloOp;
    const std::vector<SliceId> slices = OpBreakdown::instructionsOf(*trace, row->core, by, row->op);
    std::vector<uint32_t> ids;
    ids.reserve(slices.size());
    for (SliceId s : slices)
        ids.push_back(s.value);
    if (!ids.empty()) {
        m_timeline->setSearchMatches(std::move(ids));
        m_timeline->goToMatch(0);
    }
    return slices.size();
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
