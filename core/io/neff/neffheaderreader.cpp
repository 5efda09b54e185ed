#include "neffheaderreader.h"

#include "util/textutil.h"

#include <QCryptographicHash>

#include <algorithm>
#include <array>
#include <cstring>

namespace lanescope {

namespace {

uint64_t le64(const char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | uint8_t(p[i]);
    return v;
}

uint32_t le32(const char *p)
{
    return uint32_t(le64(p)); // every u32 field is followed by more header bytes
}

std::string cString(const char *p, size_t max)
{
    const void *nul = std::memchr(p, 0, max);
    return std::string(p, nul ? size_t(static_cast<const char *>(nul) - p) : max);
}

} // namespace

std::string_view NeffHeaderReader::read(std::string_view bytes, const std::string &name, NeffInfo &info)
{
    const uint64_t size = bytes.size();
    const char *h = bytes.data();
    auto fail = [&](uint64_t offset, const std::string &what, uint64_t value, const std::string &expected) {
        throw ImportError(name, offset, what + " is " + std::to_string(value) + "; " + expected);
    };
    if (size < kSize)
        fail(0, "file size", size, "a NEFF starts with a 1024-byte header");
    NeffHeader &hd = info.header;
    hd.pkgVersion = le64(h);
    hd.headerSize = le64(h + 8);
    hd.dataSize = le64(h + 16);
    hd.versionMajor = le64(h + 24);
    hd.versionMinor = le64(h + 32);
    if (hd.pkgVersion != 1 && hd.pkgVersion != 2)
        fail(0, "NEFF pkg_version", hd.pkgVersion, "expected 1 or 2 (not a NEFF?)");
    if (hd.headerSize != kSize)
        fail(8, "NEFF header_size", hd.headerSize, "expected 1024 (not a NEFF?)");
    if (hd.dataSize > size - kSize)
        fail(16, "NEFF data_size", hd.dataSize,
             "only " + std::to_string(size - kSize) +
                 " bytes follow the header; expected data_size <= file size - 1024 (file truncated?)");
    if (hd.versionMajor > 2)
        fail(24, "NEFF major version", hd.versionMajor, "expected at most 2");
    if (hd.dataSize == 0)
        fail(16, "NEFF data_size", 0, "expected a payload after the header");
    hd.buildVersion = cString(h + 40, 128);
    hd.tpbCount = le32(h + 168);
    std::memcpy(hd.hash.data(), h + 172, hd.hash.size());
    std::memcpy(hd.uuid.data(), h + 204, hd.uuid.size());
    hd.networkName = cString(h + 220, 256);
    hd.requestedCoreCount = le32(h + 476);
    std::memcpy(hd.coresPerNode.data(), h + 480, hd.coresPerNode.size());
    hd.featureBits = le64(h + 544);
    hd.lncSize = le32(h + 552);
    if (const uint64_t trailing = size - kSize - hd.dataSize; trailing > 0)
        info.diagnostics.warn("bytes after the payload (past data_size) were ignored",
                              std::to_string(trailing) + " bytes from byte " + std::to_string(kSize + hd.dataSize));
    return bytes.substr(kSize, hd.dataSize);
}

void NeffHeaderReader::checkMd5(std::string_view payload, NeffInfo &info, const LoadOptions &options)
{
    if (info.header.pkgVersion != 2)
        return;
    QCryptographicHash md5(QCryptographicHash::Md5);
    constexpr size_t kChunk = size_t(8) << 20;
    for (size_t done = 0; done < payload.size(); done += kChunk) {
        if (options.cancelled())
            throw LoadCancelled();
        const size_t n = std::min(kChunk, payload.size() - done);
        md5.addData(QByteArrayView(payload.data() + done, qsizetype(n)));
        options.report(int(200 * (done + n) / payload.size()));
    }
    const QByteArray digest = md5.result();
    std::array<uint8_t, 16> plain{}, swapped{};
    for (size_t i = 0; i < 16; ++i) {
        plain[i] = uint8_t(digest[qsizetype(i)]);
        swapped[(i & ~size_t(3)) + 3 - (i & 3)] = plain[i];
    }
    info.md5Hex = text::hex(plain.data(), plain.size());
    const uint8_t *stored = info.header.hash.data();
    info.md5Layout = std::memcmp(stored, swapped.data(), 16) == 0 ? NeffMd5Layout::WordSwapped
                       : std::memcmp(stored, plain.data(), 16) == 0 ? NeffMd5Layout::Plain
                                                                    : NeffMd5Layout::None;
    info.md5 = info.md5Layout == NeffMd5Layout::None ? NeffMd5Check::Mismatch : NeffMd5Check::Ok;
    if (info.md5 == NeffMd5Check::Mismatch)
        info.diagnostics.warn("payload MD5 does not match the header hash (file damaged or modified)",
             "header byte 172: computed " + info.md5Hex + ", stored " + text::hex(stored, 16));
}

bool NeffHeaderReader::looksLikeNeff(std::string_view head, uint64_t fileSize)
{
    if (head.size() < 40 || fileSize < kSize)
        return false;
    const uint64_t pkg = le64(head.data());
    return (pkg == 1 || pkg == 2) && le64(head.data() + 8) == kSize &&
           le64(head.data() + 16) <= fileSize - kSize && le64(head.data() + 24) <= 2;
}

} // namespace lanescope
