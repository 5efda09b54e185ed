// SystemProfileReader reads its arrays in windows on two threads: the records, the StringIds they hold,
// the warnings with their first offsets and the metadata must be the ones a single window on one
// thread gives (the whole-array read), for the test inputs of tst_systemprofilereader (plain and
// AWS's wrapped form), the bundled sample's system_profile.json, a generated file with every array
// repeated and in any order, windows cut inside strings, escapes and multi-byte characters, gzip and
// zstd files streamed from disk and a gzip file cut in a member.
#include "windowedread.h"

#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/systemprofile/systemprofilereader.h"

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

std::string dataFile(const char *name) { return test::readFile(QStringLiteral(LANESCOPE_TEST_DATA "/system_profile/") + QLatin1String(name)); }

// Every record with its raw StringIds (and their text), every arg, sample, warning and metadata entry.
std::vector<std::string> dump(const SystemProfileData &d, TraceBuilder &b)
{
    std::vector<std::string> out;
    auto id = [&b](StringId s) { return std::to_string(s.value) + ':' + std::string(b.str(s)); };
    std::ostringstream h;
    h << "bytes=" << d.bytes << " saw=" << d.sawEvents;
    out.push_back(h.str());
    for (const SystemProfileEvent &e : d.events) {
        std::ostringstream s;
        s << "E " << e.offset << ' ' << e.ts << ' ' << e.duration << ' ' << e.hasTs << e.hasDuration << ' ' << id(e.name) << ' '
          << id(e.group) << ' ' << id(e.instance) << ' ' << id(e.process) << ' ' << e.pid << ' ' << e.thread << ' ' << e.lnc << ' '
          << e.type << e.hasType << ' ' << e.id.value << e.id.present << ' ' << e.parent.value << e.parent.present << ' '
          << e.syncHost << e.hasSyncHost << ' ' << e.syncDevice << e.hasSyncDevice << " args";
        for (uint32_t i = e.argBegin; i < e.argBegin + e.argCount; ++i) {
            const Arg &a = d.args[i];
            s << ' ' << id(a.key) << '=' << int(a.type) << ':';
            if (a.type == ArgType::String || a.type == ArgType::Json)
                s << id(a.stringValue());
            else
                s << a.value.u;
        }
        out.push_back(s.str());
    }
    for (const auto *samples : {&d.memUsage, &d.cpuUtil})
        for (const SystemProfileSample &m : *samples) {
            std::ostringstream s;
            s << (samples == &d.memUsage ? "M " : "C ") << m.offset << ' ' << m.ts << ' ' << id(m.instance) << ' ' << id(m.process)
              << ' ' << m.cpu << ' ' << m.value << m.hasValue << ' ' << m.percent << m.hasPercent;
            out.push_back(s.str());
        }
    for (const Warning &w : b.diagnostics().warnings())
        out.push_back("W " + Diagnostics::format(w));
    for (const auto &[k, v] : b.metadata().entries)
        out.push_back("K " + k + '=' + v);
    out.push_back(std::string("synthetic=") + (b.metadata().synthetic ? "1" : "0"));
    return out;
}

struct Read
{
    std::vector<std::string> lines;
    std::string error;
};

Read readText(const std::string &text, size_t windowBytes, unsigned threads, size_t blockBytes = 0)
{
    LoadOptions o;
    o.jsonWindowBytes = windowBytes;
    o.jsonThreads = threads;
    TraceBuilder b;
    b.intern("a string interned before the read");
    InputStream stream(text, "sp.json", o, blockBytes);
    try {
        const SystemProfileData d = SystemProfileReader::read(stream, b, o);
        return {dump(d, b), {}};
    } catch (const ImportError &e) {
        return {{}, e.what()};
    }
}

// The reference: one window holding each whole array, one thread.
Read single(const std::string &text) { return readText(text, size_t(1) << 40, 1); }

