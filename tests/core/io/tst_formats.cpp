// Formats: the one table of input formats. One entry per FileFormat with its text ids, detection on
// small heads (whole file and in folders), importers / device-row readers / folder roles, the GUI's
// helpers (dialog filter, NEFF check on the generated sample folder) and MIME types that match
// packaging/lanescope-mime.xml.
#include "corpus.h"
#include "io/fileimporter.h"
#include "io/formats.h"
#include "io/json/jsontoplevelscan.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/traceloader.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>

using namespace lanescope;

namespace {

std::string ntffHead(uint8_t version)
{
    std::string h(0x100, '\0');
    h[0] = char(version);
    h[1] = 0x10; // metadata length 16
    h[0x80] = 0x0a;
    return h;
}

std::string neffHead()
{
    std::string h(1024, '\0');
    h[0] = 2;    // pkg_version
    h[9] = 0x04; // header_size 1024 (little endian)
    return h;
}

} // namespace

class TestFormats : public QObject
{
    Q_OBJECT

private slots:
    void oneEntryPerFormat()
    {
        std::set<FileFormat> ids;
        std::set<std::string> names;
        for (const FormatInfo &e : Formats::all()) {
            QVERIFY(ids.insert(e.id).second);
            QVERIFY(names.insert(e.name).second);
            QCOMPARE(&Formats::info(e.id), &e);
            QVERIFY(e.displayName && *e.displayName);
            QVERIFY2(e.import || e.importDirectory || e.notATrace || e.role == FolderRole::None, e.name); // says why it does not open
        }
        QCOMPARE(int(ids.size()), kFileFormatCount);
        // The text ids printed today (trace metadata, `rows`, info --json "kind").
        QCOMPARE(std::string(Formats::name(FileFormat::ChromeJson)), std::string("chrome-json"));
        QCOMPARE(std::string(Formats::name(FileFormat::NeuronProfileJson)), std::string("neuron-profile-json"));
        QCOMPARE(std::string(Formats::name(FileFormat::SystemProfileJson)), std::string("system-profile-json"));
        QCOMPARE(std::string(Formats::name(FileFormat::Ntff)), std::string("ntff"));
        QCOMPARE(std::string(Formats::name(FileFormat::Neff)), std::string("neff"));
        QCOMPARE(std::string(Formats::name(FileFormat::Folder)), std::string("folder"));
        QCOMPARE(std::string(Formats::name(FileFormat::Unknown)), std::string("unknown"));
        QCOMPARE(std::string(Formats::folderKind(FileFormat::ChromeJson)), std::string("chrome-trace"));
        QCOMPARE(std::string(Formats::folderKind(FileFormat::NeuronProtobuf)), std::string("neuron-protobuf"));
        QCOMPARE(std::string(Formats::name(FileFormat::NeuronTrace)), std::string("neuron-ntrace"));
        QCOMPARE(std::string(Formats::folderKind(FileFormat::Unknown)), std::string("other"));
    }

    void roles()
    {
        QCOMPARE(Formats::info(FileFormat::ChromeJson).role, FolderRole::FrameworkTrace);
        QCOMPARE(Formats::info(FileFormat::Ntff).role, FolderRole::DeviceTrace);
        QCOMPARE(Formats::info(FileFormat::NeuronProfileJson).role, FolderRole::DeviceTrace);
        QCOMPARE(Formats::info(FileFormat::Neff).role, FolderRole::CompiledProgram);
        QCOMPARE(Formats::info(FileFormat::SystemProfileJson).role, FolderRole::SystemTrace);
        QCOMPARE(Formats::info(FileFormat::NeuronTrace).role, FolderRole::SystemTrace);
        QCOMPARE(Formats::info(FileFormat::NeuronProtobuf).role, FolderRole::SessionPart);
        QCOMPARE(Formats::info(FileFormat::ExplorerDevice).role, FolderRole::DeviceTrace);
        QCOMPARE(Formats::info(FileFormat::ExplorerSystem).role, FolderRole::SystemTrace);
        // Device traces have rows (`lanescope-cli rows`), nothing else does.
        for (const FormatInfo &e : Formats::all())
            QCOMPARE(e.readRows != nullptr || e.readRowsDirectory != nullptr, e.role == FolderRole::DeviceTrace);
    }

