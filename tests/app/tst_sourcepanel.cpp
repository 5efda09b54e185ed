// The Source dock in the real main window, offscreen, on the with_stack Kineto trace the Flame Graph
// test uses (written the way PyTorch's profiler writes it) and a train.py the test writes beside it:
// the dock stays hidden until Ctrl+U, then opens beside the Flame Graph at the frame clicked there,
// with each line's numbers equal to SourceLines' (the numbers `lanescope-cli source` prints); it
// follows a frame selected in the timeline and the marked range; a file that is not here is listed
// line by line with the paths tried, and a root added for the trace finds it; Open in Editor runs
// the user's command with {file} and {line}; a trace without call stacks says how to get them.
#include "calltreetraces.h"

#include "editorlauncher.h"
#include "flamegraphpanel.h"
#include "mainwindow.h"
#include "session.h"
#include "sourcepanel.h"
#include "sourceroots.h"

#include "flamegraph/flamegraphview.h"
#include "source/sourceview.h"
#include "timeline/timelineview.h"

#include "model/trace.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

using namespace lanescope;

namespace {

// A script whose lines 10 and 20 are the frames' (main, step).
bool writeScript(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    for (int line = 1; line <= 30; ++line)
        f.write(line == 10 ? "def main():\n" : line == 20 ? "    y = step(x)\n" : QByteArray("# line " + QByteArray::number(line) + "\n"));
    return true;
}

bool waitComputed(SourcePanel *panel)
{
    if (!panel->isComputing())
        return true;
    QSignalSpy computed(panel, &SourcePanel::computed);
    return computed.wait(20000);
}

bool openTrace(MainWindow &w, const QString &path)
{
    w.setQuietErrors(true);
    QSignalSpy finished(w.session(), &Session::loadFinished);
    w.session()->open(path);
    return finished.wait(60000) && w.session()->trace();
}

// The with_stack trace and its train.py in one folder, opened in a shown window.
bool openStackTraceWithScript(const QTemporaryDir &dir, MainWindow &w)
{
    const QString trace = lanescope::test::writeStackTrace(dir, "stacks.json");
    if (!writeScript(dir.filePath(QStringLiteral("train.py"))) || !openTrace(w, trace))
        return false;
    w.show();
    return true;
}

SliceId sliceNamed(const Trace &trace, std::string_view name)
{
    for (uint32_t i = 0; i < trace.allSlices().size(); ++i)
        if (trace.str(trace.allSlices()[i].name) == name)
            return SliceId(i);
    return {};
}

} // namespace

class TestSourcePanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup() { EditorLauncher::setCommandTemplate({}); }

    void flameGraphFrameOpensAtItsLine()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(openStackTraceWithScript(dir, w));
        QVERIFY(QTest::qWaitForWindowActive(&w));
        SourcePanel *source = w.sourcePanel();
        QCOMPARE(source->objectName(), QStringLiteral("sourceDock"));
        QCOMPARE(source->showAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_U));
        QVERIFY(source->isHidden()); // asked for, not pushed

        FlameGraphPanel *flame = w.flameGraphPanel();
        flame->present();
        QSignalSpy flameDone(flame, &FlameGraphPanel::computed);
        QVERIFY(flame->view()->tree() || flameDone.wait(20000));
        uint32_t step = 0;
        const CallTree::Result *tree = flame->view()->tree();
        for (uint32_t i = 1; i < tree->nodes.size(); ++i)
            if (tree->nodes[i].name == "train.py(20): step")
                step = i;
        QVERIFY(step);
        flame->selectNode(step); // what a click does: frameSelected -> SourcePanel::showFrame
        QVERIFY(source->isHidden());

        w.timeline()->setFocus();
        QTest::keyClick(w.timeline(), Qt::Key_U, Qt::ControlModifier);
        QVERIFY(source->isVisible());
        QVERIFY(flame->isVisible()); // beside it, not over it
        QCOMPARE(w.dockWidgetArea(source), Qt::BottomDockWidgetArea);
        QVERIFY(waitComputed(source));

        // The numbers are SourceLines' over the merged tree; train.py is found in the trace's folder.
        const std::vector<SourceFile> expected = SourceLines::compute(lanescope::test::mergedTree(*w.session()->trace()));
        QCOMPARE(source->files().size(), expected.size());
        QCOMPARE(source->files().front().path, std::string("train.py"));
        QCOMPARE(source->resolvedPath(0), QDir(dir.path()).filePath(QStringLiteral("train.py")));
        SourceView *view = source->view();
        QVERIFY(view->showsText());
        QCOMPARE(view->currentLine(), 20u);
        QCOMPARE(view->textCursor().block().text(), QStringLiteral("    y = step(x)"));
        const SourceLine *line20 = view->statsOfRow(19);
        QVERIFY(line20);
        const SourceLine *want = SourceLines::findLine(expected.front(), 20);
        QCOMPARE(line20->total, want->total);
        QCOMPARE(line20->total, int64_t(800'000));
        QCOMPARE(line20->self, int64_t(600'000)); // aten::mm's 2 x 100 us beneath
        QCOMPARE(line20->device, int64_t(120'000)); // 50 + 70 us of gemm
        QCOMPARE(line20->calls, uint64_t(2));
        QCOMPARE(view->statsOfRow(9)->total, int64_t(1'000'000));
        QVERIFY(!view->statsOfRow(0));
        QVERIFY2(source->statusLabel()->text().contains(QDir(dir.path()).filePath(QStringLiteral("train.py"))),
                 qPrintable(source->statusLabel()->text()));

        // The weight box: the bars follow. Self: the step (600 us against main's 200); device: main
        // and the step launched the same 120 us, the first of a tie is the hottest.
        source->weightBox()->setCurrentIndex(int(SourceView::Weight::Self));
        emit source->weightBox()->activated(int(SourceView::Weight::Self));
        QCOMPARE(view->weight(), SourceView::Weight::Self);
        QCOMPARE(view->lineOfRow(view->hottestRow()), 20u);
        source->weightBox()->setCurrentIndex(int(SourceView::Weight::Device));
        emit source->weightBox()->activated(int(SourceView::Weight::Device));
        QCOMPARE(view->weight(), SourceView::Weight::Device);
        QCOMPARE(view->lineOfRow(view->hottestRow()), 10u);
        QCOMPARE(view->currentLine(), 20u); // the weight does not move the cursor

        // A frame selected in the timeline: the open dock follows.
        const SliceId mainSlice = sliceNamed(*w.session()->trace(), "train.py(10): main");
        QVERIFY(mainSlice.isValid());
        w.session()->setSelectedSlice(mainSlice);
        QCOMPARE(view->currentLine(), 10u);

        // The marked range [0, 450 us): only the first step.
        w.session()->setMarkedRange(w.session()->trace()->startNs(), w.session()->trace()->startNs() + 450'000);
        QSignalSpy again(source, &SourcePanel::computed);
        QVERIFY(again.wait(20000));
        QCOMPARE(view->currentLine(), 10u); // the line on screen stays
        QCOMPARE(view->statsOfRow(19)->total, int64_t(400'000));
        QCOMPARE(view->statsOfRow(19)->device, int64_t(50'000));
        QVERIFY(source->statusLabel()->text().startsWith(QStringLiteral("Marked range")));
    }

    void missingFileListedThenFoundUnderARoot()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("capture")) && QDir(dir.path()).mkpath(QStringLiteral("checkout")));
        const QString trace = lanescope::test::writeStackTrace(dir, "capture/stacks.json");
        QVERIFY(!trace.isEmpty());
        MainWindow w;
        QVERIFY(openTrace(w, trace));
        w.show();
        SourcePanel *source = w.sourcePanel();
        SourceRoots::setForTrace(w.session()->currentPath(), {});
        source->present();
        QVERIFY(waitComputed(source));
        SourceView *view = source->view();
        QVERIFY(!view->showsText());
        QVERIFY(source->resolvedPath(0).isEmpty());
        QCOMPARE(view->document()->blockCount(), 2); // lines 10 and 20, with their functions
        QCOMPARE(view->lineOfRow(0), 10u);
        QCOMPARE(view->lineOfRow(1), 20u);
        QVERIFY(view->document()->findBlockByNumber(1).text().contains(QStringLiteral("step")));
        QCOMPARE(view->statsOfRow(1)->total, int64_t(800'000));
        const QString status = source->statusLabel()->text();
        QVERIFY2(status.contains(QStringLiteral("not on this machine")), qPrintable(status));
        QVERIFY2(status.contains(QDir(dir.filePath(QStringLiteral("capture"))).filePath(QStringLiteral("train.py"))), qPrintable(status));
        QVERIFY(!source->openInEditor());
        QVERIFY(source->statusLabel()->text().contains(QStringLiteral("Add Folder")));

        // A root for this trace (Roots > Add Folder for This Trace): found, kept in the settings.
        const QString checkout = dir.filePath(QStringLiteral("checkout"));
        QVERIFY(writeScript(QDir(checkout).filePath(QStringLiteral("train.py"))));
        SourceRoots::setForTrace(w.session()->currentPath(), {checkout});
        source->reloadRoots();
        QVERIFY(view->showsText());
        QCOMPARE(source->resolvedPath(0), QDir(checkout).filePath(QStringLiteral("train.py")));
        QCOMPARE(SourceRoots::all(w.session()->currentPath()).front(), checkout.toStdString());
        SourceRoots::setForTrace(w.session()->currentPath(), {});
        QCOMPARE(SourceRoots::forTrace(w.session()->currentPath()), QStringList());
    }

    void editorCommand()
    {
        QCOMPARE(EditorLauncher::command(QStringLiteral("code -g {file}:{line}"), QStringLiteral("/a b/t.py"), 7),
                 (QStringList{QStringLiteral("code"), QStringLiteral("-g"), QStringLiteral("/a b/t.py:7")}));
        QCOMPARE(EditorLauncher::command(QStringLiteral("emacsclient -n +{line}"), QStringLiteral("/t.py"), 3),
                 (QStringList{QStringLiteral("emacsclient"), QStringLiteral("-n"), QStringLiteral("+3"), QStringLiteral("/t.py")}));
        QVERIFY(EditorLauncher::command(QString(), QStringLiteral("/t.py"), 3).isEmpty());
        // $EDITOR=vim from a desktop launcher: in a terminal; a GUI editor or no terminal: as it is.
        const QStringList vim{QStringLiteral("/usr/bin/vim"), QStringLiteral("+3"), QStringLiteral("/t.py")};
        QCOMPARE(EditorLauncher::inTerminal(vim, QStringLiteral("/usr/bin/x-terminal-emulator")),
                 QStringList({QStringLiteral("/usr/bin/x-terminal-emulator"), QStringLiteral("-e")}) + vim);
        QCOMPARE(EditorLauncher::inTerminal(vim, QString()), vim);
        const QStringList code{QStringLiteral("code"), QStringLiteral("-g"), QStringLiteral("/t.py:3")};
        QCOMPARE(EditorLauncher::inTerminal(code, QStringLiteral("/usr/bin/x-terminal-emulator")), code);
        const QStringList emacsNw{QStringLiteral("emacs"), QStringLiteral("-nw"), QStringLiteral("+3"), QStringLiteral("/t.py")};
        QCOMPARE(EditorLauncher::inTerminal(emacsNw, QStringLiteral("xterm")).front(), QStringLiteral("xterm"));

        // The dock runs it at the current line.
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(openStackTraceWithScript(dir, w));
        SourcePanel *source = w.sourcePanel();
        QVERIFY(source->showFrame(QStringLiteral("train.py(20): step")));
        QVERIFY(!source->showFrame(QStringLiteral("aten::mm")));
        source->present();
        QVERIFY(waitComputed(source));
        QCOMPARE(source->view()->currentLine(), 20u);
        const QString out = dir.filePath(QStringLiteral("opened.txt"));
        EditorLauncher::setCommandTemplate(QStringLiteral("sh -c \"echo $0:$1 > $2\" {file} {line} ") + out);
        QVERIFY(source->openInEditor());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(out) && QFileInfo(out).size() > 0, 10000);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()).trimmed(), QDir(dir.path()).filePath(QStringLiteral("train.py")) + QStringLiteral(":20"));
    }

    void traceWithoutStacksSaysHow()
    {
        QTemporaryDir dir;
        lanescope::test::KinetoEvents e;
        e.op("cpu_op", "aten::mm", 20, 100, 1);
        const QString trace = e.write(dir, "plain.json");
        MainWindow w;
        QVERIFY(openTrace(w, trace));
        w.show();
        SourcePanel *source = w.sourcePanel();
        source->present();
        QVERIFY(waitComputed(source));
        QVERIFY(source->files().empty());
        QVERIFY2(source->view()->toPlainText().contains(QStringLiteral("with_stack=True")), qPrintable(source->view()->toPlainText()));
    }
};

QTEST_MAIN(TestSourcePanel)
#include "tst_sourcepanel.moc"
