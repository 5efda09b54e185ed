#pragma once
// The device clock of ntrace.pb's device records (nc_exec_running, nc_model_switch: `nc_timestamp_ns`,
// the physical core in `device_core_idx` on the begin) moved to the host clock by the
// timestamp_sync_point records (`cpu_timestamp_ns`, `nc_timestamp_ns`): host = cpu_timestamp_ns +
// (device_ns - sync nc_timestamp_ns), the rule of system_profile.json's sync points (docs/ntrace.md).
//
// Each physical core has its own sync point, and no sync point says its core: in the real capture the
// two sync points of one execution are 1,500 ns apart on the device clock, and each reproduces the host
// timestamps the runtime wrote on its core's records (field 2) to the nanosecond, the other one is off by
// 1,500 ns. So a sync point is given the core whose records it reproduces exactly most often (per
// NeuronCore and exec_id); what is left is paired in order (k-th sync point, k-th core to appear), and
// the rule says which way each was chosen.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lanescope {

struct NtraceSyncPoint
{
    uint32_t record = 0; // index into NtraceRecords::records
    int64_t nc = -1;     // nc_idx
    int64_t execId = -1; // exec_id, -1 when absent
    int64_t cpu = 0;     // cpu_timestamp_ns
    int64_t device = 0;  // nc_timestamp_ns
    int64_t deviceCore = -1; // the physical core it serves, -1 none found
    std::string rule;        // how deviceCore was chosen
};

// A device record: its host timestamp as the runtime wrote it and its device timestamp.
struct NtraceDeviceRecord
{
    int64_t nc = -1, execId = -1, deviceCore = -1;
    int64_t host = 0;   // field 2
    int64_t device = 0; // nc_timestamp_ns
};

class NtraceSync
{
public:
    // Sets each point's deviceCore and rule from the device records.
    static void assignCores(std::vector<NtraceSyncPoint> &points, const std::vector<NtraceDeviceRecord> &records);
    // cpu + (deviceNs - device), saturating.
    static int64_t rule(const NtraceSyncPoint &p, int64_t deviceNs);
};

// The sync points of each (NeuronCore, physical core), for looking up many device times.
class NtraceClock
{
public:
    explicit NtraceClock(const std::vector<NtraceSyncPoint> &points); // points must outlive the clock
    // The host time of `deviceNs` on (nc, deviceCore) by the last sync point of that core at or before it
    // (the first one for earlier times), else by those of its NeuronCore that serve no physical core;
    // nullopt when there are none. `used` says which.
    std::optional<int64_t> toHost(int64_t nc, int64_t deviceCore, int64_t deviceNs, const NtraceSyncPoint **used = nullptr) const;

private:
    std::map<std::pair<int64_t, int64_t>, std::vector<const NtraceSyncPoint *>> m_points; // by device time
};

} // namespace lanescope
