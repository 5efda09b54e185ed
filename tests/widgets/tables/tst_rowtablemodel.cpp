// RowModel over TableRows, as the Analysis panel's operator, kernel and device tables
// (AnalysisRowModels): QAbstractItemModelTester, the columns in the order of each table's Column enum
// (found by key), raw values under SortRole, display text, alignment, headers and tooltips.
#include "tables/analysisrowmodels.h"

#include "analysis/launchindex.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <memory>

using namespace lanescope;

namespace {

struct Fixture
{
    LoadResult loaded = TraceLoader::load(LANESCOPE_TEST_DATA "/optable_fixture.json");
    LaunchIndex index = loaded.ok() ? LaunchIndex::build(*loaded.trace) : LaunchIndex();
};

// The model column of every column of `Table` is its enum value: the view and these tests may
// name columns by the enum, and the CLI's --sort names are the keys.
template <typename Table, typename Column> bool columnsInEnumOrder(const RowTableModel &model, Column count)
{
    for (int c = 0; c < int(count); ++c)
        if (model.column(Table::columnName(Column(c))) != c || std::string_view(model.key(c)) != Table::columnName(Column(c)))
            return false;
    return model.columnCount() == int(count);
}

bool rightAligned(const QVariant &v)
{
    return v.isValid() && v.value<Qt::Alignment>() == (Qt::AlignRight | Qt::AlignVCenter);
}

} // namespace

