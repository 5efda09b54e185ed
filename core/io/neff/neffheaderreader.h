#pragma once
// The 1024-byte header of a NEFF (../shared/docs/formats.md section 3), recognised structurally (there
// is no magic number), and the check of the payload against the MD5 the header stores (pkg_version 2;
// either byte layout seen in real files). Part of NeffReader, which walks the payload.
#include "io/input/loadoptions.h"
#include "neffinfo.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

class NeffHeaderReader
{
public:
    static constexpr uint64_t kSize = 1024;

    // Parses the header at the start of `bytes` into info.header and returns the payload (data_size
    // bytes after the header); bytes past the payload are a warning in info.diagnostics. Throws
    // ImportError (file `name`, byte offset, expectation) when the header does not describe a NEFF.
    static std::string_view read(std::string_view bytes, const std::string &name, NeffInfo &info);
    // pkg_version 2: hashes `payload` (progress 0..200, cancel checked per 8 MiB) into info.md5Hex,
    // info.md5Layout and info.md5, with a warning on a mismatch. Other versions carry no hash.
    static void checkMd5(std::string_view payload, NeffInfo &info, const LoadOptions &options);
    // Structural test on the first bytes (at least 40): pkg_version 1 or 2, header_size 1024,
    // data_size <= fileSize - 1024, major version <= 2.
    static bool looksLikeNeff(std::string_view head, uint64_t fileSize);
};

} // namespace lanescope
