// Shortcuts (app/gui/shortcuts.h): the one list of keys. The window binds exactly the list's keys
// (no action has a key the list does not show, no key of the list is left unbound), the Help >
// Keyboard Shortcuts dialog shows every row, and the README's key table is the list's table.
#include "mainwindow.h"
#include "shortcuts.h"

#include <QAction>
#include <QDialog>
#include <QFile>
#include <QSet>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace lanescope;

class TestShortcuts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyBoundKeyIsInTheListAndBack()
    {
        MainWindow w;
        QSet<QString> bound; // what the window's actions carry
        for (QAction *a : w.findChildren<QAction *>())
            for (const QKeySequence &k : a->shortcuts())
                if (!k.isEmpty())
                    bound.insert(k.toString(QKeySequence::PortableText));
        QSet<QString> listed;
        int actions = 0;
        for (const Shortcuts::Entry &e : Shortcuts::entries()) {
            if (e.id == Shortcuts::Id::None)
                continue;
            ++actions;
            const QString key = Shortcuts::key(e.id).toString(QKeySequence::PortableText);
            QVERIFY2(!key.isEmpty(), e.action);
            // the "keys" column says what is bound (Ctrl+O is QKeySequence::Open on Linux)
            QCOMPARE(key, QString::fromLatin1(e.keys));
            listed.insert(key);
        }
        QCOMPARE(actions, 21);
        QCOMPARE(bound, listed);
    }

    void timelineKeysAreListed()
    {
        // The keys the timeline handles itself (widgets/timeline/timelineinput) have descriptive rows.
        QStringList timeline;
        for (const Shortcuts::Entry &e : Shortcuts::entries())
            if (QLatin1String(e.group) == QLatin1String("Timeline"))
                timeline << QString::fromLatin1(e.keys);
        for (const char *k : {"W / S, + / -", "A / D, Left / Right", "M", "F", "Home or 0", "Backspace", "/", "Esc"})
            QVERIFY2(timeline.contains(QString::fromLatin1(k)), k);
    }

    void dialogShowsTheList()
    {
        MainWindow w;
        QDialog *dialog = Shortcuts::createDialog(&w);
        auto *table = dialog->findChild<QTableWidget *>();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), int(Shortcuts::entries().size()));
        QCOMPARE(table->item(0, 1)->text(), QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText));
        QCOMPARE(table->item(0, 2)->text(), QString::fromLatin1(Shortcuts::entries()[0].action));
        delete dialog;
        // Help > Keyboard Shortcuts opens it (F1)
        w.show();
        w.showKeyboardShortcuts();
        QTRY_VERIFY(w.findChild<QDialog *>(QStringLiteral("keyboardShortcutsDialog")));
        QVERIFY(w.findChild<QDialog *>(QStringLiteral("keyboardShortcutsDialog"))->isVisible());
    }

    void readmeTableIsTheList()
    {
        QFile readme(QStringLiteral(LANESCOPE_SOURCE_DIR "/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        const QString begin = QStringLiteral("<!-- keys: begin (tests/app/tst_shortcuts checks this table against app/gui/shortcuts.cpp) -->\n");
        const QString end = QStringLiteral("<!-- keys: end -->");
        const qsizetype from = text.indexOf(begin);
        const qsizetype to = text.indexOf(end);
        QVERIFY2(from >= 0 && to > from, "README.md has the key table markers");
        const QString table = text.mid(from + begin.size(), to - from - begin.size());
        if (table != Shortcuts::markdownTable())
            qWarning().noquote() << "README key table should be:\n" << Shortcuts::markdownTable();
        QCOMPARE(table, Shortcuts::markdownTable());
    }
};

QTEST_MAIN(TestShortcuts)
#include "tst_shortcuts.moc"
