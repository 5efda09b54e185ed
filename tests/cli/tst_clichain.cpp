// lanescope-cli chain: JSON shape (nodes, edges, upstream, downstream, critical path), text output,
// exit codes and errors, run as a user would (a real process), on a hand-checked fixture and real traces.
#include "clirun.h"
#include "corpus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <set>

namespace {

using Run = lanescope::test::CliRun;

Run cli(const QStringList &args)
{
    return lanescope::test::runCli(args);
}

const QString kSmall = QStringLiteral(LANESCOPE_TEST_DATA "/chain_small.json");

// The id of the slice named `name`, from the chain of slice 0's JSON (every node carries its id) or by
// walking ids until the name matches.
qint64 idOf(const QString &file, const QString &name)
{
    for (int id = 0; id < 64; ++id) {
        const Run r = cli({QStringLiteral("chain"), file, QStringLiteral("--event"), QString::number(id), QStringLiteral("--json")});
        if (r.exitCode != 0)
            return -1;
        const QJsonArray nodes = QJsonDocument::fromJson(r.out).object()[QStringLiteral("nodes")].toArray();
        for (const auto &n : nodes)
            if (n.toObject()[QStringLiteral("name")].toString() == name)
                return n.toObject()[QStringLiteral("id")].toInteger();
    }
    return -1;
}

} // namespace

class TestCliChain : public QObject
{
    Q_OBJECT
private slots:
    void kernelChainJson()
    {
        const qint64 kernel = idOf(kSmall, QStringLiteral("conv_kernel"));
        QVERIFY(kernel >= 0);
        const Run r = cli({QStringLiteral("chain"), kSmall, QStringLiteral("--event"), QString::number(kernel),
                           QStringLiteral("--json"), QStringLiteral("--critical-path")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("event")].toInteger(), kernel);
        const QJsonArray nodes = o[QStringLiteral("nodes")].toArray();
        QCOMPARE(nodes.size(), 4); // the kernel, its launch call, aten::inner, aten::conv
        std::set<QString> upstream;
        for (const auto &v : nodes) {
            const QJsonObject n = v.toObject();
            for (const char *key : {"id", "name", "lane", "start_ns", "dur_ns", "role"})
                QVERIFY2(n.contains(QLatin1String(key)), key);
            if (n[QStringLiteral("role")].toString() == QStringLiteral("upstream"))
                upstream.insert(n[QStringLiteral("name")].toString());
            if (n[QStringLiteral("name")].toString() == QStringLiteral("conv_kernel")) {
                QCOMPARE(n[QStringLiteral("role")].toString(), QStringLiteral("root"));
                QCOMPARE(n[QStringLiteral("start_ns")].toInteger(), 40000);
                QCOMPARE(n[QStringLiteral("dur_ns")].toInteger(), 200000);
            }
        }
        QCOMPARE(upstream, (std::set<QString>{QStringLiteral("aten::conv"), QStringLiteral("aten::inner"),
                                              QStringLiteral("cudaLaunchKernel")}));
        QCOMPARE(o[QStringLiteral("upstream")].toArray().size(), 3);
        QCOMPARE(o[QStringLiteral("downstream")].toArray().size(), 0);
        const QJsonArray edges = o[QStringLiteral("edges")].toArray();
        QCOMPARE(edges.size(), 3);
        std::multiset<QString> kinds;
        for (const auto &e : edges) {
            QVERIFY(e.toObject().contains(QStringLiteral("from")) && e.toObject().contains(QStringLiteral("to")));
            kinds.insert(e.toObject()[QStringLiteral("kind")].toString());
        }
        QCOMPARE(kinds, (std::multiset<QString>{QStringLiteral("launch"), QStringLiteral("correlation"), QStringLiteral("nesting")}));
        const QJsonObject cp = o[QStringLiteral("critical_path")].toObject();
        QCOMPARE(cp[QStringLiteral("ids")].toArray().size(), 4);
        QCOMPARE(cp[QStringLiteral("ids")].toArray().last().toInteger(), kernel);
        QCOMPARE(cp[QStringLiteral("duration_ns")].toInteger(), 360000);
        QVERIFY(o[QStringLiteral("graph")].toObject()[QStringLiteral("bytes_per_slice")].toDouble() >= 4.0);
    }

