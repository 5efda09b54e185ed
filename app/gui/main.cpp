// lanescope: the viewer. `lanescope [PATH...]` opens each trace file or folder in its own window.
#include "analysispanel.h"
#include "collectivespanel.h"
#include "docklayout.h"
#include "enginespanel.h"
#include "flamegraphpanel.h"
#include "jobpanel.h"
#include "mainwindow.h"
#include "notescontroller.h"
#include "querydock.h"
#include "session.h"
#include "sourcepanel.h"
#include "statisticspanel.h"
#include "summarypanel.h"
#include "tensorspanel.h"

#include "charts/durationhistogramview.h"
#include "export/imageexporter.h"
#include "job/joboverviewview.h"
#include "overlays/chaincontroller.h"
#include "tables/queryresultmodel.h"
#include "timeline/timelineview.h"

#include "io/input/memorybudget.h"
#include "model/trace.h"
#include "util/workerpool.h"

#include <QApplication>
#include <QBackingStore>
#include <QComboBox>
#include <QDockWidget>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

void printUsage(std::FILE *to)
{
    std::fprintf(to, "usage: lanescope [OPTIONS] [PATH...]\n\n"
                     "Opens each PATH (a trace file or a profile folder) in its own window.\n\n"
                     "options:\n"
                     "  -h, --help              this text\n"
                     "  -V, --version           print the version\n"
                     "  --screenshot OUT.png    open the first PATH, wait for it to load, save a picture of the\n"
                     "                          window to OUT.png (or OUT.svg) and exit (status 1 if the load\n"
                     "                          failed); for the timeline alone see `lanescope-cli screenshot`;\n"
                     "                          works headless with QT_QPA_PLATFORM=offscreen or xvfb-run\n"
                     "  --size WxH              window size (default 1400x900)\n"
                     "  --range FROM:TO         with --screenshot: show FROM..TO after the trace start (ms, or 200us:350us)\n"
                     "  --select NAME           with --screenshot: select the first slice called NAME\n"
                     "  --mark FROM:TO          with --screenshot: select the time range FROM..TO (range summary)\n"
                     "  --search TEXT           with --screenshot: search slice names and go to the first match\n"
                     "  --flows                 with --screenshot: show all flows\n"
                     "  --first-frame           with --screenshot: save the window's first frame of the trace as it was\n"
                     "                          painted, as soon as it is drawn: what a user sees first (the docks'\n"
                     "                          background work waits)\n"
                     "  --analysis TABLE        with --screenshot: show the Analysis dock on ops, kernels, devices or\n"
                     "                          ranks (a multi-rank trace's step times per rank)\n"
                     "                          (ops and kernels: the top row clicked, its first occurrence selected)\n"
                     "  --event ID              with --screenshot: select and reveal slice ID (an event id)\n"
                     "  --chain                 with --screenshot: wait for the dependency graph: the selection's\n"
                     "                          chain is highlighted\n"
                     "  --critical-path         with --chain: outline the chain's critical path\n"
                     "  --dark                  with --screenshot: dark window\n"
                     "  --notes                 with --screenshot: draw the trace's notes (PATH.lanescope-notes.json)\n"
                     "                          and bring the Notes dock to the front; without it notes are not drawn\n"
                     "  --dock NAME             with --screenshot: bring a tabbed dock to the front (warnings,\n"
                     "                          range, analysis, files, notes, statistics: with --select, the\n"
                     "                          statistics of that name, and on stdout the line `statistics: NAME:\n"
                     "                          N occurrences, B bins, histogram at X,Y WxH`)\n"
                     "  --flame-weight W        with --dock flameGraph: cpu, self (bottom-up) or device; saved\n"
                     "                          once the flame graph is drawn\n"
                     "  --dock source           with --screenshot: the Flame Graph with the Source dock beside it at\n"
                     "                          the hottest line of the busiest file, once both are computed\n"
                     "  --source-root DIR       a folder the Source dock looks for frames' files in (repeatable)\n"
                     "  --view summary          with --screenshot: the Summary page, once its findings are computed\n"
                     "  --dock tensors|memory   with --screenshot: the Tensors dock on its Tensors or Memory tab, once computed\n"
                     "  --dock collectives[:TAB] with --screenshot: the Collectives dock once computed, on its\n"
                     "                          overlap, skew (the most skewed collective selected) or durations tab\n"
                     "  (a folder of rank summaries as PATH: the Job dock shows its job overview; --job-tab N picks\n"
                     "                          its tab: 0 ranks, 1 job findings, 2 collectives, 3 warnings)\n"
                     "  --engines-by layer|hlo  with --screenshot: the Engines dock's table per layer / HLO op, once computed\n"
                     "  --color-by operator     with --screenshot: NeuronCore instructions in the colour of their HLO op\n"
                     "  --query SQL             with --screenshot: the Query dock with SQL run (one statement), once\n"
                     "                          its first rows are shown; on stdout `query: N rows`\n"
                     "  --pin                   with --query: pin the result as a query lane over the timeline\n"
                     "  --memory-budget SIZE    memory a load may use (default 16G, or $LANESCOPE_MEMORY_BUDGET)\n\n"
                     "Qt options (-platform, -style, ...) are accepted as well.\n");
}

