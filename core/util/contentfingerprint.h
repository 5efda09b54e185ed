#pragma once
// What the trace cache is keyed by: a 64-bit hash of every byte of the input (a file, every regular
// file below a profile folder with its relative path, or the files of a rank set given together with
// their absolute paths) plus the total size. Never mtime: a file
// rewritten in place with the same size and a restored mtime still hashes differently. Hashing reads
// the whole input once (8 MB chunks on all cores), far cheaper than parsing it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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
    // Files given together (a multi-rank set): every file's content under its absolute path, in the
    // order given; one path is ofPath(path).
    static ContentFingerprint ofPaths(const std::vector<std::string> &paths);

    // What stat() says about the input, without reading it: per file (sorted relative path) device,
    // inode, size, mtime and ctime in ns. ctime is set by the kernel on every write and on every
    // mtime change (utime), and user space cannot set it back, so a file changed in any way, even
    // with its size and mtime restored, gets another signature. The cache uses it to skip hashing
    // a file it has hashed before (TraceCache::recordSignature).
    struct StatSignature
    {
        std::string hex;       // empty when the input cannot be stat'ed
        int64_t newestNs = 0;  // the latest mtime / ctime among the files (wall clock, ns)
    };
    static StatSignature statSignature(const std::string &path);
    static StatSignature statSignature(const std::vector<std::string> &paths);
    // The hash used above and for the cache's block checksums (4 independent 64-bit lanes).
    static uint64_t hashBytes(std::string_view bytes, uint64_t seed = 0);

private:
    class Hasher;
};

} // namespace lanescope
