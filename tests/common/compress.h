#pragma once
// Compression helpers for tests that build gzip inputs in memory.
#include <string>
#include <zlib.h>

namespace lanescope::test {

// A complete gzip member holding `s`.
inline std::string gzipOf(const std::string &s)
{
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, uLong(s.size())) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(s.data()));
    z.avail_in = uInt(s.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

} // namespace lanescope::test
