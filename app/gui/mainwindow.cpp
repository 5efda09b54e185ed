#include "mainwindow.h"

#include "comparecontroller.h"
#include "recentmenu.h"
#include "samplesmenu.h"

#include "imageexportactions.h"
#include "analysistablesview.h"
#include "chaincontroller.h"
#include "lanelayoutsettings.h"
#include "loadjob.h"
#include "neffinfoview.h"
#include "sqliteexportjob.h"

#include "durationformat.h"
#include "enginechartsview.h"
#include "utilizationstrip.h"
#include "rangesummarymodel.h"
#include "slicedetailsview.h"
#include "timelinesearchbar.h"
#include "timelineview.h"
#include "warningsmodel.h"
#include "zoomcontrol.h"

#include "model/trace.h"
#include "io/neffreader.h"
#include "io/traceloader.h"
#include "store/tracecache.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <cstdio>

namespace lanescope {

namespace {

const auto kLastDirKey = QStringLiteral("lastOpenDir");
const auto kGeometryKey = QStringLiteral("window/geometry");
const auto kStateKey = QStringLiteral("window/state");

QString displayName(const QString &path)
{
    const QFileInfo info(path);
    return info.fileName().isEmpty() ? path : info.fileName();
}

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

QString thousands(uint64_t v)
{
    const std::string s = formatThousands(v);
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent), m_job(new LoadJob(this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setAcceptDrops(true);
    setWindowIcon(QIcon(QStringLiteral(":/icons/lanescope.svg")));
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    m_centralLayout = centralLayout;
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    m_timeline = new TimelineView(central);
    m_searchBar = new TimelineSearchBar(m_timeline, central);
    m_searchBar->hide();
    centralLayout->addWidget(m_searchBar);
    centralLayout->addWidget(m_timeline, 1);
    m_utilizationStrip = new UtilizationStrip(central);
    m_utilizationStrip->setFixedHeight(130);
    m_utilizationStrip->hide(); // shown for traces with NeuronCore engines
    m_utilizationStrip->setPlotInsets([this] { // the plot lines up with the timeline's time axis
        const QRect area = m_timeline->timeArea();
        return std::make_pair(area.left(), std::max(0, m_timeline->width() - area.right() - 1));
    });
    centralLayout->addWidget(m_utilizationStrip);
    setCentralWidget(central);
    createDocks();
    m_compare = new CompareController(this);
    createEnginesDock();
    createAnalysisDock();
    m_chain = new ChainController(m_timeline, m_details, this);
    createActions();
    createStatusBar();
    connect(m_job, &LoadJob::finished, this, &MainWindow::onLoaded);
    connect(m_job, &LoadJob::failed, this, &MainWindow::onFailed);
    connect(m_job, &LoadJob::cancelled, this, &MainWindow::onCancelled);
    connect(m_job, &LoadJob::progress, this, &MainWindow::onProgress);
    connect(m_job, &LoadJob::notices, this, [this](const QStringList &notices, bool fromCache) {
        m_loadNotices = notices;
        m_loadFromCache = fromCache;
    });
    connect(m_timeline, &TimelineView::sliceSelected, this, &MainWindow::onSliceSelected);
    connect(m_details, &SliceDetailsView::sliceActivated, m_timeline, &TimelineView::revealSlice);
    connect(m_timeline, &TimelineView::layoutStateChanged, this, [this] {
        if (m_trace && !m_currentPath.isEmpty() && m_trace->metadata().format != "comparison") {
            QSettings settings;
            LaneLayoutSettings::save(settings, m_currentPath, m_timeline->laneState());
        }
    });
    // The range summary follows a shift-drag; recomputed at most every 60 ms while dragging.
    auto *rangeTimer = new QTimer(this);
    rangeTimer->setSingleShot(true);
    rangeTimer->setInterval(60);
    connect(m_timeline->zoomControl(), &ZoomControl::selectionChanged, rangeTimer, [rangeTimer] {
        if (!rangeTimer->isActive())
            rangeTimer->start();
    });
    connect(rangeTimer, &QTimer::timeout, this, [this] {
        const ZoomControl *zoom = m_timeline->zoomControl();
        m_rangeModel->setRange(zoom->selectionStart(), zoom->selectionEnd());
        if (zoom->hasSelection()) {
            m_rangeDock->show();
            if (m_analysisDock->visibleRegion().isEmpty()) // the Analysis tables follow the range too
                m_rangeDock->raise();
            m_rangeDock->setWindowTitle(
                tr("Range Summary: %1").arg(DurationFormat::format(zoom->selectionEnd() - zoom->selectionStart())));
        }
    });
    setDarkTheme(QSettings().value(QStringLiteral("timeline/dark"), false).toBool());
    resize(1400, 900);
    updateTitle();
    updateStatus();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open..."), this, &MainWindow::openFileDialog);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Folder..."), this, &MainWindow::openFolderDialog)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recentMenu = new RecentMenu(tr("Open &Recent"), this);
    file->addMenu(m_recentMenu);
    m_recentMenu->setQuiet(m_quietErrors);
    connect(m_recentMenu, &RecentMenu::openRequested, this, &MainWindow::openPath);
    connect(m_recentMenu, &RecentMenu::statusMessage, this,
            [this](const QString &text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
    m_recentMenu->refresh();
    file->addAction(tr("&Compare With..."), this, &MainWindow::compareDialog)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    file->addSeparator();
    m_export = new ImageExportActions(this, m_timeline);
    connect(m_export, &ImageExportActions::message, this, [this](const QString &text) {
        statusBar()->showMessage(text, 5000);
    });
    file->addAction(m_export->exportAction());
    file->addAction(m_export->copyAction());
    m_exportJob = new SqliteExportJob(this);
    file->addAction(tr("&Export as SQLite..."), this, &MainWindow::exportSqlite);
    file->addSeparator();
    QAction *useCache = file->addAction(tr("&Use Trace Cache"));
    useCache->setCheckable(true);
    useCache->setChecked(QSettings().value(QStringLiteral("cache/enabled"), true).toBool());
    useCache->setToolTip(tr("Reopen big traces from the per-user cache (the next load follows this setting)"));
    connect(useCache, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("cache/enabled"), on);
        statusBar()->showMessage(on ? tr("Trace cache on") : tr("Trace cache off: traces are read from their files"), 5000);
    });
    file->addAction(tr("C&lear Trace Cache"), this, &MainWindow::clearTraceCache);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Show &Everything"), m_timeline, &TimelineView::fitAll);
    QAction *find = view->addAction(tr("&Find Slices..."), m_searchBar, &TimelineSearchBar::activate);
    find->setShortcut(QKeySequence::Find);
    QAction *flows = view->addAction(tr("Show &All Flows"));
    flows->setCheckable(true);
    connect(flows, &QAction::toggled, m_timeline, &TimelineView::setShowAllFlows);
    QAction *byCategory = view->addAction(tr("Colour by &Category"));
    byCategory->setCheckable(true);
    connect(byCategory, &QAction::toggled, m_timeline, &TimelineView::setColorByCategory);
    m_darkAction = view->addAction(tr("&Dark Theme"));
    m_darkAction->setCheckable(true);
    m_darkAction->setChecked(m_timeline->colors().theme == TimelinePalette::Theme::Dark);
    connect(m_darkAction, &QAction::toggled, this, &MainWindow::setDarkTheme);
    view->addSeparator();
    view->addAction(m_chain->previousAction());
    view->addAction(m_chain->nextAction());
    view->addAction(m_chain->criticalPathAction());
    view->addSeparator();
    view->addAction(m_detailsDock->toggleViewAction());
    view->addAction(m_rangeDock->toggleViewAction());
    view->addAction(m_warningsDock->toggleViewAction());
    view->addAction(m_compare->dock()->toggleViewAction());
    view->addAction(m_enginesDock->toggleViewAction());
    view->addAction(m_analysisDock->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addMenu(new SamplesMenu(this));
    help->addSeparator();
    help->addAction(tr("&About Lanescope"), this, &MainWindow::about)->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);

