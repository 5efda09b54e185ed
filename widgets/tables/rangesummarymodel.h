#pragma once
// The slices of a selected time range per name (RangeSummary) as a table: name, count, total,
// self and average time, all clipped to the range.
#include "analysis/rangesummary.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace lanescope {

class Trace;

class RangeSummaryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Count, Total, Self, Average, ColumnCount };
    // Raw values for sorting: ns and counts as numbers, names as text.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit RangeSummaryModel(QObject *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    // Recomputes for [t0, t1]; an empty range clears the table.
    void setRange(int64_t t0, int64_t t1);
    int64_t rangeStart() const { return m_t0; }
    int64_t rangeEnd() const { return m_t1; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Trace> m_trace;
    std::vector<RangeSummary::Row> m_rows;
    int64_t m_t0 = 0, m_t1 = 0;
};

} // namespace lanescope
