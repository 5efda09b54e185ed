#pragma once
// The files of a trace (every file of a profile folder) and what was done with each, as a table:
// file, kind, outcome, detail. Rows are texts the caller has already named (widgets know no file
// format); a row may be marked as opening in a panel of its own (a NEFF in the NEFF panel).
#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace lanescope {

class FileListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { File, Outcome, Kind, Detail, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    // The row's path relative to the opened folder (any column).
    static constexpr int PathRole = Qt::UserRole + 2;
    // True when double-clicking the row opens the file on its own (any column).
    static constexpr int OpenableRole = Qt::UserRole + 3;

    struct Row
    {
        QString path; // relative to the opened folder
        QString kind; // "NEFF (compiled program)"
        QString outcome; // "paired"
        QString detail;
        bool openable = false;
    };

    explicit FileListModel(QObject *parent = nullptr);

    void setRows(std::vector<Row> rows);
    const std::vector<Row> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Row> m_rows;
};

} // namespace lanescope