    // Esc cancels a load; disabled otherwise so that the timeline gets the key.
    m_cancelAction = new QAction(tr("Cancel Loading"), this);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setShortcutContext(Qt::WindowShortcut);
    m_cancelAction->setEnabled(false);
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelLoad);
    addAction(m_cancelAction);
}

void MainWindow::createDocks()
{
    m_details = new SliceDetailsView(this);
    m_detailsDock = new QDockWidget(tr("Details"), this);
    m_detailsDock->setObjectName(QStringLiteral("detailsDock"));
    m_detailsDock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, m_detailsDock);

    m_warningsModel = new WarningsModel(this);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_warningsModel);
    proxy->setSortRole(WarningsModel::SortRole);
    m_warningsView = new QTableView(this);
    m_warningsView->setModel(proxy);
    m_warningsView->setSortingEnabled(true);
    m_warningsView->sortByColumn(WarningsModel::Count, Qt::DescendingOrder);
    m_warningsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_warningsView->setWordWrap(false);
    m_warningsView->verticalHeader()->hide();
    m_warningsView->horizontalHeader()->setSectionResizeMode(WarningsModel::Count, QHeaderView::ResizeToContents);
    m_warningsView->horizontalHeader()->setSectionResizeMode(WarningsModel::Message, QHeaderView::Stretch);
    m_warningsView->horizontalHeader()->setSectionResizeMode(WarningsModel::FirstSeen, QHeaderView::ResizeToContents);
    m_warningsDock = new QDockWidget(tr("Warnings"), this);
    m_warningsDock->setObjectName(QStringLiteral("warningsDock"));
    m_warningsDock->setWidget(m_warningsView);
    addDockWidget(Qt::BottomDockWidgetArea, m_warningsDock);
    m_rangeModel = new RangeSummaryModel(this);
    auto *rangeProxy = new QSortFilterProxyModel(this);
    rangeProxy->setSourceModel(m_rangeModel);
    rangeProxy->setSortRole(RangeSummaryModel::SortRole);
    m_rangeView = new QTableView(this);
    m_rangeView->setModel(rangeProxy);
    m_rangeView->setSortingEnabled(true);
    m_rangeView->sortByColumn(RangeSummaryModel::Total, Qt::DescendingOrder);
    m_rangeView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rangeView->setWordWrap(false);
    m_rangeView->verticalHeader()->hide();
    m_rangeView->horizontalHeader()->setSectionResizeMode(RangeSummaryModel::Name, QHeaderView::Stretch);
    m_rangeDock = new QDockWidget(tr("Range Summary"), this);
    m_rangeDock->setObjectName(QStringLiteral("rangeDock"));
    m_rangeDock->setWidget(m_rangeView);
    addDockWidget(Qt::BottomDockWidgetArea, m_rangeDock);
    tabifyDockWidget(m_warningsDock, m_rangeDock);
    m_warningsDock->raise();
    resizeDocks({m_detailsDock}, {360}, Qt::Horizontal);
    resizeDocks({m_warningsDock}, {150}, Qt::Vertical);
}

