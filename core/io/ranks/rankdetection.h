#pragma once
// Which rank of a distributed job a Kineto trace comes from, in this order:
//   1. `distributedInfo.rank` (the top-level object PyTorch's profiler writes, kept verbatim in the
//      metadata; before loading, found in the first bytes of the text: fromHead);
//   2. the file name (`rank-3`, `rank_3`, `_rank3`, `rank3`, as HTA and torch.distributed users name
//      their traces);
//   3. the name of the folder holding the file (`rank_3/trace.json`, `logs/rank-3/host.pt.trace.json`),
//      one level up only.
// Used to open a folder or a set of files as one multi-rank timeline (MultiRankLoader).
#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

class Trace;

struct RankOrigin
{
    int64_t rank = -1;  // -1: no rank found
    std::string source; // "distributedInfo.rank", "file name", "folder name", or empty
    bool found() const { return rank >= 0; }
};

class RankDetection
{
public:
    // The `rank` member of a distributedInfo object's JSON text; -1 when absent or not a number.
    static int64_t fromDistributedInfo(std::string_view json);
    // distributedInfo.rank in the first bytes of a trace's (decompressed) text, -1 when the object is
    // not there or not complete within `head`.
    static int64_t fromHead(std::string_view head);
    // The rank a file name carries ("trace_rank-3.json.gz" -> 3); the folders above it are not read.
    static int64_t fromFileName(std::string_view path);
    // The file name's rank, else its folder's ("rank_3/trace.json" -> 3), with where it came from.
    static RankOrigin fromPath(std::string_view path);
    // distributedInfo.rank of the loaded trace, else fromPath(path).
    static RankOrigin detect(const Trace &trace, std::string_view path);
};

} // namespace lanescope
