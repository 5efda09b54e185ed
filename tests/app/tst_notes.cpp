// Notes in the real main window, offscreen (issue 19): N on a marked range and on a selected slice,
// and right-click > Add Note Here, each through the real AnnotationDialog; the notes appear in the
// Notes dock and are drawn in the timeline in their colour, are saved next to the trace at once,
// and are there again after the window is closed and the trace reopened. An unreadable notes file
// is said in the dock and left alone. Pictures of the dialog go to $LANESCOPE_TEST_SHOTS when set.
#include "annotationdialog.h"
#include "mainwindow.h"
#include "notescontroller.h"
#include "notespanel.h"
#include "session.h"

#include "imagecheck.h"
#include "notesfixture.h"

#include "overlays/annotationsoverlay.h"
#include "timeline/timelineview.h"

#include "model/trace.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

using namespace lanescope;

namespace {

constexpr int64_t kStart = test::kNotesTraceStartNs;

bool open(MainWindow &w, const QString &path)
{
    QSignalSpy finished(w.session(), &Session::loadFinished);
    w.session()->open(path);
    return finished.wait(20000) && finished.takeFirst().at(0).toBool();
}

// Answers the next AnnotationDialog with `text` and `colour`.
void answerDialog(const QString &text, const QString &colour)
{
    QTimer::singleShot(0, qApp, [text, colour] {
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *dialog = qobject_cast<AnnotationDialog *>(w); dialog && dialog->isVisible()) {
                dialog->setText(text);
                dialog->setColor(colour);
                // A picture for looking at it, when $LANESCOPE_TEST_SHOTS names a folder.
                if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SHOTS"); !dir.isEmpty())
                    dialog->grab().save(dir + QStringLiteral("/note-dialog-") + colour.mid(1) + QStringLiteral(".png"));
                dialog->accept();
                return;
            }
        QFAIL("no Add Note dialog");
    });
}

} // namespace

class TestNotes : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void addShowSaveReopen()
    {
        const QString trace = m_dir.filePath(QStringLiteral("step.pt.trace.json"));
        QVERIFY(test::writeFile(trace, test::notesTrace()));
        auto *w = new MainWindow;
        w->setQuietErrors(true);
        w->resize(1200, 800);
        w->show();
        QVERIFY(open(*w, trace));
        NotesController *notes = w->notes();
        notes->setShown(true, false);
        QTreeWidget *list = notes->panel()->list();
        QCOMPARE(list->topLevelItemCount(), 0);
        QCOMPARE(notes->addAction()->shortcut(), QKeySequence(Qt::Key_N));

        // M then N: a range note.
        w->session()->setMarkedRange(kStart + 2000, kStart + 32250);
        answerDialog(QStringLiteral("mm is slow here"), QStringLiteral("#ff00ff"));
        notes->addAction()->trigger();
        QCOMPARE(notes->store().notes().size(), size_t(1));
        const Annotation range = notes->store().notes().front();
        QCOMPARE(range.kind, Annotation::Kind::Range);
        QCOMPARE(range.startNs, kStart + 2000);
        QCOMPARE(range.endNs, kStart + 32250);
        QCOMPARE(range.color, std::string("#ff00ff"));

        // N on a selected slice: an event note.
        w->session()->setMarkedRange(0, 0);
        const auto &t = *w->session()->trace();
        SliceId mm;
        for (uint32_t i = 0; i < t.allSlices().size(); ++i)
            if (t.str(t.allSlices()[i].name) == "aten::mm")
                mm = SliceId(i);
        w->session()->setSelectedSlice(mm);
        answerDialog(QStringLiteral("this matmul"), QString());
        notes->addAction()->trigger();
        QCOMPARE(notes->store().notes().size(), size_t(2));
        QCOMPARE(notes->store().notes().back().kind, Annotation::Kind::Event);
        QCOMPARE(notes->store().notes().back().eventName, std::string("aten::mm"));

        // Right-click > Add Note Here: a point note at the clicked time.
        QMenu menu;
        emit w->timeline()->contextMenuAboutToShow(&menu, kStart + 60000);
        QAction *here = nullptr;
        for (QAction *a : menu.actions())
            if (a->text().startsWith(QStringLiteral("Add Note Here")))
                here = a;
        QVERIFY(here);
        answerDialog(QStringLiteral("add starts"), QStringLiteral("#3fa34d"));
        here->trigger();
        QCOMPARE(notes->store().notes().size(), size_t(3));
        QCOMPARE(notes->store().notes().back().kind, Annotation::Kind::Point);
        QCOMPARE(notes->store().notes().back().startNs, kStart + 60000);

        // The dock lists them, the overlay has them, the timeline draws the magenta range.
        QCOMPARE(list->topLevelItemCount(), 3);
        QCOMPARE(list->topLevelItem(0)->text(3), QStringLiteral("mm is slow here"));
        QCOMPARE(list->topLevelItem(1)->text(2), QStringLiteral("aten::mm at 2.25 µs"));
        QCOMPARE(notes->overlay()->notes().size(), size_t(3));
        w->timeline()->fitAll();
        QVERIFY(test::pixelsOfColour(w->timeline()->grab().toImage(), qRgb(255, 0, 255)) > 100);
        notes->setShown(false, false);
        QCOMPARE(test::pixelsOfColour(w->timeline()->grab().toImage(), qRgb(255, 0, 255)), 0);
        notes->setShown(true, false);
        QVERIFY(notes->panel()->location()->text().contains(trace + QStringLiteral(".lanescope-notes.json")));

        // Saved at once, next to the trace.
        QVERIFY(test::readFile<QByteArray>(trace + QStringLiteral(".lanescope-notes.json")).contains("\"this matmul\""));

        // Removing one from the dock saves too.
        list->setCurrentItem(list->topLevelItem(2));
        QCOMPARE(notes->panel()->currentId(), 3);
        notes->removeNote(notes->panel()->currentId());
        QCOMPARE(list->topLevelItemCount(), 2);
        QVERIFY(!test::readFile<QByteArray>(trace + QStringLiteral(".lanescope-notes.json")).contains("add starts"));

        // Close, reopen: the notes are back.
        w->close();
        delete w;
        auto *again = new MainWindow;
        again->setQuietErrors(true);
        again->show();
        QVERIFY(open(*again, trace));
        QCOMPARE(again->notes()->panel()->list()->topLevelItemCount(), 2);
        QCOMPARE(again->notes()->store().notes().front().text, std::string("mm is slow here"));
        QCOMPARE(again->notes()->store().notes().back().sliceId, mm.value);
        again->close();
        delete again;
    }

    void unreadableNotesFileIsSaidAndKept()
    {
        const QString trace = m_dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(test::writeFile(trace, test::notesTrace()));
        const QByteArray broken = "{\"version\": 1, \"notes\": [";
        QVERIFY(test::writeFile(trace + QStringLiteral(".lanescope-notes.json"), broken));
        MainWindow w;
        w.setQuietErrors(true);
        w.show();
        QVERIFY(open(w, trace));
        const QString said = w.notes()->panel()->location()->text();
        QVERIFY2(said.contains(QStringLiteral("cannot be read")) && said.contains(QStringLiteral("line 1, column 26")),
                 qPrintable(said));
        w.notes()->addNote(Annotation::point(kStart + 5000, "in memory only"));
        QCOMPARE(w.notes()->panel()->list()->topLevelItemCount(), 1);
        QCOMPARE(test::readFile<QByteArray>(trace + QStringLiteral(".lanescope-notes.json")), broken);
    }
};

QTEST_MAIN(TestNotes)
#include "tst_notes.moc"
