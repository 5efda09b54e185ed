#include "flamegraphpanel.h"

#include "dockjob.h"
#include "docklayout.h"
#include "session.h"
#include "shortcuts.h"

#include "flamegraph/flamegraphview.h"
#include "session/comparesession.h"
#include "style/clearbutton.h"
#include "style/durationformat.h"
#include "timeline/timelineview.h"

#include "analysis/calltreebottomup.h"
#include "analysis/calltreediff.h"
#include "analysis/launchindex.h"
#include "analysis/sourceframe.h"
#include "analysis/traceanalysis.h"
#include "analysis/tracecomparison.h"
#include "model/trace.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMainWindow>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>

namespace lanescope {

struct FlameGraphPanel::Computed
{
    std::shared_ptr<const CallTree::Result> topDown, shown;
    std::vector<int64_t> baseline; // differential: A's weight per node of `shown`
    int64_t vanished = 0;
    uint32_t vanishedPaths = 0;
    QString labelA, labelB;
};

namespace {

struct Job
{
    std::shared_ptr<const TraceAnalysis> analysis;
    CallTree::Options options;
    FlameGraphPanel::Mode mode = FlameGraphPanel::Mode::Cpu;
    // Compare mode: each profile's own trace (its correlation ids are its own: the combined trace
    // mixes them), its offset into combined time, and B's lanes (source track -> combined track).
    bool compare = false;
    std::shared_ptr<const Trace> profileA, profileB;
    int64_t offsetA = 0, offsetB = 0;
    std::vector<std::pair<TrackId, TrackId>> lanesB;
};

CallTree::Weight weightOf(FlameGraphPanel::Mode mode)
{
    return mode == FlameGraphPanel::Mode::Device ? CallTree::Weight::Device : CallTree::Weight::Cpu;
}

// One profile's tree (compare mode), the marked range moved from combined time into the profile's.
CallTree::Result profileTree(const Trace &profile, CallTree::Options options, int64_t offset)
{
    options.t0 -= offset;
    options.t1 -= offset;
    const LaunchIndex index = LaunchIndex::build(profile);
    return CallTree::compute(profile, index, options);
}

// B's occurrences as slices of the combined trace: a lane is copied slice for slice (TraceMerger keeps
// the order), so a slice keeps its index within its track; one whose start does not match is dropped.
void toCombined(CallTree::Result &tree, const Trace &profile, const Trace &combined, int64_t offset,
                const std::vector<std::pair<TrackId, TrackId>> &lanes)
{
    std::vector<uint32_t> combinedTrack(profile.tracks().size(), UINT32_MAX);
    for (const auto &[source, into] : lanes)
        if (source.value < combinedTrack.size())
            combinedTrack[source.value] = into.value;
    std::erase_if(tree.occurrences, [&](CallTree::Occurrence &o) {
        const TrackId t = profile.trackOfSlice(o.slice);
        if (!t.isValid() || combinedTrack[t.value] == UINT32_MAX)
            return true;
        const Track &from = profile.track(t), &to = combined.track(TrackId(combinedTrack[t.value]));
        const uint32_t index = o.slice.value - from.sliceBegin;
        if (index >= to.sliceCount || combined.slice(SliceId(to.sliceBegin + index)).start != profile.slice(o.slice).start + offset)
            return true;
        o.slice = SliceId(to.sliceBegin + index);
        return false;
    });
}

} // namespace

FlameGraphPanel::FlameGraphPanel(Session *session, TimelineView *timeline, QMainWindow *window)
    : Panel(tr("Flame Graph"), QStringLiteral("flameGraphDock"), session, window), m_timeline(timeline), m_view(new FlameGraphView),
      m_scroll(new QScrollArea), m_mode(new QComboBox), m_threads(new QComboBox), m_flame(new QCheckBox(tr("Flame"))),
      m_search(new QLineEdit), m_status(new QLabel), m_action(new QAction(tr("Flame Graph"), this)),
      m_job(new DockJob(this, [this] { recompute(); }, 250))
{
    m_mode->addItems({tr("CPU time"), tr("Self time (bottom-up)"), tr("Device time launched")});
    m_mode->setToolTip(tr("Box widths: inclusive CPU time; self time with the callers beneath (bottom-up); or the device time each "
                          "frame launched (kernels, NEFF executions)"));
    m_threads->addItems({tr("Each thread"), tr("Threads merged")});
    m_flame->setToolTip(tr("Root at the bottom (flame) instead of the top (icicle)"));
    m_search->setPlaceholderText(tr("Search frames"));
    addClearButtonWhenShown(m_search);
    auto *reset = new QPushButton(tr("Reset Zoom"));
    reset->setToolTip(tr("Show the whole tree again (Home; Backspace goes one level out, double-click zooms in)"));
    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    setBody({{m_mode, 0}, {m_threads, 0}, {m_flame, 0}, {m_search, 1}, {reset, 0}}, m_status, m_scroll);
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    m_view->clear(tr("Open a trace recorded with call stacks (PyTorch profiler with_stack=True) to see where its time goes."));

    Shortcuts::bind(m_action, Shortcuts::Id::FlameGraph);
    m_action->setToolTip(tr("Show the flame graph of the host threads (of the marked range when there is one)"));
    window->addAction(m_action);
    connect(m_action, &QAction::triggered, this, &FlameGraphPanel::present);
    connect(m_mode, &QComboBox::activated, this, &FlameGraphPanel::recompute);
    connect(m_threads, &QComboBox::activated, this, &FlameGraphPanel::recompute);
    connect(m_flame, &QCheckBox::toggled, this, [this](bool on) {
        m_view->setFlame(on);
        if (on)
            m_scroll->verticalScrollBar()->setValue(m_scroll->verticalScrollBar()->maximum());
    });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_view->setSearch(text);
        showStatus();
    });
    connect(reset, &QPushButton::clicked, m_view, &FlameGraphView::resetZoom);
    connect(m_view, &FlameGraphView::nodeClicked, this, &FlameGraphPanel::selectNode);
    connect(m_view, &FlameGraphView::zoomChanged, this, &FlameGraphPanel::showStatus);
    connect(session, &Session::traceChanged, this, &FlameGraphPanel::onTraceChanged);
    connect(session, &Session::markedRangeChanged, m_job, &DockJob::request);
    // Another pair chosen in the Compare dock: the differential graph follows it.
    connect(session->compareSession(), &CompareSession::diffReady, this, [this] {
        if (this->session()->isComparing())
            m_job->request();
    });
    connect(toggleViewAction(), &QAction::triggered, this, [this](bool checked) { m_userClosed = !checked; });
}

