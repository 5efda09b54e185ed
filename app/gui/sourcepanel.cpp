#include "sourcepanel.h"

#include "dockjob.h"
#include "docklayout.h"
#include "editorlauncher.h"
#include "session.h"
#include "shortcuts.h"
#include "sourceroots.h"

#include "source/sourceview.h"
#include "style/durationformat.h"

#include "analysis/calltree.h"
#include "analysis/launchindex.h"
#include "analysis/sourceframe.h"
#include "analysis/traceanalysis.h"
#include "model/trace.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>

#include <algorithm>

namespace lanescope {

namespace {

const std::vector<SourceFile> kNoFiles;

} // namespace

SourcePanel::SourcePanel(Session *session, QDockWidget *beside, QMainWindow *window)
    : Panel(tr("Source"), QStringLiteral("sourceDock"), session, window), m_beside(beside),
      m_action(new QAction(tr("Source"), this)), m_job(new DockJob(this, [this] { recompute(); }, 250))
{
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    hide();

    Shortcuts::bind(m_action, Shortcuts::Id::Source);
    m_action->setToolTip(tr("Show the Python source of the selected frame with the time of each line"));
    window->addAction(m_action);
    connect(m_action, &QAction::triggered, this, &SourcePanel::present);
    buildWhenSeen([this] { ensureBody(); });
    connect(session, &Session::traceChanged, this, &SourcePanel::onTraceChanged);
    connect(session, &Session::markedRangeChanged, m_job, &DockJob::request);
    connect(session, &Session::selectionChanged, this, [this](SliceId id) {
        if (m_trace && id.isValid() && id.value < m_trace->allSlices().size())
            showFrame(QString::fromUtf8(m_trace->str(m_trace->allSlices()[id.value].name)));
    });
}

// The file box, the buttons and the source view (a monospaced font to load): made when the dock is
// first shown or asked for.
void SourcePanel::ensureBody()
{
    if (m_view)
        return;
    m_view = new SourceView;
    m_files = new QComboBox;
    m_weight = new QComboBox;
    m_rootsButton = new QToolButton;
    m_open = new QPushButton(tr("Open in Editor"));
    m_status = new QLabel;
    m_files->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_files->setMinimumContentsLength(30);
    m_files->setToolTip(tr("The Python files of the trace's frames, by device time launched, then CPU time"));
    m_weight->addItems({tr("CPU time"), tr("Self time"), tr("Device time launched")});
    m_weight->setToolTip(tr("The gutter bar: the time with the line on the stack, the time in the line itself, or the device time it launched"));
    m_rootsButton->setText(tr("Roots"));
    m_rootsButton->setPopupMode(QToolButton::InstantPopup);
    m_rootsButton->setToolTip(tr("The folders a frame's file is looked for in: the project checkout, the environment's site-packages"));
    m_rootsButton->setMenu(new QMenu(m_rootsButton));
    m_open->setEnabled(false); // until a file on this machine is shown
    m_open->setToolTip(tr("Open the file at the current line in your editor (double-click or Enter on a line does the same)"));
    if (m_trace)
        m_view->showMessage(tr("Computing..."));
    setBody({{m_files, 1}, {m_weight, 0}, {m_rootsButton, 0}, {m_open, 0}}, m_status, m_view);
    connect(m_rootsButton->menu(), &QMenu::aboutToShow, this, &SourcePanel::buildRootsMenu);
    connect(m_files, &QComboBox::activated, this, [this](int index) { showFile(index, 0); });
    connect(m_weight, &QComboBox::activated, this, [this](int index) {
        m_view->setWeight(SourceView::Weight(std::max(0, index)));
        if (const int row = m_view->hottestRow(); row >= 0 && !m_view->currentLine())
            m_view->goToLine(m_view->lineOfRow(row));
    });
    connect(m_open, &QPushButton::clicked, this, &SourcePanel::openInEditor);
    connect(m_view, &SourceView::lineActivated, this, &SourcePanel::openInEditor);
    if (m_result)
        resolveFiles();
}

SourceView *SourcePanel::view()
{
    ensureBody();
    return m_view;
}

QComboBox *SourcePanel::fileBox()
{
    ensureBody();
    return m_files;
}

QComboBox *SourcePanel::weightBox()
{
    ensureBody();
    return m_weight;
}

QLabel *SourcePanel::statusLabel()
{
    ensureBody();
    return m_status;
}

SourcePanel::~SourcePanel() = default;

bool SourcePanel::isComputing() const
{
    return m_job->isPending();
}

const std::vector<SourceFile> &SourcePanel::files() const
{
    return m_result ? *m_result : kNoFiles;
}

QString SourcePanel::resolvedPath(int index) const
{
    return index >= 0 && size_t(index) < m_resolved.size() && m_resolved[size_t(index)]
               ? QString::fromStdString(*m_resolved[size_t(index)])
               : QString();
}

std::vector<std::string> SourcePanel::roots() const
{
    return SourceRoots::all(session()->currentPath(), m_extraRoots);
}

void SourcePanel::present()
{
    ensureBody();
    if (isHidden()) {
        if (m_beside && !m_beside->isHidden() && !m_beside->isFloating()
            && mainWindow()->dockWidgetArea(m_beside) == Qt::BottomDockWidgetArea) {
            // Beside the bottom tab group that holds the graph (splitDockWidget on a tabbed dock
            // would only add a tab), the code on the right.
            mainWindow()->addDockWidget(Qt::BottomDockWidgetArea, this, Qt::Horizontal);
            show();
            mainWindow()->resizeDocks({this}, {mainWindow()->width() * 45 / 100}, Qt::Horizontal);
        } else {
            DockLayout::place(mainWindow(), this);
        }
    } else {
        raise();
    }
    const int wanted = mainWindow()->height() * 45 / 100;
    if (!isFloating() && height() < wanted)
        mainWindow()->resizeDocks({this}, {wanted}, Qt::Vertical);
    if (m_job->isStale())
        recompute(); // visibilityChanged may come only with the next show event
    else if (!m_wantedPath.empty())
        goToWanted(); // the remembered frame
    m_view->setFocus();
}

bool SourcePanel::showFrame(const QString &frameName)
{
    const std::string name = frameName.toStdString();
    const std::optional<SourceFrame> frame = SourceFrame::parse(name);
    if (!frame)
        return false;
    m_wantedPath = std::string(frame->path);
    m_wantedLine = frame->line;
    if (isVisible())
        goToWanted();
    return true;
}

void SourcePanel::setExtraRoots(const QStringList &roots)
{
    m_extraRoots = roots;
    reloadRoots();
}

void SourcePanel::reloadRoots()
{
    if (!m_result)
        return;
    keepCurrent();
    resolveFiles();
}

void SourcePanel::keepCurrent()
{
    if (m_view && m_wantedPath.empty() && m_result && m_files->currentIndex() >= 0 && size_t(m_files->currentIndex()) < m_result->size()) {
        m_wantedPath = (*m_result)[size_t(m_files->currentIndex())].path;
        m_wantedLine = m_view->currentLine();
    }
}

void SourcePanel::onTraceChanged()
{
    m_trace = session()->trace();
    m_job->drop();
    m_result.reset();
    m_resolved.clear();
    m_wantedPath.clear();
    if (m_view) {
        m_files->clear();
        m_open->setEnabled(false);
        m_view->showMessage(tr("Computing..."));
    }
    if (isVisible())
        recompute();
}

void SourcePanel::recompute()
{
    const std::shared_ptr<const TraceAnalysis> analysis = session()->analysis();
    if (!m_trace || !analysis)
        return;
    ensureBody();
    CallTree::Options options;
    options.mergeThreads = true;
    if (session()->hasMarkedRange()) {
        options.hasRange = true;
        options.t0 = session()->markedStart();
        options.t1 = session()->markedEnd();
        m_scope = tr("Marked range (%1)").arg(DurationFormat::format(options.t1 - options.t0));
    } else {
        m_scope = tr("Whole trace");
    }
    m_status->setText(tr("%1: computing...").arg(m_scope));
    using Files = std::shared_ptr<const std::vector<SourceFile>>;
    m_job->start<Files>([analysis, options] {
        const CallTree::Result tree = CallTree::compute(*analysis->trace(), *analysis->launchIndex(), options);
        return std::make_shared<const std::vector<SourceFile>>(SourceLines::compute(tree));
    }, [this](const Files &files, double ms) { onComputed(files, ms); });
}

void SourcePanel::onComputed(const std::shared_ptr<const std::vector<SourceFile>> &files, double ms)
{
    keepCurrent(); // a new range: the file and line on screen stay
    m_result = files;
    m_scope += tr(", %n file(s), built in %1 ms", nullptr, int(m_result->size())).arg(ms, 0, 'f', 0);
    resolveFiles();
    emit computed();
}

void SourcePanel::resolveFiles()
{
    ensureBody();
    m_resolver.setRoots(roots());
    m_resolved.clear();
    m_files->clear();
    for (size_t i = 0; i < m_result->size(); ++i) {
        const SourceFile &f = (*m_result)[i];
        m_resolved.push_back(m_resolver.resolve(f.path));
        QString label = QString::fromStdString(f.path);
        label += QStringLiteral("  ·  ") + (f.device > 0 ? tr("device %1").arg(DurationFormat::format(f.device))
                                                         : tr("CPU %1").arg(DurationFormat::format(f.total)));
        if (!m_resolved.back())
            label += QStringLiteral("  ·  ") + tr("not here");
        m_files->addItem(label);
    }
    goToWanted(true);
}

void SourcePanel::goToWanted(bool reload)
{
    if (!m_result)
        return;
    ensureBody();
    if (m_result->empty()) {
        m_message.clear();
        m_open->setEnabled(false);
        m_view->showMessage(tr("No Python frames in %1. Record with the PyTorch profiler's with_stack=True to see the time of each line.")
                                .arg(m_scope.section(QLatin1Char(','), 0, 0).toLower()));
        showStatus();
        return;
    }
    int index = int(SourceLines::firstToShow(*m_result));
    uint32_t line = 0;
    for (size_t i = 0; i < m_result->size(); ++i)
        if ((*m_result)[i].path == m_wantedPath) {
            index = int(i);
            line = m_wantedLine;
        }
    m_wantedPath.clear();
    if (!reload && index == m_files->currentIndex() && m_view->file() == &(*m_result)[size_t(index)]) {
        if (line)
            m_view->goToLine(line); // the file is on screen: only the line moves
        return;
    }
    m_files->setCurrentIndex(index);
    showFile(index, line);
}

void SourcePanel::showFile(int index, uint32_t line)
{
    if (!m_result || index < 0 || size_t(index) >= m_result->size())
        return;
    ensureBody();
    const std::shared_ptr<const SourceFile> file(m_result, &(*m_result)[size_t(index)]); // shares the result's lifetime
    const QString resolved = resolvedPath(index);
    QStringList text;
    if (!resolved.isEmpty())
        for (const std::string &l : SourceResolver::lines(resolved.toStdString()))
            text << QString::fromUtf8(l.data(), qsizetype(l.size()));
    m_view->setSource(file, text);
    const QString path = QString::fromStdString(file->path);
    QStringList tried;
    if (resolved.isEmpty())
        for (const std::string &c : m_resolver.candidates(file->path))
            tried << QString::fromStdString(c);
    if (!resolved.isEmpty() && !text.isEmpty()) {
        m_message = resolved == path ? resolved : tr("%1 (found as %2)").arg(path, resolved);
    } else if (!resolved.isEmpty()) {
        m_message = tr("%1 could not be read: the lines the trace names are listed").arg(resolved);
    } else if (!SourceFrame::isFilePath(file->path)) {
        m_message = tr("%1 is Python's own code, not a file: the lines the trace names are listed").arg(path);
    } else {
        const int shown = std::min<int>(int(tried.size()), 2);
        m_message = tr("%1 is not on this machine (the numbers are the trace's); tried %2%3. Roots > Add Folder finds it in your checkout.")
                        .arg(path, tried.mid(0, shown).join(QStringLiteral(", ")),
                             tried.size() > shown ? tr(" and %n more (hover)", nullptr, int(tried.size()) - shown) : QString());
    }
    m_status->setToolTip(tried.isEmpty() ? QString() : tr("Tried:\n%1").arg(tried.join(QLatin1Char('\n'))));
    m_open->setEnabled(!resolved.isEmpty());
    if (line == 0 || !m_view->goToLine(line)) {
        const int hottest = m_view->hottestRow();
        m_view->goToLine(hottest >= 0 ? m_view->lineOfRow(hottest) : 1);
    }
    showStatus();
}

void SourcePanel::showStatus()
{
    ensureBody();
    QStringList parts{m_scope};
    if (!m_message.isEmpty())
        parts << m_message;
    m_status->setText(parts.join(QStringLiteral(" · ")));
}

bool SourcePanel::openInEditor()
{
    ensureBody();
    const QString file = resolvedPath(m_files->currentIndex());
    QString error;
    if (file.isEmpty())
        error = tr("The file is not on this machine: add its folder with Roots > Add Folder");
    else if (EditorLauncher::open(file, std::max<uint32_t>(1, m_view->currentLine()), &error))
        return true;
    m_status->setText(m_status->text().section(QStringLiteral("\n"), 0, 0) + QLatin1Char('\n') + error);
    return false;
}

void SourcePanel::addRoot(bool allTraces)
{
    const QString folder = QFileDialog::getExistingDirectory(this, allTraces ? tr("Add a Folder for All Traces") : tr("Add a Folder for This Trace"));
    if (folder.isEmpty())
        return;
    if (allTraces)
        SourceRoots::setForAllTraces(SourceRoots::forAllTraces() << folder);
    else
        SourceRoots::setForTrace(session()->currentPath(), SourceRoots::forTrace(session()->currentPath()) << folder);
    reloadRoots();
}

void SourcePanel::buildRootsMenu()
{
    QMenu *menu = m_rootsButton->menu();
    menu->clear();
    const QString trace = session()->currentPath();
    menu->addAction(tr("Add Folder for This Trace..."), this, [this] { addRoot(false); })->setEnabled(!trace.isEmpty());
    menu->addAction(tr("Add Folder for All Traces..."), this, [this] { addRoot(true); });
    const QStringList mine = SourceRoots::forTrace(trace), all = SourceRoots::forAllTraces();
    if (!mine.isEmpty() || !all.isEmpty()) {
        QMenu *remove = menu->addMenu(tr("Remove Folder"));
        for (const QString &r : mine)
            remove->addAction(tr("%1 (this trace)").arg(r), this, [this, trace, r] {
                QStringList left = SourceRoots::forTrace(trace);
                left.removeAll(r);
                SourceRoots::setForTrace(trace, left);
                reloadRoots();
            });
        for (const QString &r : all)
            remove->addAction(tr("%1 (all traces)").arg(r), this, [this, r] {
                QStringList left = SourceRoots::forAllTraces();
                left.removeAll(r);
                SourceRoots::setForAllTraces(left);
                reloadRoots();
            });
    }
    menu->addSeparator();
    QStringList looked;
    for (const std::string &r : roots())
        looked << QString::fromStdString(r);
    QAction *where = menu->addAction(tr("Looked in: %1").arg(looked.isEmpty() ? tr("nothing yet") : looked.join(QStringLiteral(", "))));
    where->setEnabled(false);
    menu->addAction(tr("Editor Command..."), this, [this] {
        bool ok = false;
        const QString command = QInputDialog::getText(
            this, tr("Editor Command"),
            tr("The command that opens {file} at {line}, e.g. code -g {file}:{line} or emacsclient -n +{line} {file}.\n"
               "Empty: $VISUAL, else $EDITOR (in a terminal when it needs one), else the desktop's application for the file."),
            QLineEdit::Normal, EditorLauncher::commandTemplate(), &ok);
        if (ok)
            EditorLauncher::setCommandTemplate(command);
    });
}

} // namespace lanescope
