#include "filespanel.h"

#include "session.h"

#include "tables/filelistmodel.h"

#include "io/formats.h"
#include "model/trace.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace lanescope {

FilesPanel::FilesPanel(Session *session, QMainWindow *window)
    : Panel(tr("Files"), QStringLiteral("filesDock"), session, window), m_model(new FileListModel(this))
{
    connect(session, &Session::traceChanged, this, &FilesPanel::refresh);
    setWindowTitle(tr("Files"));
    // The title counts; the table is made when looked at.
    tableWhenSeen(m_model, FileListModel::SortRole, FileListModel::File, [this](QTableView *view) {
        view->sortByColumn(FileListModel::File, Qt::AscendingOrder);
        QHeaderView *header = view->horizontalHeader();
        // Folder paths are long (instance / pid / date / file): their middle is what gets elided, so the
        // kind, outcome and detail stay in view.
        view->setTextElideMode(Qt::ElideMiddle);
        header->setSectionResizeMode(FileListModel::File, QHeaderView::Interactive);
        view->setColumnWidth(FileListModel::File, 240);
        for (int c : {FileListModel::Kind, FileListModel::Outcome})
            header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
        header->setSectionResizeMode(FileListModel::Detail, QHeaderView::Stretch);
        connect(view, &QTableView::doubleClicked, this, [this, view](const QModelIndex &index) {
            const auto *proxy = static_cast<const QSortFilterProxyModel *>(view->model());
            openRow(proxy->mapToSource(index).row());
        });
    });
}

int FilesPanel::count() const
{
    return m_model->rowCount();
}

bool FilesPanel::openRow(int sourceRow)
{
    if (sourceRow < 0 || sourceRow >= count())
        return false;
    const FileListModel::Row &row = m_model->rows()[size_t(sourceRow)];
    if (!row.openable || m_root.isEmpty())
        return false;
    session()->open(QDir(m_root).filePath(row.path));
    return true;
}

void FilesPanel::refresh()
{
    std::vector<FileListModel::Row> rows;
    m_root.clear();
    if (const auto &trace = session()->trace()) {
        const TraceMetadata &md = trace->metadata();
        const QFileInfo source(QString::fromStdString(md.sourcePath));
        m_root = source.isDir() ? source.absoluteFilePath() : QString();
        for (const FileReport &f : md.files) {
            FileListModel::Row r;
            r.path = QString::fromStdString(f.path);
            r.kind = QString::fromUtf8(Formats::info(f.kind).displayName);
            r.outcome = QString::fromUtf8(fileOutcomeName(f.outcome)).replace(QLatin1Char('_'), QLatin1Char(' '));
            r.detail = QString::fromStdString(f.detail);
            r.openable = f.kind == FileFormat::Neff && !m_root.isEmpty();
            rows.push_back(std::move(r));
        }
    }
    m_model->setRows(std::move(rows));
    setWindowTitle(count() ? tr("Files (%1)").arg(count()) : tr("Files"));
}

} // namespace lanescope
