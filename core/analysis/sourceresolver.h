#pragma once
// Where a Python frame's file is on this machine (issue 30, source linking). A frame's path is
// written as the profiled process saw it: absolute for the user's scripts (`/app/xDiT/xfuser/runner.py`),
// relative to its sys.path entry for installed packages (`torch/nn/modules/module.py`), or a bare
// name for a script run from its folder (`train.py`). Roots are folders the user adds once (the
// project checkout, the environment's site-packages).
//
// The order tried:
//   1. an absolute path that is a regular file here;
//   2. a relative path under each root, in the roots' order;
//   3. an absolute path that is not here (the trace was captured on another machine or in a
//      container) under each root by its trailing components, longest first: for root R and
//      /app/xDiT/xfuser/runner.py, R/app/xDiT/xfuser/runner.py, R/xDiT/xfuser/runner.py,
//      R/xfuser/runner.py, R/runner.py; roots first, then suffixes.
// Python's pseudo-files (`<frozen runpy>`, `<string>`) never resolve. Directories never count.
// File system errors are answers ("not found"), never exceptions. Results are memoised per path
// until setRoots; not thread-safe (one resolver per thread).
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lanescope {

class SourceResolver
{
public:
    explicit SourceResolver(std::vector<std::string> roots = {});

    void setRoots(std::vector<std::string> roots); // clears the memo
    const std::vector<std::string> &roots() const { return m_roots; }

    // The existing regular file the frame path names here, or nothing.
    std::optional<std::string> resolve(std::string_view framePath) const;
    // The roots for a trace: the user's, then the folder it was loaded from (a trace file's folder, a
    // capture folder itself), where a script run from its folder (`train.py`) usually is; each once.
    static std::vector<std::string> withTraceFolder(std::vector<std::string> roots, const std::string &tracePath);
    // The lines of a found file (lines[0] is line 1), without their line ends ("\n" or "\r\n");
    // empty when it cannot be read or is larger than kMaxTextBytes (not a source file to show).
    static constexpr uint64_t kMaxTextBytes = uint64_t(64) << 20;
    static std::vector<std::string> lines(const std::string &path);
    // The paths tried for a frame path, in the order above (what "not found" lists).
    std::vector<std::string> candidates(std::string_view framePath) const;

private:
    std::vector<std::string> m_roots;
    mutable std::unordered_map<std::string, std::optional<std::string>> m_memo;
};

} // namespace lanescope
