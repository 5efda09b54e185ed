#pragma once
// The Query dock (issue 48): SQL over the loaded trace (the tables of docs/sqlite-schema.md, through
// QueryJob off the GUI thread). An editor (monospace; Ctrl+Enter runs), starter queries, the history of
// run queries and saved queries (QuerySettings), the result as a paged table (rows fetched as the view
// scrolls; Ctrl+C copies the selection as TSV; a header click sorts: a complete result in memory, a
// paged one by running it again with ORDER BY), Export CSV of the whole result (run again, streamed to
// the file), errors with their line and column (the editor's cursor goes there), Cancel while running,
// "N rows in T ms". Pin as Lane: a result with ts (and dur) becomes a query lane in the strip over the
// timeline (QueryLanesStrip), kept per trace file and pinned again when the file is opened again. A
// double-click on a row with an id selects and reveals that slice.
#include "panel.h"

#include "annotations/annotation.h"
#include "query/queryerror.h"

#include <QString>

#include <functional>
#include <memory>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QToolButton;

namespace lanescope {

class QueryJob;
class QueryLanesStrip;
class QueryResultModel;
class TimelineView;
class Trace;
struct QueryLane;
struct QueryPage;

class QueryDock : public Panel
{
    Q_OBJECT
public:
    // `notes`: the trace's notes when a trace is shown (the `notes` table).
    QueryDock(Session *session, TimelineView *timeline, QMainWindow *window, std::function<std::vector<Annotation>()> notes);
    ~QueryDock() override;

    // The strip of pinned lanes, for the window to place above the timeline.
    QueryLanesStrip *strip() const { return m_strip; }
    QPlainTextEdit *editor() const { return m_editor; }
    QTableView *table() const { return m_table; }
    QueryResultModel *model() const { return m_model; }
    QLabel *status() const { return m_status; }
    QPushButton *pinButton() const { return m_pin; }
    QueryJob *job() const { return m_job; }

    // Shows and raises the dock, the editor focused.
    void present();
    // Runs `sql` (the editor's text when empty; the editor shows what runs).
    void run(const QString &sql = {});
    // Pins the current result as a lane (Pin as Lane).
    void pin();
    // Writes the current query's whole result to `path` as CSV.
    void exportCsv(const QString &path);
    void setDark(bool dark);
    // The lanes pinned for the current trace file, as kept in the settings.
    void setPersistLanes(bool on) { m_persist = on; }

signals:
    // A query's first page arrived (ok) or it failed.
    void queryFinished(bool ok);
    // Pin as Lane (or a lane pinned again on reopening) ended: ok, or why not.
    void lanePinned(bool ok, const QString &message);
    void csvExported(bool ok, const QString &path);

private:
    QWidget *buildToolbar();
    void onTraceChanged(const std::shared_ptr<const Trace> &trace);
    void onPage(quint64 id, const std::shared_ptr<const QueryPage> &page, bool first);
    void onFinished(quint64 id, quint64 rows, double seconds, bool atEnd, const QueryError &error);
    void onLaneReady(quint64 id, const std::shared_ptr<const QueryLane> &lane, const QString &message);
    void onSortClicked(int column);
    void showError(const QueryError &error, const QString &sql);
    void setBusy(bool busy);
    void updateButtons();
    void revealRow(int row);
    void persistLanes();
    QString titleFor(const QString &sql) const;
    void fillHistoryMenu();
    void fillSavedMenu();
    bool eventFilter(QObject *watched, QEvent *event) override;

    TimelineView *m_timeline;
    std::function<std::vector<Annotation>()> m_notes;
    QueryJob *m_job;
    QueryLanesStrip *m_strip;
    QueryResultModel *m_model;
    QPlainTextEdit *m_editor = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_run = nullptr, *m_cancel = nullptr, *m_pin = nullptr, *m_export = nullptr;
    QToolButton *m_starters = nullptr, *m_history = nullptr, *m_saved = nullptr;

    QString m_sql;          // the query whose result is shown (as written: sorting wraps it)
    QString m_runSql;       // the text that ran (m_sql, or m_sql wrapped in ORDER BY)
    quint64 m_queryId = 0;
    double m_seconds = 0;   // the shown result's time, pages together
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
    bool m_busy = false;
    QString m_tracePath;
    bool m_persist = true;
    int m_restoring = 0;    // lanes of the settings being pinned again
    std::vector<quint64> m_restoreIds;
};

} // namespace lanescope
