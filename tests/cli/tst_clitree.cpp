// lanescope-cli tree: --json shape (nested nodes with the documented keys, totals that add up with
// what --min-share cut; 1 % by default, as the text), --format folded (lines "frame;frame weight"
// summing to the JSON root), --thread, --min-share,
// usage errors; run as a real process on a Kineto corpus trace with GPU kernels.
#include "clirun.h"
#include "corpus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

namespace {

using Run = lanescope::test::CliRun;

const QString kTrace = QStringLiteral("tracelens/b200_eager_trace.json.gz");

QStringList nodeKeys(bool thread)
{
    QStringList keys;
    for (const char *k : {"name", "calls", "total_ns", "self_ns", "device_ns", "device_self_ns", "share_percent", "children"})
        keys << QLatin1String(k);
    if (thread)
        keys << QStringLiteral("track_id");
    keys.sort();
    return keys;
}

// Every node has the keys (and "cut" when some children were left out), self = total - children's
// total - the cut's total, device likewise. Counts the nodes written and the nodes cut below them.
void checkNode(const QJsonObject &n, int depth, qint64 &written, qint64 &cutNodes)
{
    QStringList keys = n.keys();
    keys.removeAll(QStringLiteral("cut"));
    keys.sort();
    QCOMPARE(keys, nodeKeys(depth == 1));
    ++written;
    qint64 total = 0, device = 0;
    for (const auto &c : n[QStringLiteral("children")].toArray()) {
        const QJsonObject child = c.toObject();
        total += child[QStringLiteral("total_ns")].toInteger();
        device += child[QStringLiteral("device_ns")].toInteger();
        checkNode(child, depth + 1, written, cutNodes);
        if (QTest::currentTestFailed())
            return;
    }
    if (n.contains(QStringLiteral("cut"))) {
        const QJsonObject cut = n[QStringLiteral("cut")].toObject();
        QVERIFY(cut[QStringLiteral("subtrees")].toInteger() > 0);
        QVERIFY(cut[QStringLiteral("nodes")].toInteger() >= cut[QStringLiteral("subtrees")].toInteger());
        total += cut[QStringLiteral("total_ns")].toInteger();
        device += cut[QStringLiteral("device_ns")].toInteger();
        cutNodes += cut[QStringLiteral("nodes")].toInteger();
    }
    QVERIFY(n[QStringLiteral("self_ns")].toInteger() >= 0);
    QCOMPARE(n[QStringLiteral("self_ns")].toInteger() + total, n[QStringLiteral("total_ns")].toInteger());
    QCOMPARE(n[QStringLiteral("device_self_ns")].toInteger() + device, n[QStringLiteral("device_ns")].toInteger());
}

qint64 foldedSum(const QByteArray &out, int *lines = nullptr)
{
    qint64 sum = 0;
    int n = 0;
    for (const QByteArray &line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        const qsizetype space = line.lastIndexOf(' ');
        if (space <= 0)
            return -1;
        bool ok = false;
        const qint64 w = line.mid(space + 1).toLongLong(&ok);
        if (!ok || w <= 0)
            return -1;
        sum += w;
        ++n;
    }
    if (lines)
        *lines = n;
    return sum;
}

} // namespace

