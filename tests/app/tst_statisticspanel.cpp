// The Statistics dock in the real main window, offscreen, on the bundled sample profile folder:
// Shift+S on a selected slice (a Neuron opcode) shows the numbers DurationStats computes for its name, a click on a
// histogram bar makes that bin's occurrences the timeline's matches, Slowest selects the longest
// occurrence, a marked range restricts the numbers, and in compare mode each profile is counted apart.
#include "corpus.h"

#include "mainwindow.h"
#include "session.h"
#include "session/comparesession.h"
#include "statisticspanel.h"

#include "charts/durationhistogramview.h"
#include "timeline/timelineview.h"

#include "analysis/durationstats.h"
#include "analysis/kerneltable.h"
#include "analysis/launchindex.h"
#include "io/synthetic/samplefolderwriter.h"
#include "model/trace.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

SliceId firstNamed(const Trace &t, std::string_view name)
{
    const auto all = t.allSlices();
    for (uint32_t i = 0; i < all.size(); ++i)
        if (t.str(all[i].name) == name)
            return SliceId(i);
    return {};
}

DurationStats::Row coreRow(const Trace &t, const std::string &name, bool range = false, int64_t t0 = 0, int64_t t1 = 0)
{
    DurationStats::Options o;
    o.pattern = QLatin1Char('^') + QRegularExpression::escape(QString::fromStdString(name)) + QLatin1Char('$');
    o.hasRange = range;
    o.t0 = t0;
    o.t1 = t1;
    const auto r = DurationStats::compute(t, o);
    return r.rows.empty() ? DurationStats::Row() : r.rows.front();
}

// Window pictures for looking at the dock, when $LANESCOPE_TEST_SHOTS names a folder.
void shoot(MainWindow &w, const QString &name, const QSize &size, bool dark)
{
    const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SHOTS");
    if (dir.isEmpty() || !QDir().mkpath(dir))
        return;
    w.setDarkTheme(dark);
    w.resize(size);
    QTest::qWait(50);
    w.grab().save(QStringLiteral("%1/%2_%3x%4_%5.png").arg(dir, name).arg(size.width()).arg(size.height())
                      .arg(dark ? QStringLiteral("dark") : QStringLiteral("light")));
}

void shootAll(MainWindow &w, const QString &name)
{
    for (const bool dark : {false, true})
        for (const QSize size : {QSize(1920, 1080), QSize(1366, 768)})
            shoot(w, name, size, dark);
    w.setDarkTheme(false);
}

} // namespace

class TestStatisticsPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_sample;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_sample = QString::fromStdString(SampleFolderWriter::write(m_dir.path().toStdString()));
    }

    void shiftSOnASelectedSlice()
    {
        MainWindow w;
        w.setQuietErrors(true);
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->open(m_sample);
        QVERIFY(finished.wait(60000));
        const auto trace = w.session()->trace();
        QVERIFY(trace);
        StatisticsPanel *panel = w.statisticsPanel();
        QVERIFY(panel);
        QCOMPARE(panel->objectName(), QStringLiteral("statisticsDock"));
        QAction *action = panel->statisticsAction();
        QCOMPARE(action->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_S));
        QVERIFY(!action->text().isEmpty());

        const SliceId activate = firstNamed(*trace, "ACTIVATE");
        QVERIFY(activate.isValid());
        w.session()->setSelectedSlice(activate);
        QSignalSpy computed(panel, &StatisticsPanel::computed);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.timeline()->setFocus();
        QTest::keyClick(w.timeline(), Qt::Key_S, Qt::ShiftModifier);
        QVERIFY(computed.wait(20000));
        QVERIFY(panel->isVisible());
        QCOMPARE(panel->shownName(), QStringLiteral("ACTIVATE"));
        const DurationStats::Row expected = coreRow(*trace, "ACTIVATE");
        const DurationStats::Row *row = panel->shownRow(0);
        QVERIFY(row);
        QVERIFY(expected.count > 1);
        QCOMPARE(row->count, expected.count);
        QCOMPARE(row->total, expected.total);
        QCOMPARE(row->p99, expected.p99);
        QVERIFY2(panel->numbersLabel()->text().contains(QString::number(expected.count)), qPrintable(panel->numbersLabel()->text()));

        // A bar: its occurrences become the timeline's matches, in time order.
        DurationHistogramView *h = panel->histogram();
        int bin = -1;
        for (size_t i = 0; i < h->series().front().bins.size() && bin < 0; ++i)
            if (h->series().front().bins[i].count)
                bin = int(i);
        QVERIFY(bin >= 0);
        const auto b = h->series().front().bins[size_t(bin)];
        QCOMPARE(h->binAt(h->binCenter(bin)), bin);
        QTest::mouseClick(h, Qt::LeftButton, {}, h->binCenter(bin));
        const auto &matches = w.timeline()->searchMatches();
        QCOMPARE(uint64_t(matches.size()), b.count);
        for (size_t i = 0; i < matches.size(); ++i) {
            const Slice &s = trace->slice(SliceId(matches[i]));
            QCOMPARE(trace->str(s.name), std::string_view("ACTIVATE"));
            QVERIFY(s.duration >= b.from && s.duration < b.to);
            if (i)
                QVERIFY(trace->slice(SliceId(matches[i - 1])).start <= s.start);
        }
        QCOMPARE(h->selectedBin(), bin);
        shootAll(w, QStringLiteral("stats_sample_activate"));

        panel->slowestButton()->click();
        QCOMPARE(w.session()->selectedSlice(), expected.slowest);
        panel->fastestButton()->click();
        QCOMPARE(w.session()->selectedSlice(), expected.fastest);

        // A marked range restricts the numbers.
        const int64_t t0 = trace->startNs(), t1 = trace->startNs() + (trace->endNs() - trace->startNs()) / 2;
        w.session()->setMarkedRange(t0, t1);
        QVERIFY(computed.wait(20000));
        const DurationStats::Row half = coreRow(*trace, "ACTIVATE", true, t0, t1);
        QVERIFY(panel->shownRow(0));
        QCOMPARE(panel->shownRow(0)->count, half.count);
        QVERIFY(half.count < expected.count);
    }

    void patternAndBadRegex()
    {
        MainWindow w;
        w.setQuietErrors(true);
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->open(m_sample);
        QVERIFY(finished.wait(60000));
        StatisticsPanel *panel = w.statisticsPanel();
        QSignalSpy computed(panel, &StatisticsPanel::computed);
        panel->showPattern(QStringLiteral("^(ACTIVATE|MATMUL)$"));
        QVERIFY(computed.wait(20000));
        QCOMPARE(panel->sides().size(), size_t(1));
        QCOMPARE(panel->sides().front().result.rows.size(), size_t(2));
        panel->showPattern(QStringLiteral("(ACTIVATE"));
        QVERIFY(computed.wait(20000));
        QVERIFY(!panel->sides().front().result.ok());
        QVERIFY(panel->histogram()->series().empty());
    }

    void compareModeCountsEachProfile()
    {
        QTemporaryDir dir;
        const auto folders = SampleFolderWriter::writeComparison(dir.path().toStdString(), SampleFolderWriter::Options());
        QVERIFY(folders.size() >= 2);
        MainWindow w;
        w.setQuietErrors(true);
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->openComparison({QString::fromStdString(folders[0]), QString::fromStdString(folders[1])});
        QVERIFY(finished.wait(120000));
        QVERIFY(w.session()->isComparing());
        const auto &profiles = w.session()->compareSession()->profiles();
        // A name both profiles run more than once.
        std::string name;
        for (const Slice &s : profiles[0]->allSlices()) {
            const std::string n(profiles[0]->str(s.name));
            if (coreRow(*profiles[0], n).count > 1 && coreRow(*profiles[1], n).count > 1) {
                name = n;
                break;
            }
        }
        QVERIFY(!name.empty());
        StatisticsPanel *panel = w.statisticsPanel();
        QSignalSpy computed(panel, &StatisticsPanel::computed);
        panel->showName(QString::fromStdString(name));
        QVERIFY(computed.wait(20000));
        QCOMPARE(panel->sides().size(), size_t(2));
        QCOMPARE(panel->sides()[0].label, QStringLiteral("A"));
        QCOMPARE(panel->sides()[1].label, QStringLiteral("B"));
        for (size_t s = 0; s < 2; ++s) {
            const DurationStats::Row expected = coreRow(*profiles[s], name);
            const DurationStats::Row *row = panel->shownRow(s);
            QVERIFY(row);
            QCOMPARE(row->count, expected.count);
            QCOMPARE(row->total, expected.total);
        }
        QCOMPARE(panel->histogram()->series().size(), size_t(2));
        QCOMPARE(panel->histogram()->series()[0].bins.size(), panel->histogram()->series()[1].bins.size());
        w.show();
        if (coreRow(*profiles[0], "ACTIVATE").count && coreRow(*profiles[1], "ACTIVATE").count) {
            panel->showName(QStringLiteral("ACTIVATE"));
            QVERIFY(computed.wait(20000));
        }
        shootAll(w, QStringLiteral("stats_compare"));
    }

    // A GPU trace's busiest kernel: only pictures (the numbers are tst_durationstats' corpus test).
    void gpuKernelPictures()
    {
        const QString file = lanescope::test::corpusFile(QStringLiteral("tracelens/b200_eager_trace.json.gz"));
        if (qEnvironmentVariable("LANESCOPE_TEST_SHOTS").isEmpty() || !QFileInfo::exists(file))
            return;
        MainWindow w;
        w.setQuietErrors(true);
        QSignalSpy finished(w.session(), &Session::loadFinished);
        w.session()->open(file);
        QVERIFY(finished.wait(120000));
        const auto trace = w.session()->trace();
        const LaunchIndex index = LaunchIndex::build(*trace);
        const auto kernels = KernelTable::compute(*trace, index, KernelTable::Options());
        QVERIFY(!kernels.rows.empty());
        const auto busiest = std::max_element(kernels.rows.begin(), kernels.rows.end(),
                                              [](const auto &a, const auto &b) { return a.count < b.count; });
        w.session()->setSelectedSlice(SliceId(busiest->occurrences.front()));
        QSignalSpy computed(w.statisticsPanel(), &StatisticsPanel::computed);
        w.show();
        w.statisticsPanel()->statisticsAction()->trigger();
        QVERIFY(computed.wait(20000));
        shootAll(w, QStringLiteral("stats_gpu_kernel"));
    }
};

QTEST_MAIN(TestStatisticsPanel)
#include "tst_statisticspanel.moc"
