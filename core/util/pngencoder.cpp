#include "pngencoder.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
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

// Rows [first, last) filtered and deflated as raw deflate data (no zlib header or trailer): ending in a
// sync flush (byte-aligned, not final) unless `final`. Sets `adler` to the Adler-32 of the filtered bytes.
struct Part
{
    // The output, in a buffer of deflate's worst case left uninitialised: only the pages written (a
    // flat picture deflates to a few percent of it) are ever touched.
    std::unique_ptr<uint8_t[]> buffer;
    size_t deflatedBytes = 0;
    uLong adler = 1;
    size_t bytes = 0;
    bool ok = false;
};

// One row as 3 bytes per pixel, from either layout.
void rgbRow(const uint8_t *in, Pixels layout, size_t width, uint8_t *out)
{
    if (layout == Pixels::Rgb888) {
        std::memcpy(out, in, width * 3);
        return;
    }
    for (size_t x = 0; x < width; ++x) {
        uint32_t v;
        std::memcpy(&v, in + 4 * x, 4);
        out[3 * x] = uint8_t(v >> 16);
        out[3 * x + 1] = uint8_t(v >> 8);
        out[3 * x + 2] = uint8_t(v);
    }
}

void deflateRows(const uint8_t *pixels, size_t stride, Pixels layout, size_t width, int first, int last, bool final, Part &part)
{
    z_stream z{};
    if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return;
    const size_t rowBytes = width * 3;
    const size_t inBytes = width * (layout == Pixels::Rgb888 ? 3 : 4);
    part.bytes = (rowBytes + 1) * size_t(last - first);
    const size_t capacity = deflateBound(&z, uLong(part.bytes)) + 16;
    part.buffer.reset(new uint8_t[capacity]);
    z.next_out = part.buffer.get();
    z.avail_out = uInt(capacity);
    std::vector<uint8_t> row(rowBytes + 1);
    std::vector<uint8_t> rgb(rowBytes);
    bool ok = true;
    part.adler = adler32(0L, Z_NULL, 0);
    for (int y = first; y < last && ok; ++y) {
        const uint8_t *in = pixels + size_t(y) * stride;
        if (y > 0 && std::memcmp(in, in - stride, inBytes) == 0) {
            row[0] = 2; // Up: the row above again, all zeros
            std::memset(row.data() + 1, 0, rowBytes);
        } else {
            row[0] = 1; // Sub: the difference to the pixel on the left
            rgbRow(in, layout, width, rgb.data());
            std::memcpy(row.data() + 1, rgb.data(), 3);
            for (size_t i = 3; i < rowBytes; ++i)
                row[1 + i] = uint8_t(rgb[i] - rgb[i - 3]);
        }
        part.adler = adler32(part.adler, row.data(), uInt(row.size()));
        z.next_in = row.data();
        z.avail_in = uInt(row.size());
        const int flush = y + 1 < last ? Z_NO_FLUSH : (final ? Z_FINISH : Z_SYNC_FLUSH);
        ok = deflate(&z, flush) != Z_STREAM_ERROR && z.avail_in == 0;
    }
    part.ok = ok && z.avail_out > 0;
    part.deflatedBytes = capacity - z.avail_out;
    deflateEnd(&z);
}

} // namespace

std::string encodeRgb(const uint8_t *pixels, int width, int height, size_t stride, Pixels layout)
{
    if (!pixels || width <= 0 || height <= 0)
        return {};
    // Two halves deflated at once on a large picture (pigz's way: the first ends byte-aligned, the
    // second continues the stream, their Adler-32s combined), so the PNG costs half as long to wait for.
    const int parts = height >= 256 && std::thread::hardware_concurrency() > 1 ? 2 : 1;
    std::vector<Part> done(static_cast<size_t>(parts));
    const int split = parts == 2 ? height / 2 : height;
    {
        std::thread second;
        if (parts == 2)
            second = std::thread([&] { deflateRows(pixels, stride, layout, size_t(width), split, height, true, done[1]); });
        deflateRows(pixels, stride, layout, size_t(width), 0, split, parts == 1, done[0]);
        if (second.joinable())
            second.join();
    }
    std::string idat("\x78\x01", 2); // zlib header: deflate, 32 KB window, fastest level
    uLong adler = adler32(0L, Z_NULL, 0);
    for (const Part &p : done) {
        if (!p.ok)
            return {};
        idat.append(reinterpret_cast<const char *>(p.buffer.get()), p.deflatedBytes);
        adler = adler32_combine(adler, p.adler, z_off_t(p.bytes));
    }
    putBigEndian(idat, uint32_t(adler));

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
