#include "rankstepmodel.h"

#include "style/durationformat.h"

#include <QFont>

namespace lanescope {

RankStepModel::RankStepModel(QObject *parent) : QAbstractTableModel(parent) {}

void RankStepModel::setResult(RankStepTable::Result result)
{
    beginResetModel();
    m_result = std::move(result);
    m_slowestNames.clear();
    for (const RankStepTable::Row &r : m_result.rows)
        m_slowestNames << QString::fromStdString(r.slowestStepName);
    endResetModel();
}

int RankStepModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_result.rows.size());
}

int RankStepModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(ColumnCount);
}

QVariant RankStepModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_result.rows.size()) || index.column() >= int(ColumnCount))
        return {};
    const RankStepTable::Row &r = m_result.rows[size_t(index.row())];
    const int c = index.column();
    if (role == SortRole || role == Qt::DisplayRole) {
        const bool display = role == Qt::DisplayRole;
        switch (c) {
        case Rank: return display ? QVariant(tr("Rank %1").arg(r.rank)) : QVariant(qlonglong(r.rank));
        case Steps: return display ? QVariant(QString::number(r.steps)) : QVariant(qulonglong(r.steps));
        case Median: return display ? QVariant(DurationFormat::format(r.median)) : QVariant(qlonglong(r.median));
        case P90: return display ? QVariant(DurationFormat::format(r.p90)) : QVariant(qlonglong(r.p90));
        case Slowest: return display ? QVariant(DurationFormat::format(r.slowest)) : QVariant(qlonglong(r.slowest));
        case SlowestStep: return m_slowestNames.value(index.row());
        case Ratio: return display ? QVariant(QStringLiteral("%1 x").arg(r.ratio, 0, 'f', 2)) : QVariant(r.ratio);
        case Straggler: return display ? QVariant(r.straggler ? tr("straggler") : QString()) : QVariant(r.straggler);
        default: return {};
        }
    }
    if (role == Qt::FontRole && r.straggler) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole && r.straggler)
        return tr("Median step time more than %1 % above the median of ranks (%2)")
            .arg(qRound((RankStepTable::kStragglerRatio - 1.0) * 100))
            .arg(DurationFormat::format(m_result.medianOfRanks));
    if (role == Qt::TextAlignmentRole && c != Rank && c != SlowestStep && c != Straggler)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QVariant RankStepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) { // short, so every header fits its column; the tooltip says the rest
        switch (section) {
        case Rank: return tr("Rank");
        case Steps: return tr("Steps");
        case Median: return tr("Median step");
        case P90: return tr("p90");
        case Slowest: return tr("Slowest");
        case SlowestStep: return tr("Slowest step");
        case Ratio: return tr("Ratio");
        case Straggler: return tr("Straggler");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Rank: return tr("The rank (distributedInfo.rank, else from the file or folder name)");
        case Steps: return tr("ProfilerStep#N occurrences of the rank");
        case Median: return tr("Median step time of the rank");
        case P90: return tr("90th percentile step time of the rank (nearest rank)");
        case Slowest: return tr("The rank's longest step time");
        case SlowestStep: return tr("The rank's longest step");
        case Ratio:
            return tr("x median of ranks: the rank's median step time divided by the median of the ranks' medians (%1)")
                .arg(DurationFormat::format(m_result.medianOfRanks));
        case Straggler:
            return tr("A straggler's median step time is more than %1 % above the median of ranks")
                .arg(qRound((RankStepTable::kStragglerRatio - 1.0) * 100));
        default: return {};
        }
    }
    return {};
}

} // namespace lanescope
