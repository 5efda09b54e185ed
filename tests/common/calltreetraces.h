#pragma once
// Call tree fixtures shared by the CallTree, bottom-up, diff and Flame Graph tests: a one-thread
// trace of python_function slices, and the invariants every call tree keeps.
#include "kinetoevents.h"

#include "model/trace.h"
#include "model/tracebuilder.h"
#include "analysis/calltree.h"
#include "analysis/launchindex.h"

#include <QtTest>

#include <initializer_list>
#include <memory>
#include <tuple>

namespace lanescope::test {

// One thread, its slices as (start, duration, name), all python_function.
inline std::shared_ptr<const Trace> oneThread(std::initializer_list<std::tuple<int64_t, int64_t, const char *>> slices)
{
    TraceBuilder b;
    const StringId py = b.intern("python_function");
    const GroupId p = b.addGroup(GroupKind::Process, b.intern("process 1"), {}, 1);
    const TrackId t = b.addTrack(p, TrackKind::Slices, b.intern("thread 1"), 1);
    for (const auto &[start, duration, name] : slices)
        b.addSlice(t, start, duration, b.intern(name), py);
    return std::make_shared<const Trace>(b.finish());
}

// Every node: self >= 0, total = self + children's totals, device = deviceSelf + children's device,
// a child no longer than its parent.
inline void checkInvariants(const CallTree::Result &r)
{
    for (const CallTree::Node &n : r.nodes) {
        int64_t total = 0, device = 0;
        for (uint32_t c : n.children) {
            total += r.nodes[c].total;
            device += r.nodes[c].device;
            QVERIFY(r.nodes[c].total <= n.total);
        }
        QVERIFY2(n.self >= 0, n.name.c_str());
        QCOMPARE(n.total, n.self + total);
        QCOMPARE(n.device, n.deviceSelf + device);
    }
}

// The node at a path of names below the root ("f;g", with the thread first unless merged), or UINT32_MAX.
inline uint32_t nodeAtPath(const CallTree::Result &r, const std::string &path)
{
    for (uint32_t i = 1; i < r.nodes.size(); ++i)
        if (r.path(i) == path)
            return i;
    return UINT32_MAX;
}

// The call tree of every thread, merged (the frames of all threads below the root).
inline CallTree::Result mergedTree(const Trace &trace, bool keepOccurrences = false)
{
    const LaunchIndex index = LaunchIndex::build(trace);
    CallTree::Options o;
    o.mergeThreads = true;
    o.keepOccurrences = keepOccurrences;
    return CallTree::compute(trace, index, o);
}

// The Kineto trace PyTorch's profiler writes with with_stack=True, written into `dir`: main [0,1000 us)
// > step (twice: [10,410) and [500,900)) > aten::mm > cudaLaunchKernel -> gemm (50 us, then 70 us);
// `slowerSecond` makes the second kernel 170 us (profile B of a comparison). Frames name train.py
// lines 10 (main) and 20 (step).
inline QString writeStackTrace(const QTemporaryDir &dir, const char *file, bool slowerSecond = false)
{
    KinetoEvents e;
    e.x("python_function", QStringLiteral("train.py(10): main"), 100, 100, 0, 1000);
    e.x("python_function", QStringLiteral("train.py(20): step"), 100, 100, 10, 400);
    e.op("cpu_op", "aten::mm", 20, 100, 1);
    e.launch("cudaLaunchKernel", 30, 10, 1, "kernel", "gemm", 1100, 50);
    e.x("python_function", QStringLiteral("train.py(20): step"), 100, 100, 500, 400);
    e.op("cpu_op", "aten::mm", 510, 100, 2);
    e.launch("cudaLaunchKernel", 520, 10, 2, "kernel", "gemm", 1200, slowerSecond ? 170 : 70);
    return e.write(dir, file);
}

} // namespace lanescope::test
