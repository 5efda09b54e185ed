// SourceFrame (core/analysis/sourceframe.h): PyTorch's with_stack frame names as they occur in real
// traces (tracelens/xdit_sd35_rank0: absolute, site-packages-relative and `<frozen ...>` paths)
// parse into path, line and function; op, kernel and built-in names never parse with a bogus line.
#include "analysis/sourceframe.h"

#include <QtTest>

#include <string>

using namespace lanescope;

class TestSourceFrame : public QObject
{
    Q_OBJECT
private slots:
    void frames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("function");
        QTest::addColumn<bool>("isFile");
        QTest::newRow("absolute") << QStringLiteral("/app/xDiT/xfuser/runner.py(126): <module>")
                                  << QStringLiteral("/app/xDiT/xfuser/runner.py") << 126 << QStringLiteral("<module>") << true;
        QTest::newRow("site-packages") << QStringLiteral("torch/nn/modules/module.py(1779): _call_impl")
                                       << QStringLiteral("torch/nn/modules/module.py") << 1779 << QStringLiteral("_call_impl") << true;
        QTest::newRow("stdlib") << QStringLiteral("threading.py(1030): _bootstrap") << QStringLiteral("threading.py") << 1030
                                << QStringLiteral("_bootstrap") << true;
        QTest::newRow("frozen") << QStringLiteral("<frozen runpy>(198): _run_module_as_main") << QStringLiteral("<frozen runpy>")
                                << 198 << QStringLiteral("_run_module_as_main") << false;
        QTest::newRow("string") << QStringLiteral("<string>(2): __init__") << QStringLiteral("<string>") << 2
                                << QStringLiteral("__init__") << false;
        QTest::newRow("parens in the path") << QStringLiteral("/home/u/my proj (copy)/a.py(7): f")
                                            << QStringLiteral("/home/u/my proj (copy)/a.py") << 7 << QStringLiteral("f") << true;
        QTest::newRow("first match decides") << QStringLiteral("a.py(12): f(3): g") << QStringLiteral("a.py") << 12
                                             << QStringLiteral("f(3): g") << true;
        QTest::newRow("lambda") << QStringLiteral("x/y.py(0): <lambda>") << QStringLiteral("x/y.py") << 0 << QStringLiteral("<lambda>") << true;
        QTest::newRow("windows") << QStringLiteral("C:\\proj\\train.py(118): collate") << QStringLiteral("C:\\proj\\train.py") << 118
                                 << QStringLiteral("collate") << true;
        QTest::newRow("nine digits") << QStringLiteral("a.py(123456789): f") << QStringLiteral("a.py") << 123456789
                                     << QStringLiteral("f") << true;
    }

    void frames()
    {
        QFETCH(QString, name);
        QFETCH(QString, path);
        QFETCH(int, line);
        QFETCH(QString, function);
        QFETCH(bool, isFile);
        const std::string text = name.toStdString();
        const auto frame = SourceFrame::parse(text);
        QVERIFY(frame);
        QCOMPARE(QString::fromStdString(std::string(frame->path)), path);
        QCOMPARE(int(frame->line), line);
        QCOMPARE(QString::fromStdString(std::string(frame->function)), function);
        QCOMPARE(frame->isFile(), isFile);
    }

    void notFrames_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *n : {"aten::mm", "aten::_to_copy", "nn.Module: Linear", "nn.Module: T5Block_0",
                              "<built-in method mm of type object at 0x7f3a2c1d9e40>", "<built-in function isinstance>",
                              "f(x)", "f(3)", "f(3):g", "f(3) : g", "f(): g", "f(-3): g", "f(3a): g", "(12): g", "x.py(12): ",
                              "x.py(1234567890): f", "void at::native::vectorized_elementwise_kernel<8, float>(int, float)",
                              "PyTorch Profiler (0)", "ProfilerStep#3", "Memcpy HtoD (Host -> Device)", "cudaLaunchKernel",
                              "a\nb.py(1): f", "b.py(1): f\ng", "", "("}) {
            const QString text = QString::fromUtf8(n);
            QTest::addRow("'%s'", qPrintable(QString(text).replace(QLatin1Char('\n'), QStringLiteral("\\n")))) << text;
        }
    }

    void notFrames()
    {
        QFETCH(QString, name);
        const std::string text = name.toStdString();
        QVERIFY2(!SourceFrame::parse(text), text.c_str());
    }

    void viewsIntoTheName()
    {
        const std::string name = "pkg/mod.py(42): run";
        const auto frame = SourceFrame::parse(name);
        QVERIFY(frame);
        QCOMPARE(static_cast<const void *>(frame->path.data()), static_cast<const void *>(name.data()));
        QCOMPARE(static_cast<const void *>(frame->function.data()), static_cast<const void *>(name.data() + 16));
    }
};

QTEST_GUILESS_MAIN(TestSourceFrame)
#include "tst_sourceframe.moc"
