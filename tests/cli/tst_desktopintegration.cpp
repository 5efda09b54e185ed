// Desktop integration as shipped in packaging/: the launcher, the file types and the AppStream
// metadata agree with each other and with the executables; the freedesktop validators accept them
// where they are installed; both executables answer --help and --version without a display.
#include "requiretool.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

const QString kPackaging = QStringLiteral(LANESCOPE_SOURCE_DIR "/packaging/");
const QString kDesktop = kPackaging + QStringLiteral("lanescope.desktop");
const QString kMime = kPackaging + QStringLiteral("lanescope-mime.xml");
const QString kMetainfo = kPackaging + QStringLiteral("io.github.lanescope.Lanescope.metainfo.xml");

struct Run
{
    int exitCode = -1;
    QByteArray out, err;
};

Run run(const QString &program, const QStringList &args, bool headless = true)
{
    QProcess p;
    if (headless) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        p.setProcessEnvironment(env);
    }
    p.start(program, args);
    if (!p.waitForFinished(60000))
        return {};
    return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

// The [Desktop Entry] keys (no locale variants).
QMap<QString, QString> desktopEntry()
{
    QMap<QString, QString> keys;
    QFile f(kDesktop);
    if (!f.open(QIODevice::ReadOnly))
        return keys;
    bool inEntry = false;
    for (const QByteArray &raw : f.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.startsWith(QLatin1Char('['))) {
            inEntry = line == QStringLiteral("[Desktop Entry]");
            continue;
        }
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (inEntry && eq > 0 && !line.startsWith(QLatin1Char('#')))
            keys.insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
    }
    return keys;
}

QStringList list(const QString &value)
{
    return value.split(QLatin1Char(';'), Qt::SkipEmptyParts);
}

// type -> glob patterns, from the shared-mime-info package file.
QMap<QString, QStringList> mimeTypes()
{
    QMap<QString, QStringList> types;
    QFile f(kMime);
    if (!f.open(QIODevice::ReadOnly))
        return types;
    QXmlStreamReader xml(&f);
    QString current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("mime-type")) {
            current = xml.attributes().value(QLatin1String("type")).toString();
            types[current];
        } else if (xml.name() == QLatin1String("glob")) {
            types[current] << xml.attributes().value(QLatin1String("pattern")).toString();
        }
    }
    return xml.hasError() ? QMap<QString, QStringList>() : types;
}

// Text of every element called `name` in the metainfo file.
QStringList metainfo(const QString &name)
{
    QStringList out;
    QFile f(kMetainfo);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&f);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == name)
            out << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    return xml.hasError() ? QStringList{QStringLiteral("XML error: ") + xml.errorString()} : out;
}

} // namespace

class TestDesktopIntegration : public QObject
{
    Q_OBJECT
private slots:
    void desktopEntryKeys()
    {
        const auto e = desktopEntry();
        QCOMPARE(e.value(QStringLiteral("Type")), QStringLiteral("Application"));
        QCOMPARE(e.value(QStringLiteral("Name")), QStringLiteral("Lanescope"));
        QCOMPARE(e.value(QStringLiteral("Exec")), QStringLiteral("lanescope %F")); // several files
        QCOMPARE(e.value(QStringLiteral("Icon")), QStringLiteral("lanescope"));
        QVERIFY(QFile::exists(QStringLiteral(LANESCOPE_SOURCE_DIR "/resources/icons/lanescope.svg")));
        QCOMPARE(e.value(QStringLiteral("Terminal")), QStringLiteral("false"));
        QVERIFY(list(e.value(QStringLiteral("Categories"))).contains(QStringLiteral("Development")));
        QVERIFY(e.value(QStringLiteral("MimeType")).endsWith(QLatin1Char(';')));
    }

