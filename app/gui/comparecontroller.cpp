#include "comparecontroller.h"

#include "mainwindow.h"

#include "comparebar.h"
#include "comparesession.h"
#include "diffview.h"
#include "timelinesearchbar.h"
#include "timelineview.h"

#include "model/trace.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStatusBar>

namespace lanescope {

CompareController::CompareController(MainWindow *window)
    : QObject(window), m_window(window), m_session(new CompareSession(this)), m_bar(new CompareBar(window)),
      m_view(new DiffView(window)), m_dock(new QDockWidget(tr("Compare"), window))
{
    m_bar->hide();
    window->addTopBar(m_bar);
    m_dock->setObjectName(QStringLiteral("compareDock"));
    m_dock->setWidget(m_view);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    m_view->setSession(m_session);

    connect(m_session, &CompareSession::progress, window, [this](int permille, const QString &what) {
        m_window->setBusy(true);
        m_window->setProgress(permille);
        if (!what.isEmpty())
            m_window->statusBar()->showMessage(what + QStringLiteral("..."));
    });
    connect(m_session, &CompareSession::comparisonReady, this, &CompareController::onReady);
    connect(m_session, &CompareSession::diffReady, this, [this] { m_window->setBusy(false); });
    connect(m_session, &CompareSession::failed, this, [this](const QString &error) {
        m_window->setBusy(false);
        if (m_active) {
            // A bad alignment keeps the comparison on screen: say why next to the controls.
            m_bar->setMessage(error, true);
            return;
        }
        m_window->reportError(tr("Could not compare"), error);
    });
    connect(m_session, &CompareSession::cancelled, this, [this] {
        m_window->setBusy(false);
        m_window->statusBar()->showMessage(tr("Comparison cancelled"), 5000);
        emit m_window->loadFinished(false, QString());
    });
    connect(m_bar, &CompareBar::optionsChanged, this, [this] { m_session->setOptions(m_bar->options()); });
    connect(m_bar, &CompareBar::alignToSelectionRequested, this, &CompareController::alignToSelection);
    connect(m_bar, &CompareBar::closeRequested, this, &CompareController::leave);
    connect(m_view, &DiffView::rowActivated, this, &CompareController::showOccurrences);
}

bool CompareController::isBusy() const
{
    return m_session->isBusy();
}

void CompareController::open(const QStringList &paths, const QStringList &labels)
{
    m_bar->setMessage({});
    m_window->setBusy(true);
    m_window->setProgress(0);
    m_session->setCacheOptions(MainWindow::cacheOptions());
    m_session->open(paths, labels);
}

void CompareController::compareWithCurrent(const QString &path)
{
    const QString current = m_window->currentPath();
    if (current.isEmpty()) {
        m_window->openPath(path);
        return;
    }
    // The first profile is loaded again: the one on screen may be a comparison already.
    open(m_active ? m_session->paths() + QStringList{path} : QStringList{current, path});
}

void CompareController::cancel()
{
    m_session->cancel();
}

void CompareController::onReady()
{
    m_window->setBusy(false);
    const ComparisonResult &c = m_session->comparison();
    const bool entering = !m_active;
    m_active = true;
    m_bar->setProfiles(m_session->labels(), m_session->paths(), m_session->options());
    m_bar->setMessage(tr("%1 lane sets matched, %2 lanes without a partner").arg(c.matchedSets).arg(c.unmatchedLanes));
    m_bar->show();
    QStringList names;
    for (const QString &p : m_session->paths())
        names << QFileInfo(p).fileName();
    m_window->showTrace(c.combined, m_session->paths().value(0), tr("Compare: %1").arg(names.join(QStringLiteral(" vs "))));
    m_dock->show();
    if (entering) {
        // Full width below the timeline, in front of the warnings.
        if (QDockWidget *warnings = m_window->findChild<QDockWidget *>(QStringLiteral("warningsDock")))
            m_window->tabifyDockWidget(warnings, m_dock);
        m_dock->raise();
        m_window->resizeDocks({m_dock}, {400}, Qt::Vertical);
    }
    m_window->statusBar()->showMessage(tr("Comparing %1").arg(names.join(QStringLiteral(", "))), 5000);
}

void CompareController::leave()
{
    if (!m_active)
        return;
    m_active = false;
    m_bar->hide();
    m_dock->hide();
    const auto profiles = m_session->profiles();
    const QStringList paths = m_session->paths();
    m_session->clear();
    if (!profiles.empty())
        m_window->showTrace(profiles.front(), paths.value(0));
}

void CompareController::alignToSelection()
{
    const SliceId selected = m_window->timeline()->selectedSlice();
    CompareAnchor anchor;
    std::string error;
    if (!TraceComparison::matchingAnchor(m_session->comparison(), selected, anchor, &error)) {
        m_bar->setMessage(tr("Select an event first, then choose \"Align at selected event\": %1")
                              .arg(QString::fromStdString(error)),
                          true);
        return;
    }
    m_bar->setSelectionAnchor(anchor);
    m_session->setOptions(m_bar->options());
}

void CompareController::showOccurrences(const QString &name)
{
    // Every occurrence in every profile: the search bar outlines them and steps through them.
    TimelineSearchBar *search = m_window->searchBar();
    search->regexBox()->setChecked(true);
    search->argsBox()->setChecked(false);
    // "ProfilerStep*" stands for every ProfilerStep#N (as in PyTorch's tables).
    const QString pattern = name.endsWith(QLatin1Char('*')) ? QLatin1Char('^') + QRegularExpression::escape(name.chopped(1))
                                                            : QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$');
    search->lineEdit()->setText(pattern);
    search->activate();
    search->search();
}

} // namespace lanescope
