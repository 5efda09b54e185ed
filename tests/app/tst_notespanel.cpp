// NotesPanel (the Notes dock), offscreen: in the narrow right dock group (about 230 px at 1366x768)
// the note's text is on screen, shown right after the number, with where and kind after it (the
// columns keep their indices: text(3) is the note, text(2) where); wide, every column fits with the
// text taking the slack; where and the text are in every cell's tool tip.
#include "mainwindow.h"
#include "notescontroller.h"
#include "notespanel.h"

#include "annotations/annotation.h"

#include <QHeaderView>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>

using namespace lanescope;

class TestNotesPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void textFirstAndOnScreen()
    {
        MainWindow w;
        NotesPanel *panel = w.notes()->panel();
        std::vector<Annotation> notes{Annotation::range(200'000, 450'000, "naive RMSNorm: five separate kernels, each a round trip to HBM"),
                                      Annotation::point(620'000, "fused")};
        notes[0].id = 1;
        notes[1].id = 2;
        panel->setNotes(notes, QStringLiteral("Saved in /tmp/x.lanescope-notes.json"));
        QTreeWidget *list = panel->list();
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(0)->text(3), QStringLiteral("naive RMSNorm: five separate kernels, each a round trip to HBM"));
        QCOMPARE(list->header()->visualIndex(3), 1); // the note right after the number
        QVERIFY(list->topLevelItem(0)->toolTip(1).contains(QStringLiteral("naive RMSNorm")));
        QVERIFY(list->topLevelItem(0)->toolTip(1).contains(list->topLevelItem(0)->text(2)));

        panel->setFloating(true);
        panel->resize(240, 400); // the right dock group at 1366x768
        panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel));
        QTest::qWait(20);
        QVERIFY(list->viewport()->width() < 240);
        const int viewport = list->viewport()->width();
        const int textLeft = list->header()->sectionViewportPosition(3);
        QVERIFY(textLeft < 60);
        QVERIFY2(list->columnWidth(3) >= viewport - textLeft - 2,
                 qPrintable(QStringLiteral("%1 of %2").arg(list->columnWidth(3)).arg(viewport)));

        panel->resize(900, 400); // wide: everything fits, the text takes the slack
        QTest::qWait(20);
        int total = 0;
        for (int c = 0; c < 4; ++c)
            total += list->columnWidth(c);
        QVERIFY2(total <= list->viewport()->width() + 1, qPrintable(QString::number(total)));
        QVERIFY(list->header()->sectionViewportPosition(2) + list->columnWidth(2) <= list->viewport()->width());
    }
};

QTEST_MAIN(TestNotesPanel)
#include "tst_notespanel.moc"
