#include "querydock.h"

#include "docklayout.h"
#include "querysettings.h"
#include "session.h"

#include "tables/queryresultmodel.h"
#include "timeline/querylanesstrip.h"
#include "timeline/timelineview.h"

#include "model/trace.h"
#include "query/queryengine.h"
#include "session/queryjob.h"
#include "session/starterqueries.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace lanescope {

namespace {

// The SQL without trailing semicolons, comments and blanks kept: to wrap it in an outer SELECT.
QString withoutTrailingSemicolons(QString sql)
{
    while (true) {
        const QString trimmed = sql.trimmed();
        if (!trimmed.endsWith(QLatin1Char(';')))
            return trimmed;
        sql = trimmed.chopped(1);
    }
}

} // namespace

QueryDock::QueryDock(Session *session, TimelineView *timeline, QMainWindow *window,
                     std::function<std::vector<Annotation>()> notes)
    : Panel(tr("Query"), QStringLiteral("queryDock"), session, window), m_timeline(timeline), m_notes(std::move(notes)),
      m_job(new QueryJob(this)), m_strip(new QueryLanesStrip(session->viewState())), m_model(new QueryResultModel(this))
{
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(buildToolbar());

    auto *split = new QSplitter(Qt::Horizontal, body);
    m_editor = new QPlainTextEdit(split);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setTabChangesFocus(false);
    m_editor->setPlaceholderText(tr("SELECT name, COUNT(*), SUM(dur) FROM slices GROUP BY name ORDER BY 3 DESC\n\n"
                                    "Ctrl+Enter runs. Tables: docs/sqlite-schema.md (slices, tracks, flows, args, counters, "
                                    "ops, kernels, engines, collectives, devices, dma_queues, tensors, ...); times in ns."));
    m_editor->installEventFilter(this);
    auto *results = new QWidget(split);
    auto *resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    m_status = new QLabel(tr("No query run yet"), results);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    resultsLayout->addWidget(m_status);
    m_table = new QTableView(results);
    m_table->setModel(m_model);
    m_table->setWordWrap(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setSectionsClickable(true);
    m_table->horizontalHeader()->setSortIndicatorShown(false);
    m_table->setToolTip(tr("Ctrl+C copies the selection as TSV; a header click sorts; double-click (or Enter on) a row with an "
                           "id: select that slice in the timeline"));
    m_table->installEventFilter(this);
    resultsLayout->addWidget(m_table, 1);
    split->addWidget(m_editor);
    split->addWidget(results);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
    setWidget(body);

    m_model->setFetcher([this] { m_job->fetchMore(); });
    connect(m_table->horizontalHeader(), &QHeaderView::sectionClicked, this, &QueryDock::onSortClicked);
    // Double-click or Enter on a row with an id: that slice, selected and revealed.
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) { revealRow(index.row()); });
    connect(m_job, &QueryJob::page, this, &QueryDock::onPage);
    connect(m_job, &QueryJob::finished, this, &QueryDock::onFinished);
    connect(m_job, &QueryJob::laneReady, this, &QueryDock::onLaneReady);
    connect(m_job, &QueryJob::busyChanged, this, &QueryDock::setBusy);
    connect(m_job, &QueryJob::exported, this, [this](quint64, bool ok, const QString &path, quint64 rows, const QString &message) {
        m_status->setText(ok ? tr("Exported %1 rows to %2").arg(QLocale().toString(rows), path)
                             : tr("Export failed: %1").arg(message));
        emit csvExported(ok, path);
    });
    connect(session, &Session::traceChanged, this, &QueryDock::onTraceChanged);

    m_strip->setTimeInsets([timeline] { // the lanes line up with the timeline's time axis
        const QRect area = timeline->timeArea();
        return std::make_pair(area.left(), std::max(0, timeline->width() - area.right() - 1));
    });
    connect(timeline, &TimelineView::timeAreaChanged, m_strip, &QueryLanesStrip::updateInsets);
    connect(m_strip, &QueryLanesStrip::sliceRequested, this, [this](SliceId id) {
        const auto &trace = this->session()->trace();
        if (trace && id.value < trace->allSlices().size())
            this->session()->revealSlice(id);
    });
    connect(m_strip, &QueryLanesStrip::laneRemoved, this, [this] { persistLanes(); });
    updateButtons();
}

QueryDock::~QueryDock() = default;

