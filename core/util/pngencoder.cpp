#include "pngencoder.h"

#include <zlib.h>

#include <cstring>
#include <vector>

namespace lanescope::png {

namespace {

void putBigEndian(std::string &out, uint32_t v)
{
    const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    out.append(b, 4);
}

// One chunk: length, type, data, CRC-32 of type and data.
void putChunk(std::string &out, const char type[4], const std::string &data)
{
    putBigEndian(out, uint32_t(data.size()));
    const size_t typeAt = out.size();
    out.append(type, 4);
    out += data;
    const auto *crcFrom = reinterpret_cast<const Bytef *>(out.data() + typeAt);
    putBigEndian(out, uint32_t(crc32(crc32(0L, Z_NULL, 0), crcFrom, uInt(4 + data.size()))));
}

} // namespace

std::string encodeRgb(const uint8_t *pixels, int width, int height, size_t stride)
{
    if (!pixels || width <= 0 || height <= 0)
        return {};
    const size_t rowBytes = size_t(width) * 3;
    z_stream z{};
    if (deflateInit(&z, Z_BEST_SPEED) != Z_OK)
        return {};
    std::string idat;
    idat.resize(deflateBound(&z, uLong((rowBytes + 1) * size_t(height))));
    z.next_out = reinterpret_cast<Bytef *>(idat.data());
    z.avail_out = uInt(idat.size());
    std::vector<uint8_t> row(rowBytes + 1);
    bool ok = true;
    for (int y = 0; y < height && ok; ++y) {
        const uint8_t *in = pixels + size_t(y) * stride;
        if (y > 0 && std::memcmp(in, in - stride, rowBytes) == 0) {
            row[0] = 2; // Up: the row above again, all zeros
            std::memset(row.data() + 1, 0, rowBytes);
        } else {
            row[0] = 1; // Sub: the difference to the pixel on the left
            std::memcpy(row.data() + 1, in, 3);
            for (size_t i = 3; i < rowBytes; ++i)
                row[1 + i] = uint8_t(in[i] - in[i - 3]);
        }
        z.next_in = row.data();
        z.avail_in = uInt(row.size());
        ok = deflate(&z, y + 1 == height ? Z_FINISH : Z_NO_FLUSH) != Z_STREAM_ERROR && z.avail_in == 0;
    }
    ok = ok && z.avail_out > 0;
    idat.resize(idat.size() - z.avail_out);
    deflateEnd(&z);
    if (!ok)
        return {};

    std::string out("\x89PNG\r\n\x1a\n", 8);
    std::string header;
    putBigEndian(header, uint32_t(width));
    putBigEndian(header, uint32_t(height));
    header += std::string("\x08\x02\x00\x00\x00", 5); // 8 bits, RGB, deflate, adaptive filters, no interlace
    putChunk(out, "IHDR", header);
    putChunk(out, "IDAT", idat);
    putChunk(out, "IEND", std::string());
    return out;
}

} // namespace lanescope::png
