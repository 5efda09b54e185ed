// CompareSession + DiffTableModel + DiffView: profiles loaded in the background, the combined trace
// and the diff delivered by signal, metric and pair changes, errors kept next to a live comparison.
#include "compare/difftablemodel.h"
#include "compare/diffview.h"
#include "session/comparesession.h"

#include "analysis/launchindex.h"
#include "analysis/optable.h"
#include "model/trace.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

using namespace lanescope;

namespace {

QString data(const char *name)
{
    return QStringLiteral(LANESCOPE_TEST_DATA "/diff/") + QLatin1String(name);
}

} // namespace

class TestCompareSession : public QObject
{
    Q_OBJECT
private slots:
    void loadsComparesAndDiffs();
    void failedLoadIsReported();
    void badAlignmentKeepsTheComparison();
    void diffTableModel();
};

void TestCompareSession::loadsComparesAndDiffs()
{
    CompareSession session;
    QSignalSpy ready(&session, &CompareSession::comparisonReady);
    session.open({data("a.json"), data("b.json")}, {QStringLiteral("before"), QStringLiteral("after")});
    QVERIFY(session.isBusy());
    QVERIFY(ready.wait(20000));
    QVERIFY(!session.isBusy());
    QVERIFY(session.isActive());
    QCOMPARE(session.profiles().size(), size_t(2));
    QCOMPARE(session.labels(), (QStringList{QStringLiteral("before"), QStringLiteral("after")}));
    const Trace &c = *session.comparison().combined;
    QCOMPARE(c.allSlices().size(), session.profiles()[0]->allSlices().size() + session.profiles()[1]->allSlices().size());
    QCOMPARE(session.diff().total.aNs, int64_t(250000));
    QCOMPARE(session.diff().total.bNs, int64_t(310000));

    QSignalSpy diffReady(&session, &CompareSession::diffReady);
    session.setMetric(DiffMetric::Cpu);
    QVERIFY(diffReady.wait(20000));
    QCOMPARE(session.diff().metric, DiffMetric::Cpu);
    // CPU self adds up to the root durations: both steps last 1 ms.
    const Trace &after = *session.profiles()[1];
    QCOMPARE(session.diff().total.bNs, OpTable::compute(after, LaunchIndex::build(after), {}).cpuSelfTotal);
    QCOMPARE(session.diff().total.deltaNs(), int64_t(0));
    session.setMetric(DiffMetric::Device);
    QVERIFY(diffReady.wait(20000));
    session.setDiffPair(1, 0); // after vs before: the deltas flip
    QVERIFY(diffReady.wait(20000));
    QCOMPARE(session.diff().total.aNs, int64_t(310000));
    QCOMPARE(session.diff().total.deltaNs(), int64_t(-60000));

    DiffView view;
    view.setSession(&session);
    QCOMPARE(view.opsModel()->rowCount(), int(session.diff().ops.size()));
    QVERIFY(view.opsModel()->rowCount() > 0);
    QCOMPARE(view.opsModel()->headerData(DiffTableModel::A, Qt::Horizontal).toString(), QStringLiteral("after"));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(view.exportCsv(dir.filePath(QStringLiteral("d.csv")), &error), qPrintable(error));
    QFile csv(dir.filePath(QStringLiteral("d.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QByteArray text = csv.readAll();
    QVERIFY(text.startsWith("name,kind,after_ns,before_ns,delta_ns,delta_pct,after_calls,before_calls\n"));
    QCOMPARE(text.count('\n'), view.opsModel()->rowCount() + 1);
}

void TestCompareSession::failedLoadIsReported()
{
    CompareSession session;
    QSignalSpy failed(&session, &CompareSession::failed);
    session.open({data("a.json"), data("missing.json")});
    QVERIFY(failed.wait(20000));
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("missing.json")));
    QVERIFY(!session.isActive());
    QVERIFY(!session.isBusy());
}

void TestCompareSession::badAlignmentKeepsTheComparison()
{
    CompareSession session;
    QSignalSpy ready(&session, &CompareSession::comparisonReady);
    session.open({data("a.json"), data("b.json")});
    QVERIFY(ready.wait(20000));
    const auto combined = session.comparison().combined;
    QSignalSpy failed(&session, &CompareSession::failed);
    CompareOptions o;
    o.anchor.kind = CompareAnchor::Kind::Step;
    o.anchor.step = 7; // only ProfilerStep#1 exists
    session.setOptions(o);
    QVERIFY(failed.wait(20000));
    QCOMPARE(failed.first().first().toString(), QStringLiteral("profile A (a.json): no slice named ProfilerStep#7"));
    QCOMPARE(session.comparison().combined, combined); // still on screen
    o.anchor.step = 1;
    session.setOptions(o);
    QVERIFY(ready.wait(20000));
    QCOMPARE(session.comparison().offsetsNs[0], -session.profiles()[0]->startNs());
}

void TestCompareSession::diffTableModel()
{
    DiffTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows(ProfileDiff::join({{"slow", "op", 100, 0, 1, 0}, {"fast", "op", 100, 0, 1, 0}},
                                    {{"slow", "op", 150, 0, 2, 0}, {"fast", "op", 40, 0, 1, 0}, {"new", "kernel", 5, 0, 1, 0}}),
                  QStringLiteral("A"), QStringLiteral("B"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.data(model.index(0, DiffTableModel::Name)).toString(), QStringLiteral("slow"));
    QCOMPARE(model.data(model.index(0, DiffTableModel::Delta), DiffTableModel::SortRole).toLongLong(), 50);
    QCOMPARE(model.data(model.index(0, DiffTableModel::DeltaPercent)).toString(), QStringLiteral("+50.0 %"));
    QCOMPARE(model.data(model.index(1, DiffTableModel::Name)).toString(), QStringLiteral("new"));
    QCOMPARE(model.data(model.index(1, DiffTableModel::DeltaPercent)).toString(), QStringLiteral("new"));
    QVERIFY(std::isinf(model.data(model.index(1, DiffTableModel::DeltaPercent), DiffTableModel::SortRole).toDouble()));
    QCOMPARE(model.data(model.index(2, DiffTableModel::CallsB), DiffTableModel::SortRole).toULongLong(), 1ull);
    const QColor regression = model.data(model.index(0, DiffTableModel::Delta), Qt::ForegroundRole).value<QBrush>().color();
    const QColor improvement = model.data(model.index(2, DiffTableModel::Delta), Qt::ForegroundRole).value<QBrush>().color();
    QVERIFY(regression.red() > regression.green());
    QVERIFY(improvement.green() > improvement.red());
}

QTEST_MAIN(TestCompareSession)
#include "tst_comparesession.moc"
