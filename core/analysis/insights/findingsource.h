#pragma once
// The line of Python a finding is about (issue 30, "insights name the Python line"): when the
// finding's events, or the host during its time ranges, sit under one Python frame of a
// `with_stack=True` trace, Finding::source names it ("train.py(118): collate") with how much of the
// finding it covers, so the Summary, `insights` and `insights --json` can say where in the user's
// code to look.
//
// Stacks: a host event's own ancestors (Trace::parent); a device event (kernel, NEFF execution) is
// taken at the slice that launched it (its runtime call, else its framework op: LaunchIndex::Work);
// a time range at its midpoint, on the host thread with the deepest Python stack there, keeping the
// frames that cover at least half of the range. Of a stack's Python frames (SourceFrame) the user's
// own are preferred: PyTorch's profiler writes the paths of installed packages relative to their
// site-packages (`torch/nn/modules/module.py`), the user's scripts absolute (`/app/train.py`), so a
// frame with an absolute path outside site-packages / dist-packages is the user's; when no stack has
// one, a library's frame counts (vllm/..., diffusers/...), but never PyTorch's own (torch/...), a
// pseudo-file (<frozen runpy>) or the standard library (threading.py, multiprocessing/...; a bare
// name that is not the standard library's, train.py, is the user's script run from its folder):
// SourceFrame::isUserPath / isFrameworkPath.
//
// The frame chosen: the innermost one shared by at least half of the stacks (by count for events,
// of all the finding's events; by duration for ranges). Events are used when the finding has
// any with a Python stack, its ranges otherwise. Traces without python_function events are left
// alone (no cost).
#include "finding.h"

#include <vector>

namespace lanescope {

class LaunchIndex;
class Trace;

class FindingSource
{
public:
    static void attach(const Trace &trace, const LaunchIndex &index, std::vector<Finding> &findings);
};

} // namespace lanescope