// The Engines dock (per-engine charts for the selected range, the whole trace without one) and the
// utilization strip under the timeline (its visible range). Both recompute at most every 60 ms.
void MainWindow::createEnginesDock()
{
    m_engineCharts = new EngineChartsView(this);
    m_enginesDock = new QDockWidget(tr("Engines"), this);
    m_enginesDock->setObjectName(QStringLiteral("enginesDock"));
    m_enginesDock->setWidget(m_engineCharts);
    // Beside (not tabbed with) the Range Summary: a range selection raises that one, and both are
    // worth seeing at once.
    addDockWidget(Qt::BottomDockWidgetArea, m_enginesDock, Qt::Horizontal);
    const ZoomControl *zoom = m_timeline->zoomControl();
    auto *selectionTimer = new QTimer(this);
    selectionTimer->setSingleShot(true);
    selectionTimer->setInterval(60);
    connect(zoom, &ZoomControl::selectionChanged, selectionTimer, [selectionTimer] {
        if (!selectionTimer->isActive())
            selectionTimer->start();
    });
    connect(selectionTimer, &QTimer::timeout, this, [this, zoom] {
        if (m_trace && !m_engineCharts->result().empty())
            m_engineCharts->setRange(zoom->selectionStart(), zoom->selectionEnd());
    });
    auto *visibleTimer = new QTimer(this);
    visibleTimer->setSingleShot(true);
    visibleTimer->setInterval(60);
    connect(zoom, &ZoomControl::visibleRangeChanged, visibleTimer, [visibleTimer] {
        if (!visibleTimer->isActive())
            visibleTimer->start();
    });
    connect(visibleTimer, &QTimer::timeout, this, [this, zoom] {
        if (m_utilizationStrip->isVisible())
            m_utilizationStrip->setRange(zoom->visibleStart(), zoom->visibleEnd());
    });
}