struct Options
{
    std::vector<std::string> paths;
    std::string screenshot;
    int width = 1400, height = 900;
    bool hasRange = false;
    int64_t rangeFromNs = 0, rangeToNs = 0;
    std::string select;
    bool hasMark = false;
    int64_t markFromNs = 0, markToNs = 0;
    std::string search;
    bool flows = false;
    bool firstFrame = false;
    bool dark = false;
    std::string view; // "summary": wait for the Summary page
    bool notes = false;
    std::string dock; // objectName prefix of a dock to raise: "files" -> filesDock
    int jobTab = -1;  // --job-tab: the Job dock's tab
    QStringList sourceRoots; // --source-root
    int flameWeight = -1; // --flame-weight: the Flame Graph's weight box entry
    int enginesBy = 0;    // --engines-by: EnginesPanel::Mode (0 = the charts)
    bool colorByOperator = false;
    std::string query; // --query: SQL for the Query dock
    bool pin = false;  // --pin: its result pinned as a lane
    int analysis = -1; // AnalysisTablesView::Table
    long long event = -1;
    bool chain = false;
    bool criticalPath = false;
};

// Returns -1 to continue, else the exit status.
int parseArgs(int argc, char **argv, Options &o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&](const char *name) -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "lanescope: %s needs a value\n", name);
                return nullptr;
            }
            return argv[++i];
        };
        if (a == "-h" || a == "--help") {
            printUsage(stdout);
            return 0;
        }
        if (a == "-V" || a == "--version") {
            std::printf("lanescope %s\n", LANESCOPE_VERSION);
            return 0;
        }
        if (a == "--screenshot") {
            const char *v = value("--screenshot");
            if (!v)
                return 2;
            o.screenshot = v;
        } else if (a == "--size") {
            const char *v = value("--size");
            if (!v || std::sscanf(v, "%dx%d", &o.width, &o.height) != 2 || o.width < 200 || o.height < 150) {
                std::fprintf(stderr, "lanescope: --size expects WxH, e.g. 1400x900\n");
                return 2;
            }
        } else if (a == "--range") {
            const char *v = value("--range");
            QString error;
            if (!v || !lanescope::ImageExporter::parseRange(QString::fromLocal8Bit(v), &o.rangeFromNs, &o.rangeToNs, &error)) {
                std::fprintf(stderr, "lanescope: --range: %s\n", v ? qPrintable(error) : "needs FROM:TO");
                return 2;
            }
            o.hasRange = true;
        } else if (a == "--select") {
            const char *v = value("--select");
            if (!v)
                return 2;
            o.select = v;
        } else if (a == "--mark") {
            const char *v = value("--mark");
            QString error;
            if (!v || !lanescope::ImageExporter::parseRange(QString::fromLocal8Bit(v), &o.markFromNs, &o.markToNs, &error)) {
                std::fprintf(stderr, "lanescope: --mark: %s\n", v ? qPrintable(error) : "needs FROM:TO");
                return 2;
            }
            o.hasMark = true;
        } else if (a == "--search") {
            const char *v = value("--search");
            if (!v)
                return 2;
            o.search = v;
        } else if (a == "--first-frame") {
            o.firstFrame = true;
        } else if (a == "--flows") {
            o.flows = true;
        } else if (a == "--event") {
            const char *v = value("--event");
            if (!v || std::sscanf(v, "%lld", &o.event) != 1 || o.event < 0) {
                std::fprintf(stderr, "lanescope: --event expects a slice id (a non-negative integer)\n");
                return 2;
            }
        } else if (a == "--chain") {
            o.chain = true;
        } else if (a == "--critical-path") {
            o.chain = o.criticalPath = true;
        } else if (a == "--dark") {
            o.dark = true;
        } else if (a == "--notes") {
            o.notes = true;
        } else if (a == "--flame-weight") {
            const char *given = value("--flame-weight");
            const std::string v = given ? given : "";
            o.flameWeight = v == "cpu" ? 0 : v == "self" ? 1 : v == "device" ? 2 : -2;
            if (o.flameWeight == -2) {
                std::fprintf(stderr, "lanescope: --flame-weight takes cpu, self or device\n");
                return 2;
            }
        } else if (a == "--engines-by") {
            const char *given = value("--engines-by");
            const std::string v = given ? given : "";
            o.enginesBy = v == "layer" ? 1 : v == "hlo" ? 2 : -1;
            if (o.enginesBy < 0) {
                std::fprintf(stderr, "lanescope: --engines-by takes layer or hlo\n");
                return 2;
            }
        } else if (a == "--color-by") {
            const char *given = value("--color-by");
            if (!given || std::string(given) != "operator") {
                std::fprintf(stderr, "lanescope: --color-by takes operator\n");
                return 2;
            }
            o.colorByOperator = true;
        } else if (a == "--query") {
            const char *v = value("--query");
            if (!v)
                return 2;
            o.query = v;
        } else if (a == "--pin") {
            o.pin = true;
        } else if (a == "--source-root") {
            const char *v = value("--source-root");
            if (!v)
                return 2;
            o.sourceRoots << QString::fromLocal8Bit(v);
        } else if (a == "--job-tab") {
            const char *v = value("--job-tab");
            if (!v)
                return 2;
            o.jobTab = std::atoi(v);
        } else if (a == "--dock") {
            const char *v = value("--dock");
            if (!v)
                return 2;
            o.dock = v;
        } else if (a == "--view") {
            const char *v = value("--view");
            if (!v || std::string(v) != "summary") {
                std::fprintf(stderr, "lanescope: --view expects summary\n");
                return 2;
            }
            o.view = v;
        } else if (a == "--analysis") {
            const char *v = value("--analysis");
            const std::string t = v ? v : "";
            o.analysis = t == "ops" ? 0 : t == "kernels" ? 1 : t == "devices" ? 2 : t == "ranks" ? 3 : -1; // ranks: the tab after Devices
            if (o.analysis < 0) {
                std::fprintf(stderr, "lanescope: --analysis expects ops, kernels, devices or ranks\n");
                return 2;
            }
        } else if (a == "--memory-budget") {
            const char *v = value("--memory-budget");
            if (!v)
                return 2;
            if (!lanescope::MemoryBudget::parse(v)) {
                std::fprintf(stderr, "lanescope: --memory-budget expects a size such as 512M or 8G, not '%s'\n", v);
                return 2;
            }
            ::setenv(lanescope::MemoryBudget::kEnvironmentVariable, v, 1); // every load reads it from there
        } else if (a == "-platform" || a == "-style" || a == "-qwindowgeometry" || a == "-display") {
            ++i; // Qt's own options with a value: QApplication handles them
        } else if (a.size() > 1 && a[0] == '-') {
            if (a.rfind("-platform", 0) != 0 && a.rfind("-style", 0) != 0 && a != "-reverse") {
                std::fprintf(stderr, "lanescope: unknown option %s (see --help)\n", a.c_str());
                return 2;
            }
        } else {
            o.paths.push_back(a);
        }
    }
    return -1;
}

