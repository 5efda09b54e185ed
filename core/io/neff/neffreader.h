#pragma once
// Reads a NEFF (AWS Neuron compiled program, ../shared/docs/formats.md section 3) into NeffInfo.
//
// The 1024-byte header is recognised structurally (there is no magic number). The payload, gzip of a
// POSIX tar or a plain tar, is walked in memory with libarchive: nothing is ever extracted to disk.
// Only the small JSON members the view needs (info.json, kelf-*.json and the sgNN/*.json files:
// def.json, tensor_map.json, the engine JSON files) are held in memory, each under kMaxJsonMember
// and all of them together under LoadOptions::memoryBudget; every other member is listed with its
// size and skipped without being stored. When the decompressed tar grows past memoryBudget the walk
// stops with a warning (a compression bomb). Member names with an absolute path or ".." are listed
// with a warning; nothing is ever written to disk.
//
// Errors (ImportError naming file, byte offset and expectation): a header that does not describe a
// NEFF, or a payload that is neither gzip nor tar. A payload that breaks off part-way, an MD5
// mismatch, invalid JSON members or members over the caps give partial information and counted
// warnings instead.
#include "io/input/loadoptions.h"
#include "neffheaderreader.h"
#include "neffinfo.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

class NeffReader
{
public:
    static constexpr uint64_t kHeaderSize = NeffHeaderReader::kSize;
    // Largest JSON member held in memory; LoadOptions::memoryBudget lowers it further.
    static constexpr uint64_t kMaxJsonMember = uint64_t(256) << 20;
    // Largest member count listed (a tar of millions of empty entries is not a NEFF).
    static constexpr size_t kMaxMembers = 1'000'000;

    // Maps the file read-only (or reads it) and parses it. Throws ImportError / LoadCancelled.
    static NeffInfo read(const std::string &path, const LoadOptions &options = {});
    // Parses a whole NEFF already in memory; `name` names it in errors and warnings.
    static NeffInfo readBytes(std::string_view bytes, const std::string &name, const LoadOptions &options = {});

    // Structural test on the first bytes (NeffHeaderReader::looksLikeNeff).
    static bool looksLikeNeff(std::string_view head, uint64_t fileSize);
};

} // namespace lanescope
