// NeuronCollectives: the collective-op figures of every corpus neuron-profile export equal its own
// summary's cc_* fields (all single-core programs: zero ops, which the fields say too), and a trace
// without a neuron-profile summary (HTA's NCCL trace) has none.
#include "corpus.h"
#include "loadtrace.h"
#include "neuronprofilecorpus.h"

#include "analysis/neuroncollectives.h"
#include "model/trace.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

using namespace lanescope;

class TestNeuronCollectives : public QObject
{
    Q_OBJECT

private slots:
    void equalsTheSummary()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json"));
        const QStringList files = test::neuronProfileJsons();
        QVERIFY(files.size() >= 11);
        for (const QString &path : files) {
            const QJsonObject json = test::jsonObjectOf(path);
            const QJsonValue summaryValue = json[QStringLiteral("summary")];
            const QJsonObject summary = summaryValue.isArray() ? summaryValue.toArray().first().toObject() : summaryValue.toObject();
            QVERIFY2(summary.contains(QStringLiteral("cc_op_count")), qPrintable(path));
            const auto t = test::load(path);
            QVERIFY(t);
            const std::optional<NeuronCollectives> c = NeuronCollectives::of(*t);
            QVERIFY2(c, qPrintable(path));
            const auto field = [&](const char *key) { return std::llround(summary[QLatin1String(key)].toDouble()); };
            QCOMPARE(c->opCount, field("cc_op_count"));
            QCOMPARE(c->opTimeNs, field("cc_op_time"));
            QCOMPARE(c->opActiveTimeNs, field("cc_op_active_time"));
            QCOMPARE(c->coreInstructionCount, field("cc_cores_instruction_count"));
            QCOMPARE(c->coreInstructionTimeNs, field("cc_cores_instruction_time"));
            QCOMPARE(c->coreInstructionActiveTimeNs, field("cc_cores_instruction_active_time"));
        }
    }

    void noneOnAGpuTrace()
    {
        const QString rel = QStringLiteral("hta/nccl_parser_config__nccl_data.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const auto t = test::load(test::corpusFile(rel));
        QVERIFY(t);
        QVERIFY(!NeuronCollectives::of(*t));
    }
};

QTEST_GUILESS_MAIN(TestNeuronCollectives)
#include "tst_neuroncollectives.moc"
