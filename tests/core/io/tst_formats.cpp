// Formats: the one table of input formats. One entry per FileFormat with its text ids, detection on
// small heads (whole file and in folders), importers / device-row readers / folder roles, the GUI's
// helpers (dialog filter, NEFF check on the generated sample folder) and MIME types that match
// packaging/lanescope-mime.xml.
#include "io/formats.h"
#include "io/synthetic/samplefolderwriter.h"

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

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
            QVERIFY2(e.import || e.notATrace || e.role == FolderRole::None, e.name); // says why it does not open
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
        // Device traces have rows (`lanescope-cli rows`), nothing else does.
        for (const FormatInfo &e : Formats::all())
            QCOMPARE(e.readRows != nullptr, e.role == FolderRole::DeviceTrace);
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
        row("other object", "{\"name\": 1}", FileFormat::ChromeJson, FileFormat::Unknown);
        row("system profile", "{\"trace_events\": []}", FileFormat::SystemProfileJson, FileFormat::SystemProfileJson);
        row("both keys", "{\"traceEvents\": [], \"trace_events\": []}", FileFormat::ChromeJson, FileFormat::ChromeJson);
        row("neuron-profile first key", "{ \"instruction\": []}", FileFormat::NeuronProfileJson, FileFormat::NeuronProfileJson);
        row("neuron-profile marker", "{\"metadata\": {\"ntff_version\": 5}}", FileFormat::NeuronProfileJson,
            FileFormat::NeuronProfileJson);
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