void compareReads(const Read &got, const Read &want, const QString &what)
{
    QCOMPARE(QString::fromStdString(got.error), QString::fromStdString(want.error));
    const QString diff = test::differingLine(got.lines, want.lines, what);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

// Built like bench_systemprofile's file, with the awkward parts: the arrays repeated and in any order,
// strings with escaped quotes and multi-byte characters, AWS's wrapped elements, numbers as strings,
// skipped elements.
std::string generated()
{
    std::string s = "{\"cpu_util\": [";
    for (int i = 0; i < 20; ++i)
        s += std::string(i ? "," : "") + "{\"timestamp\": " + std::to_string(1000 + i) + ", \"cpu_id\": \"" + std::to_string(i % 4) +
             "\", \"util\": " + std::to_string(i * 1.5) + "}";
    s += "], \"note\": \"a \\\"quoted\\\" ünïcode ☃ note\", \"trace_events\": [";
    for (int i = 0; i < 80; ++i) {
        s += i ? ", " : "";
        const std::string body = "\"timestamp\": \"" + std::to_string(5000 + 10 * i) + "\", \"duration\": " + std::to_string(i % 7) +
                                 ", \"name\": \"nrt_\\\"exe\\\"cute_é" + std::to_string(i % 5) + "\", \"group\": \"nrt-nc-00" +
                                 std::to_string(i % 2) + "\", \"type\": 11, \"id\": " + std::to_string(i) + ", \"parent_id\": \"" +
                                 std::to_string(i / 2) + "\", \"instance_id\": \"i-0abc\", \"process_id\": \"4242\", \"thread_id\": " +
                                 std::to_string(4242 + i % 3) + ", \"size\": \"" + std::to_string(4 * i) +
                                 "\", \"tensor_id\": \"4900392441224765051\", \"tensor_name\": \"x·" + std::to_string(i % 9) + "\"";
        if (i % 11 == 3)
            s += "17";
        else if (i % 4 == 1)
            s += "{\"Neuron_Runtime_API_Event\": {" + body + "}}";
        else if (i % 13 == 5)
            s += "{\"name\": \"bad\", \"timestamp\": \"later\"}";
        else
            s += "{" + body + "}";
    }
    s += "], \"mem_usage\": [{\"timestamp\": 10, \"percent_usage\": 12.5, \"usage\": 1048576, \"duration\": 3}, \"x\", {\"usage\": 1}]";
    s += ", \"trace_events\": [{\"timestamp\": 1, \"duration\": 2, \"name\": \"again\", \"args\": {\"k\": [1, 2, {\"a\": \"☃\"}]}}]";
    s += ", \"synthetic\": true, \"mem_usage\": [{\"timestamp\": 11, \"usage\": 7}]}";
    return s;
}

} // namespace