    void sniff_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<int>("whole");    // FileFormat opened on its own
        QTest::addColumn<int>("inFolder"); // FileFormat in a profile folder
        auto row = [](const char *name, const std::string &head, FileFormat whole, FileFormat folder) {
            QTest::newRow(name) << QByteArray(head.data(), qsizetype(head.size())) << int(whole) << int(folder);
        };
        row("kineto object", "{\"traceEvents\": []}", FileFormat::ChromeJson, FileFormat::ChromeJson);
        row("bom and spaces", "\xEF\xBB\xBF \n{\"traceEvents\": []}", FileFormat::ChromeJson, FileFormat::ChromeJson);
        row("event array", "[{\"ph\": \"X\"}]", FileFormat::ChromeJson, FileFormat::ChromeJson);
        row("array of other", "[1, 2, 3]", FileFormat::ChromeJson, FileFormat::Unknown);
        // an object read to its end with none of the keys of a JSON kind: no kind (unrecognised() says why)
        row("other object", "{\"name\": 1}", FileFormat::Unknown, FileFormat::Unknown);
        // an object the probe could not read to its end: taken as a Chrome trace on its own
        row("other object, cut", "{\"name\": [1, 2", FileFormat::ChromeJson, FileFormat::Unknown);
        row("system profile", "{\"trace_events\": []}", FileFormat::SystemProfileJson, FileFormat::SystemProfileJson);
        row("both keys", "{\"traceEvents\": [], \"trace_events\": []}", FileFormat::ChromeJson, FileFormat::ChromeJson);
        row("neuron-profile first key", "{ \"instruction\": []}", FileFormat::NeuronProfileJson, FileFormat::NeuronProfileJson);
        row("neuron-profile marker", "{\"metadata\": {\"ntff_version\": 5}}", FileFormat::NeuronProfileJson,
            FileFormat::NeuronProfileJson);
        // by structure: the top-level keys wherever they sit, never words in the first bytes
        const std::string pad = "\"summary\": [{\"note\": \"" + std::string(8000, 'x') + "\"}]";
        row("neuron-profile key after 8 KB", "{" + pad + ", \"warnings\": [], \"dma\": []}", FileFormat::NeuronProfileJson,
            FileFormat::NeuronProfileJson);
        row("neuron-profile key in a string", "{\"summary\": [\"\\\"dma\\\": \"]}", FileFormat::Unknown, FileFormat::Unknown);
        row("nested traceEvents", "{\"a\": {\"traceEvents\": []}}", FileFormat::Unknown, FileFormat::Unknown);
        row("traceEvents after 8 KB", "{\"deviceProperties\": [\"" + std::string(8000, 'x') + "\"], \"traceEvents\": []}",
            FileFormat::ChromeJson, FileFormat::ChromeJson);
        row("trace_events after 8 KB", "{\"meta\": \"" + std::string(8000, 'x') + "\", \"trace_events\": []}",
            FileFormat::SystemProfileJson, FileFormat::SystemProfileJson);
        row("trace_events, then traceEvents", "{\"trace_events\": [], \"traceEvents\": []}", FileFormat::ChromeJson,
            FileFormat::ChromeJson);
        row("rank summary, format last", "{\"ranks\": 1, \"format\" : \"lanescope-rank-summary\"}", FileFormat::RankSummary,
            FileFormat::RankSummary);
        row("format of another kind", "{\"format\": \"other\"}", FileFormat::Unknown, FileFormat::Unknown);
        row("ntff v5", ntffHead(5), FileFormat::Ntff, FileFormat::Ntff);
        row("neff", neffHead(), FileFormat::Neff, FileFormat::Neff);
        row("text", "hello world", FileFormat::Unknown, FileFormat::Unknown);
        row("empty", "", FileFormat::Unknown, FileFormat::Unknown);
    }

    void sniff()
    {
        QFETCH(QByteArray, head);
        QFETCH(int, whole);
        QFETCH(int, inFolder);
        const std::string_view h(head.constData(), size_t(head.size()));
        const uint64_t size = h.size() + 4096; // room for NEFF / NTFF payloads
        QCOMPARE(int(Formats::sniff(h, size)), whole);
        QCOMPARE(int(Formats::sniffInFolder({h, size, false})), inFolder);
    }

    // A JSON object of no kind is refused naming its keys and what each JSON kind is recognised by.
    void unrecognisedNamesWhatWasLookedFor()
    {
        const std::string head = "{\"theme\": \"dark\", \"fontSize\": 12}";
        QCOMPARE(Formats::sniff(head, head.size()), FileFormat::Unknown);
        const std::string why = Formats::unrecognised(head, head.size());
        for (const char *part : {"theme, fontSize", "not a Chrome/Kineto trace", "\"traceEvents\"", "\"trace_events\"",
                                 "\"instruction\"", "\"semaphore_update\"", "lanescope-rank-summary"})
            QVERIFY2(why.find(part) != std::string::npos, why.c_str());
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("settings.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(head.data(), qint64(head.size()));
        f.close();
        const LoadResult r = TraceLoader::load(path.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("theme, fontSize") != std::string::npos && r.error.find(path.toStdString()) != std::string::npos,
                 r.error.c_str());
    }

    // Real neuron-profile exports with their top-level keys written in other orders (neuron-profile
    // writes them in Go's map order, which differs from run to run) are recognised and load the same
    // rows. The row counts were computed from the raw files with Python:
    //     d = json.load(open(f)); dma = d["dma"]
    //     blocks = sum(r.get("aggregated", "no") != "no" for r in dma)
    //     len(d["instruction"]), len(dma) - blocks, blocks, len(d["semaphore_update"]), len(d["ham"])
    void reorderedNeuronProfileExports_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("instructions");
        QTest::addColumn<int>("dmaPackets");
        QTest::addColumn<int>("dmaBlocks");
        QTest::addColumn<int>("semaphores");
        QTest::addColumn<int>("throttle");
        QTest::newRow("128x128x256") << QStringLiteral("neuron-profile-json/profile_128x128x256.json") << 127 << 243 << 1 << 328 << 6;
        QTest::newRow("bucketed 128x128x512") << QStringLiteral("neuron-profile-json/profile_bucketed_128x128x512.json") << 127
                                              << 259 << 1 << 329 << 6;
        QTest::newRow("trn2 fused") << QStringLiteral("neuron-trn2-v6/fused_bf16_s512/fused_exec_2_profile_full.json") << 436 << 977
                                    << 0 << 747 << 2;
    }
    void reorderedNeuronProfileExports()
    {
        QFETCH(QString, file);
        QFETCH(int, instructions);
        QFETCH(int, dmaPackets);
        QFETCH(int, dmaBlocks);
        QFETCH(int, semaphores);
        QFETCH(int, throttle);
        LANESCOPE_REQUIRE_CORPUS_FILE(file);
        QFile in(test::corpusFile(file));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
        QCOMPARE(doc.size(), 21);
        // Each table written whole (QJsonDocument), the keys in the order given.
        const auto write = [&doc](const QString &path, const QStringList &order) {
            QByteArray text = "{";
            for (const QString &k : order) {
                const QJsonValue v = doc.value(k);
                const QByteArray value = v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                                     : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
                text += (text.size() > 1 ? ",\n\"" : "\"") + k.toUtf8() + "\": " + value;
            }
            QFile out(path);
            return out.open(QIODevice::WriteOnly) && out.write(text + "}\n") == text.size() + 2;
        };
        const QStringList generic = {QStringLiteral("summary"), QStringLiteral("warnings"), QStringLiteral("metadata")};
        QStringList rest;
        for (const QString &k : doc.keys())
            if (!generic.contains(k))
                rest << k;
        QStringList bySize = doc.keys(); // the largest table first
        std::stable_sort(bySize.begin(), bySize.end(), [&doc](const QString &a, const QString &b) {
            return QJsonDocument(doc.value(a).toArray()).toJson().size() > QJsonDocument(doc.value(b).toArray()).toJson().size();
        });
        QStringList summaryLast = rest + QStringList{QStringLiteral("warnings"), QStringLiteral("metadata"), QStringLiteral("summary")};
        QStringList reversed = doc.keys();
        std::reverse(reversed.begin(), reversed.end());
        const QList<QPair<const char *, QStringList>> orders = {
            {"generic tables first", generic + rest}, // refused before: the first 4 KiB held only "summary"
            {"largest table first", bySize},
            {"summary last", summaryLast},
            {"reversed", reversed}};
        QTemporaryDir tmp;
        for (const auto &[name, order] : orders) {
            const QString path = tmp.filePath(QString::fromLatin1(name).replace(QLatin1Char(' '), QLatin1Char('_')) + QStringLiteral(".json"));
            QVERIFY(write(path, order));
            QCOMPARE(Formats::sniffPath(path.toStdString()), FileFormat::NeuronProfileJson);
            const LoadResult r = TraceLoader::load(path.toStdString());
            QVERIFY2(r.ok(), (std::string(name) + ": " + r.error).c_str());
            QCOMPARE(r.trace->metadata().format, std::string("neuron-profile-json"));
            const NtffProfile p = FileImporter::readRowsAs(path.toStdString(), Formats::sniffPath(path.toStdString()));
            QCOMPARE(int(p.instructions.size()), instructions);
            QCOMPARE(int(p.dma.size()), dmaPackets);
            QCOMPARE(int(p.dmaBlocks.size()), dmaBlocks);
            QCOMPARE(int(p.semaphores.size()), semaphores);
            QCOMPARE(int(p.throttle.size()), throttle);
        }
    }

    // The top-level scan gives the same keys fed whole or a byte at a time: brackets and quotes inside
    // strings (escaped quotes, backslashes before the closing quote) never end a value.
    void topLevelScanInPieces()
    {
        const std::string text = "\xEF\xBB\xBF {\"a\\\"b\": {\"x\": \"}]\\\\\", \"y\": [1, {\"z\": \"\\\"{\"}]}, \"n\" : -1.5e3 ,"
                                 "\"s\": \"v\\\\\", \"t\":true, \"e\": [], \"traceEvents\": [{\"ph\": \"X\"}]}  trailing";
        JsonTopLevelScan whole;
        QVERIFY(!whole.feed(text)); // the object closed: nothing more to learn
        QVERIFY(whole.complete());
        QCOMPARE(whole.shape(), JsonTopLevelScan::Shape::Object);
        std::vector<std::string> names;
        for (const auto &k : whole.keys())
            names.push_back(k.name);
        QCOMPARE(names, (std::vector<std::string>{"a\\\"b", "n", "s", "t", "e", "traceEvents"}));
        QCOMPARE(whole.keys()[2].text, std::string("v\\\\"));
        QCOMPARE(whole.keys()[1].value, '-');
        QCOMPARE(whole.keys()[5].value, '[');
        QCOMPARE(whole.keys()[5].offset, uint64_t(text.find("\"traceEvents\"")));
        JsonTopLevelScan bytes;
        for (size_t i = 0; i < text.size() && bytes.feed(text.substr(i, 1)); ++i) {
        }
        QVERIFY(bytes.complete());
        QCOMPARE(bytes.keys().size(), whole.keys().size());
        for (size_t i = 0; i < whole.keys().size(); ++i) {
            QCOMPARE(bytes.keys()[i].name, whole.keys()[i].name);
            QCOMPARE(bytes.keys()[i].offset, whole.keys()[i].offset);
            QCOMPARE(bytes.keys()[i].text, whole.keys()[i].text);
        }
        QCOMPARE(bytes.scanned(), whole.scanned());
        // a broken top level names its byte; a cut one is neither complete nor broken
        JsonTopLevelScan broken;
        broken.feed("{\"a\": 1 \"b\": 2}");
        QVERIFY(broken.broken());
        QCOMPARE(broken.brokenAt(), uint64_t(8)); // the '"' where a ',' or '}' belongs
        JsonTopLevelScan cut;
        QVERIFY(cut.feed("{\"a\": [1, 2, {\"b\": \"]}"));
        QVERIFY(!cut.complete() && !cut.broken());
        JsonTopLevelScan array;
        QVERIFY(!array.feed("  [1]"));
        QCOMPARE(array.shape(), JsonTopLevelScan::Shape::Array);
    }

    void compressedNeffIsNotANeffInAFolder()
    {
        const std::string h = neffHead();
        QCOMPARE(Formats::sniffInFolder({h, UINT64_MAX, true}), FileFormat::Unknown);
    }

    void protobufByName()
    {
        QCOMPARE(Formats::sniffName("ntrace.pb"), FileFormat::NeuronTrace);
        for (const char *n : {"trace_info.pb", "cpu_util.pb", "host_mem.pb"})
            QCOMPARE(Formats::sniffName(n), FileFormat::NeuronProtobuf);
        QCOMPARE(Formats::sniffName("other.pb"), FileFormat::Unknown);
    }

    void dialogFilter()
    {
        const std::string all = Formats::dialogFilter();
        QVERIFY2(all.starts_with("Traces (*.json ") && all.ends_with(");;All files (*)"), all.c_str());
        for (const char *p : {"*.json.gz", "*.zst", "*.ntff", "*.neff", "*.pt.trace.json", "ntrace.pb"})
            QVERIFY2(all.find(p) != std::string::npos, p);
        QCOMPARE(all.find("*.json "), all.rfind("*.json ")); // each pattern once
        const std::string traces = Formats::dialogFilter(false);
        QVERIFY(traces.find("*.neff") == std::string::npos);
        QVERIFY(traces.find("*.ntff") != std::string::npos);
    }

    void compiledProgramCheck()
    {
        QTemporaryDir tmp;
        const std::string folder = SampleFolderWriter::write(tmp.path().toStdString());
        int neffs = 0;
        QDirIterator it(QString::fromStdString(folder), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            const bool neff = path.ends_with(".neff");
            neffs += neff;
            QCOMPARE(Formats::isCompiledProgram(path), neff);
        }
        QVERIFY(neffs > 0);
        QVERIFY(!Formats::isCompiledProgram(folder));
        QVERIFY(!Formats::isCompiledProgram(tmp.filePath(QStringLiteral("missing.neff")).toStdString()));
        QCOMPARE(Formats::sniffPath(folder), FileFormat::Folder);
    }

    void mimeTypesMatchPackaging()
    {
        QFile xml(QStringLiteral(LANESCOPE_SOURCE_DIR "/packaging/lanescope-mime.xml"));
        QVERIFY(xml.open(QIODevice::ReadOnly));
        const QByteArray text = xml.readAll();
        for (const FormatInfo &e : Formats::all()) {
            const std::string mime = e.mimeType;
            if (mime.rfind("application/x-", 0) == 0) // ours; the rest are common types
                QVERIFY2(text.contains(("type=\"" + mime + "\"").c_str()), mime.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestFormats)
#include "tst_formats.moc"
