#include "summarypanel.h"

#include "docklayout.h"
#include "session.h"
#include "shortcuts.h"
#include "throttle.h"

#include "overlays/chaincontroller.h"
#include "overlays/marksoverlay.h"
#include "session/comparesession.h"
#include "summary/capturebanner.h"
#include "summary/findingslistview.h"
#include "summary/summaryview.h"
#include "timeline/timelineview.h"

#include "analysis/launchindex.h"
#include "analysis/traceanalysis.h"
#include "model/trace.h"
#include "util/durationtext.h"
#include "util/workerpool.h"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QMainWindow>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace lanescope {

namespace {

// A finding's marks: amber, so they read apart from the marked range (blue) and search hits.
MarksOverlay::Style findingStyle()
{
    MarksOverlay::Style s;
    s.fill = QColor(255, 170, 0, 40);
    s.edge = QColor(230, 140, 0);
    s.outline = QColor(255, 140, 0);
    s.outlineWidth = 2.5;
    return s;
}

} // namespace

SummaryPanel::SummaryPanel(Session *session, TimelineView *timeline, QVBoxLayout *central, ChainController *chain, QMainWindow *window)
    : Panel(tr("Summary"), QStringLiteral("summaryDock"), session, window), m_timeline(timeline), m_chain(chain),
      m_view(new SummaryView(this)), m_banner(new CaptureBanner), m_overlay(timeline->addOverlay(std::make_unique<MarksOverlay>(findingStyle()))),
      m_previous(new QAction(tr("Previous Finding Event"), this)), m_next(new QAction(tr("Next Finding Event"), this)),
      m_markedThrottle(new Throttle([this] {
          if (m_view->regionBox()->currentIndex() == kMarkedEntry)
              recompute();
      }, this, 250))
{
    setWidget(m_view);
    central->insertWidget(central->indexOf(timeline), m_banner);
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    if (auto *warnings = window->findChild<QDockWidget *>(QStringLiteral("warningsDock")))
        window->tabifyDockWidget(warnings, this);

    // The keys of the finding being shown; enabled only while one is (the chain's [ / ] otherwise).
    Shortcuts::bind(m_previous, Shortcuts::Id::FindingPrevious);
    Shortcuts::bind(m_next, Shortcuts::Id::FindingNext);
    m_previous->setToolTip(tr("Go to the previous event or range of the finding shown ([)"));
    m_next->setToolTip(tr("Go to the next event or range of the finding shown (])"));
    for (QAction *a : {m_previous, m_next}) {
        a->setEnabled(false);
        window->addAction(a);
    }
    connect(m_previous, &QAction::triggered, this, [this] { step(false); });
    connect(m_next, &QAction::triggered, this, [this] { step(true); });

    connect(m_view->clearButton(), &QPushButton::clicked, this, &SummaryPanel::clearMarks);
    connect(m_view->findingsList(), &FindingsListView::showRequested, this, [this](int i) { showFinding(false, i); });
    connect(m_view->captureList(), &FindingsListView::showRequested, this, [this](int i) { showFinding(true, i); });
    connect(m_view->regionBox(), &QComboBox::activated, this, &SummaryPanel::recompute);
    connect(m_banner, &CaptureBanner::showRequested, this, [this] {
        bringToFront();
        m_view->scrollToCapture();
    });
    connect(&m_watcher, &QFutureWatcher<Computed>::finished, this, &SummaryPanel::onComputed);
    connect(session, &Session::traceChanged, this, &SummaryPanel::onTraceChanged);
    connect(session, &Session::markedRangeChanged, m_markedThrottle, &Throttle::poke);
    // Another pair chosen in the Compare dock: the side-by-side findings follow it.
    connect(session->compareSession(), &CompareSession::diffReady, this, [this] {
        if (this->session()->isComparing())
            recompute();
    });
}

SummaryPanel::~SummaryPanel()
{
    m_watcher.waitForFinished();
}

void SummaryPanel::setRules(const RuleRegistry *rules)
{
    m_rules = rules;
    recompute();
}

void SummaryPanel::setDark(bool dark)
{
    m_view->setDark(dark);
    m_banner->setDark(dark);
}

