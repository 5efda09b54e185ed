// DeviceSummaryModel: QAbstractItemModelTester, raw sort values.
#include "tables/devicesummarymodel.h"

#include "analysis/launchindex.h"
#include "io/traceloader.h"
#include "model/trace.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace lanescope;

class TestDeviceSummaryModel : public QObject
{
    Q_OBJECT
private slots:
    void modelContract()
    {
        const LoadResult loaded = TraceLoader::load(LANESCOPE_TEST_DATA "/optable_fixture.json");
        QVERIFY(loaded.ok());
        const LaunchIndex index = LaunchIndex::build(*loaded.trace);
        DeviceSummaryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(DeviceSummary::compute(*loaded.trace, index, DeviceSummary::Options()));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(DeviceSummary::Column::ColumnCount));
        const auto at = [&](DeviceSummary::Column c, int role) { return model.data(model.index(0, int(c)), role); };
        QCOMPARE(at(DeviceSummary::Column::Device, Qt::DisplayRole).toString(), QStringLiteral("GPU 0"));
        QCOMPARE(at(DeviceSummary::Column::Busy, DeviceSummaryModel::SortRole).toDouble(), 95000.0);
        QCOMPARE(at(DeviceSummary::Column::Idle, DeviceSummaryModel::SortRole).toDouble(), 120000.0);
        QCOMPARE(at(DeviceSummary::Column::Busy, Qt::DisplayRole).toString(), QStringLiteral("95 µs"));
        QCOMPARE(at(DeviceSummary::Column::BusyPercent, Qt::DisplayRole).toString(), QStringLiteral("44.19 %"));
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestDeviceSummaryModel)
#include "tst_devicesummarymodel.moc"
