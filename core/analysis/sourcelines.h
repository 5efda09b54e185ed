#pragma once
// Per-file, per-line totals of the Python frames of a call tree (issue 30, the Source dock's gutter
// and `lanescope-cli source`): for each line `path(line)` that frames name, the calls, the CPU time
// (total and self) and the device time launched beneath it.
//
// Counting rule: a node of the CallTree whose name parses as a SourceFrame counts for its
// (path, line). Its total, device and calls count only when no ancestor node has the same
// (path, line): a recursive function, or one line reached twice on one stack, counts each time unit
// once. Self is summed over every such node (self times are disjoint). A file's total, device and
// calls follow the same outermost rule by path; its self is the sum of its lines'. Nodes that are
// not frames (threads, ops, runtime calls, ProfilerStep*) count nothing. Python's pseudo-files
// (`<frozen runpy>`) are listed too: they have numbers, only no file (SourceResolver).
// So a line's total is the time the host spent with that line on its stack, summed over threads,
// and its device the device work launched while it was.
#include "calltree.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct SourceLine
{
    uint32_t line = 0;
    uint64_t calls = 0;
    int64_t total = 0, self = 0, device = 0;
    std::vector<std::string> functions; // the function names frames give this line, sorted
};

struct SourceFile
{
    std::string path; // as written in the trace
    uint64_t calls = 0;
    int64_t total = 0, self = 0, device = 0;
    std::vector<SourceLine> lines; // by line, ascending
};

class SourceLines
{
public:
    // Files by device, then total, descending, then path.
    static std::vector<SourceFile> compute(const CallTree::Result &tree);
    static const SourceFile *find(const std::vector<SourceFile> &files, std::string_view path);
    // The file to show first: the busiest of the user's own (SourceFrame::isUserPath), else of the
    // libraries', else the busiest; the outer frames of the standard library and Python's pseudo-files
    // (`<frozen runpy>`, threading.py) hold all the time but say nothing. 0 when `files` is empty.
    static size_t firstToShow(const std::vector<SourceFile> &files);
    static const SourceLine *findLine(const SourceFile &file, uint32_t line);
};

} // namespace lanescope
