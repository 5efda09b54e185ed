#pragma once
// A Python frame as PyTorch's profiler names it with `with_stack=True` (issue 30, source linking):
// `path(line): function`, e.g. `/app/xDiT/xfuser/runner.py(126): <module>`,
// `torch/nn/modules/module.py(1779): _call_impl`, `<frozen runpy>(198): _run_module_as_main`.
//
// The rule, strict so that op and kernel names never parse with a bogus line: the name is split at
// the FIRST `(` that is followed by 1 to 9 digits and then `): `; the path before it and the function
// after it are not empty and hold no line break. So `aten::mm`, `nn.Module: Linear`, `<built-in
// method mm of type object at 0x7f...>`, `f(x)`, `f(3)`, `void k<8>(int, float)`, `PyTorch Profiler (0)`
// and `ProfilerStep#3` are not frames; `f(3): g` is (path "f", line 3, function "g").
//
// Python's pseudo-files, whose path is in angle brackets (`<frozen runpy>`, `<string>`, `<stdin>`),
// parse as frames (they are call-stack entries with a line) but are never files on disk: isFile()
// says so, and SourceResolver never looks them up.
#include <cstdint>
#include <optional>
#include <string_view>

namespace lanescope {

struct SourceFrame
{
    std::string_view path;     // as written in the trace (a view into the parsed name)
    uint32_t line = 0;         // as written (Python lines start at 1)
    std::string_view function; // a view into the parsed name

    // The frame `name` names, or nothing when it is not `path(line): function` (see above).
    static std::optional<SourceFrame> parse(std::string_view name);
    // False for Python's pseudo-files `<...>`: they have no file to show.
    bool isFile() const { return isFilePath(path); }
    static bool isFilePath(std::string_view path);
    // Whose code a frame path is. PyTorch's profiler writes the paths of installed packages relative
    // to their site-packages (`torch/nn/modules/module.py`, `vllm/worker.py`) and the user's scripts
    // absolute (`/app/train.py`) or, run from their folder, bare (`train.py`). The user's: absolute
    // outside site-packages / dist-packages / lib/python, or a bare name that is not the standard
    // library's.
    static bool isUserPath(std::string_view path);
    // PyTorch's own Python (torch/...), the pseudo-files (<frozen runpy>) and the standard library
    // (threading.py, multiprocessing/..., as written relative to its sys.path entry).
    static bool isFrameworkPath(std::string_view path);
};

} // namespace lanescope
