#include "parquetencoding.h"

namespace lanescope::parquet {

int bitWidth(uint64_t maxValue)
{
    int w = 0;
    while (maxValue) {
        ++w;
        maxValue >>= 1;
    }
    return w;
}

namespace {

void appendVarint(std::string *out, uint64_t v)
{
    while (v >= 0x80) {
        out->push_back(char(uint8_t(v) | 0x80));
        v >>= 7;
    }
    out->push_back(char(uint8_t(v)));
}

void appendRleRun(std::string *out, uint32_t value, size_t count, int width)
{
    appendVarint(out, uint64_t(count) << 1);
    const int bytes = (width + 7) / 8;
    for (int i = 0; i < bytes; ++i)
        out->push_back(char(uint8_t(value >> (8 * i))));
}

// Bit-packs `groups` groups of 8 values (LSB first), `values` padded by the caller.
void appendBitPacked(std::string *out, const uint32_t *values, size_t groups, int width)
{
    appendVarint(out, (uint64_t(groups) << 1) | 1);
    uint64_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < groups * 8; ++i) {
        acc |= uint64_t(values[i]) << bits;
        bits += width;
        while (bits >= 8) {
            out->push_back(char(uint8_t(acc)));
            acc >>= 8;
            bits -= 8;
        }
    }
}

} // namespace

void encodeRleHybrid(const uint32_t *values, size_t count, int width, std::string *out)
{
    if (width == 0 || count == 0) {
        if (count)
            appendRleRun(out, 0, count, 0);
        return;
    }
    std::vector<uint32_t> pending; // values waiting to be bit-packed (a multiple of 8 when flushed early)
    auto flushPacked = [&]() {
        if (pending.empty())
            return;
        const size_t groups = (pending.size() + 7) / 8;
        pending.resize(groups * 8, 0);
        appendBitPacked(out, pending.data(), groups, width);
        pending.clear();
    };
    size_t i = 0;
    while (i < count) {
        size_t run = 1;
        while (i + run < count && values[i + run] == values[i])
            ++run;
        // An RLE run may only start where the bit-packed values so far fill whole groups.
        if (run >= 8) {
            const size_t fill = (8 - pending.size() % 8) % 8;
            for (size_t k = 0; k < fill; ++k)
                pending.push_back(values[i + k]);
            i += fill;
            run -= fill;
            flushPacked();
            if (run >= 8) {
                appendRleRun(out, values[i], run, width);
                i += run;
                continue;
            }
        }
        for (size_t k = 0; k < run; ++k)
            pending.push_back(values[i + k]);
        i += run;
    }
    flushPacked();
}

bool decodeRleHybrid(std::string_view in, int width, size_t count, std::vector<uint32_t> *out, std::string *error)
{
    if (width < 0 || width > 32) {
        *error = "bit width " + std::to_string(width) + " out of range 0..32";
        return false;
    }
    size_t pos = 0;
    const uint64_t mask = width == 32 ? 0xffffffffull : ((1ull << width) - 1);
    size_t done = 0;
    while (done < count) {
        uint64_t header = 0;
        int shift = 0;
        for (;;) {
            if (pos >= in.size()) {
                *error = "RLE/bit-packed data ends after " + std::to_string(done) + " of " + std::to_string(count)
                    + " values (byte " + std::to_string(pos) + ")";
                return false;
            }
            const uint8_t b = uint8_t(in[pos++]);
            if (shift > 56) {
                *error = "RLE/bit-packed run header too long at byte " + std::to_string(pos);
                return false;
            }
            header |= uint64_t(b & 0x7f) << shift;
            shift += 7;
            if (!(b & 0x80))
                break;
        }
        if (header & 1) { // bit-packed: (header >> 1) groups of 8
            const uint64_t groups = header >> 1;
            const uint64_t bytes = groups * uint64_t(width); // 8 values * width bits / 8
            if (groups == 0 || bytes > in.size() - pos) {
                // A short last run is allowed when it holds the values still missing.
                const uint64_t avail = in.size() - pos;
                const uint64_t needed = (uint64_t(count - done) * width + 7) / 8;
                if (groups == 0 || avail < needed) {
                    *error = "bit-packed run of " + std::to_string(groups) + " groups runs past the end at byte "
                        + std::to_string(pos);
                    return false;
                }
            }
            const size_t n = size_t(std::min<uint64_t>(groups * 8, count - done));
            uint64_t acc = 0;
            int bits = 0;
            for (size_t k = 0; k < n; ++k) {
                while (bits < width) {
                    acc |= uint64_t{static_cast<uint8_t>(in[pos++])} << bits;
                    bits += 8;
                }
                out->push_back(uint32_t(acc & mask));
                acc >>= width;
                bits -= width;
            }
            // skip the padding of the run's last group
            const uint64_t used = (uint64_t(n) * width + 7) / 8;
            pos += size_t(std::min<uint64_t>(bytes - used, in.size() - pos));
            done += n;
        } else {
            const uint64_t n = header >> 1;
            const size_t bytes = size_t((width + 7) / 8);
            if (bytes > in.size() - pos) {
                *error = "RLE run value runs past the end at byte " + std::to_string(pos);
                return false;
            }
            uint64_t v = 0;
            for (size_t k = 0; k < bytes; ++k)
                v |= uint64_t{static_cast<uint8_t>(in[pos++])} << (8 * k);
            if (v > mask) {
                *error = "RLE run value " + std::to_string(v) + " wider than " + std::to_string(width) + " bits at byte "
                    + std::to_string(pos);
                return false;
            }
            if (n == 0) {
                *error = "empty RLE run at byte " + std::to_string(pos);
                return false;
            }
            const size_t take = size_t(std::min<uint64_t>(n, count - done));
            out->insert(out->end(), take, uint32_t(v));
            done += take;
        }
    }
    return true;
}

} // namespace lanescope::parquet