FlameGraphPanel::~FlameGraphPanel() = default;

bool FlameGraphPanel::isComputing() const
{
    return m_job->isPending();
}

void FlameGraphPanel::setDark(bool dark)
{
    m_dark = dark;
    m_view->setDark(dark);
}

void FlameGraphPanel::present()
{
    if (isHidden())
        DockLayout::place(mainWindow(), this); // into its tab group
    else
        raise();
    m_userClosed = false;
    const int wanted = mainWindow()->height() * 45 / 100;
    if (!isFloating() && height() < wanted)
        mainWindow()->resizeDocks({this}, {wanted}, Qt::Vertical);
    m_view->setFocus();
}

bool FlameGraphPanel::hasCallStacks() const
{
    if (!m_trace)
        return false;
    const auto &categories = m_trace->stats().categories;
    const auto python = categories.find("python_function");
    return python != categories.end() && python->second > 0;
}

void FlameGraphPanel::resetVisibility()
{
    m_userClosed = false;
    if (hasCallStacks())
        show();
}

void FlameGraphPanel::onTraceChanged()
{
    m_trace = session()->trace();
    m_job->drop(); // a computation for the old trace is dropped
    m_topDown.reset();
    m_selection.clear();
    m_view->clear(tr("Computing..."));
    // Python call stacks (with_stack=True): the dock joins its tab group without taking the front.
    if (hasCallStacks() && !m_userClosed && isHidden())
        show();
    if (isVisible())
        recompute();
}

