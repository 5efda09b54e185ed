// lanescope-cli notes, run as a CI bot would: --add / --at / --event write the sidecar next to the
// trace, the listing (text and --json) shows them with exact trace-clock times, --remove drops one,
// bad ranges, ids and an unreadable sidecar exit 2 and leave the file alone; export-sqlite carries
// the notes and `screenshot --notes` draws them. The trace is Kineto JSON as PyTorch writes it.
#include "clirun.h"
#include "imagecheck.h"
#include "notesfixture.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

using lanescope::test::runCli;

namespace {

constexpr qint64 kStart = lanescope::test::kNotesTraceStartNs;

} // namespace

class TestCliNotes : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_trace;

    QString sidecar() const { return m_trace + QStringLiteral(".lanescope-notes.json"); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("LANESCOPE_NO_CACHE", "1");
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg-data")).toLocal8Bit());
        m_trace = m_dir.filePath(QStringLiteral("step.pt.trace.json"));
        QVERIFY(lanescope::test::writeFile(m_trace, lanescope::test::notesTrace()));
    }

    void addListRemove()
    {
        auto r = runCli({QStringLiteral("notes"), m_trace});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("0 notes of "), r.out.constData());

        r = runCli({QStringLiteral("notes"), m_trace, QStringLiteral("--add"), QStringLiteral("2us:32.25us"),
                    QStringLiteral("mm got 20% slower in #123"), QStringLiteral("--color"), QStringLiteral("#d64541")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out.trimmed(), QByteArray("added note 1 to ") + sidecar().toUtf8());
        r = runCli({QStringLiteral("notes"), m_trace, QStringLiteral("--event"), QStringLiteral("1"), QStringLiteral("this mm")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({QStringLiteral("notes"), m_trace, QStringLiteral("--at"), QStringLiteral("60us"), QStringLiteral("add starts")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(lanescope::test::readFile<QByteArray>(sidecar()).contains("\"version\": 1"));

        r = runCli({QStringLiteral("notes"), m_trace, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("file")].toString(), sidecar());
        QCOMPARE(o[QStringLiteral("data_folder")].toBool(), false);
        const QJsonArray notes = o[QStringLiteral("notes")].toArray();
        QCOMPARE(notes.size(), 3);
        const QJsonObject range = notes[0].toObject(), event = notes[1].toObject(), point = notes[2].toObject();
        QCOMPARE(range[QStringLiteral("kind")].toString(), QStringLiteral("range"));
        QCOMPARE(range[QStringLiteral("start_ns")].toInteger(), kStart + 2000);
        QCOMPARE(range[QStringLiteral("end_ns")].toInteger(), kStart + 32250);
        QCOMPARE(range[QStringLiteral("offset_ns")].toInteger(), 2000);
        QCOMPARE(range[QStringLiteral("color")].toString(), QStringLiteral("#d64541"));
        QCOMPARE(range[QStringLiteral("text")].toString(), QStringLiteral("mm got 20% slower in #123"));
        QCOMPARE(event[QStringLiteral("kind")].toString(), QStringLiteral("event"));
        QCOMPARE(event[QStringLiteral("event")][QStringLiteral("name")].toString(), QStringLiteral("aten::mm"));
        QCOMPARE(event[QStringLiteral("event")][QStringLiteral("found")].toBool(), true);
        QCOMPARE(event[QStringLiteral("start_ns")].toInteger(), kStart + 2250);
        QCOMPARE(event[QStringLiteral("end_ns")].toInteger(), kStart + 32250);
        QVERIFY(event[QStringLiteral("color")].isNull());
        QCOMPARE(point[QStringLiteral("start_ns")].toInteger(), kStart + 60000);
        QCOMPARE(point[QStringLiteral("end_ns")].toInteger(), kStart + 60000);

        r = runCli({QStringLiteral("notes"), m_trace});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("3 notes of ") && r.out.contains("\"aten::mm\" slice 1 at 2.25 µs (30 µs)")
                     && r.out.contains("2 µs - 32.25 µs (30.25 µs)  #d64541") && r.out.contains("mm got 20% slower in #123"),
                 r.out.constData());

        r = runCli({QStringLiteral("notes"), m_trace, QStringLiteral("--remove"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        r = runCli({QStringLiteral("notes"), m_trace, QStringLiteral("--json")});
        const QJsonArray left = QJsonDocument::fromJson(r.out).object()[QStringLiteral("notes")].toArray();
        QCOMPARE(left.size(), 2);
        QCOMPARE(left[0].toObject()[QStringLiteral("id")].toInt(), 1);
        QCOMPARE(left[1].toObject()[QStringLiteral("id")].toInt(), 3);

        // Notes in the SQLite export and in the screenshot.
        const QString db = m_dir.filePath(QStringLiteral("out.db"));
        r = runCli({QStringLiteral("export-sqlite"), m_trace, QStringLiteral("-o"), db});
        QVERIFY2(r.exitCode == 0 && r.out.contains(", 2 notes"), r.out.constData());
        const QString withNotes = m_dir.filePath(QStringLiteral("notes.png")), without = m_dir.filePath(QStringLiteral("plain.png"));
        r = runCli({QStringLiteral("screenshot"), m_trace, QStringLiteral("-o"), withNotes, QStringLiteral("--notes"),
                    QStringLiteral("--width"), QStringLiteral("800")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({QStringLiteral("screenshot"), m_trace, QStringLiteral("-o"), without, QStringLiteral("--width"), QStringLiteral("800")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QRgb red = qRgb(0xd6, 0x45, 0x41); // the range note's edges and flag
        QVERIFY2(lanescope::test::pixelsOfColour(QImage(withNotes), red) > 100, "the range note is not drawn");
        QCOMPARE(lanescope::test::pixelsOfColour(QImage(without), red), 0);
    }

    void badInputExitsTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("reversed range") << QStringList{QStringLiteral("--add"), QStringLiteral("30us:2us"), QStringLiteral("x")}
                                        << QStringLiteral("--add");
        QTest::newRow("event id") << QStringList{QStringLiteral("--event"), QStringLiteral("99"), QStringLiteral("x")}
                                  << QStringLiteral("--event 99: expected a slice id below 3");
        QTest::newRow("no text") << QStringList{QStringLiteral("--at"), QStringLiteral("5us")}
                                 << QStringLiteral("expected PATH and the note's TEXT");
        QTest::newRow("remove") << QStringList{QStringLiteral("--remove"), QStringLiteral("42")}
                                << QStringLiteral("--remove 42: no note with that id");
        QTest::newRow("colour") << QStringList{QStringLiteral("--at"), QStringLiteral("5us"), QStringLiteral("x"),
                                               QStringLiteral("--color"), QStringLiteral("red")}
                                << QStringLiteral("--color red: expected #rrggbb");
        QTest::newRow("two at once") << QStringList{QStringLiteral("--at"), QStringLiteral("5us"), QStringLiteral("x"),
                                                    QStringLiteral("--remove"), QStringLiteral("1")}
                                     << QStringLiteral("one of --add, --at, --event, --remove at a time");
    }

    void badInputExitsTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QByteArray before = lanescope::test::readFile<QByteArray>(sidecar());
        const auto r = runCli(QStringList{QStringLiteral("notes"), m_trace} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QCOMPARE(lanescope::test::readFile<QByteArray>(sidecar()), before);
    }

    void unreadableSidecarIsNotOverwritten()
    {
        const QString trace = m_dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(lanescope::test::writeFile(trace, lanescope::test::notesTrace()));
        const QByteArray broken = "{\n  \"version\": 1,\n  \"notes\": [\n    {\"id\": 1,\n";
        const QString file = trace + QStringLiteral(".lanescope-notes.json");
        QVERIFY(lanescope::test::writeFile(file, broken));
        auto r = runCli({QStringLiteral("notes"), trace});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(file.toUtf8() + ": line 5, column 1"), r.err.constData());
        r = runCli({QStringLiteral("notes"), trace, QStringLiteral("--at"), QStringLiteral("5us"), QStringLiteral("x")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(lanescope::test::readFile<QByteArray>(file), broken);
    }
};

QTEST_GUILESS_MAIN(TestCliNotes)
#include "tst_clinotes.moc"
