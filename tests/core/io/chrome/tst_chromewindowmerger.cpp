// ChromeWindowMerger: a Chrome/Kineto trace read in many small windows on two threads is the same
// trace as read in one window on one thread (every string id, group, track, slice, instant, counter
// sample, flow, arg, metadata entry, import stat and warning with its count and first offset:
// traceequal.h), for the real corpus, the bundled sample, and hand-built files full of warnings;
// errors name the same byte; the streamed load from disk (gzip) gives the same trace again.
#include "compress.h"
#include "corpus.h"
#include "filebytes.h"
#include "jsonquote.h"
#include "traceequal.h"

#include "io/chrome/chromejsonimporter.h"
#include "io/input/importerror.h"
#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <optional>
#include <string>

using namespace lanescope;
using namespace lanescope::test;

namespace {

LoadOptions oneWindow()
{
    LoadOptions o;
    o.jsonWindowBytes = SIZE_MAX;
    o.jsonThreads = 1;
    return o;
}

LoadOptions tinyWindows(size_t bytes = 1024)
{
    LoadOptions o;
    o.jsonWindowBytes = bytes;
    o.jsonThreads = 2;
    return o;
}

Trace importText(const std::string &text, const LoadOptions &options, const std::string &name = "hand.json")
{
    InputBuffer in = InputBuffer::fromBytes(text, name, options);
    return ChromeJsonImporter::import(in, name, options);
}

std::string errorOf(const std::string &text, const LoadOptions &options)
{
    try {
        (void)importText(text, options);
    } catch (const ImportError &e) {
        return e.what();
    }
    return "(no error)";
}

// Events that exercise every warning the reader and the assembler give, in several windows.
std::string handBuiltEvents(int copies)
{
    std::string s;
    for (int i = 0; i < copies; ++i) {
        const std::string n = std::to_string(i);
        s += q("{'ph': 'M', 'name': 'process_name', 'pid': 'worker ") + n + q("', 'args': {'name': 'proc \\'q\\' ") + n + q("'}},\n{'ph': 'M', 'name': 'thread_name', 'pid': 1, 'tid': 't") + n + q("', 'args': {'name': 'th\\u00e9 ") + n + q("'}},\n{'ph': 'X', 'name': 'op") + n + q("', 'cat': 'cpu_op', 'ts': ") + std::to_string(10 * i) + q(".125, 'dur': 3, 'pid': 1, 'tid': 2, 'args': {'i': -1, 'u': 18446744073709551615, 'd': 1.5, 'big': 1e400, 'b': true, 'z': null, 'o': {'k': [1, ']']}, 'a': [1, 2], 's': 'caf\\u00e9 ") + n + q("'}},\n{'ph': 'B', 'name': 'b") + n + q("', 'ts': ") + std::to_string(10 * i + 1) + q(", 'pid': 1, 'tid': 3},\n{'ph': 'E', 'name': 'other', 'ts': ") + std::to_string(10 * i + 2) + q(", 'pid': 1, 'tid': 3},\n{'ph': 'E', 'ts': 5, 'pid': 9, 'tid': 9},\n{'ph': 'X', 'name': 'nodur', 'ts': 'abc', 'pid': 1, 'tid': 2},\n{'ph': 'X', 'name': 'neg', 'ts': 4, 'dur': -2, 'pid': 1, 'tid': 2},\n7, 'not an event', [1],\n{'ph': 'C', 'name': 'mem', 'ts': ") + std::to_string(10 * i) + q(", 'pid': 1, 'args': {'bytes': ") + n + q(", 'bad': 'x'}},\n{'ph': 'C', 'name': 'empty', 'ts': 1, 'pid': 1},\n{'ph': 's', 'id': ") + n + q(", 'name': 'flow', 'cat': 'fwd', 'ts': ") + std::to_string(10 * i) + q(", 'pid': 1, 'tid': 2},\n{'ph': 'f', 'id': ") + n + q(", 'bp': 'e', 'name': 'flow', 'cat': 'fwd', 'ts': ") + std::to_string(10 * i + 1) + q(", 'pid': 1, 'tid': 3},\n{'ph': 'f', 'id': 99999, 'name': 'flow', 'cat': 'fwd', 'ts': 3, 'pid': 1, 'tid': 3},\n{'ph': 'X', 'name': 'v2', 'ts': ") + std::to_string(10 * i) + q(", 'dur': 1, 'pid': 1, 'tid': 4, 'bind_id': '") + n + q("', 'flow_out': true},\n{'ph': 'X', 'name': 'v2in', 'ts': ") + std::to_string(10 * i + 5) + q(", 'dur': 1, 'pid': 1, 'tid': 5, 'bind_id': '") + n + q("', 'flow_in': true},\n{'ph': 'b', 'id2': {'local': '0x") + n + q("'}, 'name': 'async', 'cat': 'a', 'ts': 1, 'pid': 1},\n{'ph': 'e', 'id2': {'local': '0x") + n + q("'}, 'name': 'async', 'cat': 'a', 'ts': 9, 'pid': 1},\n{'ph': 'n', 'name': 'noid', 'ts': 1, 'pid': 1},\n{'ph': 'i', 's': 'g', 'name': 'global \\\\ inst', 'ts': 2},\n{'ph': 'i', 's': 'p', 'name': 'proc inst', 'ts': 2, 'pid': 1},\n{'ph': 'P', 'ts': 1}, {'ph': 'O', 'ts': 1, 'id': 1}, {'ph': 'Z', 'ts': 1}, {'ts': 3}, {'ph': 'XYZ', 'ts': 1},\n");
    }
    return s;
}

void requireSame(const Trace &a, const Trace &b, const QString &what)
{
    const std::string d = traceDifference(a, b);
    QVERIFY2(d.empty(), qPrintable(what + QStringLiteral(": ") + QString::fromStdString(d)));
}

} // namespace

