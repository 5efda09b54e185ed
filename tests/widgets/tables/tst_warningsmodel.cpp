// WarningsModel: shape, roles, sorting by raw counts, and QAbstractItemModelTester on every change.
#include "tables/warningsmodel.h"

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

    // Expected filtering (an NTFF's records before its trace window) is a greyed note that the
    // warning count leaves out.
    void notesAreGreyedAndNotCounted()
    {
        Diagnostics d;
        d.note("instructions starting before the trace window (skipped)", "byte 2048", 30);
        d.warn("instruction begins without an end (dropped)", "byte 4096", 2);
        WarningsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setWarnings(d.warnings());
        QCOMPARE(model.total(), uint64_t(2));
        QCOMPARE(model.notes(), uint64_t(30));
        QCOMPARE(model.headerData(WarningsModel::Kind, Qt::Horizontal).toString(), QStringLiteral("Kind"));
        QCOMPARE(model.index(0, WarningsModel::Kind).data().toString(), QStringLiteral("note"));
        QCOMPARE(model.index(1, WarningsModel::Kind).data().toString(), QStringLiteral("warning"));
        QCOMPARE(model.index(0, WarningsModel::Kind).data(WarningsModel::SortRole).toInt(), int(DiagnosticSeverity::Note));
        QCOMPARE(model.index(0, WarningsModel::Count).data().toString(), QStringLiteral("30"));
        // greyed: the note has a foreground, the warning the view's default
        QVERIFY(model.index(0, WarningsModel::Message).data(Qt::ForegroundRole).isValid());
        QVERIFY(!model.index(1, WarningsModel::Message).data(Qt::ForegroundRole).isValid());
        QVERIFY(model.index(0, WarningsModel::Message).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Note")));
    }
};

QTEST_GUILESS_MAIN(TestWarningsModel)
#include "tst_warningsmodel.moc"