class TestRowTableModel : public QObject
{
    Q_OBJECT
private slots:
    void operators()
    {
        const Fixture f;
        QVERIFY(f.loaded.ok());
        std::unique_ptr<OpRowModel> model(AnalysisRowModels::ops());
        QAbstractItemModelTester tester(model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 0);
        model->setResult(OpTable::compute(*f.loaded.trace, f.index, OpTable::Options()));
        QCOMPARE(model->rowCount(), 5);
        QVERIFY((columnsInEnumOrder<OpTable>(*model, OpTable::Column::Count)));
        // default order: CPU total, longest first -> ProfilerStep* in row 0
        using C = OpTable::Column;
        const auto at = [&](int r, C c, int role) { return model->data(model->index(r, int(c)), role); };
        QCOMPARE(at(0, C::Name, Qt::DisplayRole).toString(), QStringLiteral("ProfilerStep*"));
        QCOMPARE(at(0, C::Name, RowTableModel::SortRole).toString(), QStringLiteral("ProfilerStep*"));
        QCOMPARE(at(0, C::CpuTotal, RowTableModel::SortRole).toDouble(), 150000.0);
        QCOMPARE(at(0, C::CpuSelf, Qt::DisplayRole).toString(), QStringLiteral("70 µs"));
        QCOMPARE(at(0, C::Calls, RowTableModel::SortRole).toULongLong(), 2ull);
        QCOMPARE(at(0, C::Calls, Qt::DisplayRole).toString(), QStringLiteral("2"));
        QCOMPARE(at(0, C::CpuAvg, RowTableModel::SortRole).toDouble(), model->row(0)->cpuAvg());
        QCOMPARE(at(0, C::CpuSelfPercent, Qt::DisplayRole).toString(),
                 QStringLiteral("%1 %").arg(model->row(0)->cpuSelfPercent, 0, 'f', 2));
        QVERIFY(at(0, C::Shapes, Qt::DisplayRole).toString().isEmpty()); // not grouped by shapes
        QVERIFY(rightAligned(at(0, C::CpuTotal, Qt::TextAlignmentRole)));
        QVERIFY(!at(0, C::Name, Qt::TextAlignmentRole).isValid());
        QCOMPARE(model->headerData(int(C::DeviceSelf), Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("device_self_ns"));
        QCOMPARE(model->headerData(int(C::CpuSelf), Qt::Horizontal).toString(), QStringLiteral("CPU self"));
        QCOMPARE(model->headerData(int(C::Shapes), Qt::Horizontal).toString(), QStringLiteral("Input shapes"));
        // the name's tooltip says which rows are runtime calls
        int runtime = -1;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->row(r)->runtime)
                runtime = r;
        QVERIFY(runtime >= 0);
        QCOMPARE(at(runtime, C::Name, Qt::ToolTipRole).toString(), QString::fromStdString(model->row(runtime)->name) + QStringLiteral(" (runtime call)"));
        QCOMPARE(at(0, C::Name, Qt::ToolTipRole).toString(), QStringLiteral("ProfilerStep*"));
        QVERIFY(!at(0, C::CpuTotal, Qt::ToolTipRole).isValid());
        // sorting through a proxy by the raw role: device self, largest first
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(model.get());
        proxy.setSortRole(RowTableModel::SortRole);
        proxy.sort(int(C::DeviceSelf), Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, 0)).toString(), QStringLiteral("aten::mm"));
        QCOMPARE(proxy.data(proxy.index(1, 0)).toString(), QStringLiteral("aten::linear"));
        // grouped by shapes, the column holds them
        OpTable::Options shapes;
        shapes.groupByShapes = true;
        model->setResult(OpTable::compute(*f.loaded.trace, f.index, shapes));
        QCOMPARE(model->rowCount(), 6);
        QCOMPARE(at(0, C::Shapes, Qt::DisplayRole).toString(), QString::fromStdString(model->row(0)->shapes));
        model->setResult({});
        QCOMPARE(model->rowCount(), 0);
        QVERIFY(!model->data(model->index(0, 0)).isValid());
        QVERIFY(!model->row(0));
    }

    void kernels()
    {
        const Fixture f;
        QVERIFY(f.loaded.ok());
        std::unique_ptr<KernelRowModel> model(AnalysisRowModels::kernels());
        QAbstractItemModelTester tester(model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        model->setResult(KernelTable::compute(*f.loaded.trace, f.index, KernelTable::Options()));
        QCOMPARE(model->rowCount(), 3);
        QVERIFY((columnsInEnumOrder<KernelTable>(*model, KernelTable::Column::ColumnCount)));
        QCOMPARE(model->column("launchers"), -1); // JSON and CSV only: "Launched by" says "(+N more)"
        using C = KernelTable::Column;
        const auto at = [&](int r, C c, int role) { return model->data(model->index(r, int(c)), role); };
        QCOMPARE(at(0, C::Name, Qt::DisplayRole).toString(), QStringLiteral("gemm"));
        QCOMPARE(at(0, C::Name, Qt::ToolTipRole).toString(), QStringLiteral("gemm"));
        QCOMPARE(at(0, C::Total, RowTableModel::SortRole).toDouble(), 70000.0);
        QCOMPARE(at(0, C::Count, RowTableModel::SortRole).toULongLong(), 3ull);
        QCOMPARE(at(0, C::LaunchedBy, Qt::DisplayRole).toString(), QStringLiteral("aten::mm (+1 more)"));
        QCOMPARE(at(0, C::LaunchedBy, RowTableModel::SortRole).toString(), QStringLiteral("aten::mm"));
        QCOMPARE(at(0, C::LaunchedBy, Qt::ToolTipRole).toString(), QStringLiteral("aten::mm"));
        QCOMPARE(at(2, C::LaunchedBy, Qt::DisplayRole).toString(), QStringLiteral("(unattributed)"));
        QVERIFY(at(2, C::LaunchedBy, RowTableModel::SortRole).toString().isEmpty());
        QCOMPARE(at(1, C::Kind, Qt::DisplayRole).toString(), QStringLiteral("memcpy"));
        QCOMPARE(at(0, C::Percent, Qt::DisplayRole).toString(), QStringLiteral("%1 %").arg(model->row(0)->percent, 0, 'f', 2));
        QCOMPARE(at(0, C::Percent, Qt::ToolTipRole).toString(), QStringLiteral("of the device time in kernels, copies and executions"));
        QVERIFY(rightAligned(at(0, C::Percent, Qt::TextAlignmentRole)));
        QVERIFY(!at(0, C::Kind, Qt::TextAlignmentRole).isValid());
        QCOMPARE(model->headerData(int(C::Percent), Qt::Horizontal).toString(), QStringLiteral("% of device"));
        QCOMPARE(model->headerData(int(C::Percent), Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("percent"));
        model->setResult({});
        QCOMPARE(model->rowCount(), 0);
    }

    void devices()
    {
        const Fixture f;
        QVERIFY(f.loaded.ok());
        std::unique_ptr<DeviceRowModel> model(AnalysisRowModels::devices());
        QAbstractItemModelTester tester(model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        model->setResult(DeviceSummary::compute(*f.loaded.trace, f.index, DeviceSummary::Options()));
        QCOMPARE(model->rowCount(), 1);
        QVERIFY((columnsInEnumOrder<DeviceSummary>(*model, DeviceSummary::Column::ColumnCount)));
        using C = DeviceSummary::Column;
        const auto at = [&](C c, int role) { return model->data(model->index(0, int(c)), role); };
        QCOMPARE(at(C::Device, Qt::DisplayRole).toString(), QStringLiteral("GPU 0"));
        QCOMPARE(at(C::Busy, RowTableModel::SortRole).toDouble(), 95000.0);
        QCOMPARE(at(C::Idle, RowTableModel::SortRole).toDouble(), 120000.0);
        QCOMPARE(at(C::Busy, Qt::DisplayRole).toString(), QStringLiteral("95 µs"));
        QCOMPARE(at(C::BusyPercent, Qt::DisplayRole).toString(), QStringLiteral("44.19 %"));
        QCOMPARE(at(C::Work, Qt::DisplayRole).toString(), QString::number(model->rows()[0].work));
        QVERIFY(!at(C::Device, Qt::ToolTipRole).isValid());
        QCOMPARE(model->headerData(int(C::Memcpy), Qt::Horizontal).toString(), QStringLiteral("Memcpy / DMA"));
        QCOMPARE(model->headerData(int(C::Work), Qt::Horizontal).toString(), QStringLiteral("Work items"));
        model->setResult({});
        QCOMPARE(model->rowCount(), 0);
    }
};

QTEST_MAIN(TestRowTableModel)
#include "tst_rowtablemodel.moc"