void MainWindow::showEngines()
{
    m_engineCharts->setTrace(m_trace);
    const bool engines = !m_engineCharts->result().empty();
    m_utilizationStrip->setVisible(engines);
    m_utilizationStrip->setTrace(engines ? m_trace : nullptr);
    if (engines) {
        const ZoomControl *zoom = m_timeline->zoomControl();
        m_utilizationStrip->setRange(zoom->visibleStart(), zoom->visibleEnd());
        m_enginesDock->show();
        m_enginesDock->raise();
        resizeDocks({m_enginesDock}, {420}, Qt::Vertical);
        resizeDocks({m_enginesDock}, {width() * 2 / 3}, Qt::Horizontal);
    }
}

void MainWindow::createAnalysisDock()
{
    m_analysis = new AnalysisTablesView(this);
    m_analysisDock = new QDockWidget(tr("Analysis"), this);
    m_analysisDock->setObjectName(QStringLiteral("analysisDock"));
    m_analysisDock->setWidget(m_analysis);
    addDockWidget(Qt::BottomDockWidgetArea, m_analysisDock);
    tabifyDockWidget(m_warningsDock, m_analysisDock);
    m_warningsDock->raise();
    // Tables follow the selected time range (the whole trace when nothing is selected); the
    // recompute runs in the background, so every change may ask for one.
    connect(m_timeline->zoomControl(), &ZoomControl::selectionChanged, m_analysis, &AnalysisTablesView::setRange);
    // A clicked row: its occurrences become the timeline's matches, the first one is selected;
    // clicking it again or Next steps through them in time order.
    connect(m_analysis, &AnalysisTablesView::occurrencesSelected, this,
            [this](const std::vector<uint32_t> &slices, const QString &label) {
                m_timeline->setSearchMatches(slices);
                m_timeline->goToMatch(0);
                statusBar()->showMessage(label, 5000);
            });
    connect(m_analysis, &AnalysisTablesView::nextOccurrenceRequested, m_timeline, [this] { m_timeline->stepMatch(true); });
}

void MainWindow::createStatusBar()
{
    m_countsLabel = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(true);
    m_progress->setFormat(QStringLiteral("%p%"));
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setToolTip(tr("Stop loading (Esc)"));
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelLoad);
    statusBar()->addPermanentWidget(m_countsLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    m_progress->hide();
    m_cancelButton->hide();
}

bool MainWindow::isLoading() const
{
    return m_job->isRunning() || m_compare->isBusy();
}

void MainWindow::openPath(const QString &path)
{
    // A NEFF is a compiled program, not a trace: it opens in the NEFF panel.
    if (TraceLoader::sniffPath(path.toStdString()) == FileFormat::Neff) {
        showNeff(path);
        return;
    }
    m_loadingPath = path;
    m_progress->setValue(0);
    setLoading(true);
    statusBar()->showMessage(tr("Loading %1...").arg(displayName(path)));
    m_job->setCacheOptions(cacheOptions());
    m_loadNotices.clear();
    m_job->start(path);
}

CacheOptions MainWindow::cacheOptions()
{
    // Settings "cache/enabled" (default on) and "cache/maxMB" on top of the environment (LANESCOPE_NO_CACHE=1 wins).
    CacheOptions cache = CacheOptions::fromEnvironment();
    const QSettings settings;
    cache.enabled = cache.enabled && settings.value(QStringLiteral("cache/enabled"), true).toBool();
    cache.capBytes = settings.value(QStringLiteral("cache/maxMB"), qulonglong(cache.capBytes >> 20)).toULongLong() << 20;
    return cache;
}

