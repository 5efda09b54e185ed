#pragma once
// What the trace cache is keyed by: a 64-bit hash of every byte of the input (a file, or every regular
// file below a profile folder with its relative path and size) plus the total size. Never mtime:
// a file rewritten in place with the same size and a restored mtime still hashes differently.
// Hashing reads the whole input once (a few GB/s from the page cache), far cheaper than parsing it.
#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

class ContentFingerprint
{
public:
    std::string hex;   // 16 hex digits of the content hash
    uint64_t size = 0; // total bytes hashed (file contents only)
    uint64_t files = 0;

    bool valid() const { return !hex.empty(); }
    // "<hash>-<size>": the cache key of this content
    std::string key() const { return hex + "-" + std::to_string(size); }

    // Throws std::runtime_error naming the file when it cannot be read.
    static ContentFingerprint ofPath(const std::string &path);
    // The hash used above and for the cache's block checksums (4 independent 64-bit lanes).
    static uint64_t hashBytes(std::string_view bytes, uint64_t seed = 0);

private:
    class Hasher;
};

} // namespace lanescope