QWidget *QueryDock::buildToolbar()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    m_run = new QPushButton(tr("Run"), bar);
    m_run->setToolTip(tr("Run the SQL (Ctrl+Enter)"));
    m_cancel = new QPushButton(tr("Cancel"), bar);
    m_cancel->setToolTip(tr("Stop the running query"));
    m_starters = new QToolButton(bar);
    m_starters->setText(tr("Starter Queries"));
    m_starters->setPopupMode(QToolButton::InstantPopup);
    auto *starters = new QMenu(m_starters);
    for (const StarterQuery &q : StarterQueries::all()) {
        QAction *a = starters->addAction(QString::fromUtf8(q.title));
        a->setToolTip(QString::fromUtf8(q.question));
        const QString sql = QString::fromUtf8(q.sql);
        connect(a, &QAction::triggered, this, [this, sql] { m_editor->setPlainText(sql); });
    }
    starters->setToolTipsVisible(true);
    m_starters->setMenu(starters);
    m_history = new QToolButton(bar);
    m_history->setText(tr("History"));
    m_history->setPopupMode(QToolButton::InstantPopup);
    m_history->setMenu(new QMenu(m_history));
    connect(m_history->menu(), &QMenu::aboutToShow, this, &QueryDock::fillHistoryMenu);
    m_saved = new QToolButton(bar);
    m_saved->setText(tr("Saved"));
    m_saved->setPopupMode(QToolButton::InstantPopup);
    m_saved->setMenu(new QMenu(m_saved));
    connect(m_saved->menu(), &QMenu::aboutToShow, this, &QueryDock::fillSavedMenu);
    m_pin = new QPushButton(tr("Pin as Lane"), bar);
    m_pin->setToolTip(tr("The result on the timeline: a lane over it (needs a ts column, ns; dur for slices, "
                         "optional name, id, track_id)"));
    m_export = new QPushButton(tr("Export CSV..."), bar);
    m_export->setToolTip(tr("Write the whole result (run again, streamed) to a CSV file"));
    for (QWidget *w : std::initializer_list<QWidget *>{m_run, m_cancel, m_starters, m_history, m_saved})
        row->addWidget(w);
    row->addStretch(1);
    row->addWidget(m_pin);
    row->addWidget(m_export);
    connect(m_run, &QPushButton::clicked, this, [this] { run(); });
    connect(m_cancel, &QPushButton::clicked, m_job, &QueryJob::cancel);
    connect(m_pin, &QPushButton::clicked, this, &QueryDock::pin);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString base = QFileInfo(m_tracePath).completeBaseName();
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the query's result as CSV"),
                                                          base + QStringLiteral("-query.csv"), tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    return bar;
}

void QueryDock::present()
{
    if (isHidden())
        DockLayout::place(mainWindow(), this);
    else
        raise();
    // Tall enough for the editor and a screenful of rows.
    const int wanted = std::min(260, mainWindow()->height() / 3);
    if (!isFloating() && height() < wanted)
        mainWindow()->resizeDocks({this}, {wanted}, Qt::Vertical);
    m_editor->setFocus();
}

void QueryDock::run(const QString &sql)
{
    if (!sql.isEmpty() && sql != m_editor->toPlainText())
        m_editor->setPlainText(sql);
    const QString text = m_editor->toPlainText();
    if (text.trimmed().isEmpty())
        return;
    if (!session()->trace()) {
        m_status->setText(tr("Open a trace first: queries run on the loaded trace"));
        emit queryFinished(false);
        return;
    }
    if (m_persist) {
        QSettings settings;
        QuerySettings::addToHistory(settings, text);
    }
    m_sql = text;
    m_runSql = text;
    m_sortColumn = -1;
    m_table->horizontalHeader()->setSortIndicatorShown(false);
    m_seconds = 0;
    m_status->setText(tr("Running..."));
    m_queryId = m_job->start(m_runSql);
}

void QueryDock::onPage(quint64 id, const std::shared_ptr<const QueryPage> &page, bool first)
{
    if (id != m_queryId)
        return;
    if (first) {
        const bool sameColumns = page->columns == m_model->columns();
        m_model->reset(page->columns);
        if (!sameColumns)
            m_table->horizontalHeader()->resizeSections(QHeaderView::Interactive);
    }
    m_model->appendRows(page->rows);
    if (first) {
        m_table->resizeColumnsToContents();
        for (int c = 0; c < m_model->columnCount(); ++c)
            m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 360));
    }
}

void QueryDock::onFinished(quint64 id, quint64 rows, double seconds, bool atEnd, const QueryError &error)
{
    if (id != m_queryId)
        return;
    const bool first = m_seconds == 0;
    m_seconds += seconds;
    m_model->setMoreAvailable(!atEnd);
    const QString time = m_seconds < 1 ? tr("%1 ms").arg(QLocale().toString(m_seconds * 1000, 'f', 1))
                                       : tr("%1 s").arg(QLocale().toString(m_seconds, 'f', 2));
    if (error) {
        showError(error, m_runSql);
    } else if (atEnd) {
        m_status->setText((rows == 1 ? tr("1 row in %1") : tr("%1 rows in %2").arg(QLocale().toString(rows))).arg(time));
    } else {
        m_status->setText(tr("%1 rows so far in %2 (more as the table scrolls)").arg(QLocale().toString(rows), time));
    }
    updateButtons();
    if (first)
        emit queryFinished(!error);
}