class TestChromeWindowMerger : public QObject
{
    Q_OBJECT
private slots:
    void handBuiltObjectForm()
    {
        // metadata keys before and after traceEvents (Kineto writes both), with an array and a
        // "systemTraceEvents" string
        const std::string text = q("{'schemaVersion': 1, 'deviceProperties': [{'id': 0, 'name': 'GPU'}], 'systemTraceEvents': 'ftrace text',\n 'traceEvents': [") + handBuiltEvents(40) + q("{'ph': 'X', 'name': 'last', 'ts': 1, 'dur': 1, 'pid': 1, 'tid': 1}],\n 'traceName': 't.json', 'displayTimeUnit': 'ms', 'baseTimeNanoseconds': 1700000000000000000, 'synthetic': true}");
        const Trace ref = importText(text, oneWindow());
        QVERIFY(ref.allSlices().size() > 200);
        QVERIFY(ref.diagnostics().warnings().size() >= 12);
        QCOMPARE(ref.metadata().entries.size(), size_t(7));
        for (size_t window : {size_t(1), size_t(64), size_t(1024), size_t(100000)})
            requireSame(ref, importText(text, tinyWindows(window)), QStringLiteral("window %1").arg(window));
        // one thread, many windows
        LoadOptions serial = tinyWindows(300);
        serial.jsonThreads = 1;
        requireSame(ref, importText(text, serial), QStringLiteral("serial windows"));
    }

    void handBuiltUnterminatedArray()
    {
        const std::string text = "\xEF\xBB\xBF [" + handBuiltEvents(30) + "\n{\"ph\": \"X\", \"name\": \"tail\", \"ts\": 1, \"dur\": 1, \"pid\": 1, \"tid\": 1},\n";
        const Trace ref = importText(text, oneWindow());
        QCOMPARE(ref.diagnostics().count("array of events is not terminated (accepted: the format makes the closing ']' optional)"), uint64_t(1));
        requireSame(ref, importText(text, tinyWindows(512)), QStringLiteral("unterminated"));
        QCOMPARE(ref.stats().bytesRead, uint64_t(text.find_last_not_of(",\n") + 2)); // up to the last '}' plus the ']' added
    }

