// AnalysisTablesView: background recompute, range following, filter, shapes toggle, row activation
// and stepping, CSV export; the real corpus trace and the big xdit trace for responsiveness.
#include "corpus.h"
#include "tables/analysistablesview.h"
#include "tables/placeholdertableview.h"

#include "io/traceloader.h"
#include "model/trace.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;
using Table = AnalysisTablesView::Table;

namespace {

std::shared_ptr<const Trace> fixture()
{
    const LoadResult r = TraceLoader::load(LANESCOPE_TEST_DATA "/optable_fixture.json");
    return r.trace;
}

bool waitComputed(AnalysisTablesView &v, QSignalSpy &spy)
{
    return QTest::qWaitFor([&] { return !v.isComputing() && !spy.isEmpty(); }, 60000);
}

} // namespace

class TestAnalysisTablesView : public QObject
{
    Q_OBJECT
private slots:
    void computesInBackground()
    {
        AnalysisTablesView v;
        QAbstractItemModelTester t1(v.opModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(v.proxy(Table::Kernels), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(v.deviceModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy computed(&v, &AnalysisTablesView::computed);
        v.setTrace(fixture());
        QVERIFY(v.isComputing());
        QVERIFY(waitComputed(v, computed));
        QCOMPARE(v.opModel()->rowCount(), 5);
        QCOMPARE(v.kernelModel()->rowCount(), 3);
        QCOMPARE(v.deviceModel()->rowCount(), 1);
        // the view shows the op table sorted by CPU total
        QCOMPARE(v.proxy(Table::Operators)->data(v.proxy(Table::Operators)->index(0, 0)).toString(), QStringLiteral("ProfilerStep*"));
    }

    void followsRange()
    {
        AnalysisTablesView v;
        QSignalSpy computed(&v, &AnalysisTablesView::computed);
        v.setTrace(fixture());
        QVERIFY(waitComputed(v, computed));
        computed.clear();
        v.setRange(150000, 300000); // the second step only
        QVERIFY(waitComputed(v, computed));
        QVERIFY(v.hasRange());
        QCOMPARE(v.opModel()->rowCount(), 3);
        QCOMPARE(v.opModel()->result().unattributedDevice, 5000);
        computed.clear();
        // several quick changes: only the last one's result is shown
        v.setRange(0, 150000);
        v.setRange(0, 100);
        v.setRange(0, 0); // cleared: whole trace again
        QVERIFY(waitComputed(v, computed));
        QVERIFY(!v.hasRange());
        QCOMPARE(v.opModel()->rowCount(), 5);
    }

    void filterAndShapes()
    {
        AnalysisTablesView v;
        QSignalSpy computed(&v, &AnalysisTablesView::computed);
        v.setTrace(fixture());
        QVERIFY(waitComputed(v, computed));
        v.setFilter(QStringLiteral("ATEN::"));
        QCOMPARE(v.proxy(Table::Operators)->rowCount(), 2);
        QCOMPARE(v.proxy(Table::Kernels)->rowCount(), 0);
        const auto placeholder = [&v](Table t) { return static_cast<PlaceholderTableView *>(v.view(t))->placeholderText(); };
        QCOMPARE(placeholder(Table::Kernels), QStringLiteral("Nothing matches \u201cATEN::\u201d."));
        v.setFilter(QString());
        QVERIFY(v.view(Table::Operators)->isColumnHidden(v.opModel()->column("input_shapes")));
        computed.clear();
        v.setGroupByShapes(true);
        QVERIFY(waitComputed(v, computed));
        QCOMPARE(v.opModel()->rowCount(), 6);
        QVERIFY(!v.view(Table::Operators)->isColumnHidden(v.opModel()->column("input_shapes")));
    }

    // An empty table says why: a range without operators, or a trace without framework ops at all.
    void emptyTablesSayWhy()
    {
        AnalysisTablesView v;
        const auto placeholder = [&v](Table t) { return static_cast<PlaceholderTableView *>(v.view(t))->placeholderText(); };
        QSignalSpy computed(&v, &AnalysisTablesView::computed);
        const auto trace = fixture();
        v.setTrace(trace);
        QCOMPARE(placeholder(Table::Operators), QStringLiteral("Computing..."));
        QVERIFY(waitComputed(v, computed));
        QCOMPARE(placeholder(Table::Operators), QStringLiteral("No framework operators in this range.\n\nOperators come from a PyTorch profiler (Kineto) trace. An NTFF or a neuron-profile JSON alone holds device work: see Kernels and Devices."));
        computed.clear();
        v.setRange(trace->endNs() + 1000, trace->endNs() + 2000); // after every event
        QVERIFY(waitComputed(v, computed));
        QCOMPARE(v.proxy(Table::Operators)->rowCount(), 0);
        QVERIFY2(placeholder(Table::Operators).startsWith(QStringLiteral("No framework operators in this range.")),
                 qPrintable(placeholder(Table::Operators)));
        QVERIFY(placeholder(Table::Kernels).startsWith(QStringLiteral("No device kernels")));
    }

    void activationCyclesOccurrences()
    {
        AnalysisTablesView v;
        QSignalSpy computed(&v, &AnalysisTablesView::computed);
        v.setTrace(fixture());
        QVERIFY(waitComputed(v, computed));
        QSignalSpy selected(&v, &AnalysisTablesView::occurrencesSelected);
        QSignalSpy next(&v, &AnalysisTablesView::nextOccurrenceRequested);
        QSignalSpy activated(&v, &AnalysisTablesView::rowActivated);
        v.activateRow(Table::Kernels, 0); // gemm
        QCOMPARE(selected.size(), 1);
        const auto slices = selected[0][0].value<std::vector<uint32_t>>();
        QCOMPARE(slices.size(), size_t(3));
        QCOMPARE(activated[0][1].toString(), QStringLiteral("gemm"));
        v.activateRow(Table::Kernels, 0);
        QCOMPARE(next.size(), 1);
        QCOMPARE(selected.size(), 1);
        v.activateRow(Table::Operators, 0);
        QCOMPARE(selected.size(), 2);
        v.activateRow(Table::Devices, 0); // nothing to show on the timeline
        QCOMPARE(selected.size(), 2);

        // Return on the current row of a table does what a click does: the occurrences, then the next one
        QTableView *kernels = v.view(Table::Kernels);
        kernels->setCurrentIndex(kernels->model()->index(0, 0));
        QTest::keyClick(kernels, Qt::Key_Return);
        QCOMPARE(selected.size(), 3);
        QCOMPARE(activated.last()[1].toString(), QStringLiteral("gemm"));
        QTest::keyClick(kernels, Qt::Key_Enter);
        QCOMPARE(next.size(), 2);
        QCOMPARE(selected.size(), 3);
    }

    void csvExport()
    {
        AnalysisTablesView v;
        QSignalSpy computed(&v, &AnalysisTablesView::computed);
        v.setTrace(fixture());
        QVERIFY(waitComputed(v, computed));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ops.csv"));
        QVERIFY(v.exportCsv(Table::Operators, path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        QVERIFY(lines[0].startsWith(QLatin1String("name,input_shapes,calls,cpu_total_ns,cpu_self_ns")));
        QVERIFY2(lines[1].startsWith(QLatin1String("ProfilerStep*,,2,150000,70000,")), qPrintable(lines[1]));
        QVERIFY(!v.exportCsv(Table::Operators, dir.filePath(QStringLiteral("no/such/dir/x.csv"))));
        const QString kpath = dir.filePath(QStringLiteral("k.csv"));
        QVERIFY(v.exportCsv(Table::Kernels, kpath));
        QFile k(kpath);
        QVERIFY(k.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(k.readAll());
        QVERIFY(text.contains(QLatin1String("\"Memcpy HtoD (Pinned -> Device)\"")) || text.contains(QLatin1String("Memcpy HtoD (Pinned -> Device),")));
        QVERIFY(text.contains(QLatin1String("gemm,kernel,3,70000,")));
    }

    // On the 62 MB xdit trace the GUI thread is not blocked: setTrace returns at once, results
    // arrive later.
    void bigTraceStaysResponsive()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("tracelens/xdit_sd35_rank0.json.gz"));
        const LoadResult r = TraceLoader::load(lanescope::test::corpusFile(QStringLiteral("tracelens/xdit_sd35_rank0.json.gz")).toStdString());
        QVERIFY(r.ok());
        AnalysisTablesView v;
        QSignalSpy computed(&v, &AnalysisTablesView::computed);
        QElapsedTimer t;
        t.start();
        v.setTrace(r.trace);
        const qint64 call = t.elapsed();
        QVERIFY(waitComputed(v, computed));
        qInfo("setTrace returned after %lld ms, tables ready after %lld ms", call, t.elapsed());
        QVERIFY(call < 50);
        QVERIFY(v.opModel()->rowCount() > 100);
        t.restart();
        computed.clear();
        v.setRange(r.trace->startNs(), r.trace->startNs() + (r.trace->endNs() - r.trace->startNs()) / 4);
        QVERIFY(waitComputed(v, computed));
        qInfo("range recompute (index cached) %lld ms", t.elapsed());
    }
};

QTEST_MAIN(TestAnalysisTablesView)
#include "tst_analysistablesview.moc"