void QueryDock::showError(const QueryError &error, const QString &sql)
{
    QString text = QString::fromStdString(error.message);
    if (error.kind == QueryError::Kind::Cancelled || error.kind == QueryError::Kind::TimedOut) {
        m_status->setText(tr("%1 (%2 rows shown)").arg(text, QLocale().toString(m_model->rowCount())));
        return;
    }
    m_status->setText(QStringLiteral("<span style='color:#d03030'>%1</span>").arg(text.toHtmlEscaped()));
    if (error.offset < 0 || sql != m_editor->toPlainText())
        return;
    // The error's byte offset in the UTF-8 text, as a character position in the editor.
    const QByteArray utf8 = sql.toUtf8();
    const int position = int(QString::fromUtf8(utf8.left(error.offset)).size());
    QTextCursor cursor = m_editor->textCursor();
    cursor.setPosition(std::min(position, int(m_editor->document()->characterCount()) - 1));
    m_editor->setTextCursor(cursor);
    m_editor->setFocus();
}

void QueryDock::onSortClicked(int column)
{
    if (m_sql.isEmpty() || column < 0 || column >= m_model->columnCount())
        return;
    m_sortOrder = column == m_sortColumn && m_sortOrder == Qt::DescendingOrder ? Qt::AscendingOrder : Qt::DescendingOrder;
    m_sortColumn = column;
    QHeaderView *header = m_table->horizontalHeader();
    header->setSortIndicatorShown(true);
    header->setSortIndicator(column, m_sortOrder);
    if (m_job->atEnd() && !m_job->isRunning()) {
        m_model->sortRows(column, m_sortOrder); // every row is here
        return;
    }
    // A paged result: SQLite sorts the whole of it.
    m_runSql = QStringLiteral("SELECT * FROM (\n%1\n) ORDER BY %2 %3")
                   .arg(withoutTrailingSemicolons(m_sql))
                   .arg(column + 1)
                   .arg(m_sortOrder == Qt::AscendingOrder ? QStringLiteral("ASC") : QStringLiteral("DESC"));
    m_seconds = 0;
    m_status->setText(tr("Sorting the whole result..."));
    m_queryId = m_job->start(m_runSql);
}

void QueryDock::pin()
{
    if (m_sql.isEmpty() || !session()->trace())
        return;
    m_status->setText(tr("Pinning the result as a lane..."));
    m_job->buildLane(m_sql, titleFor(m_sql));
}

void QueryDock::exportCsv(const QString &path)
{
    if (m_sql.isEmpty() || !session()->trace())
        return;
    m_status->setText(tr("Exporting to %1...").arg(path));
    m_job->exportCsv(m_sql, path);
}

void QueryDock::onLaneReady(quint64 id, const std::shared_ptr<const QueryLane> &lane, const QString &message)
{
    const auto restored = std::find(m_restoreIds.begin(), m_restoreIds.end(), id);
    const bool restoring = restored != m_restoreIds.end();
    if (restoring) {
        m_restoreIds.erase(restored);
        --m_restoring;
    }
    if (!lane) {
        m_status->setText(restoring ? tr("A pinned lane did not build on this trace: %1").arg(message)
                                    : tr("Cannot pin: %1").arg(message));
        emit lanePinned(false, message);
        return;
    }
    m_strip->addLane(lane);
    QString text = tr("Pinned \"%1\": %2 items").arg(QString::fromStdString(lane->title), QLocale().toString(qulonglong(lane->items.size())));
    if (lane->rowCount > 1)
        text += tr(" in %1 rows (overlapping items stacked)").arg(lane->rowCount);
    if (lane->skippedNullTs)
        text += tr("; %1 rows without ts skipped").arg(QLocale().toString(lane->skippedNullTs));
    if (lane->truncated)
        text += tr("; the first %1 rows kept").arg(QLocale().toString(qulonglong(lane->items.size())));
    if (!restoring) {
        m_status->setText(text);
        persistLanes();
    }
    emit lanePinned(true, text);
}

void QueryDock::persistLanes()
{
    const auto &trace = session()->trace();
    if (!m_persist || m_restoring > 0 || m_tracePath.isEmpty() || !trace || trace->metadata().format == "comparison")
        return;
    QList<QuerySettings::PinnedLane> lanes;
    for (int i = 0; i < m_strip->laneCount(); ++i)
        lanes.append({QString::fromStdString(m_strip->lane(i)->title), QString::fromStdString(m_strip->lane(i)->sql)});
    QSettings settings;
    QuerySettings::setPinnedLanes(settings, m_tracePath, lanes);
}

