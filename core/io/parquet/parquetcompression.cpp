#include "parquetcompression.h"

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

namespace lanescope::parquet {

namespace {
constexpr int kZstdLevel = 1; // fast: the export's speed is measured against the SQLite export
}

bool codecSupported(Codec c)
{
    return c == Codec::Uncompressed || c == Codec::Snappy || c == Codec::Gzip || c == Codec::Zstd;
}

bool compressPage(Codec c, std::string_view in, std::string *out, std::string *error)
{
    const size_t at = out->size();
    switch (c) {
    case Codec::Uncompressed: out->append(in); return true;
    case Codec::Zstd: {
        out->resize(at + ZSTD_compressBound(in.size()));
        const size_t n = ZSTD_compress(out->data() + at, out->size() - at, in.data(), in.size(), kZstdLevel);
        if (ZSTD_isError(n)) {
            *error = std::string("zstd: ") + ZSTD_getErrorName(n);
            return false;
        }
        out->resize(at + n);
        return true;
    }
    case Codec::Snappy: {
        size_t n = snappy_max_compressed_length(in.size());
        out->resize(at + n);
        if (snappy_compress(in.data(), in.size(), out->data() + at, &n) != SNAPPY_OK) {
            *error = "snappy compression failed";
            return false;
        }
        out->resize(at + n);
        return true;
    }
    case Codec::Gzip: {
        z_stream z{};
        if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            *error = "gzip: deflateInit2 failed";
            return false;
        }
        out->resize(at + deflateBound(&z, uLong(in.size())) + 32);
        z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
        z.avail_in = uInt(in.size());
        z.next_out = reinterpret_cast<Bytef *>(out->data() + at);
        z.avail_out = uInt(out->size() - at);
        const int rc = deflate(&z, Z_FINISH);
        const size_t n = z.total_out;
        deflateEnd(&z);
        if (rc != Z_STREAM_END) {
            *error = "gzip compression failed";
            return false;
        }
        out->resize(at + n);
        return true;
    }
    default: break;
    }
    *error = "unsupported codec " + codecName(c);
    return false;
}

bool decompressPage(Codec c, std::string_view in, size_t expectedSize, std::string *out, std::string *error)
{
    out->clear();
    switch (c) {
    case Codec::Uncompressed:
        if (in.size() != expectedSize) {
            *error = "uncompressed page of " + std::to_string(in.size()) + " bytes where the header says "
                + std::to_string(expectedSize);
            return false;
        }
        out->assign(in);
        return true;
    case Codec::Zstd: {
        out->resize(expectedSize);
        const size_t n = ZSTD_decompress(out->data(), expectedSize, in.data(), in.size());
        if (ZSTD_isError(n)) {
            *error = std::string("zstd: ") + ZSTD_getErrorName(n);
            return false;
        }
        if (n != expectedSize) {
            *error = "zstd page decompresses to " + std::to_string(n) + " bytes, the header says " + std::to_string(expectedSize);
            return false;
        }
        return true;
    }
    case Codec::Snappy: {
        size_t n = 0;
        if (snappy_uncompressed_length(in.data(), in.size(), &n) != SNAPPY_OK || n != expectedSize) {
            *error = "snappy page is corrupt or decompresses to another size than the header's " + std::to_string(expectedSize);
            return false;
        }
        out->resize(n);
        if (snappy_uncompress(in.data(), in.size(), out->data(), &n) != SNAPPY_OK || n != expectedSize) {
            *error = "snappy page is corrupt";
            return false;
        }
        return true;
    }
    case Codec::Gzip: {
        z_stream z{};
        if (inflateInit2(&z, 15 + 32) != Z_OK) { // gzip or zlib header
            *error = "gzip: inflateInit2 failed";
            return false;
        }
        out->resize(expectedSize);
        z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
        z.avail_in = uInt(in.size());
        z.next_out = reinterpret_cast<Bytef *>(out->data());
        z.avail_out = uInt(expectedSize);
        int rc = inflate(&z, Z_FINISH);
        // Concatenated gzip members: continue while input is left.
        while (rc == Z_STREAM_END && z.avail_in > 0 && z.avail_out > 0) {
            inflateReset(&z);
            rc = inflate(&z, Z_FINISH);
        }
        inflateEnd(&z);
        if ((rc != Z_STREAM_END && expectedSize != 0) || z.avail_out != 0) {
            *error = "gzip page is corrupt or does not decompress to the header's " + std::to_string(expectedSize) + " bytes";
            return false;
        }
        return true;
    }
    default: break;
    }
    *error = "unsupported codec " + codecName(c);
    return false;
}

} // namespace lanescope::parquet
