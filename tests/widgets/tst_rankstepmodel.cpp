// RankStepModel: the per-rank step table as a Qt model (QAbstractItemModelTester), raw numbers under
// SortRole, the straggler bold with its rule in the tooltip; fed by RankStepTable on a rank set written
// as Kineto JSON and loaded through the real loader.
#include "loadtrace.h"

#include "rankstepmodel.h"

#include "analysis/launchindex.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QFont>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

class TestRankStepModel : public QObject
{
    Q_OBJECT

private slots:
    void model()
    {
        QTemporaryDir dir;
        const int stepUs[3] = {1000, 1000, 1500};
        for (int r = 0; r < 3; ++r) {
            std::string json = "{\"distributedInfo\": {\"rank\": " + std::to_string(r) + "}, \"traceEvents\": [";
            for (int s = 0; s < 3; ++s)
                json += std::string(s ? "," : "") + "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#" + std::to_string(s) +
                        "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(100 + s * 2000) + ", \"dur\": " + std::to_string(stepUs[r] + s) + "}";
            json += "]}";
            QFile f(dir.filePath(QStringLiteral("w%1.json").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(json.data(), qint64(json.size())) == qint64(json.size()));
        }
        const auto t = test::load(dir.path());
        QVERIFY(t);
        RankStepModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(RankStepTable::compute(*t, LaunchIndex::build(*t), {}), t.get());
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
        model.setResult({}, nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestRankStepModel)
#include "tst_rankstepmodel.moc"
