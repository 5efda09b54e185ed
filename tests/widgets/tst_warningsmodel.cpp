// WarningsModel: shape, roles, sorting by raw counts, and QAbstractItemModelTester on every change.
#include "warningsmodel.h"

#include "model/diagnostics.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace lanescope;

class TestWarningsModel : public QObject
{
    Q_OBJECT

private:
    static std::vector<Warning> sample()
    {
        Diagnostics d;
        d.warn("flow ends without a start", "byte 1234", 8928);
        d.warn("unmatched E event", "event #17", 3);
        d.warn("slices overlap", {}, 120);
        return d.warnings();
    }

private slots:
    void emptyModel()
    {
        WarningsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(WarningsModel::ColumnCount));
        QCOMPARE(model.total(), uint64_t(0));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void contents()
    {
        WarningsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setWarnings(sample());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.total(), uint64_t(8928 + 3 + 120));
        const auto at = [&](int row, int column, int role = Qt::DisplayRole) {
            return model.data(model.index(row, column), role);
        };
        QCOMPARE(at(0, WarningsModel::Count).toString(), QStringLiteral("8,928"));
        QCOMPARE(at(0, WarningsModel::Message).toString(), QStringLiteral("flow ends without a start"));
        QCOMPARE(at(0, WarningsModel::FirstSeen).toString(), QStringLiteral("byte 1234"));
        QCOMPARE(at(0, WarningsModel::Count, WarningsModel::SortRole).toULongLong(), 8928ull);
        QCOMPARE(at(2, WarningsModel::FirstSeen).toString(), QString());
        QVERIFY(at(0, WarningsModel::Message, Qt::ToolTipRole).toString().contains(QStringLiteral("8,928")));
        QCOMPARE(model.headerData(WarningsModel::Count, Qt::Horizontal).toString(), QStringLiteral("Count"));
        QVERIFY(!model.data(QModelIndex()).isValid());
        model.setWarnings({});
        QCOMPARE(model.rowCount(), 0);
    }

    void sortsByRawCount()
    {
        WarningsModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(WarningsModel::SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setWarnings(sample());
        proxy.sort(WarningsModel::Count, Qt::DescendingOrder);
        // As text "8,928" < "120" < "3" would sort wrongly; raw numbers give 8928, 120, 3.
        QCOMPARE(proxy.index(0, WarningsModel::Count).data().toString(), QStringLiteral("8,928"));
        QCOMPARE(proxy.index(1, WarningsModel::Count).data().toString(), QStringLiteral("120"));
        QCOMPARE(proxy.index(2, WarningsModel::Count).data().toString(), QStringLiteral("3"));
        proxy.sort(WarningsModel::Message, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, WarningsModel::Message).data().toString(), QStringLiteral("flow ends without a start"));
    }
};

QTEST_GUILESS_MAIN(TestWarningsModel)
#include "tst_warningsmodel.moc"