    // An error in a late window names the same byte; with errors in two windows the first one wins.
    void errorsNameTheSameByte()
    {
        const std::string good = handBuiltEvents(20);
        const std::string text = "{\"traceEvents\": [" + good + "{\"ph\": \"X\", \"ts\": 1 \"name\": \"x\"}, " + good
            + "{\"ph\": \"X\" \"ts\": 2}]}";
        const std::string expected = errorOf(text, oneWindow());
        QVERIFY2(expected.find("hand.json: at byte ") == 0, expected.c_str());
        const size_t at = std::stoull(expected.substr(std::string("hand.json: at byte ").size()));
        QVERIFY2(at > good.size() && at < 2 * good.size(), qPrintable(QString::fromStdString(expected) + QStringLiteral(" / %1").arg(good.size())));
        for (size_t window : {size_t(1), size_t(200), size_t(4096)})
            QCOMPARE(QString::fromStdString(errorOf(text, tinyWindows(window))), QString::fromStdString(expected));
        // a string never closed, in the last window
        const std::string open = "[" + good + "{\"ph\": \"X\", \"name\": \"never closed}]";
        QCOMPARE(QString::fromStdString(errorOf(open, tinyWindows(100))), QString::fromStdString(errorOf(open, oneWindow())));
    }

    // A ',' with no element before it ("[ ,", ", ,") is invalid JSON at every window size, named at its
    // byte. A window of only that ',' parsed as "[]" and hid it (fuzz_jsonwindows: a 2-byte window
    // loaded events an error stops whole; tests/data/fuzz-regressions/fuzz_jsonwindows/), and
    // simdjson placed the error at the end of the text ("unexpected end of file").
    void strayCommaIsNamedAtEveryWindowSize_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qulonglong>("at");
        const std::string a = q("{'ph': 'X', 'name': 'a', 'ts': 1, 'dur': 1, 'pid': 1, 'tid': 1}");
        const std::string b = q("{'ph': 'X', 'name': 'b', 'ts': 2, 'dur': 1, 'pid': 1, 'tid': 1}");
        const std::string tricky = q("{'ph': 'X', 'name': '[ , ], , {,', 'ts': 3, 'dur': 1, 'pid': 1, 'tid': 1}");
        const auto row = [](const char *name, const std::string &text, size_t at) {
            QTest::newRow(name) << QString::fromStdString(text) << qulonglong(at);
        };
        row("leading", "[\n , " + a + ", " + b + "]", 3);
        row("leading, object form", "{\"traceEvents\": [ ," + a + "]}", 18);
        row("double", "[" + a + ", , " + b + "]", 1 + a.size() + 2);
        row("own line", "[" + a + ",\n,\n" + b + "]", 1 + a.size() + 2);
        row("double, unterminated", "[" + a + ",,\n" + b + ",\n", 1 + a.size() + 1);
        row("leading, cut element", "[\n , " + a + ",\n  {\"pid\": 0, \"na 0, \"ph\": \"x\": 14},", 3);
        // fuzz_jsonwindows: a stray ',' before an element an unclosed string cuts off, in an unterminated
        // array; small windows took it for the trailing comma of the array and loaded the first event
        row("double, unterminated, cut element", "[" + a + ",\n  , {\"tid\":s\": 10}\xec", 1 + a.size() + 4);
        row("commas in a string first", "[" + tricky + ", " + a + ", , " + b + "]", 1 + tricky.size() + 2 + a.size() + 2);
    }
    void strayCommaIsNamedAtEveryWindowSize()
    {
        QFETCH(QString, text);
        QFETCH(qulonglong, at);
        const std::string t = text.toStdString();
        QCOMPARE(t[at], ',');
        const std::string expected = errorOf(t, oneWindow());
        QCOMPARE(QString::fromStdString(expected),
                 QStringLiteral("hand.json: at byte %1: invalid JSON: a ',' with no value before or after it; expected a trace "
                                "event object or ']'").arg(at));
        for (size_t window : {size_t(1), size_t(2), size_t(5), size_t(64), size_t(1024)})
            QCOMPARE(QString::fromStdString(errorOf(t, tinyWindows(window))), QString::fromStdString(expected));
    }

    void bundledSample()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string folder = SampleFolderWriter::write(dir.path().toStdString());
        QDirIterator it(QString::fromStdString(folder), {QStringLiteral("trace.json")}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(it.hasNext());
        const QString path = it.next();
        const std::string text = test::readFile(path);
        const Trace ref = importText(text, oneWindow(), path.toStdString());
        QVERIFY(ref.allSlices().size() > 10);
        requireSame(ref, importText(text, tinyWindows(), path.toStdString()), path);
        // streamed from disk (the loader's path), default windows and threads
        const LoadResult r = TraceLoader::load(path.toStdString(), LoadOptions());
        QVERIFY2(r.ok(), r.error.c_str());
        requireSame(ref, *r.trace, QStringLiteral("streamed ") + path);
    }

    void corpusKineto_data()
    {
        QTest::addColumn<QString>("relative");
        for (const char *dir : {"kineto", "tracelens", "generated-torch-cpu", "hta"}) {
            QDirIterator it(corpusFile(QString::fromUtf8(dir)), {QStringLiteral("*.json"), QStringLiteral("*.json.gz")}, QDir::Files);
            QStringList files;
            while (it.hasNext())
                files << QString::fromUtf8(dir) + QLatin1Char('/') + QFileInfo(it.next()).fileName();
            files.sort();
            for (const QString &f : files)
                QTest::newRow(qPrintable(f)) << f;
        }
        // named so that a missing corpus fails under LANESCOPE_REQUIRE_CORPUS
        QTest::newRow("tracelens/xdit_sd35_rank0.json.gz (required)") << QStringLiteral("tracelens/xdit_sd35_rank0.json.gz");
    }

    // Every Chrome/Kineto file of the corpus: one window on one thread, 1 KiB windows on two threads
    // (4 KiB for the large ones), and the streamed load from the gzip file.
    void corpusKineto()
    {
        QFETCH(QString, relative);
        const QString missing = corpusMissing(relative);
        if (!missing.isEmpty())
            LANESCOPE_SKIP_OR_FAIL(missing);
        const std::string path = corpusFile(relative).toStdString();
        LoadOptions plain;
        InputBuffer in = InputBuffer::read(path, plain);
        const LoadOptions one = oneWindow();
        std::optional<Trace> ref;
        try {
            ref.emplace(ChromeJsonImporter::import(in, path, one));
        } catch (const ImportError &e) {
            // not a Chrome trace (e.g. an execution trace): the same error either way
            const LoadOptions tiny = tinyWindows();
            try {
                (void)ChromeJsonImporter::import(in, path, tiny);
                QFAIL("windows accepted what one pass refused");
            } catch (const ImportError &e2) {
                QCOMPARE(QString::fromStdString(e2.what()), QString::fromStdString(e.what()));
            }
            return;
        }
        const LoadOptions tiny = tinyWindows(in.size() > (size_t(16) << 20) ? 4096 : 1024);
        requireSame(*ref, ChromeJsonImporter::import(in, path, tiny), relative + QStringLiteral(" tiny windows"));
        const LoadResult streamed = TraceLoader::load(path, LoadOptions());
        QVERIFY2(streamed.ok(), streamed.error.c_str());
        requireSame(*ref, *streamed.trace, relative + QStringLiteral(" streamed"));
    }

    // Offsets past 4 GiB: warnings and errors of a window placed 5 GiB into the file name bytes
    // past 2^32 (no 32-bit arithmetic on the path).
    void offsetsPast4GiB()
    {
        const std::string text = "[{\"ph\": \"X\", \"name\": \"a\", \"ts\": \"bad\", \"pid\": 1, \"tid\": 1},\n{\"ph\": \"X\", \"ts\": 1 \"name\": \"x\"}]";
        constexpr uint64_t base = uint64_t(5) << 30;
        LoadOptions options = tinyWindows(1);
        InputStream stream(text, "huge.json", options, 16, base);
        try {
            (void)ChromeJsonImporter::importStream(stream, options);
            QFAIL("no error");
        } catch (const ImportError &e) {
            const std::string expected = errorOf(text, oneWindow());
            const size_t at = std::stoull(expected.substr(std::string("hand.json: at byte ").size()));
            QCOMPARE(QString::fromStdString(e.what()),
                     QStringLiteral("huge.json: at byte %1").arg(base + at) + QString::fromStdString(expected.substr(expected.find(':', 20))));
        }
        const std::string ok = text.substr(0, text.find(",\n")) + "]";
        InputStream good(ok, "huge.json", options, 16, base);
        const Trace t = ChromeJsonImporter::importStream(good, options);
        const Trace at0 = importText(ok, oneWindow());
        const uint64_t first = std::stoull(at0.diagnostics().warnings().at(0).firstSeen.substr(5));
        QCOMPARE(QString::fromStdString(t.diagnostics().warnings().at(0).firstSeen), QStringLiteral("byte %1").arg(base + first));
    }
};

QTEST_GUILESS_MAIN(TestChromeWindowMerger)
#include "tst_chromewindowmerger.moc"