void MainWindow::showNeff(const QString &path)
{
    NeffInfo info;
    try {
        info = NeffReader::read(path.toStdString(), LoadOptions{});
    } catch (const std::exception &e) {
        onFailed(QString::fromStdString(e.what()));
        return;
    }
    if (!m_neffDock) {
        m_neffView = new NeffInfoView(this);
        m_neffDock = new QDockWidget(tr("NEFF"), this);
        m_neffDock->setObjectName(QStringLiteral("neffDock"));
        m_neffDock->setWidget(m_neffView);
        addDockWidget(Qt::RightDockWidgetArea, m_neffDock);
        tabifyDockWidget(m_detailsDock, m_neffDock);
    }
    m_neffView->setInfo(info);
    m_recentMenu->remember(path);
    m_neffDock->setWindowTitle(tr("NEFF · %1").arg(displayName(path)));
    m_neffDock->show();
    m_neffDock->raise();
    resizeDocks({m_neffDock}, {640}, Qt::Horizontal);
    if (!m_trace)
        setWindowTitle(tr("%1 — Lanescope").arg(displayName(path)));
    statusBar()->showMessage(tr("NEFF %1: compiler %2, %n subgraph(s)", nullptr, int(info.subgraphs.size()))
                                 .arg(displayName(path), QString::fromStdString(info.compilerVersion)));
    emit loadFinished(true, {});
}

void MainWindow::openPaths(const QStringList &paths)
{
    if (paths.size() >= 2)
        openComparison(paths);
    else if (paths.size() == 1)
        openPath(paths.front());
}

void MainWindow::openComparison(const QStringList &paths, const QStringList &labels)
{
    m_compare->open(paths, labels);
}

void MainWindow::compareDialog()
{
    QSettings settings;
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, m_trace ? tr("Compare %1 with").arg(displayName(m_currentPath)) : tr("Choose two or more profiles to compare"),
        settings.value(kLastDirKey).toString(),
        tr("Traces (*.json *.json.gz *.gz *.zst *.zip *.ntff);;All files (*)"));
    if (paths.isEmpty())
        return;
    settings.setValue(kLastDirKey, QFileInfo(paths.front()).absolutePath());
    if (paths.size() == 1 && m_trace)
        m_compare->compareWithCurrent(paths.front());
    else
        openPaths(paths);
}

void MainWindow::openFileDialog()
{
    QSettings settings;
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Trace"), settings.value(kLastDirKey).toString(),
        tr("Traces (*.json *.json.gz *.gz *.zst *.ntff *.neff *.pt.trace.json);;All files (*)"));
    if (files.isEmpty())
        return;
    settings.setValue(kLastDirKey, QFileInfo(files.first()).absolutePath());
    openPaths(files);
}

void MainWindow::openFolderDialog()
{
    QSettings settings;
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Open Profile Folder"), settings.value(kLastDirKey).toString());
    if (dir.isEmpty())
        return;
    settings.setValue(kLastDirKey, dir);
    openPath(dir);
}

void MainWindow::setQuietErrors(bool quiet)
{
    m_quietErrors = quiet;
    if (m_recentMenu)
        m_recentMenu->setQuiet(quiet);
}

void MainWindow::restoreWindowLayout()
{
    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
}

void MainWindow::cancelLoad()
{
    m_compare->cancel();
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    statusBar()->showMessage(tr("Cancelling..."));
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Lanescope"),
                       tr("<h3>Lanescope %1</h3>"
                          "<p>A viewer for ML profiles: Kineto / Chrome trace JSON and Neuron profiles.</p>"
                          "<p><b>Timeline</b><br>"
                          "Ctrl+wheel: zoom at the cursor &nbsp; W / S: zoom in / out<br>"
                          "Wheel: scroll lanes &nbsp; Shift+wheel, A / D: pan<br>"
                          "Drag: pan &nbsp; Home or 0: show everything<br>"
                          "Click: select a slice or fold a group &nbsp; Double click: zoom to a slice</p>"
                          "<p>Built with Qt %2.</p>")
                           .arg(QStringLiteral(LANESCOPE_VERSION), QString::fromLatin1(qVersion())));
}

void MainWindow::setLoading(bool loading)
{
    m_progress->setVisible(loading);
    m_cancelButton->setVisible(loading);
    m_cancelAction->setEnabled(loading);
    if (loading)
        setCursor(Qt::BusyCursor);
    else
        unsetCursor();
}

void MainWindow::onProgress(int permille)
{
    m_progress->setValue(permille);
}

void MainWindow::onLoaded(std::shared_ptr<const Trace> trace)
{
    if (m_compare->isActive())
        m_compare->leave();
    showTrace(std::move(trace), m_loadingPath);
}