    // Every type the package defines is opened by the launcher, and the other way round.
    void mimeTypesMatch()
    {
        const auto types = mimeTypes();
        QCOMPARE(types.keys(), (QStringList{QStringLiteral("application/x-kineto-trace+gzip"),
                                            QStringLiteral("application/x-kineto-trace+json"),
                                            QStringLiteral("application/x-neuron-neff"),
                                            QStringLiteral("application/x-neuron-ntff")}));
        QCOMPARE(types.value(QStringLiteral("application/x-neuron-neff")), QStringList{QStringLiteral("*.neff")});
        QCOMPARE(types.value(QStringLiteral("application/x-neuron-ntff")), QStringList{QStringLiteral("*.ntff")});
        QCOMPARE(types.value(QStringLiteral("application/x-kineto-trace+json")), QStringList{QStringLiteral("*.pt.trace.json")});
        QCOMPARE(types.value(QStringLiteral("application/x-kineto-trace+gzip")), QStringList{QStringLiteral("*.pt.trace.json.gz")});
        QStringList launcher = list(desktopEntry().value(QStringLiteral("MimeType")));
        launcher.sort();
        QCOMPARE(launcher, types.keys());
        QStringList provided = metainfo(QStringLiteral("mediatype"));
        provided.sort();
        QCOMPARE(provided, types.keys());
    }

    void metainfoAgrees()
    {
        QCOMPARE(metainfo(QStringLiteral("id")), QStringList{QStringLiteral("io.github.lanescope.Lanescope")});
        QCOMPARE(metainfo(QStringLiteral("launchable")), QStringList{QFileInfo(kDesktop).fileName()});
        QCOMPARE(metainfo(QStringLiteral("binary")), (QStringList{QStringLiteral("lanescope"), QStringLiteral("lanescope-cli")}));
        QCOMPARE(metainfo(QStringLiteral("icon")), QStringList{desktopEntry().value(QStringLiteral("Icon"))});
        const QStringList releases = metainfo(QStringLiteral("release"));
        QCOMPARE(releases.size(), 1);
        QFile f(kMetainfo);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(f.readAll().contains("version=\"" LANESCOPE_VERSION "\""), "the release is the project version");
    }

    // shared-mime-info compiles the package file; the globs land in its cache.
    void mimeDatabaseAcceptsIt()
    {
        LANESCOPE_REQUIRE_TOOL("update-mime-database", "shared-mime-info");
        const QString tool = QStandardPaths::findExecutable(QStringLiteral("update-mime-database"));
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("packages")));
        QVERIFY(QFile::copy(kMime, dir.filePath(QStringLiteral("packages/lanescope.xml"))));
        const Run r = run(tool, {dir.path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.isEmpty() || !r.err.contains("lanescope"));
        QFile globs(dir.filePath(QStringLiteral("globs2")));
        QVERIFY(globs.open(QIODevice::ReadOnly));
        const QByteArray text = globs.readAll();
        QVERIFY(text.contains("application/x-neuron-neff:*.neff"));
        QVERIFY(text.contains("application/x-neuron-ntff:*.ntff"));
        QVERIFY(text.contains("60:application/x-kineto-trace+json:*.pt.trace.json"));
        QVERIFY(text.contains("60:application/x-kineto-trace+gzip:*.pt.trace.json.gz"));
    }

    void desktopFileValidate()
    {
        LANESCOPE_REQUIRE_TOOL("desktop-file-validate", "desktop-file-utils"); // without it: the keys were checked above
        const QString tool = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
        const Run r = run(tool, {kDesktop});
        QVERIFY2(r.exitCode == 0 && r.out.isEmpty(), (r.out + r.err).constData());
    }

    void appstreamValidate()
    {
        LANESCOPE_REQUIRE_TOOL("appstreamcli", "appstream"); // without it: the fields were checked above
        const QString tool = QStandardPaths::findExecutable(QStringLiteral("appstreamcli"));
        const Run r = run(tool, {QStringLiteral("validate"), QStringLiteral("--no-net"), kMetainfo});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    }

    void helpAndVersionWithoutDisplay_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("name");
        QTest::newRow("cli") << QStringLiteral(LANESCOPE_CLI) << QStringLiteral("lanescope-cli");
        QTest::newRow("gui") << QStringLiteral(LANESCOPE_GUI) << QStringLiteral("lanescope");
    }

    void helpAndVersionWithoutDisplay()
    {
        QFETCH(QString, program);
        QFETCH(QString, name);
        Run r = run(program, {QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.out).trimmed(), name + QStringLiteral(" " LANESCOPE_VERSION));
        r = run(program, {QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("usage: " + name.toUtf8() + ' '), r.out.constData());
        QVERIFY(r.err.isEmpty());
    }
};

QTEST_MAIN(TestDesktopIntegration)
#include "tst_desktopintegration.moc"
