#include "parquetdeltadecoding.h"

namespace lanescope::parquet {

namespace {

class Bytes
{
public:
    explicit Bytes(std::string_view in) : m_in(in) {}

    bool uleb(uint64_t *v, std::string *error)
    {
        *v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_in.size()) {
                *error = "DELTA_BINARY_PACKED data ends at byte " + std::to_string(m_pos);
                return false;
            }
            const uint8_t b = uint8_t(m_in[m_pos++]);
            *v |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80))
                return true;
        }
        *error = "DELTA_BINARY_PACKED varint longer than 10 bytes at byte " + std::to_string(m_pos);
        return false;
    }
    bool zigzag(int64_t *v, std::string *error)
    {
        uint64_t u;
        if (!uleb(&u, error))
            return false;
        *v = int64_t(u >> 1) ^ -int64_t(u & 1);
        return true;
    }
    size_t pos() const { return m_pos; }
    size_t left() const { return m_in.size() - m_pos; }
    const char *data() const { return m_in.data() + m_pos; }
    void skip(size_t n) { m_pos += n; }

private:
    std::string_view m_in;
    size_t m_pos = 0;
};

// `width` bits (0..64) at bit `bit` of `p`, least significant bit first.
uint64_t bitsAt(const char *p, uint64_t bit, int width)
{
    uint64_t v = 0;
    int got = 0;
    while (got < width) {
        const uint64_t byte = bit >> 3;
        const int off = int(bit & 7);
        const int take = std::min(8 - off, width - got);
        const uint64_t octet = static_cast<uint8_t>(p[byte]);
        const uint64_t chunk = (octet >> off) & ((1u << take) - 1);
        v |= chunk << got;
        got += take;
        bit += uint64_t(take);
    }
    return v;
}

} // namespace

bool decodeDeltaBinaryPacked(std::string_view in, size_t count, bool bits32, std::vector<int64_t> *out, size_t *used,
                             std::string *error)
{
    Bytes b(in);
    uint64_t blockSize, miniblocks, total;
    int64_t first;
    if (!b.uleb(&blockSize, error) || !b.uleb(&miniblocks, error) || !b.uleb(&total, error) || !b.zigzag(&first, error))
        return false;
    if (blockSize == 0 || blockSize % 128 != 0 || miniblocks == 0 || blockSize % miniblocks != 0
        || (blockSize / miniblocks) % 32 != 0 || blockSize > (uint64_t(1) << 20)) {
        *error = "DELTA_BINARY_PACKED header with block size " + std::to_string(blockSize) + " and "
            + std::to_string(miniblocks) + " miniblocks";
        return false;
    }
    if (total != count) {
        *error = "DELTA_BINARY_PACKED holds " + std::to_string(total) + " values where " + std::to_string(count)
            + " were expected";
        return false;
    }
    const uint64_t perMiniblock = blockSize / miniblocks;
    auto wrap = [bits32](uint64_t v) { return bits32 ? int64_t(int32_t(uint32_t(v))) : int64_t(v); };
    uint64_t value = uint64_t(first);
    if (count > 0)
        out->push_back(wrap(value));
    size_t done = count > 0 ? 1 : 0;
    while (done < count) {
        int64_t minDelta;
        if (!b.zigzag(&minDelta, error))
            return false;
        if (b.left() < miniblocks) {
            *error = "DELTA_BINARY_PACKED bit widths end at byte " + std::to_string(b.pos());
            return false;
        }
        const char *widths = b.data();
        b.skip(size_t(miniblocks));
        for (uint64_t m = 0; m < miniblocks && done < count; ++m) {
            const int width = uint8_t(widths[m]);
            if (width > 64) {
                *error = "DELTA_BINARY_PACKED bit width " + std::to_string(width) + " at byte " + std::to_string(b.pos());
                return false;
            }
            const uint64_t bytes = perMiniblock * uint64_t(width) / 8;
            if (bytes > b.left()) {
                // The last miniblock may be cut to the values it holds.
                const uint64_t needed = ((count - done) * uint64_t(width) + 7) / 8;
                if (needed > b.left()) {
                    *error = "DELTA_BINARY_PACKED miniblock runs past the end at byte " + std::to_string(b.pos());
                    return false;
                }
            }
            const size_t n = size_t(std::min<uint64_t>(perMiniblock, count - done));
            for (size_t i = 0; i < n; ++i) {
                value += uint64_t(minDelta) + bitsAt(b.data(), uint64_t(i) * uint64_t(width), width);
                out->push_back(wrap(value));
            }
            done += n;
            b.skip(size_t(std::min<uint64_t>(bytes, b.left())));
        }
    }
    *used = b.pos();
    return true;
}