void MainWindow::showTrace(std::shared_ptr<const Trace> trace, const QString &path, const QString &title)
{
    setLoading(false);
    m_trace = std::move(trace);
    m_currentPath = path;
    m_titleOverride = title;
    // A comparison's combined trace has lanes of its own: the first profile's saved lane layout does
    // not apply to it, and the per-profile Analysis and Engines views would mix the profiles (the
    // Compare dock has their diff).
    const bool comparison = m_trace->metadata().format == "comparison";
    m_timeline->setTrace(m_trace);
    if (!m_currentPath.isEmpty() && !comparison) {
        const QSettings settings;
        m_timeline->setLaneState(LaneLayoutSettings::load(settings, m_currentPath));
    }
    if (comparison && !m_docksHiddenForCompare) {
        m_docksHiddenForCompare = true;
        m_analysisWasVisible = m_analysisDock->isVisible();
        m_analysisDock->hide();
    } else if (!comparison && m_docksHiddenForCompare) {
        m_docksHiddenForCompare = false;
        m_analysisDock->setVisible(m_analysisWasVisible);
    }
    m_details->setTrace(m_trace);
    m_export->setSourcePath(m_currentPath);
    m_recentMenu->remember(m_currentPath);
    m_chain->setTrace(m_trace);
    m_rangeModel->setTrace(m_trace);
    m_analysis->setTrace(m_trace);
    m_searchBar->search();
    if (comparison) {
        m_enginesDock->hide();
        m_utilizationStrip->hide();
    } else {
        showEngines();
    }
    // Cache problems (stale or corrupt entry rebuilt, cache unavailable) are listed with the warnings.
    std::vector<Warning> warnings = m_trace->diagnostics().warnings();
    for (qsizetype i = m_loadFromCache ? 1 : 0; i < m_loadNotices.size(); ++i)
        warnings.insert(warnings.begin(), Warning{m_loadNotices[i].toStdString(), 1, "trace cache"});
    m_warningsModel->setWarnings(std::move(warnings));
    m_warningsView->resizeColumnToContents(WarningsModel::Count);
    updateTitle();
    updateStatus();
    statusBar()->showMessage(m_loadNotices.isEmpty()
                                 ? tr("Loaded %1").arg(displayName(m_currentPath))
                                 : tr("Loaded %1: %2").arg(displayName(m_currentPath), m_loadNotices.join(QStringLiteral("; "))),
                             m_loadNotices.isEmpty() ? 5000 : 10000);
    m_loadNotices.clear();
    m_timeline->setFocus();
    emit loadFinished(true, QString());
}

void MainWindow::addTopBar(QWidget *bar)
{
    m_centralLayout->insertWidget(0, bar);
}

void MainWindow::setBusy(bool busy)
{
    setLoading(busy);
}

void MainWindow::setProgress(int permille)
{
    onProgress(permille);
}

