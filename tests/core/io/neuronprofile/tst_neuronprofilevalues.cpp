// NeuronProfileValues (core/io/neuronprofile/neuronprofilevalues.h): seconds -> picoseconds, engine and lane names
// as neuron-profile's JSON export writes them.
#include "io/neuronprofile/neuronprofilevalues.h"

#include <QtTest>

using namespace lanescope;

class TstNeuronProfileValues : public QObject
{
    Q_OBJECT
private slots:
    void secondsToPs_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qulonglong>("ps");
        QTest::newRow("fraction") << "0.001867629615" << true << 1867629615ull;
        QTest::newRow("exponent") << "1.5e-3" << true << 1500000000ull;
        QTest::newRow("exponent plus") << "2E+0" << true << 2000000000000ull;
        QTest::newRow("whitespace") << " 2 \n" << true << 2000000000000ull;
        QTest::newRow("rounds half up") << "0.0000000000005" << true << 1ull;
        QTest::newRow("rounds down") << "0.0000000000004" << true << 0ull;
        QTest::newRow("zero") << "0" << true << 0ull;
        QTest::newRow("empty") << "" << false << 0ull;
        QTest::newRow("letters") << "abc" << false << 0ull;
        QTest::newRow("negative") << "-1" << false << 0ull;
        QTest::newRow("two points") << "1.2.3" << false << 0ull;
        QTest::newRow("exponent too large") << "1e401" << false << 0ull;
        QTest::newRow("overflow") << "1e20" << false << 0ull;
        QTest::newRow("bad exponent") << "1e" << false << 0ull;
    }
    void secondsToPs()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qulonglong, ps);
        uint64_t got = 77;
        const std::string s = text.toStdString();
        QCOMPARE(NeuronProfileValues::secondsToPs(s, got), ok);
        QCOMPARE(got, ok ? uint64_t(ps) : uint64_t(77));
    }

    void engineNames()
    {
        NtffEngine e = NtffEngine::Sync;
        QVERIFY(NeuronProfileValues::engineFromName("PE", e));
        QCOMPARE(e, NtffEngine::Tensor);
        QVERIFY(NeuronProfileValues::engineFromName("TensorMatrix", e));
        QCOMPARE(e, NtffEngine::Tensor);
        QVERIFY(NeuronProfileValues::engineFromName("DVE", e));
        QCOMPARE(e, NtffEngine::Vector);
        QVERIFY(NeuronProfileValues::engineFromName("ACT", e));
        QCOMPARE(e, NtffEngine::Scalar);
        QVERIFY(NeuronProfileValues::engineFromName("POOL", e));
        QCOMPARE(e, NtffEngine::GpSimd);
        QVERIFY(NeuronProfileValues::engineFromName("SyncE", e));
        QCOMPARE(e, NtffEngine::Sync);
        QVERIFY(!NeuronProfileValues::engineFromName("tensor", e));
        QCOMPARE(e, NtffEngine::Sync); // unchanged
    }

    void laneNames()
    {
        NtffLane l = NtffLane::Sync;
        for (int i = 0; i < kNtffLaneCount; ++i) {
            QVERIFY(NeuronProfileValues::laneFromName(ntffLaneName(static_cast<NtffLane>(i)), l));
            QCOMPARE(l, static_cast<NtffLane>(i));
        }
        QVERIFY(!NeuronProfileValues::laneFromName("PE", l));
        QCOMPARE(l, static_cast<NtffLane>(kNtffLaneCount - 1));
    }
};

QTEST_GUILESS_MAIN(TstNeuronProfileValues)
#include "tst_neuronprofilevalues.moc"
