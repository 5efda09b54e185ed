#pragma once
// The rows of a ProfileDiff (operators or kernels / opcodes) as a table: name, kind, A, B, delta,
// delta %, calls in A and B. Regressions are red, improvements green. The sort role gives raw
// numbers (ns, calls, percent; a row new in B sorts as +infinity %).
#include "analysis/profilediff.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace lanescope {

class DiffTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Kind, A, B, Delta, DeltaPercent, CallsA, CallsB, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NameRole = Qt::UserRole + 2; // the row's name as in the trace

    explicit DiffTableModel(QObject *parent = nullptr);

    void setRows(std::vector<DiffRow> rows, const QString &labelA, const QString &labelB);
    const DiffRow *row(int r) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // All rows as CSV (RFC 4180 quoting) with a header line; times in ns.
    QString toCsv() const;

private:
    std::vector<DiffRow> m_rows;
    QString m_labelA = QStringLiteral("A"), m_labelB = QStringLiteral("B");
};

} // namespace lanescope
