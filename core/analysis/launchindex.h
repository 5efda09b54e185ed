#pragma once
// Who launched what: resolves, once per trace, every piece of device work to the runtime call that
// launched it and to the framework op that made that call. The operator, kernel and device tables
// (OpTable, KernelTable, DeviceSummary) all read this index, so they agree with each other.
//
// Slice roles, from the category (case-insensitive):
//   framework op  cpu_op, user_annotation, Operator (Kineto 2021), and slices without a category on
//                 nested tracks (PyTorch's legacy autograd exporter writes none)
//   runtime call  any category containing "runtime" (cuda_runtime, Runtime, privateuse1_runtime,
//                 mtia_runtime), cuda_driver
//   device work   kernel, gpu_memcpy / Memcpy, gpu_memset / Memset; privateuse1_driver slices that
//                 carry a correlation (the driver's record of a NeuronCore execution); NTFF /
//                 neuron-profile data: one NEFF execution is a slice of the "executions" lane of a
//                 profile folder's NeuronCore group (DeviceExecutions; its work: the slices of its lane set
//                 within its span, named by its `program` arg), or a whole NeuronCore group without that
//                 lane (one NTFF); `instruction` slices are Neuron opcodes and `dma` slices DMA packets
//   other         python_function, gpu_user_annotation (a label over device work, not work), ...
//
// Launch links, first that resolves wins:
//   kernel/memcpy/memset/driver execution -> runtime call: the `correlation` arg of both (for a driver
//     execution the runtime call with that correlation, never another driver slice), else an incoming
//     flow (ac2g / Kineto 2021 "async") whose source is a runtime call
//   NEFF execution -> runtime call: the flow the profile-folder loader draws from the host execution
//     event it aligned the NTFF to (ProfileFolderLoader), to a slice of the execution
//   runtime call -> framework op: the op of the same process whose `External id` equals the runtime
//     call's (PyTorch's link: the id of the op on top of the RecordFunction stack at the call; it
//     differs from time nesting where an annotation such as nccl:broadcast sits inside the op),
//     else the innermost enclosing framework op on the same thread (time nesting), else the op
//     whose `External id` equals the work's
// A driver execution whose runtime call also launched a NEFF execution is dropped from the
// execution level: the NTFF has the better numbers and counting both would count the time twice.
//
// Levels: kernels, memcpy, memset, NEFF and driver executions are "execution level" (they sum to
// device time and are what ops launch); Neuron opcodes and DMA packets are "instruction level"
// (they run inside an execution, inherit its launcher, and feed the kernel table and the
// compute / DMA split of DeviceSummary).
#include "model/ids.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class Trace;
struct Arg;

class LaunchIndex
{
public:
    enum class Role : uint8_t { Other, FrameworkOp, Runtime, DeviceWork };
    enum class WorkKind : uint8_t { Kernel, Memcpy, Memset, NeffExecution, DriverExecution, Instruction, Dma };

    struct Device
    {
        std::string name; // "GPU 0", "NeuronCore 0"
        bool neuron = false;
    };

    struct Work
    {
        int64_t start = 0;
        int64_t end = 0;
        StringId name;     // kernel name, NEFF name, opcode
        SliceId slice;     // the slice; for a NEFF execution its first slice
        SliceId launcher;  // runtime call, invalid when unknown
        SliceId op;        // launching framework op, invalid when unattributed
        uint32_t device = 0; // index into devices()
        uint32_t execution = UINT32_MAX; // instruction level: index of the enclosing execution in work()
        WorkKind kind = WorkKind::Kernel;

        int64_t duration() const { return end - start; }
    };

    LaunchIndex() = default;
    static LaunchIndex build(const Trace &trace);

    // Every piece of device work, ordered by start time.
    std::span<const Work> work() const { return m_work; }
    std::span<const Device> devices() const { return m_devices; }
    Role role(SliceId slice) const { return static_cast<Role>(m_role[slice.value]); }
    // Nearest enclosing framework op of an op or runtime slice (same thread), invalid at the top.
    SliceId opParent(SliceId slice) const { return SliceId(m_opParent[slice.value]); }
    // Framework op and runtime slices in trace order (the rows OpTable aggregates).
    std::span<const uint32_t> opSlices() const { return m_opSlices; }
    size_t sliceCount() const { return m_role.size(); }
    // Display name: the kernel / opcode name; for a NEFF execution the program ("neff_<hash>") taken
    // from its NeuronCore group's name.
    static std::string workName(const Trace &trace, const Work &w);

    static bool isExecutionLevel(WorkKind k) { return k != WorkKind::Instruction && k != WorkKind::Dma; }
    static bool isTransfer(WorkKind k) { return k == WorkKind::Memcpy || k == WorkKind::Memset || k == WorkKind::Dma; }
    static const char *kindName(WorkKind k);

    // Small arg helpers shared by the tables.
    static const Arg *findArg(const Trace &trace, ArgSetId set, StringId key);
    static bool intArg(const Trace &trace, ArgSetId set, StringId key, int64_t &out);

private:
    std::vector<uint8_t> m_role;      // per slice
    std::vector<uint32_t> m_opParent; // per slice; valid for op and runtime slices
    std::vector<uint32_t> m_opSlices;
    std::vector<Work> m_work;
    std::vector<Device> m_devices;
};

} // namespace lanescope
