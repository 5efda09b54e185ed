#pragma once
// The Analysis panel's operator, kernel and device tables: RowModels over TableRows::ops(true)
// (input_shapes is a column the view hides unless grouped by shapes), TableRows::kernels() and
// TableRows::devices(), with the touches only the GUI has: an op's name tooltip says
// "(runtime call)", a kernel's "Launched by" reads "(unattributed)" or "aten::mm (+1 more)", its
// percent tooltip names the level it is a share of.
#include "rowtablemodel.h"

#include "analysis/devicesummary.h"
#include "analysis/kerneltable.h"
#include "analysis/optable.h"

namespace lanescope {

using OpRowModel = RowModel<OpTable::Row, OpTable::Result>;
using KernelRowModel = RowModel<KernelTable::Row, KernelTable::Result>;
using DeviceRowModel = RowModel<DeviceSummary::Row>;

class AnalysisRowModels
{
public:
    static OpRowModel *ops(QObject *parent = nullptr);
    static KernelRowModel *kernels(QObject *parent = nullptr);
    static DeviceRowModel *devices(QObject *parent = nullptr);
};

} // namespace lanescope
