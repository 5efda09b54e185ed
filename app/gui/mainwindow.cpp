#include "mainwindow.h"

#include "analysispanel.h"
#include "collectivespanel.h"
#include "comparecontroller.h"
#include "detailspanel.h"
#include "docklayout.h"
#include "enginespanel.h"
#include "filespanel.h"
#include "jobpanel.h"
#include "neffpanel.h"
#include "notescontroller.h"
#include "notespanel.h"
#include "querydock.h"
#include "opendialogs.h"
#include "rangepanel.h"
#include "recentmenu.h"
#include "samplesmenu.h"
#include "session.h"
#include "sessionstatusbar.h"
#include "shortcuts.h"
#include "sourcepanel.h"
#include "statisticspanel.h"
#include "tensorspanel.h"
#include "flamegraphpanel.h"
#include "summarypanel.h"
#include "warningspanel.h"

#include "compare/comparebar.h"
#include "export/imageexportactions.h"
#include "lanes/lanelayoutsettings.h"
#include "overlays/chaincontroller.h"
#include "session/exportjob.h"
#include "style/apptheme.h"
#include "timeline/querylanesstrip.h"
#include "timeline/timelinesearchbar.h"
#include "timeline/timelineview.h"
#include "timeline/utilizationstrip.h"

#include "model/trace.h"
#include "util/workerpool.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <utility>

