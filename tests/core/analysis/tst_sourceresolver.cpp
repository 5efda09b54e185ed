// SourceResolver: where a frame's file is here. Folders and files made in a temporary directory:
// an absolute path that exists, a site-packages-relative path under the roots in order, a path from
// another machine matched by its trailing components (longest first), pseudo-files, directories, and
// the candidates a missing file lists.
#include "analysis/sourceresolver.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

namespace {

std::string touch(const QTemporaryDir &dir, const QString &rel)
{
    const QString path = dir.filePath(rel);
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("print('hello')\n");
    return path.toStdString();
}

std::string root(const QTemporaryDir &dir, const char *rel) { return dir.filePath(QLatin1String(rel)).toStdString(); }

} // namespace

class TestSourceResolver : public QObject
{
    Q_OBJECT
private slots:
    void absoluteExisting()
    {
        QTemporaryDir dir;
        const std::string file = touch(dir, QStringLiteral("proj/train.py"));
        QVERIFY(!file.empty());
        const SourceResolver r;
        QCOMPARE(r.resolve(file), std::optional<std::string>(file));
    }

    void relativeUnderRootsInOrder()
    {
        QTemporaryDir dir;
        touch(dir, QStringLiteral("venv2/torch/nn/modules/module.py"));
        const std::string second = touch(dir, QStringLiteral("venv1/torch/nn/modules/module.py"));
        SourceResolver r({root(dir, "missing"), root(dir, "venv1"), root(dir, "venv2")});
        QCOMPARE(r.resolve("torch/nn/modules/module.py"), std::optional<std::string>(second));
        // A bare script name under the project root.
        const std::string script = touch(dir, QStringLiteral("proj/train.py"));
        r.setRoots({root(dir, "proj")});
        QCOMPARE(r.resolve("train.py"), std::optional<std::string>(script));
        QCOMPARE(r.resolve("torch/nn/modules/module.py"), std::nullopt); // the memo was cleared
    }

    // /app/xDiT/xfuser/runner.py captured in a container; the checkout is here at ROOT/xDiT.
    void foreignAbsoluteBySuffix()
    {
        QTemporaryDir dir;
        const std::string longer = touch(dir, QStringLiteral("work/xDiT/xfuser/runner.py"));
        touch(dir, QStringLiteral("work/xfuser/runner.py"));
        touch(dir, QStringLiteral("work/runner.py"));
        const SourceResolver r({root(dir, "work")});
        QCOMPARE(r.resolve("/app/xDiT/xfuser/runner.py"), std::optional<std::string>(longer)); // longest suffix first
        const std::vector<std::string> c = r.candidates("/app/xDiT/xfuser/runner.py");
        const std::vector<std::string> expected{"/app/xDiT/xfuser/runner.py", root(dir, "work/app/xDiT/xfuser/runner.py"),
                                                root(dir, "work/xDiT/xfuser/runner.py"), root(dir, "work/xfuser/runner.py"),
                                                root(dir, "work/runner.py")};
        QCOMPARE(c, expected);
    }

    void pseudoFilesAndDirectories()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("root/pkg.py"))));
        touch(dir, QStringLiteral("root/<frozen runpy>"));
        const SourceResolver r({root(dir, "root")});
        QCOMPARE(r.resolve("<frozen runpy>"), std::nullopt);
        QVERIFY(r.candidates("<frozen runpy>").empty());
        QCOMPARE(r.resolve("pkg.py"), std::nullopt); // a directory is not a file
        QCOMPARE(r.resolve(""), std::nullopt);
    }

    void missingListsCandidates()
    {
        const SourceResolver r({"/nonexistent/a", "/nonexistent/b"});
        QCOMPARE(r.resolve("vllm/worker.py"), std::nullopt);
        QCOMPARE(r.candidates("vllm/worker.py"), (std::vector<std::string>{"/nonexistent/a/vllm/worker.py", "/nonexistent/b/vllm/worker.py"}));
    }
};

QTEST_GUILESS_MAIN(TestSourceResolver)
#include "tst_sourceresolver.moc"
