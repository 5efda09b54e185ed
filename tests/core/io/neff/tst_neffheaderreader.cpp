// NeffHeaderReader (core/io/neff/neffheaderreader.h): the 1024-byte NEFF header, the payload it frames and
// the MD5 check, on NEFFs written by NeffWriter.
#include "io/neff/neffheaderreader.h"
#include "io/synthetic/neffwriter.h"

#include <QtTest>

#include <atomic>

using namespace lanescope;

namespace {

std::string sampleNeff(uint64_t pkgVersion = 2)
{
    NeffWriter w;
    w.setUuid("00112233445566778899aabbccddeeff");
    w.setNetworkName("net.neff");
    w.setPkgVersion(pkgVersion);
    return w.bytes();
}

void putLe64(std::string &bytes, size_t at, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        bytes[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

std::string problemOf(const std::string &bytes, uint64_t *offset = nullptr)
{
    NeffInfo info;
    try {
        NeffHeaderReader::read(bytes, "x.neff", info);
    } catch (const ImportError &e) {
        if (offset)
            *offset = e.offset();
        return e.problem();
    }
    return {};
}

} // namespace

class TstNeffHeaderReader : public QObject
{
    Q_OBJECT
private slots:
    void readsHeaderAndPayload()
    {
        const std::string bytes = sampleNeff();
        NeffInfo info;
        const std::string_view payload = NeffHeaderReader::read(bytes, "x.neff", info);
        QCOMPARE(info.header.pkgVersion, uint64_t(2));
        QCOMPARE(info.header.headerSize, NeffHeaderReader::kSize);
        QCOMPARE(info.header.dataSize, uint64_t(bytes.size() - NeffHeaderReader::kSize));
        QCOMPARE(info.header.uuidHex(), std::string("00112233445566778899aabbccddeeff"));
        QCOMPARE(info.header.networkName, std::string("net.neff"));
        QCOMPARE(payload.size(), size_t(info.header.dataSize));
        QCOMPARE(static_cast<const void *>(payload.data()), static_cast<const void *>(bytes.data() + 1024));
        QCOMPARE(info.diagnostics.warnings().size(), size_t(0));
        QVERIFY(NeffHeaderReader::looksLikeNeff(bytes.substr(0, 40), bytes.size()));
        QVERIFY(!NeffHeaderReader::looksLikeNeff(bytes.substr(0, 39), bytes.size()));
    }

    void trailingBytesAreAWarning()
    {
        const std::string bytes = sampleNeff() + "junk";
        NeffInfo info;
        const std::string_view payload = NeffHeaderReader::read(bytes, "x.neff", info);
        QCOMPARE(payload.size(), bytes.size() - 1024 - 4);
        QCOMPARE(info.diagnostics.warnings().size(), size_t(1));
    }

    void badHeaders()
    {
        uint64_t at = 99;
        QCOMPARE(problemOf(std::string(100, '\0'), &at), std::string("file size is 100; a NEFF starts with a 1024-byte header"));
        QCOMPARE(at, uint64_t(0));
        std::string bytes = sampleNeff();
        putLe64(bytes, 0, 3);
        QCOMPARE(problemOf(bytes, &at), std::string("NEFF pkg_version is 3; expected 1 or 2 (not a NEFF?)"));
        QCOMPARE(at, uint64_t(0));
        bytes = sampleNeff();
        putLe64(bytes, 8, 512);
        QCOMPARE(problemOf(bytes, &at), std::string("NEFF header_size is 512; expected 1024 (not a NEFF?)"));
        QCOMPARE(at, uint64_t(8));
        bytes = sampleNeff();
        putLe64(bytes, 16, bytes.size());
        QVERIFY(problemOf(bytes, &at).find("(file truncated?)") != std::string::npos);
        QCOMPARE(at, uint64_t(16));
        QVERIFY(!NeffHeaderReader::looksLikeNeff(bytes.substr(0, 40), bytes.size()));
        bytes = sampleNeff();
        putLe64(bytes, 16, 0);
        QCOMPARE(problemOf(bytes, &at), std::string("NEFF data_size is 0; expected a payload after the header"));
    }

    void md5()
    {
        std::string bytes = sampleNeff();
        NeffInfo info;
        std::vector<int> progress;
        LoadOptions options;
        options.progress = [&progress](int p) { progress.push_back(p); };
        NeffHeaderReader::checkMd5(NeffHeaderReader::read(bytes, "x.neff", info), info, options);
        QCOMPARE(info.md5, NeffMd5Check::Ok);
        QCOMPARE(info.md5Layout, NeffMd5Layout::WordSwapped);
        QCOMPARE(info.md5Hex.size(), size_t(32));
        QCOMPARE(progress.back(), 200);

        bytes[bytes.size() - 1] ^= 1; // damage the payload
        NeffInfo damaged;
        NeffHeaderReader::checkMd5(NeffHeaderReader::read(bytes, "x.neff", damaged), damaged, {});
        QCOMPARE(damaged.md5, NeffMd5Check::Mismatch);
        QCOMPARE(damaged.diagnostics.warnings().size(), size_t(1));

        std::atomic<bool> cancel{true};
        LoadOptions cancelled;
        cancelled.cancel = &cancel;
        NeffInfo c;
        const std::string_view payload = NeffHeaderReader::read(bytes, "x.neff", c);
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, NeffHeaderReader::checkMd5(payload, c, cancelled));
    }

    void version1HasNoHash()
    {
        const std::string bytes = sampleNeff(1);
        NeffInfo info;
        NeffHeaderReader::checkMd5(NeffHeaderReader::read(bytes, "x.neff", info), info, {});
        QVERIFY(info.md5Hex.empty());
    }
};

QTEST_GUILESS_MAIN(TstNeffHeaderReader)
#include "tst_neffheaderreader.moc"