namespace lanescope {

namespace {

const auto kGeometryKey = QStringLiteral("window/geometry");
const auto kStateKey = QStringLiteral("window/state");
constexpr int kFirstFrameHoldMs = 400; // at most: a window that is not shown never paints
constexpr int kSettledMs = 100;         // after the first frame

QStringList localPaths(const QMimeData *mime)
{
    QStringList out;
    if (!mime || !mime->hasUrls())
        return out;
    for (const QUrl &url : mime->urls())
        if (url.isLocalFile())
            out << url.toLocalFile();
    return out;
}

} // namespace

MainWindow::MainWindow(QWidget *parent) : MainWindow(QStringList(), parent) {}

MainWindow::MainWindow(const QStringList &opening, QWidget *parent) : QMainWindow(parent), m_session(new Session(this))
{
    m_session->preload(opening);
    setAttribute(Qt::WA_DeleteOnClose);
    setAcceptDrops(true);
    setWindowIcon(QIcon(QStringLiteral(":/icons/lanescope.svg")));
    m_session->setDialogParent(this);
    createCentralArea();
    connectTimeline(); // before the panels: the timeline has the new trace when they get it
    createPanels();
    m_status = new SessionStatusBar(m_session, m_warnings, this);
    setStatusBar(m_status);
    createActions();
    connect(m_session, &Session::traceChanged, this, &MainWindow::onTraceChanged);
    connect(m_session, &Session::titleChanged, this, &MainWindow::updateTitle);
    connect(m_session, &Session::neffReady, this, &MainWindow::showNeff);
    connect(m_session, &Session::busyChanged, this, [this](bool busy) {
        m_cancelAction->setEnabled(busy);
        if (busy)
            setCursor(Qt::BusyCursor);
        else
            unsetCursor();
    });
    // The saved theme, applied without being saved again: a launch writes no settings file.
    const bool dark = QSettings().value(QStringLiteral("timeline/dark"), false).toBool();
    applyTheme(dark);
    const QSignalBlocker quiet(m_darkAction);
    m_darkAction->setChecked(dark);
    resize(1400, 900);
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createCentralArea()
{
    auto *central = new QWidget(this);
    m_centralLayout = new QVBoxLayout(central);
    m_centralLayout->setContentsMargins(0, 0, 0, 0);
    m_centralLayout->setSpacing(0);
    m_timeline = new TimelineView(central, m_session->viewState());
    m_searchBar = new TimelineSearchBar(m_timeline, central);
    m_searchBar->hide();
    m_centralLayout->addWidget(m_searchBar);
    m_centralLayout->addWidget(m_timeline, 1);
    setCentralWidget(central);
}

// The timeline shows the Session's trace and its ViewState (selection, marked range, visible range).
void MainWindow::connectTimeline()
{
    connect(m_session, &Session::traceChanged, this, [this](const std::shared_ptr<const Trace> &trace) {
        holdForForeground(kFirstFrameHoldMs); // the views' background work leaves the GUI thread a core until
        m_timeline->setTrace(trace);          // the timeline has drawn the trace
        // A comparison's combined trace has lanes of its own: the first profile's layout does not apply.
        if (!m_session->currentPath().isEmpty() && trace->metadata().format != "comparison")
            if (const auto saved = LaneLayoutSettings::load(QSettings(), m_session->currentPath()))
                m_timeline->setLaneState(*saved);
    });
    // The first frame is drawn: the background work gets every core, and docks that compute for every
    // trace in the background get their widgets once the window has settled.
    connect(m_timeline, &TimelineView::tracePainted, this, [this] {
        releaseForeground();
        QTimer::singleShot(kSettledMs, m_analysis, &AnalysisPanel::tables);
    });
    connect(m_session, &Session::revealRequested, m_timeline, &TimelineView::revealSlice);
    connect(m_session, &Session::findRequested, this, [this](const QString &text) {
        m_searchBar->activate();
        m_searchBar->lineEdit()->setText(text);
        m_searchBar->search();
        m_timeline->stepMatch(true);
    });
    connect(m_timeline, &TimelineView::layoutStateChanged, this, [this] {
        const auto &trace = m_session->trace();
        if (trace && !m_session->currentPath().isEmpty() && trace->metadata().format != "comparison") {
            QSettings settings;
            LaneLayoutSettings::save(settings, m_session->currentPath(), m_timeline->laneState(), m_timeline->layout().defaultState());
        }
    });
}

// The panels are created here and placed by DockLayout's table (tabbed groups right and bottom).
void MainWindow::createPanels()
{
    m_details = new DetailsPanel(m_session, m_timeline, this);
    addDockWidget(Qt::RightDockWidgetArea, m_details);
    m_warnings = new WarningsPanel(m_session, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_warnings);
    m_analysis = new AnalysisPanel(m_session, m_timeline, this);
    m_compare = new CompareController(m_session, this, m_searchBar);
    m_centralLayout->insertWidget(0, m_compare->bar());
    m_engines = new EnginesPanel(m_session, m_timeline, this);
    m_centralLayout->addWidget(m_engines->stripArea());
    addDockWidget(Qt::BottomDockWidgetArea, m_engines);
    m_tensors = new TensorsPanel(m_session, m_timeline, this);
    m_collectives = new CollectivesPanel(m_session, m_timeline, this);
    m_range = new RangePanel(m_session, this, {m_analysis, m_collectives});
    addDockWidget(Qt::BottomDockWidgetArea, m_range);
    addDockWidget(Qt::BottomDockWidgetArea, m_analysis);
    m_files = new FilesPanel(m_session, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_files);
    m_statistics = new StatisticsPanel(m_session, m_timeline, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_statistics);
    m_flameGraph = new FlameGraphPanel(m_session, m_timeline, this);
    m_source = new SourcePanel(m_session, m_flameGraph, this);
    connect(m_flameGraph, &FlameGraphPanel::frameSelected, m_source, &SourcePanel::showFrame);
    m_summary = new SummaryPanel(m_session, m_timeline, m_centralLayout, chainController(), this); // raised after every load
    m_job = JobPanel::attach(m_session, this);
    m_notes = new NotesController(m_session, m_timeline, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_notes->panel());
    m_query = new QueryDock(m_session, m_timeline, this, [this] { return m_notes->store().notes(); });
    m_centralLayout->insertWidget(m_centralLayout->indexOf(m_timeline), m_query->strip()); // pinned query lanes on top
    addDockWidget(Qt::BottomDockWidgetArea, m_query);
    DockLayout::apply(this);
}

void MainWindow::showWhenLoaded(int withinMs)
{
    if (!m_session->isPreloading()) {
        show();
        return;
    }
    m_showPending = true;
    const auto showNow = [this] {
        if (!std::exchange(m_showPending, false))
            return;
        layOutForFirstShow(); // before show(): its geometry then stays as the first frame paints it
        show();
    };
    // The trace is set in the views by traceChanged (the window then lays itself out and paints once);
    // a failed or cancelled load ends with loadFinished.
    connect(m_session, &Session::traceChanged, this, showNow, Qt::SingleShotConnection);
    connect(m_session, &Session::loadFinished, this, showNow, Qt::SingleShotConnection);
    QTimer::singleShot(withinMs, this, showNow);
}

void MainWindow::resetLayout()
{
    DockLayout::apply(this);
    m_engines->resetVisibility();
    m_flameGraph->resetVisibility();
    m_tensors->resetVisibility();
    m_collectives->resetVisibility();
    if (!m_compare->bar()->isHidden()) // a comparison is shown
        m_compare->dock()->show();
}

void MainWindow::showKeyboardShortcuts()
{
    QDialog *dialog = Shortcuts::createDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::layOutForFirstShow()
{
    // The first-run layout is sized for the window as it is first shown (a restored layout keeps its
    // own), and laid out at once: sizes applied after the first frame would have the timeline painted a
    // second time at its final width.
    if (!m_layoutApplied && !m_layoutRestored) {
        DockLayout::resizeGroups(this); // createPanels() placed the docks
        layout()->activate();
    }
    m_layoutApplied = true;
}

void MainWindow::showEvent(QShowEvent *event)
{
    m_prefault.start(this); // the first show: its backing store, ready before the first frame paints into it
    layOutForFirstShow();
    QMainWindow::showEvent(event);
}

ChainController *MainWindow::chainController() const
{
    return m_details->chain();
}

NeffInfoView *MainWindow::neffView() const
{
    return m_neff ? m_neff->view() : nullptr;
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    Shortcuts::bind(file->addAction(tr("&Open..."), this, [this] { OpenDialogs::openFiles(this, m_session); }), Shortcuts::Id::Open);
    Shortcuts::bind(file->addAction(tr("Open &Folder..."), this, [this] { OpenDialogs::openFolder(this, m_session); }),
                    Shortcuts::Id::OpenFolder);
    m_recentMenu = new RecentMenu(tr("Open &Recent"), this);
    file->addMenu(m_recentMenu);
    m_recentMenu->setQuiet(m_session->quietErrors());
    connect(m_recentMenu, &RecentMenu::openRequested, m_session, &Session::open);
    connect(m_recentMenu, &RecentMenu::statusMessage, statusBar(), &QStatusBar::showMessage);
    m_recentMenu->refresh();
    Shortcuts::bind(file->addAction(tr("&Compare With..."), this, [this] { OpenDialogs::compare(this, m_session); }),
                    Shortcuts::Id::Compare);
    file->addSeparator();
    m_export = new ImageExportActions(this, m_timeline);
    connect(m_export, &ImageExportActions::message, this, [this](const QString &text) {
        statusBar()->showMessage(text, 5000);
    });
    file->addAction(m_export->exportAction());
    file->addAction(m_export->copyAction());
    Shortcuts::bind(m_export->exportAction(), Shortcuts::Id::ExportImage);
    Shortcuts::bind(m_export->copyAction(), Shortcuts::Id::CopyImage);
    m_exportJob = new ExportJob(this);
    file->addAction(tr("&Export as SQLite..."), this, [this] { exportTrace(ExportJob::Format::Sqlite); });
    file->addAction(tr("Export as &Parquet..."), this, [this] { exportTrace(ExportJob::Format::Parquet); });
    file->addSeparator();
    QAction *useCache = file->addAction(tr("&Use Trace Cache"));
    useCache->setCheckable(true);
    useCache->setChecked(QSettings().value(QStringLiteral("cache/enabled"), true).toBool());
    useCache->setToolTip(tr("Reopen big traces from the per-user cache (the next load follows this setting)"));
    connect(useCache, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("cache/enabled"), on);
        statusBar()->showMessage(on ? tr("Trace cache on") : tr("Trace cache off: traces are read from their files"), 5000);
    });
    file->addAction(tr("C&lear Trace Cache"), m_session, &Session::clearCache);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    Shortcuts::bind(quit, Shortcuts::Id::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Show &Everything"), m_timeline, &TimelineView::fitAll);
    QAction *find = view->addAction(tr("&Find Slices..."), m_searchBar, &TimelineSearchBar::activate);
    Shortcuts::bind(find, Shortcuts::Id::Find);
    QAction *flows = view->addAction(tr("Show &All Flows"));
    flows->setCheckable(true);
    connect(flows, &QAction::toggled, m_timeline, &TimelineView::setShowAllFlows);
    QAction *byCategory = view->addAction(tr("Colour by &Category"));
    byCategory->setCheckable(true);
    connect(byCategory, &QAction::toggled, m_timeline, &TimelineView::setColorByCategory);
    QAction *byOperator = view->addAction(tr("Colour Instructions by &Operator"));
    byOperator->setCheckable(true);
    byOperator->setToolTip(tr("NeuronCore instructions in the colour of their HLO op (neuron-profile JSON exports name it)"));
    connect(byOperator, &QAction::toggled, m_timeline, &TimelineView::setColorByOperator);
    m_darkAction = view->addAction(tr("&Dark Theme"));
    m_darkAction->setCheckable(true);
    m_darkAction->setChecked(m_timeline->colors().theme == TimelinePalette::Theme::Dark);
    connect(m_darkAction, &QAction::toggled, this, &MainWindow::setDarkTheme);
    view->addSeparator();
    view->addAction(chainController()->previousAction());
    view->addAction(chainController()->nextAction());
    view->addAction(chainController()->criticalPathAction());
    view->addAction(m_statistics->statisticsAction());
    view->addAction(m_flameGraph->showAction());
    view->addAction(m_source->showAction());
    Shortcuts::bind(view->addAction(tr("&Query..."), m_query, &QueryDock::present), Shortcuts::Id::Query);
    Shortcuts::bind(chainController()->previousAction(), Shortcuts::Id::ChainPrevious);
    Shortcuts::bind(chainController()->nextAction(), Shortcuts::Id::ChainNext);
    Shortcuts::bind(chainController()->criticalPathAction(), Shortcuts::Id::CriticalPath);
    view->addSeparator();
    for (QDockWidget *dock : std::initializer_list<QDockWidget *>{m_details, m_range, m_warnings, m_compare->dock(),
                                                                  m_engines, m_tensors, m_collectives, m_analysis, m_files, m_statistics, m_flameGraph, m_source, m_summary, m_query})
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    Shortcuts::bind(view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout), Shortcuts::Id::ResetLayout);
    m_notes->setImageExport(m_export);
    menuBar()->addMenu(m_notes->menu());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addMenu(new SamplesMenu(m_session, this));
    Shortcuts::bind(help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showKeyboardShortcuts),
                    Shortcuts::Id::KeyboardShortcuts);
    help->addSeparator();
    help->addAction(tr("&About Lanescope"), this, &MainWindow::about)->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);

    // Esc cancels a load; disabled otherwise so that the timeline gets the key.
    m_cancelAction = new QAction(tr("Cancel Loading"), this);
    Shortcuts::bind(m_cancelAction, Shortcuts::Id::CancelLoad);
    m_cancelAction->setShortcutContext(Qt::WindowShortcut);
    m_cancelAction->setEnabled(false);
    connect(m_cancelAction, &QAction::triggered, m_session, &Session::cancel);
    addAction(m_cancelAction);
}

