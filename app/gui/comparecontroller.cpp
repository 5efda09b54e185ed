#include "comparecontroller.h"

#include "session.h"

#include "compare/comparebar.h"
#include "compare/diffview.h"
#include "session/comparesession.h"
#include "timeline/timelinesearchbar.h"

#include "model/trace.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QMainWindow>
#include <QRegularExpression>

namespace lanescope {

CompareController::CompareController(Session *session, QMainWindow *window, TimelineSearchBar *search)
    : QObject(window), m_session(session), m_window(window), m_search(search),
      m_bar(new CompareBar(window)), m_dock(new QDockWidget(tr("Compare"), window))
{
    m_bar->hide();
    m_dock->setObjectName(QStringLiteral("compareDock"));
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    CompareSession *compare = session->compareSession();
    // A restored layout may show the dock before any comparison: its tables then, empty.
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            diffView();
    });

    connect(session, &Session::comparisonShown, this, &CompareController::onShown);
    connect(session, &Session::comparisonLeft, this, [this] {
        m_bar->hide();
        m_dock->hide();
    });
    // A bad alignment keeps the comparison on screen: say why next to the controls.
    connect(session, &Session::comparisonProblem, m_bar,
            [this](const QString &error) { m_bar->setMessage(error, !error.isEmpty()); });
    connect(m_bar, &CompareBar::optionsChanged, compare, [this, compare] { compare->setOptions(m_bar->options()); });
    connect(m_bar, &CompareBar::alignToSelectionRequested, this, &CompareController::alignToSelection);
    connect(m_bar, &CompareBar::closeRequested, session, &Session::leaveComparison);
}

DiffView *CompareController::diffView()
{
    if (!m_view) {
        m_view = new DiffView(m_window);
        m_dock->setWidget(m_view);
        m_view->setSession(m_session->compareSession()); // shows the comparison there is
        connect(m_view, &DiffView::rowActivated, this, &CompareController::showOccurrences);
    }
    return m_view;
}

void CompareController::onShown(bool entering)
{
    const CompareSession *compare = m_session->compareSession();
    const ComparisonResult &c = compare->comparison();
    m_bar->setProfiles(compare->labels(), compare->paths(), compare->options());
    m_bar->setMessage(tr("%1 lane sets matched, %2 lanes without a partner").arg(c.matchedSets).arg(c.unmatchedLanes));
    m_bar->show();
    diffView();
    m_dock->show();
    if (entering) {
        // Full width below the timeline, in front of the warnings.
        if (QDockWidget *warnings = m_window->findChild<QDockWidget *>(QStringLiteral("warningsDock")))
            m_window->tabifyDockWidget(warnings, m_dock);
        m_dock->raise();
        m_window->resizeDocks({m_dock}, {400}, Qt::Vertical);
    }
}

void CompareController::alignToSelection()
{
    const SliceId selected = m_session->selectedSlice();
    CompareAnchor anchor;
    std::string error;
    if (!TraceComparison::matchingAnchor(m_session->compareSession()->comparison(), selected, anchor, &error)) {
        m_bar->setMessage(tr("Select an event first, then choose \"Align at selected event\": %1")
                              .arg(QString::fromStdString(error)),
                          true);
        return;
    }
    m_bar->setSelectionAnchor(anchor);
    m_session->compareSession()->setOptions(m_bar->options());
}

void CompareController::showOccurrences(const QString &name)
{
    // Every occurrence in every profile: the search bar outlines them and steps through them.
    m_search->regexBox()->setChecked(true);
    m_search->argsBox()->setChecked(false);
    // "ProfilerStep*" stands for every ProfilerStep#N (as in PyTorch's tables).
    const QString pattern = name.endsWith(QLatin1Char('*')) ? QLatin1Char('^') + QRegularExpression::escape(name.chopped(1))
                                                            : QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$');
    m_search->lineEdit()->setText(pattern);
    m_search->activate();
    m_search->search();
}

} // namespace lanescope
