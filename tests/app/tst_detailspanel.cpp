// DetailsPanel on the real window, offscreen: selecting a device execution of the sample folder shows
// "Open NEFF", which opens the execution's NEFF in the NEFF panel and keeps the trace; a GPU trace's
// slices show no link.
#include "detailspanel.h"
#include "mainwindow.h"
#include "session.h"

#include "details/neffinfoview.h"
#include "io/synthetic/samplefolderwriter.h"
#include "style/apptheme.h"

#include "analysis/executionneff.h"
#include "model/trace.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

bool open(MainWindow &w, const QString &path)
{
    QSignalSpy finished(w.session(), &Session::loadFinished);
    w.session()->open(path);
    return finished.wait(30000) && finished.first().value(0).toBool();
}

SliceId firstNamed(const Trace &t, std::string_view name, bool withNeff = false)
{
    for (uint32_t i = 0; i < t.allSlices().size(); ++i)
        if (t.str(t.allSlices()[i].name) == name && (!withNeff || !ExecutionNeff::find(t, SliceId(i)).empty()))
            return SliceId(i);
    return {};
}

} // namespace

class TestDetailsPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void openNeffFromAnExecution()
    {
        QTemporaryDir dir;
        SampleFolderWriter::write(dir.path().toStdString());
        const QString folder = dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder()));
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QVERIFY(open(w, folder));
        auto *details = w.findChild<DetailsPanel *>();
        auto *link = w.findChild<QLabel *>(QStringLiteral("openNeffLink"));
        QVERIFY(details && link);
        QVERIFY(!link->isVisible()); // nothing selected

        const auto trace = w.session()->trace();
        const SliceId exec = firstNamed(*trace, "nc_exec_running", true); // the system trace's, on the host clock
        QVERIFY(exec.isValid());
        w.session()->setSelectedSlice(exec);
        QVERIFY(link->isVisible());
        QVERIFY(details->neffPath().endsWith(QStringLiteral(".neff")));
        QVERIFY(link->text().contains(QStringLiteral("Open NEFF")));
        bool known = false;
        for (const auto &e : SampleFolderWriter::executions())
            known = known || details->neffPath().endsWith(QString::fromStdString(e.neffFile));
        QVERIFY2(known, qPrintable(details->neffPath()));

        // The link is drawn in the palette's link colour, in the dark theme too.
        QVERIFY(link->text().contains(link->palette().link().color().name()));
        AppTheme::apply(true);
        QCoreApplication::processEvents();
        QVERIFY2(link->text().contains(AppTheme::darkPalette().link().color().name()), qPrintable(link->text()));
        AppTheme::apply(false);
        QCoreApplication::processEvents();
        QVERIFY(!link->text().contains(AppTheme::darkPalette().link().color().name()));

        QSignalSpy finished(w.session(), &Session::loadFinished);
        details->openNeff();
        QVERIFY(finished.wait(20000));
        QVERIFY(w.neffView());
        QTRY_VERIFY(w.neffView()->isVisible());
        QVERIFY(w.neffView()->topLevelItemCount() > 0);
        QCOMPARE(w.session()->trace(), trace); // the trace stays

        // a framework op is no execution: the link goes away
        w.session()->setSelectedSlice(firstNamed(*trace, "aten::pow"));
        QVERIFY(!link->isVisible());
        QVERIFY(details->neffPath().isEmpty());
    }

    void gpuTraceHasNoLink()
    {
        MainWindow w;
        w.show();
        QVERIFY(open(w, QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json")));
        w.session()->setSelectedSlice(SliceId(0));
        QVERIFY(!w.findChild<QLabel *>(QStringLiteral("openNeffLink"))->isVisible());
    }
};

QTEST_MAIN(TestDetailsPanel)
#include "tst_detailspanel.moc"
