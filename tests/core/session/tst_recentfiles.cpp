// RecentFiles: newest first, no duplicates, at most kMax, missing paths dropped. Uses a settings
// file in a temporary folder, never the user's settings.
#include "session/recentfiles.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace lanescope;

class TestRecentFiles : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString touch(const QString &name)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        return QFileInfo(path).absoluteFilePath();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void newestFirstWithoutDuplicates()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("a.ini")), QSettings::IniFormat);
        const QString a = touch(QStringLiteral("a.json")), b = touch(QStringLiteral("b.json"));
        QVERIFY(RecentFiles::paths(settings).isEmpty());
        RecentFiles::add(settings, a);
        RecentFiles::add(settings, b);
        QCOMPARE(RecentFiles::paths(settings), (QStringList{b, a}));
        RecentFiles::add(settings, a); // opened again: back to the top, once
        QCOMPARE(RecentFiles::paths(settings), (QStringList{a, b}));
        RecentFiles::add(settings, QString());
        QCOMPARE(RecentFiles::paths(settings).size(), 2);
        RecentFiles::remove(settings, a);
        QCOMPARE(RecentFiles::paths(settings), QStringList{b});
        RecentFiles::clear(settings);
        QVERIFY(RecentFiles::paths(settings).isEmpty());
    }

    void relativePathsBecomeAbsolute()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("b.ini")), QSettings::IniFormat);
        const QString a = touch(QStringLiteral("rel.json"));
        const QString old = QDir::currentPath();
        QDir::setCurrent(m_dir.path());
        RecentFiles::add(settings, QStringLiteral("rel.json"));
        QDir::setCurrent(old);
        QCOMPARE(RecentFiles::paths(settings), QStringList{a});
    }

    void keepsAtMostMax()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("c.ini")), QSettings::IniFormat);
        QStringList added;
        for (int i = 0; i < RecentFiles::kMax + 5; ++i) {
            added.prepend(touch(QStringLiteral("f%1.json").arg(i)));
            RecentFiles::add(settings, added.first());
        }
        QCOMPARE(RecentFiles::paths(settings), added.mid(0, RecentFiles::kMax));
        // A hand-edited list longer than kMax is cut when read.
        settings.setValue(QStringLiteral("recent/paths"), added);
        QCOMPARE(RecentFiles::paths(settings).size(), RecentFiles::kMax);
    }

    void foldersAndMissingEntries()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("d.ini")), QSettings::IniFormat);
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("profile")));
        const QString folder = QFileInfo(m_dir.filePath(QStringLiteral("profile"))).absoluteFilePath();
        const QString gone = touch(QStringLiteral("gone.json"));
        const QString kept = touch(QStringLiteral("kept.json"));
        RecentFiles::add(settings, gone);
        RecentFiles::add(settings, folder);
        RecentFiles::add(settings, kept);
        QVERIFY(QFile::remove(gone));
        QCOMPARE(RecentFiles::removeMissing(settings), QStringList{gone});
        QCOMPARE(RecentFiles::paths(settings), (QStringList{kept, folder}));
        QVERIFY(RecentFiles::removeMissing(settings).isEmpty());
        // persisted: a fresh QSettings on the same file sees the pruned list
        settings.sync();
        const QSettings again(m_dir.filePath(QStringLiteral("d.ini")), QSettings::IniFormat);
        QCOMPARE(RecentFiles::paths(again), (QStringList{kept, folder}));
    }
};

QTEST_MAIN(TestRecentFiles)
#include "tst_recentfiles.moc"
