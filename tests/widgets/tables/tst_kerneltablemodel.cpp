// KernelTableModel: QAbstractItemModelTester, raw sort values, launcher text.
#include "tables/kerneltablemodel.h"

#include "analysis/launchindex.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace lanescope;

class TestKernelTableModel : public QObject
{
    Q_OBJECT
private slots:
    void modelContract()
    {
        const LoadResult loaded = TraceLoader::load(LANESCOPE_TEST_DATA "/optable_fixture.json");
        QVERIFY(loaded.ok());
        const LaunchIndex index = LaunchIndex::build(*loaded.trace);
        KernelTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(KernelTable::compute(*loaded.trace, index, KernelTable::Options()));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(KernelTable::Column::ColumnCount));
        const auto at = [&](int r, KernelTable::Column c, int role) { return model.data(model.index(r, int(c)), role); };
        QCOMPARE(at(0, KernelTable::Column::Name, Qt::DisplayRole).toString(), QStringLiteral("gemm"));
        QCOMPARE(at(0, KernelTable::Column::Total, KernelTableModel::SortRole).toDouble(), 70000.0);
        QCOMPARE(at(0, KernelTable::Column::Count, KernelTableModel::SortRole).toULongLong(), 3ull);
        QCOMPARE(at(0, KernelTable::Column::LaunchedBy, Qt::DisplayRole).toString(), QStringLiteral("aten::mm (+1 more)"));
        QCOMPARE(at(0, KernelTable::Column::LaunchedBy, KernelTableModel::SortRole).toString(), QStringLiteral("aten::mm"));
        QCOMPARE(at(2, KernelTable::Column::LaunchedBy, Qt::DisplayRole).toString(), QStringLiteral("(unattributed)"));
        QCOMPARE(at(1, KernelTable::Column::Kind, Qt::DisplayRole).toString(), QStringLiteral("memcpy"));
        model.setResult({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestKernelTableModel)
#include "tst_kerneltablemodel.moc"