bool decodeDeltaLengthByteArray(std::string_view in, size_t count, std::vector<std::string_view> *out, std::string *error)
{
    std::vector<int64_t> lengths;
    size_t pos = 0;
    if (!decodeDeltaBinaryPacked(in, count, true, &lengths, &pos, error))
        return false;
    for (int64_t len : lengths) {
        if (len < 0 || uint64_t(len) > in.size() - pos) {
            *error = "DELTA_LENGTH_BYTE_ARRAY value of " + std::to_string(len) + " bytes runs past the end at byte "
                + std::to_string(pos);
            return false;
        }
        out->push_back(in.substr(pos, size_t(len)));
        pos += size_t(len);
    }
    return true;
}

bool decodeDeltaByteArray(std::string_view in, size_t count, std::string *storage, std::vector<std::string_view> *out,
                          std::string *error)
{
    std::vector<int64_t> prefixes, suffixes;
    size_t used = 0;
    if (!decodeDeltaBinaryPacked(in, count, true, &prefixes, &used, error))
        return false;
    in = in.substr(used);
    if (!decodeDeltaBinaryPacked(in, count, true, &suffixes, &used, error))
        return false;
    in = in.substr(used);
    // Sizes first, so that `storage` never moves while views into it are taken.
    uint64_t total = 0, suffixBytes = 0, previous = 0;
    for (size_t i = 0; i < count; ++i) {
        if (prefixes[i] < 0 || uint64_t(prefixes[i]) > previous || suffixes[i] < 0) {
            *error = "DELTA_BYTE_ARRAY value " + std::to_string(i) + " with prefix " + std::to_string(prefixes[i])
                + " of a previous value of " + std::to_string(previous) + " bytes";
            return false;
        }
        suffixBytes += uint64_t(suffixes[i]);
        if (suffixBytes > in.size()) {
            *error = "DELTA_BYTE_ARRAY suffixes run past the end (value " + std::to_string(i) + ")";
            return false;
        }
        previous = uint64_t(prefixes[i]) + uint64_t(suffixes[i]);
        total += previous;
        if (total > (uint64_t(1) << 31)) {
            *error = "DELTA_BYTE_ARRAY values larger than 2 GiB";
            return false;
        }
    }
    storage->clear();
    storage->reserve(size_t(total));
    size_t pos = 0, prevAt = 0, prevLen = 0;
    for (size_t i = 0; i < count; ++i) {
        const size_t at = storage->size();
        storage->append(*storage, prevAt, size_t(prefixes[i]));
        storage->append(in.substr(pos, size_t(suffixes[i])));
        pos += size_t(suffixes[i]);
        prevAt = at;
        prevLen = storage->size() - at;
        out->push_back(std::string_view(storage->data() + at, prevLen));
    }
    return true;
}

bool decodeByteStreamSplit(std::string_view in, size_t count, int width, std::string *out, std::string *error)
{
    if (uint64_t(count) * uint64_t(width) > in.size()) {
        *error = "BYTE_STREAM_SPLIT data of " + std::to_string(in.size()) + " bytes for " + std::to_string(count)
            + " values of " + std::to_string(width) + " bytes";
        return false;
    }
    const size_t at = out->size();
    out->resize(at + count * size_t(width));
    for (size_t i = 0; i < count; ++i)
        for (int k = 0; k < width; ++k)
            (*out)[at + i * size_t(width) + size_t(k)] = in[size_t(k) * count + i];
    return true;
}

} // namespace lanescope::parquet
