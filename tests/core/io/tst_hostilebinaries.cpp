// Hostile NEFF and NTFF files (see tst_hostilefiles.cpp for the rules every case follows): NEFF headers
// whose sizes lie, tar members with absolute or "../" names and huge members (nothing may be written
// outside the case's folder, memory stays bounded), and NTFFs with an unknown version, section offsets
// past the end and inconsistent record counts, patched from a real corpus file.
#include "compress.h"
#include "corpus.h"
#include "hostiletestcase.h"
#include "ntffpatch.h"

#include "io/input/inputbuffer.h"
#include "io/neff/neffreader.h"
#include "io/ntff/ntffimporter.h"
#include "io/ntff/ntffreader.h"
#include "io/protobuf/protobufreader.h"
#include "io/traceloader.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

using namespace lanescope;
using namespace lanescope::test;

namespace {

// ---- POSIX tar, written by hand so every header field can lie ----

std::string tarHeader(const std::string &name, uint64_t size, char type = '0', const std::string &link = {})
{
    std::string h(512, '\0');
    std::memcpy(h.data(), name.data(), std::min<size_t>(name.size(), 100));
    auto octal = [&h](size_t off, size_t width, uint64_t v) { // width digits, then NUL
        for (size_t i = width; i-- > 0; v >>= 3)
            h[off + i] = char('0' + (v & 7));
    };
    octal(100, 7, 0644);
    octal(108, 7, 0);
    octal(116, 7, 0);
    octal(124, 11, size);
    octal(136, 11, 0);
    h[156] = type;
    std::memcpy(h.data() + 157, link.data(), std::min<size_t>(link.size(), 100));
    std::memcpy(h.data() + 257, "ustar\0" "00", 8);
    std::memset(h.data() + 148, ' ', 8);
    unsigned sum = 0;
    for (unsigned char c : h)
        sum += c;
    octal(148, 6, sum);
    h[154] = '\0';
    h[155] = ' ';
    return h;
}

std::string tarMember(const std::string &name, std::string_view content, char type = '0', const std::string &link = {})
{
    std::string m = tarHeader(name, content.size(), type, link);
    m.append(content);
    m.append((512 - content.size() % 512) % 512, '\0');
    return m;
}

// A NEFF (pkg_version 1: no MD5) around `payload`.
std::string neffAround(const std::string &payload)
{
    std::string h(NeffReader::kHeaderSize, '\0');
    putU64(h, 0, 1);
    putU64(h, 8, NeffReader::kHeaderSize);
    putU64(h, 16, payload.size());
    putU64(h, 24, 2);
    std::memcpy(h.data() + 220, "hostile.neff", 12);
    return h + payload;
}


} // namespace

class TestHostileBinaries : public HostileTestCase
{
    Q_OBJECT

private slots:
    // ---- NEFF ----

    void neffHeaderLies_data()
    {
        QTest::addColumn<int>("offset");
        QTest::addColumn<quint64>("value");
        QTest::addColumn<bool>("mustFail");
        QTest::addColumn<int>("errorAt"); // the byte the error names, -1: any
        QTest::newRow("data_size past the end") << 16 << quint64(1) << true << 16; // value: file size + 1
        QTest::newRow("data_size 2^64-1") << 16 << quint64(UINT64_MAX) << true << 16;
        QTest::newRow("data_size 0") << 16 << quint64(0) << true << 16;
        QTest::newRow("data_size cuts the payload") << 16 << quint64(3000) << false << -1;
        QTest::newRow("data_size 10 bytes") << 16 << quint64(10) << true << -1;
        QTest::newRow("header_size 4096") << 8 << quint64(4096) << true << 8;
        QTest::newRow("header_size 0") << 8 << quint64(0) << true << 8;
        QTest::newRow("pkg_version 7") << 0 << quint64(7) << true << 0;
        QTest::newRow("major version 99") << 24 << quint64(99) << true << 24;
        QTest::newRow("tpb count 2^32-1") << 168 << quint64(0xffffffffu) << false << -1;
    }

