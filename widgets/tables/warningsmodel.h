#pragma once
// The import warnings and notes of a trace as a table: which kind, how often, what, where first.
// Notes (expected filtering) are greyed and do not count as warnings.
#include "model/diagnostics.h"

#include <QAbstractTableModel>

#include <vector>

namespace lanescope {

class WarningsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Count, Kind, Message, FirstSeen, ColumnCount };
    // Raw values for sorting: the count as a number, texts as they are.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit WarningsModel(QObject *parent = nullptr);

    void setWarnings(std::vector<Warning> warnings);
    void clear() { setWarnings({}); }
    const std::vector<Warning> &warnings() const { return m_warnings; }
    // Sum of the warnings' counts (notes not included).
    uint64_t total() const;
    // Sum of the notes' counts.
    uint64_t notes() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Warning> m_warnings;
};

} // namespace lanescope