void SummaryPanel::bringToFront()
{
    // Into its tab group when hidden (the group keeps the first-run size, so the timeline keeps its share).
    if (isHidden())
        DockLayout::place(mainWindow(), this);
    else
        raise();
}

void SummaryPanel::onTraceChanged()
{
    clearMarks();
    m_banner->hide();
    m_trace = session()->trace();
    m_regionsListed = false;
    m_regions.clear();
    m_result = {};
    m_bannerPending = !session()->isComparing();
    fillRegionBox();
    m_view->regionBox()->setEnabled(!session()->isComparing());
    bringToFront(); // the first thing shown after a load
    recompute();
}

void SummaryPanel::fillRegionBox()
{
    QComboBox *box = m_view->regionBox();
    const int previous = box->currentIndex();
    box->clear();
    box->addItem(tr("Whole trace"));
    box->addItem(tr("Marked range"));
    for (size_t i = 1; i < m_regions.size(); ++i)
        box->addItem(QString::fromStdString(m_regions[i].label));
    box->setCurrentIndex(previous > 0 && previous < box->count() ? previous : 0);
}

void SummaryPanel::recompute()
{
    if (!m_trace)
        return;
    const uint64_t id = ++m_generation;
    Computed job;
    job.id = id;
    if (session()->isComparing() && session()->compareSession()) {
        const CompareSession *compare = session()->compareSession();
        const auto &profiles = compare->profiles();
        const int a = compare->diffBase(), b = compare->diffOther();
        if (a < 0 || b < 0 || size_t(std::max(a, b)) >= profiles.size()) {
            m_shown = id; // nothing to compare: nothing pending
            return;
        }
        m_view->setStatus(tr("Computing the findings of both profiles..."));
        m_watcher.setFuture(QtConcurrent::run(workerPool(), [job, ta = profiles[size_t(a)], tb = profiles[size_t(b)], rules = m_rules]() mutable {
            QElapsedTimer timer;
            timer.start();
            Insights::Options options;
            options.rules = rules;
            job.comparison = true;
            job.a = Insights::run(*ta, options);
            job.b = Insights::run(*tb, options);
            job.diff = FindingsDiff::compare(job.a.findings, job.b.findings);
            job.ms = double(timer.nsecsElapsed()) / 1e6;
            return job;
        }));
        return;
    }
    Insights::Options options;
    options.rules = m_rules;
    const int entry = m_view->regionBox()->currentIndex();
    if (entry == kMarkedEntry && session()->hasMarkedRange()) {
        options.hasRange = true;
        options.t0 = session()->markedStart();
        options.t1 = session()->markedEnd();
    } else if (entry > kMarkedEntry && size_t(entry) < m_regions.size() + 1) {
        const SummaryRegion &r = m_regions[size_t(entry - 1)];
        options.hasRange = true;
        options.t0 = r.t0;
        options.t1 = r.t1;
    }
    job.hasRange = options.hasRange;
    job.t0 = options.t0;
    job.t1 = options.t1;
    m_view->setStatus(tr("Computing..."));
    m_watcher.setFuture(QtConcurrent::run(workerPool(), [job, analysis = session()->analysis(), listed = m_regionsListed, options]() mutable {
        QElapsedTimer timer;
        timer.start();
        const std::shared_ptr<const LaunchIndex> index = analysis->launchIndex(); // the Session's, shared with the Analysis tables
        if (!listed) {
            job.regions = SummaryRegions::list(*analysis->trace(), *index);
            job.listedRegions = true;
        }
        const std::shared_ptr<const ExecutionCost> cost = analysis->executionCost(); // shared too
        options.cost = cost.get();
        job.result = Insights::run(*analysis->trace(), *index, options);
        job.ms = double(timer.nsecsElapsed()) / 1e6;
        return job;
    }));
}