void MainWindow::showNeff(const QString &path, const NeffInfo &info)
{
    if (!m_neff) {
        m_neff = new NeffPanel(m_session, this);
        DockLayout::place(this, m_neff);
    }
    m_neff->show();
    m_neff->raise();
    m_neff->showNeff(path, info);
    m_recentMenu->remember(path);
}

void MainWindow::onTraceChanged()
{
    m_export->setSourcePath(m_session->currentPath());
    m_recentMenu->remember(m_session->currentPath());
    m_searchBar->search();
    m_timeline->setFocus();
}

void MainWindow::setQuietErrors(bool quiet)
{
    m_session->setQuietErrors(quiet);
    m_query->setPersistLanes(!quiet); // scripted runs neither pin saved lanes nor save theirs
    m_recentMenu->setQuiet(quiet);
}

void MainWindow::restoreWindowLayout()
{
    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    m_layoutRestored = restoreState(settings.value(kStateKey).toByteArray());
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Lanescope"),
                       tr("<h3>Lanescope %1</h3>"
                          "<p>A viewer for ML profiles: Kineto / Chrome trace JSON and Neuron profiles.</p>"
                          "<p>The keys: Help &gt; Keyboard Shortcuts.</p>"
                          "<p>Built with Qt %2.</p>")
                           .arg(QStringLiteral(LANESCOPE_VERSION), QString::fromLatin1(qVersion())));
}

