// The device docks in the real window offscreen, on corpus files as a user opens them:
//   - a neuron-profile JSON export: the Tensors dock is shown with neff_node's 4 tensors, the weight's
//     DMAs (32 packets + 1 transfer) become the timeline's matches; its Memory tab lists the traffic;
//     the Engines dock's By layer table has the program and _dot.3 rows (layer_summary's) and a row's
//     16 instructions become the matches; selecting the layer span does the same;
//   - HTA's NCCL trace: the Collectives dock is shown with its 7 rows and a row's 3 kernels become the
//     matches; the Tensors dock has nothing to show.
#include "openinwindow.h"
#include "collectivespanel.h"
#include "corpus.h"
#include "enginespanel.h"
#include "mainwindow.h"
#include "session.h"
#include "tensorspanel.h"

#include "analysis/opbreakdown.h"
#include "model/hierarchynames.h"
#include "model/trace.h"
#include "tables/rowtablemodel.h"
#include "timeline/timelineview.h"

#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace lanescope;

namespace {

// The source row whose column `key` shows `text`, or -1.
int rowWith(QTableView *view, const char *key, const QString &text)
{
    auto *proxy = static_cast<QSortFilterProxyModel *>(view->model());
    auto *model = static_cast<RowTableModel *>(proxy->sourceModel());
    const int c = model->column(key);
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->data(model->index(r, c)).toString() == text)
            return r;
    return -1;
}

} // namespace

class TestDeviceDocks : public QObject
{
    Q_OBJECT

private slots:
    void init() { QStandardPaths::setTestModeEnabled(true); }

    void neuronProfileExport()
    {
        const QString rel = QStringLiteral("neuron-profile-json/profile_128x128x1024.json");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QSignalSpy tensorsDone(w.tensorsPanel(), &TensorsPanel::computed);
        QVERIFY(test::openInWindow(w, test::corpusFile(rel)));
        TensorsPanel *tensors = w.tensorsPanel();
        QVERIFY(tensors->hasContent());
        QVERIFY(tensors->isVisible() || !tensors->isHidden());
        tensors->raise();
        QVERIFY(tensorsDone.count() > 0 || tensorsDone.wait(10000));
        QCOMPARE(tensors->tensorTable()->model()->rowCount(), 4);
        const int weight = rowWith(tensors->tensorTable(), "name", QStringLiteral("identity_56"));
        QVERIFY(weight >= 0);
        QCOMPARE(tensors->findTensor(weight), size_t(33));
        QCOMPARE(w.timeline()->searchMatches().size(), size_t(33));
        QVERIFY(tensors->status().contains(QLatin1String("identity_56")));
        QVERIFY(tensors->memoryText()->text().contains(QLatin1String("HBM read")));
        QVERIFY(tensors->memoryText()->text().contains(QLatin1String("Profiler Buffers")));

        EnginesPanel *engines = w.enginesPanel();
        QSignalSpy opsDone(engines, &EnginesPanel::opsComputed);
        engines->raise();
        engines->setMode(EnginesPanel::Mode::ByLayer);
        QVERIFY(opsDone.wait(10000));
        QCOMPARE(engines->opTable()->model()->rowCount(), 2);
        const int layer = rowWith(engines->opTable(), "name", QStringLiteral("/sg00/_dot.3"));
        QVERIFY(layer >= 0);
        QCOMPARE(engines->findOp(layer), size_t(16));
        QCOMPARE(w.timeline()->searchMatches().size(), size_t(16));

        // the layer span on the timeline: selecting it makes its instructions the matches
        w.timeline()->setSearchMatches({});
        const Trace &t = *w.session()->trace();
        SliceId span;
        for (uint32_t i = 0; i < t.allSlices().size() && !span.isValid(); ++i)
            if (t.str(t.allSlices()[i].category) == HierarchyNames::kLayer.lane.category)
                span = SliceId(i);
        QVERIFY(span.isValid());
        w.session()->setSelectedSlice(span);
        QTRY_COMPARE(w.timeline()->searchMatches().size(), size_t(16));
        QVERIFY(!w.collectivesPanel()->hasContent());
    }

    void ncclTrace()
    {
        const QString rel = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        CollectivesPanel *panel = w.collectivesPanel();
        QSignalSpy done(panel, &CollectivesPanel::computed);
        QVERIFY(test::openInWindow(w, test::corpusFile(rel)));
        QVERIFY(panel->hasContent());
        panel->raise();
        QVERIFY(done.count() > 0 || done.wait(10000));
        QCOMPARE(panel->table()->model()->rowCount(), 7);
        const int broadcast = rowWith(panel->table(), "collective", QStringLiteral("broadcast"));
        QVERIFY(broadcast >= 0);
        QCOMPARE(panel->findRow(broadcast), size_t(3));
        QCOMPARE(w.timeline()->searchMatches().size(), size_t(3));
        QVERIFY(!w.tensorsPanel()->hasContent());
    }
};

QTEST_MAIN(TestDeviceDocks)
#include "tst_devicedocks.moc"
