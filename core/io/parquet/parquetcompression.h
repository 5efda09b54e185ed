#pragma once
// Page compression codecs: UNCOMPRESSED, SNAPPY (libsnappy), GZIP (zlib) and ZSTD (libzstd), both
// ways. Other codecs (LZ4, LZ4_RAW, BROTLI, LZO) are reported as unsupported by the caller.
#include "parquetmetadata.h"

#include <string>
#include <string_view>

namespace lanescope::parquet {

bool codecSupported(Codec c);

// Appends the compressed `in` to `out`.
bool compressPage(Codec c, std::string_view in, std::string *out, std::string *error);

// Decompresses `in` into `out`, which must come out exactly `expectedSize` bytes long (the page
// header's uncompressed size). False with `error` otherwise.
bool decompressPage(Codec c, std::string_view in, size_t expectedSize, std::string *out, std::string *error);

} // namespace lanescope::parquet