// --screenshot: drives the window's Session (open, wait for the load, range, selection, search) and
// saves a picture of the window once what was asked for is on screen.
int screenshot(QApplication &app, const Options &options, const QStringList &paths)
{
    using namespace lanescope;
    auto *window = new MainWindow(paths);
    Session *session = window->session();
    window->setQuietErrors(true);
    window->resize(options.width, options.height);
    window->notes()->setShown(options.notes, false); // scripted pictures: notes only when asked for
    window->showWhenLoaded();
    // The first frame needs only the load in flight: the views' background work waits, for the picture
    // too and not only for the paint (MainWindow holds it back until then).
    if (options.firstFrame && session->isPreloading())
        pauseWorkerPool();
    const QString out = QString::fromLocal8Bit(options.screenshot.c_str());
    int status = 0;
    const auto save = [&, window] {
        app.processEvents();
        // What a user sees first, for tests and CI jobs: one line per lane row on screen.
        for (const std::string &lane : window->timeline()->frame().visibleLanes())
            std::printf("visible lane: %s\n", lane.c_str());
        QString error;
        // The first frame is the picture the window has just painted: the pixels of its backing store,
        // read in place (a copy of 5 MB, and its page faults, less than grabbing the screen); other
        // pictures are rendered afresh once everything asked for is shown.
        const ImageExporter::Format format = ImageExporter::formatForPath(out);
        const QPaintDevice *store = options.firstFrame && format == ImageExporter::Format::Png && window->backingStore()
                                        ? window->backingStore()->paintDevice()
                                        : nullptr;
        const QImage *painted = store && store->devType() == QInternal::Image ? static_cast<const QImage *>(store) : nullptr;
        if (painted && painted->size() == window->size() ? !ImageExporter::savePng(*painted, out, &error)
                                                          : !ImageExporter::save(window, out, format, 1.0, {}, &error)) {
            std::fprintf(stderr, "lanescope: %s\n", qPrintable(error));
            status = 2;
        } else {
            std::printf("%s\n", qPrintable(QDir::toNativeSeparators(out)));
        }
        app.exit(status);
    };
    // Charts and tables paint once the event loop has run a little after they got their data.
    const auto saveAfter = [&](int ms) { QTimer::singleShot(ms, &app, save); };
    QObject::connect(session, &Session::loadFinished, &app, [&, window, session](bool ok, const QString &) {
        if (!ok)
            status = 1;
        const std::shared_ptr<const Trace> trace = ok ? session->trace() : nullptr;
        if (trace && options.hasRange)
            session->setVisibleRange(trace->startNs() + options.rangeFromNs, trace->startNs() + options.rangeToNs);
        if (trace && !options.select.empty()) {
            for (uint32_t i = 0; i < trace->allSlices().size(); ++i)
                if (trace->str(trace->allSlices()[i].name) == options.select) {
                    session->setSelectedSlice(SliceId(i));
                    break;
                }
        }
        if (trace && options.hasMark)
            session->setMarkedRange(trace->startNs() + options.markFromNs, trace->startNs() + options.markToNs);
        if (trace && !options.search.empty())
            session->findSlices(QString::fromLocal8Bit(options.search.c_str()));
        if (trace && options.event >= 0 && size_t(options.event) < trace->allSlices().size())
            session->revealSlice(SliceId(uint32_t(options.event)));
        window->timeline()->setShowAllFlows(options.flows);
        window->timeline()->setColorByOperator(options.colorByOperator);
        if (options.dark)
            window->applyTheme(true); // the whole window, docks and banner included
        // Docks that start hidden (Statistics, Notes) are placed in their tab group first: raise() alone
        // leaves them hidden.
        const auto bringUp = [window](QDockWidget *dock) {
            if (dock->isHidden())
                DockLayout::place(window, dock);
            else
                dock->raise();
        };
        if (options.notes)
            bringUp(window->findChild<QDockWidget *>(QStringLiteral("notesDock")));
        if (trace && !options.query.empty()) {
            QueryDock *query = window->queryDock();
            QObject::connect(query, &QueryDock::queryFinished, &app, [&, query](bool) {
                std::printf("query: %d rows\n", query->model()->rowCount());
                if (!options.pin) {
                    saveAfter(300);
                    return;
                }
                QObject::connect(query, &QueryDock::lanePinned, &app, [&](bool pinned, const QString &message) {
                    std::printf("lane: %s\n", qPrintable(message));
                    if (!pinned)
                        status = 1;
                    saveAfter(300);
                }, Qt::SingleShotConnection);
                query->pin();
            }, Qt::SingleShotConnection);
            bringUp(query);
            query->run(QString::fromUtf8(options.query.c_str()));
            return;
        }
        if (options.jobTab >= 0)
            window->jobPanel()->view()->tabs()->setCurrentIndex(options.jobTab);
        if (trace && (options.dock == "tensors" || options.dock == "memory")) {
            TensorsPanel *tensors = window->tensorsPanel();
            tensors->tabs()->setCurrentIndex(options.dock == "memory" ? 1 : 0);
            QObject::connect(tensors, &TensorsPanel::computed, &app, [&, tensors] {
                tensors->raise();
                saveAfter(300);
            }, Qt::SingleShotConnection);
            bringUp(tensors);
            return;
        }
        if (trace && options.dock.starts_with("collectives")) {
            // collectives[:overlap|:skew|:durations]; :skew also selects the most skewed collective
            const std::string tab = options.dock.size() > 12 ? options.dock.substr(12) : std::string();
            CollectivesPanel *panel = window->collectivesPanel();
            panel->tabs()->setCurrentIndex(tab == "overlap" ? CollectivesPanel::OverlapTab
                                           : tab == "skew"  ? CollectivesPanel::SkewTab
                                           : tab == "durations" ? CollectivesPanel::DurationsTab
                                                                : CollectivesPanel::CollectivesTab);
            QObject::connect(panel, &CollectivesPanel::computed, &app, [&, panel, tab] {
                panel->raise();
                const auto &matched = panel->result().match.matched;
                if (tab == "skew" && !matched.empty())
                    panel->selectMatched(size_t(std::max_element(matched.begin(), matched.end(), [](const auto &a, const auto &b) {
                                                    return a.skewNs() < b.skewNs();
                                                }) - matched.begin()));
                saveAfter(300);
            }, Qt::SingleShotConnection);
            bringUp(panel);
            return;
        }
        if (trace && options.enginesBy > 0) {
            EnginesPanel *engines = window->enginesPanel();
            QObject::connect(engines, &EnginesPanel::opsComputed, &app, [&, engines] {
                engines->raise();
                saveAfter(300);
            }, Qt::SingleShotConnection);
            bringUp(engines);
            engines->setMode(EnginesPanel::Mode(options.enginesBy));
            return;
        }
        if (!options.dock.empty() && options.dock != "source") { // the Source dock opens beside the Flame Graph below
            if (auto *dock = window->findChild<QDockWidget *>(QString::fromStdString(options.dock + "Dock")))
                bringUp(dock);
            else
                std::fprintf(stderr, "lanescope: no dock called '%s'\n", options.dock.c_str());
        }
        if (trace && options.dock == "statistics" && session->selectedSlice().isValid()) {
            // The statistics of the selected slice's name (Shift+S), saved once they are shown.
            StatisticsPanel *stats = window->statisticsPanel();
            QObject::connect(stats, &StatisticsPanel::computed, &app, [&, stats, window] {
                QTimer::singleShot(300, &app, [&, stats, window] {
                    app.processEvents();
                    // What the dock shows, for scripts and tests: the count and where the histogram is drawn.
                    const DurationStats::Row *row = stats->shownRow(0);
                    const DurationHistogramView *histogram = stats->histogram();
                    const QRect at(histogram->mapTo(window, QPoint(0, 0)), histogram->size());
                    std::printf("statistics: %s: %llu occurrences, %zu bins, histogram at %d,%d %dx%d\n", qPrintable(stats->shownName()),
                                row ? (unsigned long long)row->count : 0ULL,
                                histogram->series().empty() ? size_t(0) : histogram->series().front().bins.size(), at.x(), at.y(),
                                at.width(), at.height());
                    save();
                });
            }, Qt::SingleShotConnection);
            stats->showName(QString::fromUtf8(trace->str(trace->allSlices()[session->selectedSlice().value].name)));
            return;
        }
        if (trace && options.analysis >= 0) {
            // save once the tables (computed in the background) are shown
            using Table = AnalysisTablesView::Table;
            AnalysisPanel *panel = window->analysisPanel();
            panel->present(Table(options.analysis), options.height / 3);
            panel->whenComputed([&, panel] {
                const Table table = Table(options.analysis);
                if ((table == Table::Operators || table == Table::Kernels) && options.analysis < 3 && panel->tables()->proxy(table)->rowCount() > 0)
                    panel->tables()->activateRow(table, 0);
                saveAfter(300);
            });
            return;
        }
        if (trace && options.dock == "flameGraph") {
            // Saved once the flame graph (computed in the background) is drawn.
            FlameGraphPanel *flame = window->flameGraphPanel();
            flame->present();
            if (options.flameWeight >= 0)
                flame->modeBox()->setCurrentIndex(options.flameWeight);
            QObject::connect(flame, &FlameGraphPanel::computed, &app, [&, flame] {
                flame->raise(); // over the Compare dock, which a comparison raises
                saveAfter(300);
            }, Qt::SingleShotConnection);
            flame->recompute();
            return;
        }
        if (trace && options.dock == "source") {
            FlameGraphPanel *flame = window->flameGraphPanel();
            SourcePanel *source = window->sourcePanel();
            auto pending = std::make_shared<int>(2);
            const auto oneDone = [&, pending] {
                if (--*pending == 0)
                    saveAfter(300);
            };
            QObject::connect(flame, &FlameGraphPanel::computed, &app, oneDone, Qt::SingleShotConnection);
            QObject::connect(source, &SourcePanel::computed, &app, oneDone, Qt::SingleShotConnection);
            source->setExtraRoots(options.sourceRoots);
            flame->present();
            if (options.flameWeight >= 0)
                flame->modeBox()->setCurrentIndex(options.flameWeight);
            flame->recompute();
            source->present();
            return;
        }
        if (trace && options.view == "summary") {
            SummaryPanel *summary = window->summaryPanel();
            summary->raise();
            const auto raiseAndSave = [&, summary] {
                summary->raise(); // over the Compare dock, which a comparison raises
                saveAfter(300);
            };
            if (!summary->isComputing())
                raiseAndSave();
            else
                QObject::connect(summary, &SummaryPanel::computed, &app, raiseAndSave, Qt::SingleShotConnection);
            return;
        }
        ChainController *chain = window->chainController();
        chain->setShowCriticalPath(options.criticalPath);
        if (trace && options.chain && !chain->graph())
            QObject::connect(chain, &ChainController::graphReady, &app, [&] { saveAfter(200); });
        else
            saveAfter(options.firstFrame ? 0 : 200); // docks that fill in the background get a moment, unless asked not to
    });
    if (paths.isEmpty())
        saveAfter(100);
    else
        session->openPaths(paths); // two or more: a comparison
    const int rc = app.exec();
    // The picture is written: the run ends now rather than after the docks' analyses still running in
    // the background (seconds on a large trace), which a scripted picture never shows. Settings are
    // flushed first; nothing else is left to write.
    QSettings().sync();
    std::fflush(nullptr);
    std::_Exit(rc ? rc : status);
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    // --help and --version work without a display: they are handled before QApplication exists.
    if (const int status = parseArgs(argc, argv, options); status >= 0)
        return status;

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Lanescope"));
    QApplication::setOrganizationName(QStringLiteral("Lanescope"));
    QApplication::setApplicationVersion(QStringLiteral(LANESCOPE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lanescope.svg")));

    QStringList paths;
    for (const auto &p : options.paths)
        paths << QFileInfo(QString::fromLocal8Bit(p.c_str())).absoluteFilePath();

    if (!options.screenshot.empty())
        return screenshot(app, options, paths);

    auto *first = new lanescope::MainWindow(paths);
    first->restoreWindowLayout();
    first->showWhenLoaded();
    first->session()->openPaths(paths);
    return app.exec();
}
