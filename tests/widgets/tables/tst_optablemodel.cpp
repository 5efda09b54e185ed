// OpTableModel: QAbstractItemModelTester, raw sort values, display text, headers.
#include "tables/optablemodel.h"

#include "analysis/launchindex.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace lanescope;

class TestOpTableModel : public QObject
{
    Q_OBJECT
private slots:
    void modelContract()
    {
        const LoadResult loaded = TraceLoader::load(LANESCOPE_TEST_DATA "/optable_fixture.json");
        QVERIFY(loaded.ok());
        const LaunchIndex index = LaunchIndex::build(*loaded.trace);
        OpTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setResult(OpTable::compute(*loaded.trace, index, OpTable::Options()));
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(OpTable::Column::Count));
        // default order: CPU total, longest first -> ProfilerStep* in row 0
        const auto at = [&](int r, OpTable::Column c, int role) { return model.data(model.index(r, int(c)), role); };
        QCOMPARE(at(0, OpTable::Column::Name, Qt::DisplayRole).toString(), QStringLiteral("ProfilerStep*"));
        QCOMPARE(at(0, OpTable::Column::CpuTotal, OpTableModel::SortRole).toDouble(), 150000.0);
        QCOMPARE(at(0, OpTable::Column::CpuSelf, Qt::DisplayRole).toString(), QStringLiteral("70 µs"));
        QCOMPARE(at(0, OpTable::Column::Calls, OpTableModel::SortRole).toULongLong(), 2ull);
        QCOMPARE(model.headerData(int(OpTable::Column::DeviceSelf), Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("device_self_ns"));
        // sorting through a proxy by the raw role: device self, largest first
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(OpTableModel::SortRole);
        proxy.sort(int(OpTable::Column::DeviceSelf), Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, 0)).toString(), QStringLiteral("aten::mm"));
        QCOMPARE(proxy.data(proxy.index(1, 0)).toString(), QStringLiteral("aten::linear"));
        model.setResult({});
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.data(model.index(0, 0)).isValid());
    }
};

QTEST_MAIN(TestOpTableModel)
#include "tst_optablemodel.moc"
