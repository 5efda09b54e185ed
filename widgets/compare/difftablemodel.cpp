#include "difftablemodel.h"

#include "style/durationformat.h"

#include <QBrush>
#include <QColor>

#include <limits>

namespace lanescope {

namespace {

QString pctText(std::optional<double> p)
{
    if (!p)
        return QObject::tr("new");
    return QString::asprintf("%+.1f %%", *p);
}

QString signedDuration(int64_t ns)
{
    if (ns == 0)
        return QStringLiteral("0");
    return (ns > 0 ? QStringLiteral("+") : QStringLiteral("−")) + DurationFormat::format(ns > 0 ? ns : -ns);
}

QString csvField(QString s)
{
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')))
        s = QLatin1Char('"') + s.replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
    return s;
}

} // namespace

DiffTableModel::DiffTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void DiffTableModel::setRows(std::vector<DiffRow> rows, const QString &labelA, const QString &labelB)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_labelA = labelA;
    m_labelB = labelB;
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

const DiffRow *DiffTableModel::row(int r) const
{
    return r >= 0 && size_t(r) < m_rows.size() ? &m_rows[size_t(r)] : nullptr;
}

int DiffTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DiffTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiffTableModel::data(const QModelIndex &index, int role) const
{
    const DiffRow *r = index.isValid() ? row(index.row()) : nullptr;
    if (!r || index.column() < 0 || index.column() >= ColumnCount)
        return {};
    const auto column = Column(index.column());
    if (role == NameRole)
        return QString::fromStdString(r->name);
    if (role == SortRole) {
        switch (column) {
        case Name: return QString::fromStdString(r->name);
        case Kind: return QString::fromStdString(r->kind);
        case A: return qlonglong(r->aNs);
        case B: return qlonglong(r->bNs);
        case Delta: return qlonglong(r->deltaNs());
        case DeltaPercent: return r->deltaPct() ? *r->deltaPct() : std::numeric_limits<double>::infinity();
        case CallsA: return qulonglong(r->aCalls);
        case CallsB: return qulonglong(r->bCalls);
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case Name: return QString::fromStdString(r->name);
        case Kind: return QString::fromStdString(r->kind);
        case A: return DurationFormat::format(r->aNs);
        case B: return DurationFormat::format(r->bNs);
        case Delta: return signedDuration(r->deltaNs());
        case DeltaPercent: return pctText(r->deltaPct());
        case CallsA: return QString::number(r->aCalls);
        case CallsB: return QString::number(r->bCalls);
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole && column != Name && column != Kind)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && (column == Delta || column == DeltaPercent) && r->deltaNs() != 0)
        return QBrush(r->deltaNs() > 0 ? QColor(0xc6, 0x28, 0x28) : QColor(0x2e, 0x7d, 0x32));
    if (role == Qt::ToolTipRole && column == Name)
        return QString::fromStdString(r->name);
    return {};
}

QVariant DiffTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Name: return tr("Name");
    case Kind: return tr("Kind");
    case A: return m_labelA;
    case B: return m_labelB;
    case Delta: return tr("Delta");
    case DeltaPercent: return tr("Delta %");
    case CallsA: return tr("Calls %1").arg(m_labelA);
    case CallsB: return tr("Calls %1").arg(m_labelB);
    case ColumnCount: break;
    }
    return {};
}

QString DiffTableModel::toCsv() const
{
    QString out = QStringLiteral("name,kind,%1_ns,%2_ns,delta_ns,delta_pct,%1_calls,%2_calls\n")
                      .arg(csvField(m_labelA), csvField(m_labelB));
    for (const DiffRow &r : m_rows) {
        out += csvField(QString::fromStdString(r.name)) + QLatin1Char(',') + csvField(QString::fromStdString(r.kind));
        out += QStringLiteral(",%1,%2,%3,").arg(r.aNs).arg(r.bNs).arg(r.deltaNs());
        out += r.deltaPct() ? QString::number(*r.deltaPct(), 'f', 3) : QString();
        out += QStringLiteral(",%1,%2\n").arg(r.aCalls).arg(r.bCalls);
    }
    return out;
}

} // namespace lanescope