    void neffHeaderLies()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff"));
        QFETCH(int, offset);
        QFETCH(quint64, value);
        QFETCH(bool, mustFail);
        QFETCH(int, errorAt);
        std::string b = readFile(lanescope::test::corpusFile(QStringLiteral("neuron-cs149-asst4/stream_256k_fd1k.neff")));
        QVERIFY(b.size() > 4096);
        if (offset == 16 && value == 1)
            value = b.size() - NeffReader::kHeaderSize + 1;
        putU64(b, size_t(offset), value);
        const QString p = m_scratch.fresh(QStringLiteral("lying-header.neff"));
        QVERIFY(writeFile(p, b));
        const Outcome o = loadNeff(p);
        VERIFY_OUTCOME(o, p, boundMs(5), true);
        if (mustFail) {
            QVERIFY2(!o.ok, "a NEFF header that lies was accepted");
            if (errorAt >= 0)
                QVERIFY2(contains(o.error, ": at byte " + std::to_string(errorAt) + ":"), o.error.c_str());
        }
        qInfo("%s", o.ok ? qPrintable(QStringLiteral("read with %1 warnings").arg(o.warnings)) : o.error.c_str());
        // TraceLoader does not load a NEFF on its own: a clear error too, never a crash
        const Outcome t = loadTrace(p);
        VERIFY_OUTCOME(t, p, boundMs(5), false);
    }

    void neffTarUnsafeMemberNames()
    {
        // Names that would escape an extraction folder. Nothing is extracted, so nothing may appear.
        const QString marker = QStringLiteral("lanescope_hostile_%1").arg(::getpid());
        const std::string m = marker.toStdString();
        const std::string absolute = QDir::tempPath().toStdString() + "/" + m + "_absolute";
        std::string tar;
        tar += tarMember("info.json", "{\"tool_version\":\"hostile\"}");
        tar += tarMember(absolute, "{\"x\":1}");
        tar += tarMember("../" + m + "_up", "{\"x\":1}");
        tar += tarMember("sg00/../../" + m + "_sg", "{\"x\":1}");
        tar += tarMember("..\\" + m + "_backslash", "{}");
        tar += tarMember("sg00/def.json", "{\"var\":{},\"pe\":\"../../../etc/passwd\"}");
        tar += tarMember("sg00/link.json", "", '2', "/etc/passwd");
        tar += tarMember("sg00/hard.json", "", '1', "../../etc/shadow");
        tar += tarMember("sg00/PE.json", "{\"dma\":[]}");
        tar += std::string(1024, '\0');
        const QString dir = m_scratch.work() + QStringLiteral("/unsafe");
        const QString p = dir + QStringLiteral("/neff_42.neff");
        QVERIFY(writeFile(p, neffAround(gzipOf(tar))));

        const QStringList outerBefore = listing(m_scratch.outer());
        NeffInfo info;
        const Outcome o = loadNeff(p, {}, &info);
        VERIFY_OUTCOME(o, p, boundMs(5), true);
        QVERIFY2(o.ok, o.error.c_str());
        int unsafe = 0;
        for (const NeffMember &mem : info.members)
            unsafe += mem.unsafeName;
        QCOMPARE(unsafe, 4); // absolute, ../, sg00/../../, ..\ (the links are listed, never followed)
        QVERIFY(info.diagnostics.count("member name is an absolute path or contains '..' (listed only; nothing is written to disk)") >= 4);
        QCOMPARE(info.compilerVersion, std::string("hostile"));
        QCOMPARE(listing(m_scratch.outer()), outerBefore);
        QVERIFY(!QFileInfo::exists(QString::fromStdString(absolute)));
        QVERIFY(!QFileInfo::exists(QFileInfo(m_scratch.work()).absolutePath() + QLatin1Char('/') + marker + QStringLiteral("_up")));
        QVERIFY(!QFileInfo::exists(QDir::tempPath() + QLatin1Char('/') + marker + QStringLiteral("_sg")));
        QVERIFY(!QFileInfo::exists(m_scratch.outer() + QLatin1Char('/') + marker + QStringLiteral("_sg")));
        qInfo("%zu members, %d with unsafe names, %llu warnings", info.members.size(), unsafe, (unsigned long long)o.warnings);
        // the folder loader sees the same file: listed, never extracted
        const Outcome t = loadTrace(dir);
        VERIFY_OUTCOME(t, dir, boundMs(10), false);
        qInfo("as a folder: %s", t.ok ? "loaded" : t.error.c_str());
        QCOMPARE(listing(m_scratch.outer()), outerBefore);
        QDir(dir).removeRecursively();
    }

    void neffTarHugeMembers()
    {
        // sg00/PE.json really holds 300 MiB (of spaces, gzip'd to ~300 KiB); kelf-0.json claims 8 GiB
        // in its tar header and holds 10 bytes. Budget 64 MiB.
        constexpr uint64_t kHuge = uint64_t(300) << 20;
        Gzip g(1, Z_RLE);
        g.add(tarMember("info.json", "{\"tool_version\":\"hostile\"}"));
        g.add(tarMember("sg00/def.json", "{\"var\":{},\"pe\":\"PE.json\"}"));
        g.add(tarHeader("sg00/PE.json", kHuge));
        g.addRepeated(' ', kHuge);
        g.add(tarHeader("kelf-0.json", (uint64_t(1) << 33) - 1));
        g.add("{\"a\":1}\n\n\n");
        const std::string payload = g.finish();
        const QString p = m_scratch.fresh(QStringLiteral("huge-members.neff"));
        QVERIFY(writeFile(p, neffAround(payload)));

        LoadOptions options;
        options.memoryBudget = uint64_t(64) << 20;
        PeakRss rss;
        const bool measured = rss.reset();
        NeffInfo info;
        const Outcome o = loadNeff(p, options, &info);
        const uint64_t growth = rss.growthBytes();
        VERIFY_OUTCOME(o, p, boundMs(20), true);
        QVERIFY2(o.ok, o.error.c_str());
        QVERIFY(info.member("sg00/PE.json"));
        QCOMPARE(info.member("sg00/PE.json")->size, kHuge);
        QVERIFY(!info.complete);
        QVERIFY(info.tarBytes <= options.memoryBudget + (uint64_t(4) << 20));
        std::string warnings;
        for (const Warning &w : info.diagnostics.warnings())
            warnings += "\n  " + Diagnostics::format(w) + " (" + w.firstSeen + ")";
        qInfo("payload %zu bytes: %zu members, %llu tar bytes walked, %lld ms, peak RSS +%llu MiB, warnings:%s",
              payload.size(), info.members.size(), (unsigned long long)info.tarBytes, (long long)o.ms,
              (unsigned long long)(growth >> 20), warnings.c_str());
        QVERIFY(info.diagnostics.count("member larger than the per-member cap was skipped (not read)") == 1);
        if (measured)
            QVERIFY2(growth < (uint64_t(256) << 20), qPrintable(QStringLiteral("peak RSS grew %1 MiB").arg(growth >> 20)));

        // With room for the whole walk, the 8 GiB claim is caught by the payload size, not allocated.
        options.memoryBudget = uint64_t(1) << 30;
        rss.reset();
        const Outcome o2 = loadNeff(p, options, &info);
        VERIFY_OUTCOME(o2, p, boundMs(30), true);
        QVERIFY2(o2.ok, o2.error.c_str());
        QVERIFY(info.member("kelf-0.json"));
        QVERIFY(info.diagnostics.count("member header claims more bytes than the payload can hold; member skipped") +
                    info.diagnostics.count("NEFF payload breaks off or is damaged; later members are missing") >= 1);
        if (measured)
            QVERIFY2(rss.growthBytes() < (uint64_t(512) << 20), qPrintable(QStringLiteral("peak RSS grew %1 MiB").arg(rss.growthBytes() >> 20)));
        QFile::remove(p);
    }

    // ---- NTFF ----

    void ntffHostileTables_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("mustFail");
        QTest::addColumn<QString>("expected"); // in the error, or in a warning when it loads
        QTest::newRow("unknown version 7") << "version7" << true << "NTFF version 7 is not supported; this build reads versions 4, 5 and 6";
        QTest::newRow("unknown version 200") << "version200" << true << "NTFF version 200 is not supported; this build reads versions 4, 5 and 6";
        QTest::newRow("metadata length past the end") << "metadataPastEnd" << true << "metadata length";
        QTest::newRow("section offset past the end") << "offsetPastEnd" << true << "past the end of the file";
        QTest::newRow("section size past the end") << "sizePastEnd" << false << "NTFF payload truncated";
        QTest::newRow("section size not whole records") << "partialRecord" << true << "not a multiple of 16";
        QTest::newRow("sections overlap") << "overlap" << true << "overlaps";
        QTest::newRow("begin/end records unmatched") << "unmatched" << false << "instruction";
        QTest::newRow("payload cut mid-record") << "cutMidRecord" << false << "NTFF payload truncated";
    }

    void ntffHostileTables()
    {
        LANESCOPE_REQUIRE_CORPUS_FILE(QStringLiteral("neuron-profile-json/profile_128x128x256.ntff"));
        QFETCH(QString, kind);
        QFETCH(bool, mustFail);
        QFETCH(QString, expected);
        std::string b = readFile(lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x256.ntff")));
        QVERIFY(b.size() > 1000);
        const NtffLayout layout = ntffLayout(b);
        QVERIFY(layout.sections.size() >= 3);
        size_t last = 0, instr = 0;
        for (size_t i = 0; i < layout.sections.size(); ++i) {
            if (layout.sections[i].offset >= layout.sections[last].offset)
                last = i;
            if (layout.sections[i].kind == 0)
                instr = i;
        }
        const NtffSection &ls = layout.sections[last];
        if (kind == QLatin1String("version7")) {
            b[0] = 7;
        } else if (kind == QLatin1String("version200")) {
            b[0] = char(200);
        } else if (kind == QLatin1String("metadataPastEnd")) {
            b[4] = char(0x7f);
        } else if (kind == QLatin1String("offsetPastEnd")) {
            const auto at = sectionField(b, last, 5);
            QVERIFY(patchVarint(b, at, (uint64_t(1) << (7 * std::min<size_t>(at.second, 8))) - 1));
        } else if (kind == QLatin1String("sizePastEnd")) {
            // as far past the end as the varint's length allows (it is rewritten in place)
            const auto at = sectionField(b, last, 6);
            const uint64_t most = at.second >= 10 ? UINT64_MAX : (uint64_t(1) << (7 * at.second)) - 1;
            const uint64_t size = std::min<uint64_t>(ls.size + 16 * 1000, most / 16 * 16);
            QVERIFY(size > ls.size);
            QVERIFY(patchVarint(b, at, size));
        } else if (kind == QLatin1String("partialRecord")) {
            QVERIFY(patchVarint(b, sectionField(b, instr, 6), layout.sections[instr].size + 1));
        } else if (kind == QLatin1String("overlap")) {
            size_t first = 0; // the section right before the last one
            for (size_t i = 0; i < layout.sections.size(); ++i)
                if (layout.sections[i].size && layout.sections[i].offset < ls.offset &&
                    layout.sections[i].offset >= layout.sections[first].offset)
                    first = i;
            QVERIFY(patchVarint(b, sectionField(b, first, 6), layout.sections[first].size + 32));
        } else if (kind == QLatin1String("unmatched")) {
            const NtffSection &s = layout.sections[instr];
            uint64_t flipped = 0;
            for (uint64_t r = 0; r * 16 < s.size; r += 3, ++flipped) {
                const size_t at = size_t(layout.payloadOffset + s.offset + r * 16 + 3);
                b[at] = char(b[at] ^ 0x01); // bit 24: begin <-> end
            }
            QVERIFY(flipped > 10);
        } else if (kind == QLatin1String("cutMidRecord")) {
            b.resize(size_t(layout.payloadOffset + ls.offset + ls.size / 2 + 7));
        }
        const QString p = m_scratch.fresh(QStringLiteral("hostile.ntff"));
        QVERIFY(writeFile(p, b));
        const Outcome o = loadTrace(p);
        VERIFY_OUTCOME(o, p, boundMs(5), true);
        std::string warnings;
        if (o.ok)
            for (const Warning &w : o.trace->diagnostics().warnings())
                warnings += "\n  " + Diagnostics::format(w) + " (" + w.firstSeen + ")";
        qInfo("%s", o.ok ? ("loaded, " + std::to_string(o.warnings) + " warnings:" + warnings).c_str() : o.error.c_str());
        if (mustFail) {
            QVERIFY2(!o.ok, "a hostile NTFF table was accepted");
            QVERIFY2(contains(o.error, expected.toStdString()), o.error.c_str());
        } else {
            QVERIFY2(o.ok, o.error.c_str());
            QVERIFY(o.warnings > 0);
            QVERIFY2(contains(warnings, expected.toStdString()), warnings.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestHostileBinaries)
#include "tst_hostilebinaries.moc"
