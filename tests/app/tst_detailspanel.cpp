// DetailsPanel on the real window, offscreen: selecting a device execution of the sample folder shows
// "Open NEFF", which opens the execution's NEFF in the NEFF panel and keeps the trace; a GPU trace's
// slices show no link.
#include "openinwindow.h"
#include "detailspanel.h"
#include "mainwindow.h"
#include "session.h"

#include "details/neffinfoview.h"
#include "details/slicedetailsview.h"
#include "io/synthetic/samplefolderwriter.h"
#include "style/apptheme.h"

#include "analysis/executionneff.h"
#include "model/trace.h"

#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTreeWidgetItemIterator>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lanescope;

namespace {

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
        QVERIFY(test::openInWindow(w, folder));
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

    // Issue 28: at 1920x1080 the first-run Details dock is wide enough that no value of the sample's
    // slices is cut: a value fits its row, wrapped at spaces where it is long (a track path), and the
    // common ones (start, duration, end, category) on one line. One slice per track, args included.
    void firstRunWidthFitsTheSamplesValues()
    {
        QTemporaryDir dir;
        SampleFolderWriter::write(dir.path().toStdString());
        MainWindow w;
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(test::openInWindow(w, dir.filePath(QString::fromStdString(SampleFolderWriter::runFolder()))));
        auto *details = w.findChild<DetailsPanel *>();
        QVERIFY(details);
        QVERIFY2(details->width() >= 400, qPrintable(QString::number(details->width())));
        QVERIFY(details->width() <= 1920 / 4 + 10); // the timeline keeps the most of the window
        SliceDetailsView *view = details->view();
        const auto trace = w.session()->trace();
        const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
        int checked = 0;
        QStringList cut;
        for (uint32_t track = 0; track < trace->tracks().size(); ++track) {
            const Track &tr = trace->tracks()[track];
            if (tr.sliceCount == 0)
                continue;
            w.session()->setSelectedSlice(SliceId(tr.sliceBegin));
            QCoreApplication::processEvents();
            view->expandAll(); // lists folded under a heading (a layer's instructions) are checked as shown when opened
            QCoreApplication::processEvents();
            for (QTreeWidgetItemIterator it(view); *it; ++it) {
                QTreeWidgetItem *item = *it;
                const QString text = item->text(1);
                if (text.isEmpty() || item->isFirstColumnSpanned())
                    continue;
                const QRect cell = view->visualItemRect(item).intersected(QRect(view->header()->sectionViewportPosition(1), 0,
                                                                                view->header()->sectionSize(1), 100000));
                const QFontMetrics fm(item->font(1));
                const int room = cell.width() - 2 * margin;
                const QRect wrapped = fm.boundingRect(QRect(0, 0, room, 100000), Qt::TextWordWrap, text);
                const QString where = QStringLiteral("%1 = '%2' on %3: needs %4x%5, has %6x%7")
                                          .arg(item->text(0), text, QString::fromUtf8(trace->trackPath(TrackId(track))))
                                          .arg(wrapped.width()).arg(wrapped.height()).arg(room).arg(cell.height());
                if (wrapped.width() > room || wrapped.height() > cell.height())
                    cut << where;
                const QString field = item->text(0);
                if ((field == QStringLiteral("Start") || field == QStringLiteral("Duration") || field == QStringLiteral("End") ||
                     field == QStringLiteral("Category")) && fm.horizontalAdvance(text) > room)
                    cut << where + QStringLiteral(" (not on one line)");
                ++checked;
            }
        }
        QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("dock %1 px, field column %2 px; cut:\n").arg(details->width()).arg(view->columnWidth(0)) + cut.join(QLatin1Char('\n'))));
        QVERIFY(checked > 50);
    }

    void gpuTraceHasNoLink()
    {
        MainWindow w;
        w.show();
        QVERIFY(test::openInWindow(w, QStringLiteral(LANESCOPE_TEST_DATA "/cli_info_small.json")));
        w.session()->setSelectedSlice(SliceId(0));
        QVERIFY(!w.findChild<QLabel *>(QStringLiteral("openNeffLink"))->isVisible());
    }
};

QTEST_MAIN(TestDetailsPanel)
#include "tst_detailspanel.moc"