class TestCliTree : public QObject
{
    Q_OBJECT
private slots:
    void jsonAndFolded()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(kTrace);
        const QString path = lanescope::test::corpusFile(kTrace);
        // The whole tree (--min-share 0): nothing cut.
        const Run json = lanescope::test::runCli({QStringLiteral("tree"), path, QStringLiteral("--json"), QStringLiteral("--min-share"), QStringLiteral("0")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
        QStringList top = doc.keys();
        top.sort();
        QCOMPARE(top, (QStringList{QStringLiteral("cut"), QStringLiteral("merge_threads"), QStringLiteral("min_share_of"),
                                   QStringLiteral("min_share_percent"), QStringLiteral("root"),
                                   QStringLiteral("unattributed_device_count"), QStringLiteral("unattributed_device_ns"),
                                   QStringLiteral("weight")}));
        QCOMPARE(doc[QStringLiteral("weight")].toString(), QStringLiteral("cpu"));
        QCOMPARE(doc[QStringLiteral("cut")].toObject()[QStringLiteral("nodes")].toInteger(), 0);
        const QJsonObject root = doc[QStringLiteral("root")].toObject();
        QCOMPARE(root[QStringLiteral("name")].toString(), QStringLiteral("all"));
        QVERIFY(root[QStringLiteral("total_ns")].toInteger() > 0);
        QVERIFY(root[QStringLiteral("device_ns")].toInteger() > 0);
        QCOMPARE(root[QStringLiteral("share_percent")].toDouble(), 100.0);
        QVERIFY(!root[QStringLiteral("children")].toArray().isEmpty());
        qint64 allNodes = 0, noCut = 0;
        checkNode(root, 0, allNodes, noCut);
        QCOMPARE(noCut, 0);

        // By default JSON keeps the text tree's 1 % and says what it left out: the nodes written plus
        // the nodes cut are the whole tree, and the top-level "cut" sums the nodes' cuts.
        const Run pruned1 = lanescope::test::runCli({QStringLiteral("tree"), path, QStringLiteral("--json")});
        QCOMPARE(pruned1.exitCode, 0);
        const QJsonObject doc1 = QJsonDocument::fromJson(pruned1.out).object();
        QCOMPARE(doc1[QStringLiteral("min_share_percent")].toDouble(), 1.0);
        QCOMPARE(doc1[QStringLiteral("min_share_of")].toString(), QStringLiteral("total"));
        qint64 written = 0, cutNodes = 0;
        checkNode(doc1[QStringLiteral("root")].toObject(), 0, written, cutNodes);
        const QJsonObject cut1 = doc1[QStringLiteral("cut")].toObject();
        QCOMPARE(cut1[QStringLiteral("nodes")].toInteger(), cutNodes);
        QVERIFY(cutNodes > 0);
        QCOMPARE(written + cutNodes, allNodes);
        QVERIFY(cut1[QStringLiteral("total_ns")].toInteger() > 0);
        QVERIFY(cut1[QStringLiteral("total_ns")].toInteger() < root[QStringLiteral("total_ns")].toInteger());

        int lines = 0;
        const Run cpu = lanescope::test::runCli({QStringLiteral("tree"), path, QStringLiteral("--format"), QStringLiteral("folded")});
        QCOMPARE(cpu.exitCode, 0);
        QCOMPARE(foldedSum(cpu.out, &lines), root[QStringLiteral("total_ns")].toInteger());
        QVERIFY(lines > 10);
        const Run device = lanescope::test::runCli(
            {QStringLiteral("tree"), path, QStringLiteral("--format=folded"), QStringLiteral("--weight"), QStringLiteral("device")});
        QCOMPARE(device.exitCode, 0);
        QCOMPARE(foldedSum(device.out), root[QStringLiteral("device_ns")].toInteger());

        // One thread by its track id: the tree of that thread only.
        const QJsonObject thread = root[QStringLiteral("children")].toArray().first().toObject();
        const QString id = QString::number(thread[QStringLiteral("track_id")].toInteger());
        const Run one = lanescope::test::runCli({QStringLiteral("tree"), path, QStringLiteral("--thread"), id, QStringLiteral("--json")});
        QCOMPARE(one.exitCode, 0);
        const QJsonObject oneRoot = QJsonDocument::fromJson(one.out).object()[QStringLiteral("root")].toObject();
        QCOMPARE(oneRoot[QStringLiteral("children")].toArray().size(), 1);
        QCOMPARE(oneRoot[QStringLiteral("total_ns")].toInteger(), thread[QStringLiteral("total_ns")].toInteger());

        // --min-share prunes: every node left weighs at least that share.
        const Run pruned = lanescope::test::runCli({QStringLiteral("tree"), path, QStringLiteral("--json"), QStringLiteral("--min-share"),
                                                    QStringLiteral("5"), QStringLiteral("--merge-threads")});
        QCOMPARE(pruned.exitCode, 0);
        const QJsonObject prunedRoot = QJsonDocument::fromJson(pruned.out).object()[QStringLiteral("root")].toObject();
        for (const auto &c : prunedRoot[QStringLiteral("children")].toArray())
            QVERIFY(c.toObject()[QStringLiteral("share_percent")].toDouble() >= 5.0);

        const Run text = lanescope::test::runCli({QStringLiteral("tree"), path});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.startsWith("     Calls"));
        QVERIFY(text.out.contains(" all\n"));
        // the text tree says the same cut
        const QByteArray leftOut = "(left out: " + QByteArray::number(cutNodes) + " nodes in " +
                                   QByteArray::number(cut1[QStringLiteral("subtrees")].toInteger()) + " subtrees under 1 % of the root's total time";
        QVERIFY2(text.out.contains(leftOut), text.out.right(400).constData());
    }

    // The 62 MB xdit trace: the whole tree is ~22,000 nodes of 100-frame Python stacks (92 MB of JSON
    // before the default cut). By default the JSON keeps what the text shows and names the rest.
    void bigTraceJsonIsCut()
    {
        const QString rel = QStringLiteral("tracelens/xdit_sd35_rank0.json.gz");
        LANESCOPE_REQUIRE_CORPUS_FILE(rel);
        const Run json = lanescope::test::runCli({QStringLiteral("tree"), lanescope::test::corpusFile(rel), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        qInfo("tree --json on xdit_sd35_rank0: %lld bytes", (long long)json.out.size());
        QVERIFY(json.out.size() < 4 * 1024 * 1024);
        const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
        qint64 written = 0, cutNodes = 0;
        checkNode(doc[QStringLiteral("root")].toObject(), 0, written, cutNodes);
        QCOMPARE(doc[QStringLiteral("cut")].toObject()[QStringLiteral("nodes")].toInteger(), cutNodes);
        QVERIFY(cutNodes > 10 * written);
    }

    void usageErrors()
    {
        const QString fixture = QStringLiteral(LANESCOPE_TEST_DATA "/optable_fixture.json");
        for (const QStringList &extra : {QStringList{QStringLiteral("--weight"), QStringLiteral("wall")},
                                         QStringList{QStringLiteral("--min-share"), QStringLiteral("x")},
                                         QStringList{QStringLiteral("--format"), QStringLiteral("csv")},
                                         QStringList{QStringLiteral("--thread"), QStringLiteral("no such track")},
                                         QStringList{QStringLiteral("--thread"), QStringLiteral("0"), QStringLiteral("--rank"), QStringLiteral("0")}}) {
            const Run r = lanescope::test::runCli(QStringList{QStringLiteral("tree"), fixture} + extra);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("usage: lanescope-cli tree"), r.err.constData());
        }
        const Run missing = lanescope::test::runCli({QStringLiteral("tree"), QStringLiteral("/nonexistent.json")});
        QCOMPARE(missing.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliTree)
#include "tst_clitree.moc"
