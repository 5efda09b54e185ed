#pragma once
// The import warnings of a trace as a table: how often, what, where first.
#include "model/diagnostics.h"

#include <QAbstractTableModel>

#include <vector>

namespace lanescope {

class WarningsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Count, Message, FirstSeen, ColumnCount };
    // Raw values for sorting: the count as a number, texts as they are.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit WarningsModel(QObject *parent = nullptr);

    void setWarnings(std::vector<Warning> warnings);
    void clear() { setWarnings({}); }
    const std::vector<Warning> &warnings() const { return m_warnings; }
    // Sum of all counts.
    uint64_t total() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Warning> m_warnings;
};

} // namespace lanescope
