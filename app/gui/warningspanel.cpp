#include "warningspanel.h"

#include "session.h"

#include "tables/warningsmodel.h"

#include "model/trace.h"

#include <QHeaderView>
#include <QTableView>

namespace lanescope {

WarningsPanel::WarningsPanel(Session *session, QMainWindow *window)
    : Panel(tr("Warnings"), QStringLiteral("warningsDock"), session, window), m_model(new WarningsModel(this))
{
    connect(session, &Session::traceChanged, this, &WarningsPanel::refresh);
    setWindowTitle(tr("Warnings (none)"));
    // The title counts; the table is made when looked at.
    tableWhenSeen(m_model, WarningsModel::SortRole, WarningsModel::Count, [](QTableView *view) {
        QHeaderView *header = view->horizontalHeader();
        header->setSectionResizeMode(WarningsModel::Count, QHeaderView::ResizeToContents);
        header->setSectionResizeMode(WarningsModel::Kind, QHeaderView::ResizeToContents);
        header->setSectionResizeMode(WarningsModel::Message, QHeaderView::Stretch);
        header->setSectionResizeMode(WarningsModel::FirstSeen, QHeaderView::ResizeToContents);
    });
}

uint64_t WarningsPanel::total() const
{
    return m_model->total();
}

void WarningsPanel::refresh()
{
    std::vector<Warning> warnings = session()->trace()->diagnostics().warnings();
    const QStringList &notices = session()->loadNotices();
    // From the cache, the first notice only says so (it goes to the status bar).
    // A stale entry rebuilt (the file or Lanescope changed) is expected: a note. A corrupt entry or a
    // failed store stays a warning.
    for (qsizetype i = session()->loadedFromCache() ? 1 : 0; i < notices.size(); ++i)
        warnings.insert(warnings.begin(), Warning{notices[i].toStdString(), 1, "trace cache",
                                                  notices[i].startsWith(QLatin1String("cache entry was stale")) ? DiagnosticSeverity::Note
                                                                                                             : DiagnosticSeverity::Warning});
    m_model->setWarnings(std::move(warnings));
    if (QTableView *view = madeTable())
        view->resizeColumnToContents(WarningsModel::Count);
    const uint64_t n = total();
    const QString count = n ? QString::fromStdString(formatThousands(n)) : tr("none");
    const uint64_t notes = m_model->notes();
    setWindowTitle(notes ? tr("Warnings (%1, %2 notes)").arg(count, QString::fromStdString(formatThousands(notes)))
                         : tr("Warnings (%1)").arg(count));
}

} // namespace lanescope
