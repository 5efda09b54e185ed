// lanescope-cli source, run as a real process: a Kineto trace written here the way PyTorch's
// profiler writes with_stack=True (python_function frames naming a bare script `train.py` and a
// foreign absolute path, an op launching a kernel), the script written into a folder given with
// --root: files and lines with the documented JSON keys and the exact numbers, the source text of a
// found line, a missing file with the paths tried, and usage errors.
#include "clirun.h"
#include "kinetoevents.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using lanescope::test::KinetoEvents;
using lanescope::test::runCli;

QString writeTrace(const QTemporaryDir &dir)
{
    KinetoEvents k;
    k.x("python_function", QStringLiteral("train.py(3): main"), 100, 100, 0, 1000);
    k.x("python_function", QStringLiteral("train.py(2): step"), 100, 100, 10, 400);
    k.op("cpu_op", "aten::mm", 20, 100, 1);
    k.launch("cudaLaunchKernel", 30, 20, 1, "kernel", "mm_kernel", 60, 50);
    k.x("python_function", QStringLiteral("/elsewhere/lib/util.py(7): helper"), 100, 100, 500, 200);
    return k.write(dir, "trace.json");
}

QJsonObject json(const QByteArray &out) { return QJsonDocument::fromJson(out).object(); }

} // namespace

class TestCliSource : public QObject
{
    Q_OBJECT
private slots:
    void filesAndLines()
    {
        QTemporaryDir dir;
        const QString trace = writeTrace(dir);
        QVERIFY(!trace.isEmpty());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("proj")));
        QFile script(dir.filePath(QStringLiteral("proj/train.py")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("import torch\ndef step(): return torch.mm(a, b)\nmain()\n");
        script.close();
        const QString root = dir.filePath(QStringLiteral("proj"));

        const auto files = runCli({QStringLiteral("source"), trace, QStringLiteral("--root"), root, QStringLiteral("--json")});
        QCOMPARE(files.exitCode, 0);
        const QJsonArray rows = json(files.out)[QStringLiteral("files")].toArray();
        QCOMPARE(rows.size(), 2);
        const QJsonObject train = rows[0].toObject(); // the one that launched device time first
        QStringList keys = train.keys();
        keys.sort();
        QCOMPARE(keys, (QStringList{QStringLiteral("calls"), QStringLiteral("device_ns"), QStringLiteral("lines"), QStringLiteral("path"),
                                QStringLiteral("resolved"), QStringLiteral("self_ns"), QStringLiteral("total_ns")}));
        QCOMPARE(train[QStringLiteral("path")].toString(), QStringLiteral("train.py"));
        QCOMPARE(train[QStringLiteral("resolved")].toString(), QDir(root).filePath(QStringLiteral("train.py")));
        QCOMPARE(train[QStringLiteral("total_ns")].toInteger(), 1'000'000);
        QCOMPARE(train[QStringLiteral("device_ns")].toInteger(), 50'000);
        QCOMPARE(train[QStringLiteral("lines")].toInteger(), 2);
        QVERIFY(rows[1].toObject()[QStringLiteral("resolved")].isNull());

        const auto lines = runCli({QStringLiteral("source"), trace, QStringLiteral("--root=") + root, QStringLiteral("--file"),
                                   QStringLiteral("train.py"), QStringLiteral("--json")});
        QCOMPARE(lines.exitCode, 0);
        const QJsonArray l = json(lines.out)[QStringLiteral("lines")].toArray();
        QCOMPARE(l.size(), 2);
        const QJsonObject step = l[0].toObject();
        QCOMPARE(step[QStringLiteral("line")].toInt(), 2);
        QCOMPARE(step[QStringLiteral("total_ns")].toInteger(), 400'000);
        QCOMPARE(step[QStringLiteral("self_ns")].toInteger(), 300'000); // aten::mm's 100 us inside
        QCOMPARE(step[QStringLiteral("device_ns")].toInteger(), 50'000);
        QCOMPARE(step[QStringLiteral("functions")].toArray().first().toString(), QStringLiteral("step"));
        QCOMPARE(step[QStringLiteral("text")].toString(), QStringLiteral("def step(): return torch.mm(a, b)"));
        QCOMPARE(l[1].toObject()[QStringLiteral("self_ns")].toInteger(), 1'000'000 - 400'000 - 200'000);

        const auto text = runCli({QStringLiteral("source"), trace, QStringLiteral("--root"), root, QStringLiteral("--file"), QStringLiteral("train.py")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("def step(): return torch.mm(a, b)"), text.out.constData());
        QVERIFY2(text.out.contains("400.000 us"), text.out.constData());
    }

    void missingFile()
    {
        QTemporaryDir dir;
        const QString trace = writeTrace(dir);
        const auto r = runCli({QStringLiteral("source"), trace, QStringLiteral("--root"), QStringLiteral("/nonexistent/root"),
                               QStringLiteral("--file"), QStringLiteral("/elsewhere/lib/util.py")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("/elsewhere/lib/util.py is not on this machine"), r.out.constData());
        QVERIFY2(r.out.contains("/nonexistent/root/elsewhere/lib/util.py"), r.out.constData()); // longest suffix first
        QVERIFY2(r.out.contains("helper"), r.out.constData()); // the numbers anyway, with the function
        const auto j = runCli({QStringLiteral("source"), trace, QStringLiteral("--file"), QStringLiteral("/elsewhere/lib/util.py"),
                               QStringLiteral("--json")});
        QVERIFY(json(j.out)[QStringLiteral("resolved")].isNull());
        QCOMPARE(json(j.out)[QStringLiteral("tried")].toArray().first().toString(), QStringLiteral("/elsewhere/lib/util.py"));
        QCOMPARE(json(j.out)[QStringLiteral("lines")].toArray().first().toObject()[QStringLiteral("total_ns")].toInteger(), 200'000);
    }

    void usageErrors()
    {
        QTemporaryDir dir;
        const QString trace = writeTrace(dir);
        const auto unknown = runCli({QStringLiteral("source"), trace, QStringLiteral("--file"), QStringLiteral("nope.py")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("nope.py"), unknown.err.constData());
        const auto noRoot = runCli({QStringLiteral("source"), trace, QStringLiteral("--root")});
        QCOMPARE(noRoot.exitCode, 2);
        QVERIFY2(noRoot.err.contains("--root needs a folder"), noRoot.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliSource)
#include "tst_clisource.moc"
