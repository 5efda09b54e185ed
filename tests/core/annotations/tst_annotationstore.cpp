// AnnotationStore, AnnotationSidecar and Annotation (the notes of issue 19): a round trip keeps every
// field and every nanosecond; saving replaces the file atomically; a sidecar that does not parse is
// reported with its position and never overwritten; a read-only folder sends the notes to the data
// folder keyed by the content fingerprint; an event note finds its event again after a re-import
// that changed the slice ids, and keeps its time when the event is gone. Traces are Kineto JSON as
// PyTorch writes it, read by the real importer.
#include "loadtrace.h"
#include "notesfixture.h"

#include "annotations/annotationsidecar.h"
#include "annotations/annotationstore.h"
#include "util/contentfingerprint.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace lanescope;

namespace {

// A PyTorch profiler trace (torch.profiler export_chrome_trace): µs timestamps with ns decimals.
// `extraThread` adds a thread, written first, whose slices come first in id order.
QByteArray kinetoTrace(bool extraThread, bool withMm = true)
{
    QByteArray events = extraThread ? R"({"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 9, "ts": 1733001234500.000, "dur": 1.0},
  {"ph": "X", "cat": "cpu_op", "name": "aten::zeros", "pid": 1, "tid": 9, "ts": 1733001234502.000, "dur": 1.0},
  )" : "";
    events += R"({"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 2, "tid": 7, "ts": 1733001234567.125, "dur": 40.5, "args": {"External id": 3}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 2, "tid": 7, "ts": 1733001234620.000, "dur": 3.25, "args": {"External id": 5}})";
    if (withMm)
        events += R"(,
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 2, "tid": 7, "ts": 1733001234570.250, "dur": 30.0, "args": {"External id": 4}})";
    return R"({"schemaVersion": 1, "deviceProperties": [], "traceEvents": [
  )" + events + "\n]}\n";
}

SliceId sliceNamed(const Trace &t, std::string_view name)
{
    for (uint32_t i = 0; i < t.allSlices().size(); ++i)
        if (t.str(t.allSlices()[i].name) == name)
            return SliceId(i);
    return SliceId();
}

AnnotationStore::Options writableWhen(bool writable)
{
    AnnotationStore::Options o;
    o.writable = [writable](const std::string &) { return writable; };
    return o;
}

} // namespace

class TestAnnotationStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_case = 0;

    // A fresh folder with trace.json in it; returns the trace path.
    QString newTrace(const QByteArray &bytes)
    {
        const QString dir = m_dir.filePath(QString::number(++m_case));
        QDir().mkpath(dir);
        const QString path = dir + QStringLiteral("/trace.json");
        return test::writeFile(path, bytes) ? path : QString();
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void roundTripKeepsEveryField()
    {
        const QString path = newTrace(kinetoTrace(false));
        const auto trace = test::load(path);
        QVERIFY(trace);
        AnnotationStore store(writableWhen(true));
        QVERIFY2(store.open(path.toStdString()), store.error().c_str());
        QCOMPARE(QString::fromStdString(store.path()), path + QStringLiteral(".lanescope-notes.json"));
        QVERIFY(store.notes().empty());
        QVERIFY(!QFile::exists(QString::fromStdString(store.path()))); // nothing written before a change

        const SliceId mm = sliceNamed(*trace, "aten::mm");
        QVERIFY(mm.isValid());
        Annotation range = Annotation::range(1733001234567125, 1733001234610375, "slow \"linear\" — see #42\nsecond line");
        range.color = "#d64541";
        QCOMPARE(store.add(range), 1);
        QCOMPARE(store.add(Annotation::event(*trace, mm, "the matmul")), 2);
        QCOMPARE(store.add(Annotation::point(1733001234620000, "step ends")), 3);
        QVERIFY(store.remove(2));
        QCOMPARE(store.add(Annotation::event(*trace, mm, "the matmul again")), 4); // ids are not reused
        std::string error;
        QVERIFY2(store.save(&error), error.c_str());

        const QByteArray bytes = test::readFile<QByteArray>(QString::fromStdString(store.path()));
        QVERIFY(bytes.contains("\"version\": 1"));
        QVERIFY(bytes.contains("\n            \"start_ns\": 1733001234567125")); // indented, exact integers
        QVERIFY(bytes.contains("\"trace\": \"trace.json\""));

        AnnotationStore again(writableWhen(true));
        QVERIFY2(again.open(path.toStdString()), again.error().c_str());
        QCOMPARE(again.notes().size(), size_t(3));
        QCOMPARE(again.notes(), store.notes());
        const Annotation *event = again.find(4);
        QVERIFY(event);
        QCOMPARE(event->kind, Annotation::Kind::Event);
        QCOMPARE(event->eventName, std::string("aten::mm"));
        QCOMPARE(event->eventStartNs, int64_t(1733001234570250));
        QCOMPARE(event->endNs - event->startNs, int64_t(30000));
        QCOMPARE(again.find(1)->text, range.text);
        QCOMPARE(again.find(1)->endNs, int64_t(1733001234610375));
        QCOMPARE(again.find(3)->startNs, again.find(3)->endNs);
    }

    void saveReplacesTheFileAtomically()
    {
        const QString path = newTrace(kinetoTrace(false));
        AnnotationStore store(writableWhen(true));
        QVERIFY(store.open(path.toStdString()));
        store.add(Annotation::point(1733001234600000, "first"));
        std::string error;
        QVERIFY2(store.save(&error), error.c_str());
        const QString sidecar = QString::fromStdString(store.path());
        struct stat before = {}, after = {};
        QCOMPARE(::stat(sidecar.toLocal8Bit().constData(), &before), 0);
        // A reader holding the old file keeps reading the old, complete version.
        QFile old(sidecar);
        QVERIFY(old.open(QIODevice::ReadOnly));
        store.add(Annotation::point(1733001234610000, "second"));
        QVERIFY2(store.save(&error), error.c_str());
        QCOMPARE(::stat(sidecar.toLocal8Bit().constData(), &after), 0);
        QVERIFY2(before.st_ino != after.st_ino, "the notes file was rewritten in place, not replaced");
        std::vector<Annotation> oldNotes, newNotes;
        QVERIFY(AnnotationSidecar::parse(old.readAll(), "old", &oldNotes, &error));
        QCOMPARE(oldNotes.size(), size_t(1));
        QVERIFY(AnnotationSidecar::parse(test::readFile<QByteArray>(sidecar), "new", &newNotes, &error));
        QCOMPARE(newNotes.size(), size_t(2));
        // No temporary file is left behind.
        QCOMPARE(QDir(QFileInfo(path).absolutePath()).entryList(QDir::Files | QDir::Hidden).size(), 2);
    }

    void badSidecarIsReportedAndNotOverwritten_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax") << QByteArray("{\n  \"version\": 1,\n  \"notes\": [ {\"id\": 1 \"kind\": \"point\"} ]\n}\n")
                                << QStringLiteral("line 3, column 24 (byte 41): unterminated object");
        QTest::newRow("truncated") << QByteArray("{\"version\": 1, \"notes\": [") << QStringLiteral("line 1, column 26 (byte 25): unterminated array");
        QTest::newRow("version") << QByteArray("{\"version\": 2, \"notes\": []}")
                                 << QStringLiteral("\"version\": expected 1, found 2");
        QTest::newRow("kind") << QByteArray(R"({"version": 1, "notes": [{"id": 1, "kind": "circle", "text": "", "start_ns": 1, "end_ns": 1}]})")
                              << QStringLiteral("notes[0].kind: expected \"range\", \"event\" or \"point\"");
        QTest::newRow("time") << QByteArray(R"({"version": 1, "notes": [{"id": 1, "kind": "range", "text": "", "start_ns": "soon", "end_ns": 1}]})")
                              << QStringLiteral("notes[0].start_ns: expected an integer");
        QTest::newRow("event") << QByteArray(R"({"version": 1, "notes": [{"id": 1, "kind": "event", "text": "", "start_ns": 1, "end_ns": 2}]})")
                               << QStringLiteral("notes[0].event.id: expected the slice id");
        QTest::newRow("duplicate id") << QByteArray(R"({"version": 1, "notes": [{"id": 1, "kind": "point", "text": "", "start_ns": 1, "end_ns": 1},
                                                    {"id": 1, "kind": "point", "text": "", "start_ns": 2, "end_ns": 2}]})")
                                      << QStringLiteral("notes[1].id: 1 is used twice");
        QTest::newRow("color") << QByteArray(R"({"version": 1, "notes": [{"id": 1, "kind": "point", "text": "", "color": "red", "start_ns": 1, "end_ns": 1}]})")
                               << QStringLiteral("notes[0].color: expected \"#rrggbb\" or null");
    }

    void badSidecarIsReportedAndNotOverwritten()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString path = newTrace(kinetoTrace(false));
        const QString sidecar = path + QStringLiteral(".lanescope-notes.json");
        QVERIFY(test::writeFile(sidecar, bytes));
        AnnotationStore store(writableWhen(true));
        QVERIFY(!store.open(path.toStdString()));
        QVERIFY(store.isUnreadable());
        const QString error = QString::fromStdString(store.error());
        QVERIFY2(error.startsWith(sidecar + QStringLiteral(": ")), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(store.notes().empty());
        store.add(Annotation::point(1733001234600000, "kept in memory"));
        QCOMPARE(store.notes().size(), size_t(1));
        std::string saveError;
        QVERIFY(!store.save(&saveError));
        QVERIFY2(QString::fromStdString(saveError).contains(QStringLiteral("not saved")), saveError.c_str());
        QVERIFY2(QString::fromStdString(saveError).contains(sidecar), saveError.c_str());
        QCOMPARE(test::readFile<QByteArray>(sidecar), bytes);
    }

    void readOnlyFolderUsesTheDataFolder()
    {
        const QString path = newTrace(kinetoTrace(false));
        const QString folder = QFileInfo(path).absolutePath();
        const QString dataDir = m_dir.filePath(QStringLiteral("data-%1").arg(m_case));
        AnnotationStore::Options options;
        options.dataDir = dataDir.toStdString();
        // As root every folder is writable, chmod or not: then the check is injected instead.
        const bool root = ::geteuid() == 0;
        if (root)
            options = writableWhen(false), options.dataDir = dataDir.toStdString();
        else
            QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
        const std::string key = ContentFingerprint::ofPath(path.toStdString()).key();

        AnnotationStore store(options);
        QVERIFY2(store.open(path.toStdString()), store.error().c_str());
        QVERIFY(store.usesDataFolder());
        QCOMPARE(store.path(), dataDir.toStdString() + "/notes/" + key + ".lanescope-notes.json");
        store.add(Annotation::range(1733001234567125, 1733001234600000, "read-only capture"));
        std::string error;
        QVERIFY2(store.save(&error), error.c_str());
        QVERIFY(QFile::exists(QString::fromStdString(store.path())));
        QVERIFY(!QFile::exists(path + QStringLiteral(".lanescope-notes.json")));

        AnnotationStore again(options);
        QVERIFY(again.open(path.toStdString()));
        QCOMPARE(again.notes(), store.notes());
        if (!root)
            QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        // A writable folder keeps its notes next to the trace, whatever the data folder holds.
        options.writable = [](const std::string &) { return true; };
        AnnotationStore writable(options);
        QVERIFY(writable.open(path.toStdString()));
        QVERIFY(!writable.usesDataFolder());
        QVERIFY(writable.notes().empty());
    }

    void notesShippedNextToAReadOnlyTraceAreShown()
    {
        const QString path = newTrace(kinetoTrace(false));
        AnnotationStore shipped(writableWhen(true));
        QVERIFY(shipped.open(path.toStdString()));
        shipped.add(Annotation::point(1733001234600000, "from the author"));
        std::string error;
        QVERIFY(shipped.save(&error));
        AnnotationStore::Options options = writableWhen(false);
        options.dataDir = m_dir.filePath(QStringLiteral("data-shipped")).toStdString();
        AnnotationStore store(options);
        QVERIFY(store.open(path.toStdString()));
        QVERIFY(store.usesDataFolder());
        QCOMPARE(store.notes().size(), size_t(1));
        store.add(Annotation::point(1733001234610000, "mine"));
        QVERIFY(store.save(&error));
        QCOMPARE(AnnotationStore(writableWhen(true)).open(path.toStdString()), true);
        AnnotationStore author(writableWhen(true));
        QVERIFY(author.open(path.toStdString()));
        QCOMPARE(author.notes().size(), size_t(1)); // the shipped file is untouched
    }

    void eventNoteFindsItsEventAfterReimport()
    {
        const QString path = newTrace(kinetoTrace(false));
        const auto first = test::load(path);
        QVERIFY(first);
        const SliceId mm = sliceNamed(*first, "aten::mm");
        AnnotationStore store(writableWhen(true));
        QVERIFY(store.open(path.toStdString()));
        store.add(Annotation::event(*first, mm, "the matmul"));
        std::string error;
        QVERIFY(store.save(&error));

        // The profile is captured again with another thread: every slice id moves.
        QVERIFY(test::writeFile(path, kinetoTrace(true)));
        const auto second = test::load(path);
        QVERIFY(second);
        const SliceId moved = sliceNamed(*second, "aten::mm");
        QVERIFY(moved.isValid());
        QVERIFY(moved.value != mm.value);
        AnnotationStore reopened(writableWhen(true));
        QVERIFY(reopened.open(path.toStdString()));
        QCOMPARE(reopened.notes().front().sliceId, mm.value); // as stored
        QCOMPARE(reopened.resolve(*second), size_t(0));
        const Annotation &found = reopened.notes().front();
        QVERIFY(found.eventFound);
        QCOMPARE(found.sliceId, moved.value);
        QCOMPARE(found.startNs, int64_t(1733001234570250));
        QCOMPARE(found.endNs, int64_t(1733001234600250));

        // Without the event the note stays at its stored time.
        QVERIFY(test::writeFile(path, kinetoTrace(true, false)));
        const auto third = test::load(path);
        QVERIFY(third);
        AnnotationStore lost(writableWhen(true));
        QVERIFY(lost.open(path.toStdString()));
        QCOMPARE(lost.resolve(*third), size_t(1));
        QVERIFY(!lost.notes().front().eventFound);
        QCOMPARE(lost.notes().front().startNs, int64_t(1733001234570250));
        QCOMPARE(lost.notes().front().endNs, int64_t(1733001234600250));
    }
};

QTEST_GUILESS_MAIN(TestAnnotationStore)
#include "tst_annotationstore.moc"