void MainWindow::exportTrace(ExportJob::Format format)
{
    if (!m_session->trace() || m_exportJob->isRunning())
        return;
    const bool parquet = format == ExportJob::Format::Parquet;
    const QString base = QFileInfo(m_session->currentPath()).completeBaseName();
    const QString out =
        parquet ? QFileDialog::getSaveFileName(this, tr("Export as Parquet: a folder of one file per table"),
                                               base + QStringLiteral("-parquet"), tr("Folders (*)"))
                : QFileDialog::getSaveFileName(this, tr("Export as SQLite"), base + QStringLiteral(".db"),
                                               tr("SQLite databases (*.db *.sqlite)"));
    if (out.isEmpty())
        return;
    connect(m_exportJob, &ExportJob::progress, m_status, &SessionStatusBar::showProgress, Qt::UniqueConnection);
    connect(m_exportJob, &ExportJob::finished, this, [this](bool ok, const QString &path, const QString &message) {
        m_status->hideProgress();
        statusBar()->showMessage(ok ? tr("Exported %1").arg(path) : tr("Export failed: %1").arg(message), 10000);
    }, Qt::UniqueConnection);
    m_status->showProgress(0);
    statusBar()->showMessage(tr("Exporting %1...").arg(out));
    m_exportJob->start(m_session->trace(), out, m_notes->store().notes(), format);
}

