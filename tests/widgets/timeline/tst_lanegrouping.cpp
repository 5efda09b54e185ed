// Real files open on their device (issue 28): the corpus NTFF's DMA queue lanes fold into lane sets
// per queue kind and its semaphores into one collapsed group, so the window opens with every engine
// lane and the DMA summaries in at most 40 rows; a GPU trace's device group comes before its host
// processes; a folded row's activity is the union of its lanes' slices; a revealed lane unfolds.
#include "corpus.h"
#include "loadtrace.h"
#include "lanes/lanelayoutsettings.h"
#include "timeline/timelinelayout.h"

#include "model/dmaqueuekind.h"
#include "model/lanegrouping.h"
#include "model/trace.h"
#include "model/tracebuilder.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace lanescope;

namespace {

const QString kNtff = QStringLiteral("neuron-profile-json/profile_128x128x256.ntff");
const QString kGpu = QStringLiteral("tracelens/sglang_decode_bs32_rank0.json.gz");

bool isDma(const Trace &t, TrackId id)
{
    const auto s = t.slices(id);
    return !s.empty() && t.str(s.front().category) == "dma";
}

} // namespace

class TestLaneGrouping : public QObject
{
    Q_OBJECT
private slots:
    void ntffOpensWithinFortyRows()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kNtff);
        const auto trace = test::load(test::corpusFile(kNtff));
        QVERIFY(trace);
        const LaneGrouping g = LaneGrouping::of(*trace);
        // every DMA queue lane is in the set of its kind, the sets partition them
        size_t dmaLanes = 0, inSets = 0;
        for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
            if (!isDma(*trace, TrackId(t)))
                continue;
            ++dmaLanes;
            const int set = g.setOf(TrackId(t));
            QVERIFY(set >= 0);
            const std::string expected = g.sets()[size_t(set)].name;
            const DmaQueueKind k = dmaQueueKind(trace->str(trace->track(TrackId(t)).name));
            QVERIFY2((k == DmaQueueKind::Io) == (expected == "DMA · IO queues"), expected.c_str());
            ++inSets;
        }
        QVERIFY(dmaLanes > 20);
        QCOMPARE(inSets, dmaLanes);
        size_t setLanes = 0;
        for (const auto &s : g.sets())
            setLanes += s.tracks.size();
        QCOMPARE(setLanes, dmaLanes);
        QCOMPARE(g.collapsedByDefault().size(), size_t(1)); // the semaphores

        TimelineLayout layout;
        layout.build(trace.get());
        const auto &rows = layout.rows();
        QVERIFY2(rows.size() <= 40, qPrintable(QString::number(rows.size())));
        // every engine lane is a row; no DMA queue lane is (they are folded)
        std::set<std::string> engines;
        for (const auto &r : rows) {
            if (!r.isTrack())
                continue;
            QVERIFY(!isDma(*trace, r.track()));
            const auto s = trace->slices(r.track());
            if (!s.empty() && trace->str(s.front().category) == "instruction")
                engines.insert(std::string(trace->str(trace->track(r.track()).name)));
        }
        std::set<std::string> allEngines;
        for (uint32_t t = 0; t < trace->tracks().size(); ++t) {
            const auto s = trace->slices(TrackId(t));
            if (!s.empty() && trace->str(s.front().category) == "instruction")
                allEngines.insert(std::string(trace->str(trace->track(TrackId(t)).name)));
        }
        QVERIFY(allEngines.size() >= 4);
        QCOMPARE(engines, allEngines);
        // expanding a set shows its lanes; the layout remembers it in its state
        int setRow = -1;
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].isLaneSet())
                setRow = int(i);
        QVERIFY(setRow >= 0);
        const size_t before = layout.rows().size();
        const uint32_t set = layout.rows()[size_t(setRow)].id;
        QVERIFY(layout.toggleRow(setRow));
        QCOMPARE(layout.rows().size(), before + g.sets()[set].tracks.size());
        QVERIFY(layout.state().expandedSets.count(set));
        QVERIFY(layout.state() != layout.defaultState());
        {
            // remembered per file: saved, loaded, applied to a fresh layout of the same trace
            QTemporaryDir dir;
            QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
            LaneLayoutSettings::save(settings, QStringLiteral("/data/p.ntff"), layout.state(), layout.defaultState());
            const auto loaded = LaneLayoutSettings::load(settings, QStringLiteral("/data/p.ntff"));
            QVERIFY(loaded && *loaded == layout.state());
            TimelineLayout again;
            again.build(trace.get());
            again.setState(*loaded);
            QCOMPARE(again.rows().size(), layout.rows().size());
            LaneLayoutSettings::save(settings, QStringLiteral("/data/p.ntff"), again.defaultState(), again.defaultState());
            QVERIFY(!LaneLayoutSettings::load(settings, QStringLiteral("/data/p.ntff"))); // the default is not stored
        }
        QVERIFY(layout.toggleRow(setRow));
        QVERIFY(layout.state() == layout.defaultState());
        // revealing a folded lane unfolds what hides it
        const TrackId hidden = g.sets()[set].tracks.front();
        QCOMPARE(layout.rowOfTrack(hidden), -1);
        QVERIFY(layout.revealTrack(hidden));
        QVERIFY(layout.rowOfTrack(hidden) >= 0);
    }

    void activityIsTheUnionOfTheLanes()
    {
        TraceBuilder b;
        const GroupId core = b.addGroup(GroupKind::NeuronCore, b.intern("NeuronCore 0"), {}, 0);
        const StringId dma = b.intern("dma"), packet = b.intern("DMA packet");
        const TrackId q0 = b.addTrack(core, TrackKind::Async, b.intern("qSyncIO0-Q0-E0"), 0);
        const TrackId q1 = b.addTrack(core, TrackKind::Async, b.intern("qSyncIO0-Q1-E0"), 1);
        const TrackId w = b.addTrack(core, TrackKind::Async, b.intern("qWeights0-Q0-E1"), 2);
        b.addSlice(q0, 0, 10, packet, dma);
        b.addSlice(q1, 5, 10, packet, dma);   // overlaps q0's
        b.addSlice(q0, 30, 5, packet, dma);
        b.addSlice(w, 100, 1, packet, dma);   // a set of one: no set
        const Trace t = b.finish();
        const LaneGrouping g = LaneGrouping::of(t);
        QCOMPARE(g.sets().size(), size_t(1));
        QCOMPARE(g.sets()[0].name, std::string("DMA · IO queues"));
        QCOMPARE(g.setOf(w), -1);
        QCOMPARE(LaneGrouping::activity(t, g.sets()[0].tracks), (LaneGrouping::Intervals{{0, 15}, {30, 35}}));
        QCOMPARE(LaneGrouping::activity(t, g.sets()[0].tracks, 20), (LaneGrouping::Intervals{{0, 35}}));
    }

    void gpuDeviceComesFirst()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kGpu);
        const auto trace = test::load(test::corpusFile(kGpu));
        QVERIFY(trace);
        TimelineLayout layout;
        layout.build(trace.get());
        // the first lanes laid out are GPU streams (kernels), before any host thread
        const auto &rows = layout.rows();
        size_t firstTrack = 0;
        while (firstTrack < rows.size() && !rows[firstTrack].isTrack())
            ++firstTrack;
        QVERIFY(firstTrack < rows.size());
        const auto s = trace->slices(rows[firstTrack].track());
        QVERIFY(!s.empty());
        const std::string cat(trace->str(s.front().category));
        QVERIFY2(cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "gpu_user_annotation", cat.c_str());
    }
};

QTEST_MAIN(TestLaneGrouping)
#include "tst_lanegrouping.moc"