void MainWindow::reportError(const QString &title, const QString &error)
{
    statusBar()->showMessage(title, 10000);
    emit loadFinished(false, error);
    if (m_quietErrors) {
        std::fprintf(stderr, "lanescope: %s\n", qPrintable(error));
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, title, title + QLatin1Char('.'), QMessageBox::Ok, this);
    box->setInformativeText(error);
    // Wide enough for a path and a position on few lines (QMessageBox alone wraps at about 250 px).
    box->setStyleSheet(QStringLiteral("QLabel#qt_msgbox_informativelabel { min-width: 36em; }"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::exportSqlite()
{
    if (!m_trace || m_exportJob->isRunning())
        return;
    const QString out = QFileDialog::getSaveFileName(this, tr("Export as SQLite"),
                                                     QFileInfo(m_currentPath).completeBaseName() + QStringLiteral(".db"),
                                                     tr("SQLite databases (*.db *.sqlite)"));
    if (out.isEmpty())
        return;
    connect(m_exportJob, &SqliteExportJob::progress, m_progress, &QProgressBar::setValue, Qt::UniqueConnection);
    connect(m_exportJob, &SqliteExportJob::finished, this, [this](bool ok, const QString &path, const QString &message) {
        m_progress->setVisible(false);
        statusBar()->showMessage(ok ? tr("Exported %1").arg(path) : tr("Export failed: %1").arg(message), 10000);
    }, Qt::UniqueConnection);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    statusBar()->showMessage(tr("Exporting %1...").arg(out));
    m_exportJob->start(m_trace, out);
}

void MainWindow::clearTraceCache()
{
    TraceCache cache(m_job->cacheOptions());
    std::string error;
    const bool ok = cache.open(&error) && cache.clear(&error);
    statusBar()->showMessage(ok ? tr("Trace cache cleared (%1)").arg(QString::fromStdString(cache.databasePath()))
                                : tr("Could not clear the trace cache: %1").arg(QString::fromStdString(error)),
                             10000);
}

void MainWindow::onFailed(const QString &error)
{
    m_loadNotices.clear();
    setLoading(false);
    statusBar()->showMessage(tr("Could not open %1").arg(displayName(m_loadingPath)), 10000);
    emit loadFinished(false, error);
    if (m_quietErrors) {
        std::fprintf(stderr, "lanescope: %s\n", qPrintable(error));
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Could not open trace"),
                                tr("Could not open %1.").arg(displayName(m_loadingPath)), QMessageBox::Ok, this);
    box->setInformativeText(error);
    // Wide enough for a path and a position on few lines (QMessageBox alone wraps at about 250 px).
    box->setStyleSheet(QStringLiteral("QLabel#qt_msgbox_informativelabel { min-width: 36em; }"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::onCancelled()
{
    setLoading(false);
    statusBar()->showMessage(tr("Loading %1 cancelled").arg(displayName(m_loadingPath)), 5000);
    emit loadFinished(false, QString());
}

void MainWindow::setDarkTheme(bool dark)
{
    m_timeline->setTheme(dark ? TimelinePalette::Theme::Dark : TimelinePalette::Theme::Light);
    m_engineCharts->setDark(dark);
    m_utilizationStrip->setDark(dark);
    QSettings().setValue(QStringLiteral("timeline/dark"), dark);
    if (m_darkAction && m_darkAction->isChecked() != dark)
        m_darkAction->setChecked(dark);
}

void MainWindow::onSliceSelected(SliceId id)
{
    m_details->showSlice(id);
}

void MainWindow::updateTitle()
{
    if (!m_trace) {
        setWindowTitle(tr("Lanescope"));
        return;
    }
    QString title = m_titleOverride.isEmpty() ? displayName(m_currentPath) : m_titleOverride;
    if (m_trace->metadata().synthetic)
        title += tr(" [synthetic]");
    setWindowTitle(tr("%1 - Lanescope").arg(title));
    setWindowFilePath(m_currentPath);
}

void MainWindow::updateStatus()
{
    const uint64_t warnings = m_warningsModel->total();
    m_warningsDock->setWindowTitle(warnings ? tr("Warnings (%1)").arg(thousands(warnings)) : tr("Warnings (none)"));
    if (!m_trace) {
        m_countsLabel->setText(tr("No trace"));
        return;
    }
    uint64_t tracks = 0;
    for (const Track &t : m_trace->tracks())
        if (t.sliceCount || t.instantCount || t.counterCount)
            ++tracks;
    m_countsLabel->setText(tr("%1 slices  ·  %2 tracks  ·  %3 warnings  ·  %4")
                               .arg(thousands(m_trace->allSlices().size()), thousands(tracks), thousands(warnings),
                                    DurationFormat::format(m_trace->endNs() - m_trace->startNs())));
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
    if (paths.size() == 1 && m_trace && TraceLoader::sniffPath(paths.front().toStdString()) != FileFormat::Neff) {
        QMenu menu(this);
        QAction *compareAction = menu.addAction(tr("Compare with %1").arg(displayName(m_currentPath)));
        QAction *openAction = menu.addAction(tr("Open %1").arg(displayName(paths.front())));
        menu.setDefaultAction(compareAction);
        QAction *chosen = menu.exec(mapToGlobal(event->position().toPoint()));
        if (chosen == compareAction)
            m_compare->compareWithCurrent(paths.front());
        else if (chosen == openAction)
            openPath(paths.front());
        return;
    }
    openPaths(paths);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_job->cancel();
    if (!m_quietErrors) { // scripted runs (--screenshot) leave the user's layout alone
        QSettings settings;
        settings.setValue(kGeometryKey, saveGeometry());
        settings.setValue(kStateKey, saveState());
    }
    QMainWindow::closeEvent(event);
}

} // namespace lanescope
