#include "analysisrowmodels.h"

#include "analysis/tablerows.h"

namespace lanescope {

namespace {

QString text(const std::string &s) { return QString::fromStdString(s); }

} // namespace

OpRowModel *AnalysisRowModels::ops(QObject *parent)
{
    using R = OpTable::Row;
    return new OpRowModel(TableRows::ops(true),
                          {{"name",
                            [](const R &r, int role) -> QVariant {
                                if (role != Qt::ToolTipRole)
                                    return {};
                                return r.runtime ? RowTableModel::tr("%1 (runtime call)").arg(text(r.name)) : text(r.name);
                            }}},
                          parent);
}

KernelRowModel *AnalysisRowModels::kernels(QObject *parent)
{
    using R = KernelTable::Row;
    return new KernelRowModel(
        TableRows::kernels(),
        {{"name", [](const R &r, int role) { return role == Qt::ToolTipRole ? QVariant(text(r.name)) : QVariant(); }},
         {"launched_by",
          [](const R &r, int role) -> QVariant {
              if (role == Qt::ToolTipRole)
                  return text(r.launchedBy);
              if (role != Qt::DisplayRole)
                  return {};
              if (r.launchedBy.empty())
                  return RowTableModel::tr("(unattributed)");
              return r.launchers > 1 ? RowTableModel::tr("%1 (+%2 more)").arg(text(r.launchedBy)).arg(r.launchers - 1)
                                     : text(r.launchedBy);
          }},
         {"percent",
          [](const R &r, int role) -> QVariant {
              if (role != Qt::ToolTipRole)
                  return {};
              return LaunchIndex::isExecutionLevel(r.kind) ? RowTableModel::tr("of the device time in kernels, copies and executions")
                                                           : RowTableModel::tr("of the device time in Neuron opcodes and DMA packets");
          }}},
        parent);
}

DeviceRowModel *AnalysisRowModels::devices(QObject *parent)
{
    return new DeviceRowModel(TableRows::devices(), {}, parent);
}

} // namespace lanescope