void MainWindow::setDarkTheme(bool dark)
{
    applyTheme(dark);
    QSettings().setValue(QStringLiteral("timeline/dark"), dark);
    if (m_darkAction && m_darkAction->isChecked() != dark)
        m_darkAction->setChecked(dark);
}

void MainWindow::applyTheme(bool dark)
{
    AppTheme::apply(dark); // docks, tables, dialogs, menus
    m_timeline->setTheme(dark ? TimelinePalette::Theme::Dark : TimelinePalette::Theme::Light);
    m_engines->setDark(dark);
    m_statistics->setDark(dark);
    m_flameGraph->setDark(dark);
    m_collectives->setDark(dark);
    m_summary->setDark(dark);
    m_job->setDark(dark);
    m_query->setDark(dark);
}

void MainWindow::updateTitle()
{
    const QString title = m_session->title();
    if (title.isEmpty()) {
        setWindowTitle(tr("Lanescope"));
    } else if (!m_session->trace()) { // a NEFF alone
        setWindowTitle(tr("%1 — Lanescope").arg(title));
    } else {
        setWindowTitle(tr("%1 - Lanescope").arg(title));
        setWindowFilePath(m_session->currentPath());
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!localPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList paths = localPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    // A second profile dropped on one that is shown: open it instead, or compare the two.
    if (paths.size() == 1 && m_session->trace() && !Session::isNeff(paths.front())) {
        QMenu menu(this);
        QAction *compareAction = menu.addAction(tr("Compare with %1").arg(Session::displayName(m_session->currentPath())));
        QAction *openAction = menu.addAction(tr("Open %1").arg(Session::displayName(paths.front())));
        menu.setDefaultAction(compareAction);
        QAction *chosen = menu.exec(mapToGlobal(event->position().toPoint()));
        if (chosen == compareAction)
            m_session->compareWithCurrent(paths.front());
        else if (chosen == openAction)
            m_session->open(paths.front());
        return;
    }
    m_session->openPaths(paths);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_session->cancel();
    if (!m_session->quietErrors()) { // scripted runs (--screenshot) leave the user's layout alone
        QSettings settings;
        settings.setValue(kGeometryKey, saveGeometry());
        settings.setValue(kStateKey, saveState());
    }
    QMainWindow::closeEvent(event);
}

} // namespace lanescope
