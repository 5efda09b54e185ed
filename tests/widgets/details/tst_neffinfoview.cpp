// NeffInfoView shows what NeffReader found, section by section; checked on a NEFF written by
// NeffWriter and, when the corpus is there, on a real compiler output.
#include "details/neffinfoview.h"

#include "corpus.h"
#include "io/neff/neffreader.h"
#include "io/synthetic/neffwriter.h"

#include <QtTest>

using namespace lanescope;

class TestNeffInfoView : public QObject
{
    Q_OBJECT
private:
    static QString valueOf(QTreeWidgetItem *section, const QString &field)
    {
        for (int i = 0; section && i < section->childCount(); ++i)
            if (section->child(i)->text(0) == field)
                return section->child(i)->text(1);
        return {};
    }

private slots:
    void writtenNeff()
    {
        NeffWriter w;
        w.setUuid(QByteArrayLiteral("0123456789abcdef0123456789abcdef").toStdString());
        w.setNetworkName("rmsnorm.neff");
        w.setCompilerVersion("2.99.0+test");
        w.setTarget("cayman");
        w.addVariable({"x", "input", 4096, "bfloat16", {2, 1024}});
        w.addVariable({"y", "output", 4096, {}, {}});
        NeffWriter::DmaQueue q;
        q.name = "qSPIO0";
        q.semaphores = {8, 9};
        w.addDmaQueue(q);
        const NeffInfo info = NeffReader::readBytes(w.bytes(), "rmsnorm.neff", LoadOptions{});

        NeffInfoView view;
        view.setInfo(info);
        QTreeWidgetItem *header = view.section(QStringLiteral("Header"));
        QVERIFY(header);
        QCOMPARE(valueOf(header, QStringLiteral("UUID")), QStringLiteral("01234567-89ab-cdef-0123-456789abcdef"));
        QCOMPARE(valueOf(header, QStringLiteral("MD5")), QStringLiteral("matches the payload"));
        QCOMPARE(valueOf(view.section(QStringLiteral("Compiler")), QStringLiteral("Target")), QStringLiteral("cayman (Trn2)"));
        QTreeWidgetItem *sg = view.section(QStringLiteral("Subgraph sg00"));
        QVERIFY(sg);
        QTreeWidgetItem *vars = sg->child(0);
        QCOMPARE(vars->childCount(), 2);
        QCOMPARE(vars->child(0)->text(0), QStringLiteral("x"));
        QVERIFY2(vars->child(0)->text(1).contains(QStringLiteral("input")) && vars->child(0)->text(1).contains(QStringLiteral("[2, 1024]")),
                 qPrintable(vars->child(0)->text(1)));
        QTreeWidgetItem *queues = sg->child(1);
        QCOMPARE(queues->child(0)->text(0), QStringLiteral("qSPIO0"));
        QVERIFY(queues->child(0)->text(1).contains(QStringLiteral("semaphores 8,9")));
        QVERIFY(view.section(QStringLiteral("Members"))->childCount() > 5);
        QCOMPARE(view.section(QStringLiteral("Warnings"))->text(1), QStringLiteral("none"));
    }

    void realNeff()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-nkipy/matmul_small.neff"));
        const QString path = lanescope::test::corpusFile(QStringLiteral("neuron-nkipy/matmul_small.neff"));
        const NeffInfo info = NeffReader::read(path.toStdString(), LoadOptions{});
        NeffInfoView view;
        view.setInfo(info);
        QVERIFY(view.section(QStringLiteral("Subgraph sg00")));
        QVERIFY(view.section(QStringLiteral("Subgraph sg01")));
        QVERIFY(valueOf(view.section(QStringLiteral("Compiler")), QStringLiteral("Version")).startsWith(QStringLiteral("2.23")));
        // The instruction-to-op chain: the dot and its Python line, and how far PE's instructions reach.
        QTreeWidgetItem *sg = view.section(QStringLiteral("Subgraph sg00"));
        QTreeWidgetItem *ops = nullptr;
        for (int i = 0; i < sg->childCount(); ++i)
            if (sg->child(i)->text(0) == QStringLiteral("Ops (debug info)"))
                ops = sg->child(i);
        QVERIFY(ops);
        QCOMPARE(ops->text(1), QStringLiteral("1 HLO op(s)"));
        QCOMPARE(valueOf(ops, QStringLiteral("PE")), QStringLiteral("12 instructions · 10 with BIR · 10 with Penguin · 5 with HLO"));
        const QString dot = valueOf(ops, QStringLiteral("%op0 = dot(%x, %y)"));
        QVERIFY2(dot.startsWith(QStringLiteral("10 instruction")) && dot.endsWith(QStringLiteral("test_spike_async.py:58")), qPrintable(dot));
        view.resize(900, 700);
        const QImage img = view.grab().toImage();
        if (qEnvironmentVariableIsSet("LANESCOPE_SAVE_SCREENSHOTS"))
            img.save(QDir::temp().filePath(QStringLiteral("lanescope_neffinfoview.png")));
        QVERIFY(!img.isNull());
    }
};

QTEST_MAIN(TestNeffInfoView)
#include "tst_neffinfoview.moc"
