#pragma once
// Builds the runtime-API lanes of a TorchNeuron profile from `system_profile.json`
// (SystemProfileReader; ../shared/docs/formats.md section 1).
//
// Lanes: instance (`instance_id`) > process (`process_id`) >
//   "framework <tid>"   type 99999 / group `framework-<tid>`          category "framework"
//   "neuron_rt · NC n"  type 11 / group `nrt-nc-NNN` (n = NNN)         category "neuron_rt"
//   "hardware · NC n"   the documented hardware events (nc_exec_running, cc_running, cc_exec_barrier,
//                       numerical_err, nrt_model_switch, timestamp_sync_point, hw_notify), any type
//                                                                      category "neuron_hw"
//   "type T · NC n"     any other `type`: kept on its own lane with a counted warning
//                                                                      category "system"
// and counter tracks "mem_usage (bytes)", "mem_usage (%)", "cpu_util · CPU n" (%).
// The NeuronCore comes from the group (`...nc-NNN`), else from `lnc_idx`.
// Records converted from the raw system trace (core/io/ntrace/ntraceimporter.h) say their lane
// themselves and may add: runtime lanes per thread ("neuron_rt · NC n · thread T"), hardware lanes per
// physical core ("hardware · NC n · core C", sync points per physical core), instants, counters of
// their own (device memory), hardware events already on the host clock.
//
// Clock (sync-point rule of formats.md): a hardware event's timestamp is on the device clock and is
// moved to the host clock with the `timestamp_sync_point` events of its NeuronCore (those without a
// core serve every core): host = sync_host_ts + (device_ts - sync_device_ts), using the last sync point
// whose sync_device_ts <= device_ts (the first one for events before every sync point). A core without
// sync points keeps the device clock, with a warning and metadata `clock.hardware · NC n`.
//
// Nesting and links (all by ids first, time second):
//   - `parent_id` naming an event on the same lane: nesting by time containment (the lane's depth);
//     a parent that does not contain its child is counted as a warning;
//   - `parent_id` naming an event on another lane: a flow (category "nrt", name "parent_id");
//   - `parent_id` naming nothing: the event stays at the top, counted warning;
//   - an id that repeats: the first event with it is the one parent_id names, counted warning;
//   - runtime call without a parent link -> the deepest framework slice of the same process whose
//     thread is the call's `thread_id` and that contains the call's [start, end]: flow ("nrt",
//     "runtime call");
//   - nrt_execute (a runtime call whose name starts with "nrt" and contains "exec") -> every
//     nc_exec_running of the same
//     NeuronCore and process whose host start lies inside the call and that has no parent link:
//     flow ("exec", "hardware execution").
#include "io/input/loadoptions.h"
#include "model/tracebuilder.h"
#include "systemprofiledata.h"

#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class InputBuffer;
class InputStream;

class SystemProfileImporter
{
public:
    static constexpr int64_t kRuntimeType = 11;
    static constexpr int64_t kFrameworkType = 99999;
    static constexpr const char *kRuntimeCategory = "neuron_rt";
    static constexpr const char *kFrameworkCategory = "framework";
    static constexpr const char *kHardwareCategory = "neuron_hw";
    static constexpr const char *kOtherCategory = "system";
    static constexpr const char *kExecutionName = "nc_exec_running";
    static constexpr const char *kSyncPointName = "timestamp_sync_point";

    // Throws ImportError (file, byte offset, expectation) or LoadCancelled.
    static Trace import(InputBuffer &input, const std::string &name, const LoadOptions &options);
    // The same streamed (plain, gzip or zstd from disk): the text is never held whole.
    static Trace importStream(InputStream &input, const LoadOptions &options);
    // The lanes of records another reader produced (ntrace): `data`'s StringIds are `b`'s, whose
    // metadata (format, source) and diagnostics the caller may have filled. Reports progress 900..1000.
    static Trace build(SystemProfileData data, TraceBuilder b, const LoadOptions &options);

    static bool isHardwareName(std::string_view name);
    // The NeuronCore of a group such as "nrt-nc-003" (3), or -1.
    static int64_t coreOfGroup(std::string_view group);

    // A slice of an imported system trace, for joining it with other files.
    struct Event
    {
        uint32_t slice = 0; // index into Trace::allSlices()
        TrackId track;
        int64_t start = 0, end = 0;
        int64_t core = -1;   // NeuronCore (track externalId of runtime / hardware lanes)
        int64_t deviceCore = -1; // physical core (device_core_idx arg), -1 unknown
        int64_t pid = -1;    // process group externalId
        int64_t thread = -1; // thread_id arg
        std::string name;
        std::string text; // name and string / integer args, lowercase (for hash / uuid tokens)
        bool hasParentLink = false; // it already has an incoming flow of this trace
    };
    // nc_exec_running slices in host-time order.
    static std::vector<Event> executions(const Trace &t);
    // Runtime API calls (category neuron_rt) in host-time order.
    static std::vector<Event> runtimeCalls(const Trace &t);
};

} // namespace lanescope