void FlameGraphPanel::recompute()
{
    if (!m_trace)
        return;
    Job job;
    job.analysis = session()->analysis();
    if (!job.analysis)
        return;
    job.mode = Mode(std::max(0, m_mode->currentIndex()));
    job.options.mergeThreads = m_threads->currentIndex() == 1;
    job.options.keepOccurrences = true;
    if (session()->hasMarkedRange()) {
        job.options.hasRange = true;
        job.options.t0 = session()->markedStart();
        job.options.t1 = session()->markedEnd();
        m_scope = tr("Marked range (%1)").arg(DurationFormat::format(job.options.t1 - job.options.t0));
    } else {
        m_scope = tr("Whole trace");
    }
    const CompareSession *compare = session()->compareSession();
    QString labelA, labelB;
    if (session()->isComparing() && compare && compare->comparison().combined == m_trace) {
        const ComparisonResult &c = compare->comparison();
        const int a = compare->diffBase(), b = compare->diffOther();
        if (a >= 0 && b >= 0 && size_t(std::max(a, b)) < c.labels.size()) {
            job.compare = true;
            job.options.mergeThreads = true; // thread ids differ between captures
            job.profileA = compare->profiles()[size_t(a)];
            job.profileB = compare->profiles()[size_t(b)];
            job.offsetA = c.offsetsNs[size_t(a)];
            job.offsetB = c.offsetsNs[size_t(b)];
            for (const ComparedLane &lane : c.lanes)
                if (lane.profile == size_t(b))
                    job.lanesB.emplace_back(lane.source, lane.combined);
            labelA = QString::fromStdString(c.labels[size_t(a)]);
            labelB = QString::fromStdString(c.labels[size_t(b)]);
        }
    }
    m_threads->setEnabled(!job.compare);
    m_status->setText(tr("%1: computing...").arg(m_scope));
    m_job->start<std::shared_ptr<Computed>>([job = std::move(job), labelA, labelB] {
        auto out = std::make_shared<Computed>();
        out->labelA = labelA;
        out->labelB = labelB;
        const Trace &trace = *job.analysis->trace();
        const bool bottomUp = job.mode == Mode::Self;
        const CallTree::Weight weight = weightOf(job.mode);
        if (job.compare) {
            CallTree::Options optionsA = job.options;
            optionsA.keepOccurrences = false;
            CallTree::Result a = profileTree(*job.profileA, optionsA, job.offsetA);
            auto b = std::make_shared<CallTree::Result>(profileTree(*job.profileB, job.options, job.offsetB));
            toCombined(*b, *job.profileB, trace, job.offsetB, job.lanesB);
            if (bottomUp)
                a = CallTreeBottomUp::compute(a);
            out->topDown = b;
            out->shown = bottomUp ? std::make_shared<CallTree::Result>(CallTreeBottomUp::compute(*b)) : out->topDown;
            CallTreeDiff::Result diff = CallTreeDiff::compute(*out->shown, a, weight);
            out->baseline = std::move(diff.before);
            out->vanished = diff.vanished;
            out->vanishedPaths = diff.vanishedPaths;
        } else {
            const std::shared_ptr<const LaunchIndex> index = job.analysis->launchIndex(); // the Session's, built once
            auto tree = std::make_shared<CallTree::Result>(CallTree::compute(trace, *index, job.options));
            out->topDown = tree;
            out->shown = bottomUp ? std::make_shared<CallTree::Result>(CallTreeBottomUp::compute(*tree)) : out->topDown;
        }
        return out;
    }, [this](const std::shared_ptr<Computed> &result, double ms) { onComputed(result, ms); });
}

