#include "rangesummarymodel.h"

#include "style/durationformat.h"

#include "model/trace.h"

namespace lanescope {

RangeSummaryModel::RangeSummaryModel(QObject *parent) : QAbstractTableModel(parent) {}

void RangeSummaryModel::setTrace(std::shared_ptr<const Trace> trace)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_rows.clear();
    m_t0 = m_t1 = 0;
    endResetModel();
}

void RangeSummaryModel::setRange(int64_t t0, int64_t t1)
{
    beginResetModel();
    m_t0 = t0;
    m_t1 = t1;
    if (m_trace && t1 > t0)
        m_rows = RangeSummary::compute(*m_trace, t0, t1);
    else
        m_rows.clear();
    endResetModel();
}

int RangeSummaryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RangeSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RangeSummaryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()) || !m_trace)
        return {};
    const RangeSummary::Row &r = m_rows[size_t(index.row())];
    const auto name = [&] {
        const std::string_view v = m_trace->str(r.name);
        return QString::fromUtf8(v.data(), qsizetype(v.size()));
    };
    if (role == SortRole) {
        switch (index.column()) {
        case Name: return name();
        case Count: return qulonglong(r.count);
        case Total: return qlonglong(r.total);
        case Self: return qlonglong(r.self);
        case Average: return r.average();
        default: return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name: return name();
        case Count: return QString::number(r.count);
        case Total: return DurationFormat::format(r.total);
        case Self: return DurationFormat::format(r.self);
        case Average: return DurationFormat::format(int64_t(r.average() + 0.5));
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && index.column() == Name)
        return name();
    return {};
}

QVariant RangeSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Name");
    case Count: return tr("Count");
    case Total: return tr("Total");
    case Self: return tr("Self");
    case Average: return tr("Average");
    default: return {};
    }
}

} // namespace lanescope