    void textOutput()
    {
        const Run r = cli({QStringLiteral("chain"), kSmall, QStringLiteral("--event"), QStringLiteral("0"),
                           QStringLiteral("--critical-path")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("upstream ("));
        QVERIFY(r.out.contains("downstream ("));
        QVERIFY(r.out.contains("critical path ("));
    }

    void maxCapsTheWalk()
    {
        const qint64 conv = idOf(kSmall, QStringLiteral("aten::conv"));
        QVERIFY(conv >= 0);
        const Run r = cli({QStringLiteral("chain"), kSmall, QStringLiteral("--event"), QString::number(conv),
                           QStringLiteral("--json"), QStringLiteral("--max"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("downstream")].toArray().size(), 2);
        QVERIFY(o[QStringLiteral("downstream_truncated")].toBool());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no event") << QStringList{QStringLiteral("chain"), kSmall} << QStringLiteral("missing --event");
        QTest::newRow("bad event") << QStringList{QStringLiteral("chain"), kSmall, QStringLiteral("--event"), QStringLiteral("x1")}
                                   << QStringLiteral("expects a slice id");
        QTest::newRow("event out of range")
            << QStringList{QStringLiteral("chain"), kSmall, QStringLiteral("--event"), QStringLiteral("999")}
            << QStringLiteral("no event 999");
        QTest::newRow("bad max") << QStringList{QStringLiteral("chain"), kSmall, QStringLiteral("--event"), QStringLiteral("0"),
                                                QStringLiteral("--max"), QStringLiteral("0")}
                                 << QStringLiteral("--max expects");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("chain"), kSmall, QStringLiteral("--frobnicate")}
                                        << QStringLiteral("unknown option");
        QTest::newRow("no path") << QStringList{QStringLiteral("chain"), QStringLiteral("--event"), QStringLiteral("1")}
                                 << QStringLiteral("missing PATH");
        QTest::newRow("missing file") << QStringList{QStringLiteral("chain"), QStringLiteral("/nonexistent/x.json"),
                                                     QStringLiteral("--event"), QStringLiteral("1")}
                                      << QStringLiteral("/nonexistent/x.json");
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    // A real NTFF: `rows` gives each instruction its event_id (the same from the NTFF and from its JSON
    // export); the chain of an ACTIVATE holds the semaphore edge from the MATMUL that released it.
    void ntffRowsEventIdToChain()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x256.ntff"));
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x256.json"));
        const QString stem = lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x256"));
        qint64 ids[2] = {-1, -1};
        int k = 0;
        for (const QString &ext : {QStringLiteral(".ntff"), QStringLiteral(".json")}) {
            const Run rows = cli({QStringLiteral("rows"), stem + ext, QStringLiteral("--table"), QStringLiteral("instruction")});
            QCOMPARE(rows.exitCode, 0);
            for (const QByteArray &line : rows.out.split('\n')) {
                const QJsonObject row = QJsonDocument::fromJson(line).object();
                if (row[QStringLiteral("opcode")].toString() == QStringLiteral("ACTIVATE")) {
                    ids[k] = row[QStringLiteral("event_id")].toInteger(-1);
                    break;
                }
            }
            ++k;
        }
        QVERIFY(ids[0] >= 0);
        QCOMPARE(ids[1], ids[0]);
        const Run r = cli({QStringLiteral("chain"), stem + QStringLiteral(".ntff"), QStringLiteral("--event"),
                           QString::number(ids[0]), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("nodes")].toArray().first().toObject()[QStringLiteral("name")].toString(),
                 QStringLiteral("ACTIVATE"));
        bool semaphore = false;
        for (const auto &e : o[QStringLiteral("edges")].toArray()) {
            const QJsonObject eo = e.toObject();
            if (eo[QStringLiteral("to")].toInteger() == ids[0] && eo[QStringLiteral("kind")].toString() == QStringLiteral("semaphore")) {
                semaphore = true;
                QCOMPARE(eo[QStringLiteral("label")].toString(), QStringLiteral("semaphore: S[5] >= 1"));
            }
        }
        QVERIFY(semaphore);
    }
};

QTEST_GUILESS_MAIN(TestCliChain)
#include "tst_clichain.moc"