void FlameGraphPanel::onComputed(const std::shared_ptr<Computed> &result, double ms)
{
    m_topDown = result->topDown;
    m_selection.clear();
    const Mode mode = Mode(std::max(0, m_mode->currentIndex()));
    const CallTree::Weight weight = weightOf(mode);
    const CallTree::Node &root = result->shown->root();
    m_differential.clear();
    if (!result->labelB.isEmpty()) {
        const int64_t before = result->baseline.empty() ? 0 : result->baseline[0];
        m_differential = tr("Differential: the shape of %1, coloured by the change from %2 (red: more time in %1, blue: less). %2 %3, %1 %4.")
                             .arg(result->labelB, result->labelA, DurationFormat::format(before), DurationFormat::format(root.weight(weight)));
        if (result->vanishedPaths)
            m_differential += QLatin1Char(' ') + tr("%n path(s) only in %1 (%2) are not drawn.", nullptr, int(result->vanishedPaths))
                                                     .arg(result->labelA, DurationFormat::format(result->vanished));
    }
    if (root.children.empty()) {
        m_view->clear(m_trace && m_trace->metadata().format == "comparison" && result->labelB.isEmpty()
                          ? tr("Choose two profiles in the Compare dock to see their differential flame graph.")
                          : tr("No host thread slices in %1: this trace has no call stacks to draw.").arg(m_scope.toLower()));
    } else if (root.weight(weight) <= 0) {
        m_view->clear(mode == Mode::Device ? tr("No device time was launched from the host threads in %1.").arg(m_scope.toLower())
                                           : tr("No time in %1.").arg(m_scope.toLower()));
    } else {
        m_view->setTree(result->shown, weight, std::move(result->baseline));
        m_view->setSearch(m_search->text());
        if (m_flame->isChecked())
            m_scroll->verticalScrollBar()->setValue(m_scroll->verticalScrollBar()->maximum());
    }
    m_scope += tr(", %1 nodes, built in %2 ms").arg(QLocale::c().toString(qulonglong(result->shown->nodes.size()))).arg(ms, 0, 'f', 0);
    showStatus();
    emit computed();
}

void FlameGraphPanel::showStatus()
{
    QStringList parts{m_scope};
    const CallTree::Result *tree = m_view->tree();
    if (tree && m_view->zoomRoot() != 0 && m_view->zoomRoot() < tree->nodes.size())
        parts << tr("zoomed into %1 (Backspace: out, Home: all)").arg(QString::fromStdString(tree->nodes[m_view->zoomRoot()].name));
    if (tree && !m_search->text().trimmed().isEmpty())
        parts << tr("search: %n frame(s), %1 of the view", nullptr, m_view->searchMatches()).arg(QStringLiteral("%1 %").arg(100.0 * m_view->searchShare(), 0, 'f', 1));
    if (!m_selection.isEmpty())
        parts << m_selection;
    QString text = parts.join(QStringLiteral(" · "));
    if (!m_differential.isEmpty())
        text += QLatin1Char('\n') + m_differential;
    m_status->setText(text);
}

std::vector<SliceId> FlameGraphPanel::occurrencesOf(uint32_t node) const
{
    const CallTree::Result *shown = m_view->tree();
    if (!shown || !m_topDown || node >= shown->nodes.size())
        return {};
    if (shown == m_topDown.get())
        return m_topDown->occurrencesOf(node);
    // The bottom-up graph: the slices of the top-down nodes it sums.
    const std::vector<uint32_t> sources = CallTreeBottomUp::sources(*m_topDown, *shown, node);
    std::vector<uint32_t> inSources(m_topDown->nodes.size(), 0);
    for (uint32_t s : sources)
        inSources[s] = 1;
    std::vector<SliceId> out;
    for (const CallTree::Occurrence &o : m_topDown->occurrences)
        if (inSources[o.node])
            out.push_back(o.slice);
    return out;
}

void FlameGraphPanel::selectNode(uint32_t node)
{
    const CallTree::Result *shown = m_view->tree();
    if (!shown || node >= shown->nodes.size())
        return;
    m_view->setSelectedNode(node);
    const CallTree::Node &n = shown->nodes[node];
    const std::vector<SliceId> slices = occurrencesOf(node);
    std::vector<uint32_t> ids;
    ids.reserve(slices.size());
    for (SliceId s : slices)
        ids.push_back(s.value);
    if (ids.empty()) {
        m_selection = tr("%1 has no slices of its own (a thread or the root)").arg(QString::fromStdString(n.name));
    } else {
        m_selection = tr("%n slice(s) of %1 are the timeline's matches (Enter / Shift+Enter step through them)", nullptr, int(ids.size()))
                          .arg(QString::fromStdString(n.name));
        if (SourceFrame::parse(n.name))
            m_selection += tr("; %1: its source line").arg(Shortcuts::key(Shortcuts::Id::Source).toString(QKeySequence::NativeText));
        m_timeline->setSearchMatches(std::move(ids));
        m_timeline->goToMatch(0);
        emit frameSelected(QString::fromStdString(n.name));
    }
    showStatus();
}

} // namespace lanescope
