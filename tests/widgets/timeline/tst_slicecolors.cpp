// SliceColors: collectives are a colour class of their own. NCCL / RCCL kernels (as Kineto names
// them) and the host's nccl:* ops take their kind's colour, inside the reserved hue band; no other
// name's colour falls in that band (checked over every slice name of a real Kineto trace and a
// thousand generated ones), and names keep one colour across calls.
#include "corpus.h"
#include "loadtrace.h"

#include "model/trace.h"
#include "timeline/slicecolors.h"

#include <QColor>
#include <QTest>

using namespace lanescope;

namespace {

bool inReservedBand(QRgb c)
{
    const int hue = QColor(c).hslHue();
    return hue >= SliceColors::kReservedFrom || hue < SliceColors::kReservedTo;
}

} // namespace

class TestSliceColors : public QObject
{
    Q_OBJECT

private slots:
    void collectivesAreAClass()
    {
        const QRgb allreduce = SliceColors::collectiveColor("allreduce");
        QCOMPARE(SliceColors::colorForName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"), allreduce);
        QCOMPARE(SliceColors::colorForName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"), allreduce);
        QCOMPARE(SliceColors::colorForName("nccl:all_reduce"), allreduce);
        QCOMPARE(SliceColors::colorForName("ncclDevKernel_AllGather_RING_LL(x)"), SliceColors::collectiveColor("allgather"));
        QVERIFY(SliceColors::collectiveColor("allgather") != allreduce);
        for (const char *kind : {"allreduce", "allgather", "reduce_scatter", "broadcast", "sendrecv", "alltoall", "something_new"})
            QVERIFY2(inReservedBand(SliceColors::collectiveColor(kind)), kind);
    }

    void otherNamesStayOutOfTheBand()
    {
        for (int i = 0; i < 1000; ++i) {
            const std::string name = "kernel_" + std::to_string(i);
            QVERIFY2(!inReservedBand(SliceColors::colorForName(name)), name.c_str());
            QCOMPARE(SliceColors::colorForName(name), SliceColors::colorForName(name));
        }
        const QString rel = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const auto t = test::load(test::corpusFile(rel));
        QVERIFY(t);
        size_t collectives = 0;
        for (size_t i = 0; i < t->strings().size(); ++i) {
            const std::string_view s = t->str(StringId(uint32_t(i)));
            const bool collective = s.starts_with("ncclKernel_") || s.starts_with("nccl:");
            collectives += collective;
            QVERIFY2(inReservedBand(SliceColors::colorForName(s)) == collective, std::string(s).c_str());
        }
        QVERIFY(collectives >= 2);
    }
};

QTEST_GUILESS_MAIN(TestSliceColors)
#include "tst_slicecolors.moc"