void QueryDock::onTraceChanged(const std::shared_ptr<const Trace> &trace)
{
    m_job->setTrace(trace, m_notes ? m_notes() : std::vector<Annotation>());
    m_strip->clear();
    m_strip->setOrigin(trace ? trace->startNs() : 0);
    m_model->reset({});
    m_sql.clear();
    m_queryId = 0;
    m_restoreIds.clear();
    m_restoring = 0;
    m_tracePath = session()->currentPath();
    m_status->setText(trace ? tr("Ready: SQL over %1 (Ctrl+Enter runs)").arg(Session::displayName(m_tracePath)) : QString());
    // The lanes pinned for this file last time, pinned again.
    if (trace && m_persist && !m_tracePath.isEmpty() && trace->metadata().format != "comparison") {
        const QSettings settings;
        for (const QuerySettings::PinnedLane &l : QuerySettings::pinnedLanes(settings, m_tracePath)) {
            m_restoreIds.push_back(m_job->buildLane(l.sql, l.title));
            ++m_restoring;
        }
    }
    updateButtons();
}

void QueryDock::setBusy(bool busy)
{
    m_busy = busy;
    updateButtons();
}

void QueryDock::updateButtons()
{
    const bool trace = session()->trace() != nullptr;
    m_run->setEnabled(trace);
    m_cancel->setEnabled(m_busy);
    const bool result = !m_sql.isEmpty() && !m_model->columns().empty();
    m_pin->setEnabled(result && m_model->column("ts") >= 0);
    m_export->setEnabled(result);
}

void QueryDock::revealRow(int row)
{
    const int column = m_model->column("id");
    const auto &trace = session()->trace();
    if (column < 0 || row < 0 || row >= m_model->rowCount() || !trace)
        return;
    const Cell &cell = m_model->cell(row, column);
    if (const auto *id = std::get_if<int64_t>(&cell); id && *id >= 0 && uint64_t(*id) < trace->allSlices().size())
        session()->revealSlice(SliceId(uint32_t(*id)));
}

QString QueryDock::titleFor(const QString &sql) const
{
    for (const StarterQuery &q : StarterQueries::all())
        if (sql == QString::fromUtf8(q.sql))
            return QString::fromUtf8(q.title);
    // The first comment line, else the SQL itself, shortened.
    const QString firstLine = sql.trimmed().section(QLatin1Char('\n'), 0, 0).trimmed();
    if (firstLine.startsWith(QStringLiteral("--")))
        return firstLine.mid(2).trimmed();
    const QString flat = sql.simplified();
    return flat.size() > 60 ? flat.left(57) + QStringLiteral("...") : flat;
}

void QueryDock::fillHistoryMenu()
{
    QMenu *menu = m_history->menu();
    menu->clear();
    const QStringList history = QuerySettings::history(QSettings());
    if (history.isEmpty())
        menu->addAction(tr("(no query run yet)"))->setEnabled(false);
    for (const QString &sql : history) {
        const QString flat = sql.simplified();
        QAction *a = menu->addAction(flat.size() > 80 ? flat.left(77) + QStringLiteral("...") : flat);
        connect(a, &QAction::triggered, this, [this, sql] { m_editor->setPlainText(sql); });
    }
}

void QueryDock::fillSavedMenu()
{
    QMenu *menu = m_saved->menu();
    menu->clear();
    menu->addAction(tr("Save Current Query As..."), this, [this] {
        const QString sql = m_editor->toPlainText();
        if (sql.trimmed().isEmpty())
            return;
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Save Query"), tr("Name:"), QLineEdit::Normal, titleFor(sql), &ok);
        if (ok && !name.trimmed().isEmpty()) {
            QSettings settings;
            QuerySettings::save(settings, name.trimmed(), sql);
        }
    });
    const QMap<QString, QString> saved = QuerySettings::saved(QSettings());
    if (saved.isEmpty())
        return;
    menu->addSeparator();
    QMenu *remove = new QMenu(tr("Delete"), menu);
    for (auto it = saved.begin(); it != saved.end(); ++it) {
        const QString name = it.key(), sql = it.value();
        menu->addAction(name, this, [this, sql] { m_editor->setPlainText(sql); });
        remove->addAction(name, this, [name] {
            QSettings settings;
            QuerySettings::remove(settings, name);
        });
    }
    menu->addSeparator();
    menu->addMenu(remove);
}

void QueryDock::setDark(bool dark)
{
    m_strip->setTheme(dark ? TimelinePalette::Theme::Dark : TimelinePalette::Theme::Light);
}

bool QueryDock::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (watched == m_editor && (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && (key->modifiers() & Qt::ControlModifier)) {
            run();
            return true;
        }
        if (watched == m_table && key->matches(QKeySequence::Copy)) {
            QApplication::clipboard()->setText(m_model->copyText(m_table->selectionModel()->selectedIndexes()));
            return true;
        }
    }
    return Panel::eventFilter(watched, event);
}

} // namespace lanescope
