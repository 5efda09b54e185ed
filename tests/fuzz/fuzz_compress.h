#pragma once
// gzip and zstd compression for the harnesses that feed valid compressed streams built from their
// input (mutation alone rarely makes a valid zstd frame or deflate stream with its checksum).
#include <zlib.h>
#include <zstd.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace lanescope::fuzz {

// One gzip member of `in` (level 1).
inline std::string gzip(std::string_view in)
{
    z_stream z{};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        std::abort();
    std::string out(deflateBound(&z, uLong(in.size())) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
    z.avail_in = uInt(in.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        std::abort();
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

// One zstd frame of `in` (level 1).
inline std::string zstd(std::string_view in)
{
    std::string out(ZSTD_compressBound(in.size()), '\0');
    const size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 1);
    if (ZSTD_isError(n))
        std::abort();
    out.resize(n);
    return out;
}

} // namespace lanescope::fuzz