void SummaryPanel::onComputed()
{
    Computed c = m_watcher.result();
    if (c.id != m_generation)
        return; // a newer region or trace was asked for meanwhile
    m_shown = c.id;
    if (c.comparison) {
        const CompareSession *compare = session()->compareSession();
        const QStringList labels = compare->labels();
        const auto label = [&](int i) { return labels.value(i, QString(QChar('A' + i))); };
        m_view->setComparison(label(compare->diffBase()), c.a.findings, label(compare->diffOther()), c.b.findings, c.diff);
        m_view->setStatus(tr("Compare: %1 resolved, %2 new, %3 changed (%4 ms)")
                              .arg(c.diff.resolved.size())
                              .arg(c.diff.added.size())
                              .arg(c.diff.changed.size())
                              .arg(c.ms, 0, 'f', 0));
        emit computed();
        return;
    }
    if (c.listedRegions && !m_regionsListed) {
        m_regionsListed = true;
        m_regions = std::move(c.regions);
        fillRegionBox();
    }
    m_result = std::move(c.result);
    const KeyMetrics &m = m_result.metrics;
    const int entry = m_view->regionBox()->currentIndex();
    m_view->setResult(m, m_result.findings, SummaryRegions::steps(m_regions, c.hasRange, c.t0, c.t1));
    QString region = m_view->regionBox()->currentText();
    if (entry == kMarkedEntry && !session()->hasMarkedRange())
        region = tr("No marked range (Shift+drag or M in the timeline): whole trace");
    m_view->setStatus(tr("%1 · %2 findings · computed in %3 ms").arg(region).arg(m_result.findings.size()).arg(c.ms, 0, 'f', 0));
    if (m_bannerPending) {
        m_bannerPending = false;
        const auto first = std::find_if(m_result.findings.begin(), m_result.findings.end(), isCaptureCheck);
        if (first != m_result.findings.end())
            m_banner->showProblem(QString::fromStdString(first->title),
                                  int(std::count_if(m_result.findings.begin(), m_result.findings.end(), isCaptureCheck)));
    }
    emit computed();
}

void SummaryPanel::showFinding(bool capture, int index)
{
    const FindingsListView *list = capture ? m_view->captureList() : m_view->findingsList();
    if (index < 0 || index >= list->count())
        return;
    const Finding &f = list->findings()[size_t(index)];
    m_items.clear();
    for (const uint32_t e : f.events)
        m_items.push_back({false, e, 0, 0});
    for (const auto &[s, e] : f.ranges)
        m_items.push_back({true, 0, s, e});
    if (m_items.empty())
        return;
    m_overlay->setSlices(f.events);
    m_overlay->setRanges(f.ranges);
    setStepping(true);
    goTo(0);
}

void SummaryPanel::step(bool forward)
{
    if (m_items.empty())
        return;
    const int n = int(m_items.size());
    goTo(((forward ? m_current + 1 : m_current - 1) % n + n) % n);
}

void SummaryPanel::goTo(int item)
{
    m_current = item;
    const Item &it = m_items[size_t(item)];
    if (it.isRange) {
        const int64_t pad = std::max<int64_t>((it.t1 - it.t0) / 10, 1);
        m_timeline->setVisibleRange(it.t0 - pad, it.t1 + pad);
    } else if (m_trace && it.slice < m_trace->allSlices().size()) {
        session()->setSelectedSlice(SliceId(it.slice));
        m_timeline->fitSlice(SliceId(it.slice));
        m_timeline->revealSlice(SliceId(it.slice)); // scrolls its lane into view
    }
    m_timeline->update();
    emit session()->statusMessage(tr("Finding: %1 %2 of %3 ([ / ] step, Clear Marks ends)")
                                      .arg(it.isRange ? tr("range") : tr("event"))
                                      .arg(item + 1)
                                      .arg(m_items.size()),
                                  5000);
}

void SummaryPanel::clearMarks()
{
    m_items.clear();
    m_current = -1;
    m_overlay->clear();
    m_timeline->update();
    setStepping(false);
}

void SummaryPanel::setStepping(bool on)
{
    m_previous->setEnabled(on);
    m_next->setEnabled(on);
    m_view->clearButton()->setEnabled(on);
    // [ / ] belong to the finding while one is shown: two enabled actions on one key would both be dead.
    if (m_chain) {
        m_chain->previousAction()->setEnabled(!on);
        m_chain->nextAction()->setEnabled(!on);
    }
}

} // namespace lanescope
