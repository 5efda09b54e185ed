// RankStepModel: the per-rank step table as a Qt model (QAbstractItemModelTester), raw numbers under
// SortRole, the straggler bold with its rule in the tooltip; fed by RankStepTable on a rank set written
// as Kineto JSON and loaded through the real loader. In the Analysis dock's Ranks tab at 1366 px every
// header shows its whole text (short headers, the meaning in their tooltips).
#include "loadtrace.h"

#include "tables/analysistablesview.h"
#include "tables/rankstepmodel.h"

#include "analysis/launchindex.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QFont>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

// Three ranks of three ProfilerStep#N each, rank 2 1.5 x slower, as Kineto writes them.
bool writeRankSet(const QTemporaryDir &dir)
{
    const int stepUs[3] = {1000, 1000, 1500};
    for (int r = 0; r < 3; ++r) {
        std::string json = "{\"distributedInfo\": {\"rank\": " + std::to_string(r) + "}, \"traceEvents\": [";
        for (int s = 0; s < 3; ++s)
            json += std::string(s ? "," : "") + "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#" + std::to_string(s) +
                    "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(100 + s * 2000) + ", \"dur\": " + std::to_string(stepUs[r] + s) + "}";
        json += "]}";
        QFile f(dir.filePath(QStringLiteral("w%1.json").arg(r)));
        if (!f.open(QIODevice::WriteOnly) || f.write(json.data(), qint64(json.size())) != qint64(json.size()))
            return false;
    }
    return true;
}

} // namespace

class TestRankStepModel : public QObject
{
    Q_OBJECT

private slots:
    void model()
    {
        QTemporaryDir dir;
        QVERIFY(writeRankSet(dir));
        const auto t = test::load(dir.path());
        QVERIFY(t);
        RankStepModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(RankStepTable::compute(*t, LaunchIndex::build(*t), {}));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(RankStepModel::ColumnCount));
        QCOMPARE(model.data(model.index(2, RankStepModel::Rank)).toString(), QStringLiteral("Rank 2"));
        QCOMPARE(model.data(model.index(2, RankStepModel::Median), RankStepModel::SortRole).toLongLong(), 1501000LL);
        QCOMPARE(model.data(model.index(2, RankStepModel::Straggler)).toString(), QStringLiteral("straggler"));
        QCOMPARE(model.data(model.index(2, RankStepModel::SlowestStep)).toString(), QStringLiteral("ProfilerStep#2"));
        QVERIFY(model.data(model.index(2, RankStepModel::Ratio), Qt::FontRole).value<QFont>().bold());
        QVERIFY(model.data(model.index(2, RankStepModel::Rank), Qt::ToolTipRole).toString().contains(QStringLiteral("10 %")));
        QVERIFY(!model.data(model.index(0, RankStepModel::Rank), Qt::FontRole).isValid());
        QCOMPARE(model.data(model.index(0, RankStepModel::Ratio)).toString(), QStringLiteral("1.00 x"));
        // Short headers, the full meaning in the tooltip.
        QCOMPARE(model.headerData(RankStepModel::Ratio, Qt::Horizontal).toString(), QStringLiteral("Ratio"));
        QVERIFY(model.headerData(RankStepModel::Ratio, Qt::Horizontal, Qt::ToolTipRole).toString().startsWith(QStringLiteral("x median of ranks")));
        QVERIFY2(model.headerData(RankStepModel::Ratio, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("(1.001 ms)")), qPrintable(model.headerData(RankStepModel::Ratio, Qt::Horizontal, Qt::ToolTipRole).toString()));
        QVERIFY(model.headerData(RankStepModel::Straggler, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("10 %")));
        model.setResult({});
        QCOMPARE(model.rowCount(), 0);
    }

    // The Ranks tab at the window's width on a small screen: no header is cut.
    void headersFitInTheRanksTab()
    {
        QTemporaryDir dir;
        QVERIFY(writeRankSet(dir));
        AnalysisTablesView tables;
        tables.resize(1366, 220);
        tables.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tables));
        QSignalSpy computed(&tables, &AnalysisTablesView::computed);
        tables.setTrace(test::load(dir.path()));
        QVERIFY(QTest::qWaitFor([&] { return !tables.isComputing() && !computed.isEmpty(); }, 60000));
        auto *view = tables.findChild<QTableView *>(QStringLiteral("rankStepView"));
        QVERIFY(view);
        auto *tabs = tables.findChild<QTabWidget *>();
        QVERIFY(tabs);
        tabs->setCurrentWidget(view); // the Ranks tab, as --analysis ranks shows it
        QTRY_VERIFY(view->viewport()->width() > 1300);
        QCOMPARE(view->model()->rowCount(), 3);
        const QHeaderView *header = view->horizontalHeader();
        for (int c = 0; c < RankStepModel::ColumnCount; ++c) {
            const QString text = view->model()->headerData(c, Qt::Horizontal).toString();
            QVERIFY2(header->sectionSize(c) >= header->sectionSizeHint(c), qPrintable(text)); // the header text, sort arrow included
            QVERIFY2(header->sectionSize(c) >= static_cast<const QAbstractItemView *>(view)->sizeHintForColumn(c), qPrintable(text)); // and every value
            QVERIFY2(header->sectionSize(c) > header->fontMetrics().horizontalAdvance(text), qPrintable(text));
        }
        int total = 0;
        for (int c = 0; c < RankStepModel::ColumnCount; ++c)
            total += header->sectionSize(c);
        QVERIFY2(total <= view->viewport()->width(), qPrintable(QStringLiteral("%1 > %2 %3").arg(total).arg(view->viewport()->width()).arg(header->sectionSize(RankStepModel::SlowestStep)))); // nothing off to the right at 1366 px
    }
};

QTEST_MAIN(TestRankStepModel)
#include "tst_rankstepmodel.moc"
