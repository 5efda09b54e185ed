// RangeSummaryModel: the rows of RangeSummary as a table, checked with QAbstractItemModelTester;
// the sort role returns raw numbers.
#include "tables/rangesummarymodel.h"

#include "model/tracebuilder.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace lanescope;

class TestRangeSummaryModel : public QObject
{
    Q_OBJECT
private slots:
    void rowsAndRoles()
    {
        TraceBuilder b;
        const StringId cat = b.intern("c");
        const GroupId p = b.addGroup(GroupKind::Process, b.intern("p"), {}, 1);
        const TrackId t = b.addTrack(p, TrackKind::Slices, b.intern("t"), 1);
        b.addSlice(t, 0, 1000, b.intern("outer"), cat);
        b.addSlice(t, 100, 200, b.intern("inner"), cat);
        b.addSlice(t, 500, 300, b.intern("inner"), cat);
        auto trace = std::make_shared<const Trace>(b.finish());

        RangeSummaryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(trace);
        QCOMPARE(model.rowCount(), 0);
        model.setRange(200, 600); // outer 400 (self 400 - 100 - 100), inner 100 + 100
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(RangeSummaryModel::ColumnCount));
        const auto value = [&](int row, int col, int role) { return model.data(model.index(row, col), role); };
        QCOMPARE(value(0, RangeSummaryModel::Name, Qt::DisplayRole).toString(), QStringLiteral("outer"));
        QCOMPARE(value(0, RangeSummaryModel::Total, RangeSummaryModel::SortRole).toLongLong(), 400);
        QCOMPARE(value(0, RangeSummaryModel::Self, RangeSummaryModel::SortRole).toLongLong(), 200);
        QCOMPARE(value(1, RangeSummaryModel::Count, RangeSummaryModel::SortRole).toULongLong(), 2ull);
        QCOMPARE(value(1, RangeSummaryModel::Average, RangeSummaryModel::SortRole).toDouble(), 100.0);
        QCOMPARE(value(1, RangeSummaryModel::Total, Qt::DisplayRole).toString(), QStringLiteral("200 ns"));
        QCOMPARE(model.headerData(RangeSummaryModel::Self, Qt::Horizontal).toString(), QStringLiteral("Self"));

        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(RangeSummaryModel::SortRole);
        proxy.sort(RangeSummaryModel::Count, Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, RangeSummaryModel::Name)).toString(), QStringLiteral("inner"));

        model.setRange(5000, 6000);
        QCOMPARE(model.rowCount(), 0);
        model.setTrace(nullptr);
        model.setRange(0, 10);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestRangeSummaryModel)
#include "tst_rangesummarymodel.moc"
