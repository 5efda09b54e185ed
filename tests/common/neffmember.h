#pragma once
// Reads one member of a NEFF file without Lanescope's reader (an independent check of it): skips the
// 1024-byte header, gunzips the payload with zlib (or takes it as a plain tar) and walks the POSIX tar
// headers. Empty optional when the file or the member is not there.
#include <QFile>

#include <optional>
#include <string>
#include <zlib.h>

namespace lanescope::test {

inline std::optional<std::string> neffMember(const QString &path, const std::string &member)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray all = f.readAll();
    if (all.size() <= 1024)
        return std::nullopt;
    std::string tar;
    const QByteArray payload = all.mid(1024);
    if (payload.size() >= 2 && uchar(payload[0]) == 0x1f && uchar(payload[1]) == 0x8b) {
        z_stream z{};
        if (inflateInit2(&z, 15 + 16) != Z_OK)
            return std::nullopt;
        z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(payload.constData()));
        z.avail_in = uInt(payload.size());
        char buf[1 << 16];
        int r = Z_OK;
        while (r == Z_OK) {
            z.next_out = reinterpret_cast<Bytef *>(buf);
            z.avail_out = sizeof buf;
            r = inflate(&z, Z_NO_FLUSH);
            tar.append(buf, sizeof buf - z.avail_out);
        }
        inflateEnd(&z);
        if (r != Z_STREAM_END)
            return std::nullopt;
    } else {
        tar.assign(payload.constData(), size_t(payload.size()));
    }
    for (size_t at = 0; at + 512 <= tar.size();) {
        const std::string name(tar.c_str() + at, strnlen(tar.c_str() + at, 100));
        if (name.empty())
            break;
        const size_t size = std::stoull(std::string(tar, at + 124, 12), nullptr, 8);
        const std::string prefix(tar.c_str() + at + 345, strnlen(tar.c_str() + at + 345, 155));
        const std::string full = prefix.empty() ? name : prefix + "/" + name;
        if (full == member || full == "./" + member)
            return tar.substr(at + 512, size);
        at += 512 + (size + 511) / 512 * 512;
    }
    return std::nullopt;
}

} // namespace lanescope::test