class TestSystemProfileWindows : public QObject
{
    Q_OBJECT

private slots:
    void inputs_data()
    {
        QTest::addColumn<QString>("text");
        for (const char *name : {"aws_shapes_plain.json", "aws_shapes_wrapped.json", "basic.json", "edge_ids.json", "empty.json",
                                 "sync_two.json", "truncated.json"})
            QTest::newRow(name) << QString::fromStdString(dataFile(name));
        QTest::newRow("generated") << QString::fromStdString(generated());
        QTemporaryDir dir;
        const std::string folder = SampleFolderWriter::write(dir.path().toStdString());
        QDirIterator it(QString::fromStdString(folder), {QStringLiteral("system_profile.json")}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(it.hasNext());
        QTest::newRow("bundled sample") << QString::fromStdString(test::readFile(it.next()));
        const std::string g = generated();
        QTest::newRow("bare array") << QString::fromStdString(g.substr(g.find("\"trace_events\": [") + 16, g.find("], \"mem_usage\"") - g.find("\"trace_events\": [") - 15));
        QTest::newRow("cut inside a string") << QString::fromStdString(g.substr(0, g.find("exe", 900)));
        QTest::newRow("cut between elements") << QString::fromStdString(g.substr(0, g.find("}, {", 1500) + 3));
        QTest::newRow("cut after the last array") << QString::fromStdString(g.substr(0, g.size() - 1));
        QTest::newRow("invalid element") << QString::fromStdString(std::string(g).replace(g.find("\"type\": 11", 2000), 10, "\"type\": 11 12"));
        QTest::newRow("object closed between arrays") << QString::fromStdString(std::string(g).replace(g.find("], \"mem_usage\""), 3, "]}, {"));
        QTest::newRow("not an object") << QStringLiteral("  \"text\"");
        QTest::newRow("no trace_events") << QStringLiteral("{\"mem_usage\": [], \"a\": 1}");
    }

    // Windows of 1, 5 and 64 bytes (every boundary inside strings, after escapes, inside multi-byte
    // characters) and 4 KiB, one and two threads, odd block sizes: equal line by line.
    void inputs()
    {
        QFETCH(QString, text);
        const std::string t = text.toStdString();
        const Read want = single(t);
        for (const size_t w : {size_t(1), size_t(5), size_t(64), size_t(4096)})
            for (const unsigned threads : {1u, 2u})
                compareReads(readText(t, w, threads, 7 + w), want, QStringLiteral("window %1, %2 threads").arg(w).arg(threads));
        LoadOptions o;
        TraceBuilder b;
        b.intern("a string interned before the read");
        InputBuffer buffer = InputBuffer::fromBytes(t, "sp.json", o);
        Read viaBuffer;
        try {
            const SystemProfileData d = SystemProfileReader::read(buffer, "sp.json", b, o);
            viaBuffer.lines = dump(d, b);
        } catch (const ImportError &e) {
            viaBuffer.error = e.what();
        }
        compareReads(viaBuffer, want, QStringLiteral("read(InputBuffer&)"));
    }

    // The generated file's numbers, so the reference itself is pinned.
    void generatedNumbers()
    {
        const std::string g = generated();
        LoadOptions o;
        TraceBuilder b;
        InputStream stream(g, "sp.json", o);
        const SystemProfileData d = SystemProfileReader::read(stream, b, o);
        QCOMPARE(d.events.size(), size_t(80 - 7 + 1)); // 7 elements are the number 17; the "later" ones are kept (no ts)
        QCOMPARE(d.cpuUtil.size(), size_t(20));
        QCOMPARE(d.memUsage.size(), size_t(2));
        QCOMPARE(b.diagnostics().count("trace_events elements that are not objects skipped"), uint64_t(7));
        QCOMPARE(b.diagnostics().count("mem_usage elements that are not objects skipped"), uint64_t(1));
        QCOMPARE(b.diagnostics().count("mem_usage samples without an integer timestamp skipped"), uint64_t(1));
        QCOMPARE(d.bytes, uint64_t(g.size()));
        QVERIFY(b.metadata().synthetic);
    }

    // gzip and zstd files streamed from disk read like the text; a gzip file cut inside its member
    // fails naming the file and a compressed offset.
    void compressedFiles()
    {
        std::string big = "{\"trace_events\": [";
        const std::string g = generated();
        const std::string events = g.substr(g.find("\"trace_events\": [") + 17, g.find("], \"mem_usage\"") - g.find("\"trace_events\": [") - 17);
        for (int i = 0; i < 400; ++i)
            big += (i ? ", " : "") + events;
        big += "], \"cpu_util\": []}";
        const Read want = single(big);
        QVERIFY(want.error.empty());
        QTemporaryDir dir;
        for (const auto &[suffix, bytes] : {std::pair{"gz", test::gzipOf(big)}, std::pair{"zst", test::zstdOf(big)}}) {
            const QString file = dir.filePath(QStringLiteral("system_profile.json.") + QLatin1String(suffix));
            QVERIFY(test::writeFile(file, bytes));
            LoadOptions o;
            o.jsonWindowBytes = 4096;
            InputStream stream(file.toStdString(), o);
            TraceBuilder b;
            b.intern("a string interned before the read");
            const SystemProfileData d = SystemProfileReader::read(stream, b, o);
            compareReads({dump(d, b), {}}, want, QLatin1String(suffix));
        }
        // cut inside the gzip stream (a partial copy): what was decoded loads, one warning names the cut
        uint64_t cutWarnings = 0;
        const test::CutGzip cut = test::readCutGzip(dir, big, [&cutWarnings](InputStream &stream, const LoadOptions &o) {
            TraceBuilder b;
            SystemProfileReader::read(stream, b, o);
            for (const Warning &w : b.diagnostics().warnings())
                cutWarnings += !w.isNote() && w.message.find("(truncated: a cut or partial file)") != std::string::npos &&
                               w.firstSeen.find("gzip stream ends early") != std::string::npos;
        });
        QVERIFY2(cut.error.empty(), cut.error.c_str());
        QCOMPARE(cutWarnings, uint64_t(1));
    }

    // Progress in 100..800, rising, per window; a cancel stops at the next window.
    void progressAndCancel()
    {
        bool cancelled = false;
        const std::vector<int> seen = test::progressUntilCancel(generated(), 400, cancelled, [](InputStream &stream, const LoadOptions &o) {
            TraceBuilder b;
            SystemProfileReader::read(stream, b, o);
        });
        QVERIFY(cancelled);
        QVERIFY(seen.size() > 5);
        QVERIFY(seen.front() >= 100);
        QVERIFY(seen.back() < 800);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    }
};

QTEST_GUILESS_MAIN(TestSystemProfileWindows)
#include "tst_systemprofilewindows.moc"
