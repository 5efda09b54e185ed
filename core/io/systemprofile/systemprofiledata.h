#pragma once
// The flat records SystemProfileReader reads from system_profile.json (see systemprofilereader.h for
// the format): events, their args and the mem_usage / cpu_util samples. Shared by the reader, the
// per-window parser (systemprofileparser.h) and the importer. The raw system trace (ntrace.pb and its
// session files, core/io/ntrace/) is converted into the same records and built by the same importer;
// the fields marked "ntrace" are only set there.
#include "model/argstore.h"
#include "model/records.h"
#include "model/stringpool.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

// An id as written: numbers and numeric strings compare equal ("12" == 12); other strings hash.
struct SystemProfileId
{
    // Parses an id token or string ("0x1f", "123", "abc") the way ids are compared.
    static SystemProfileId fromText(std::string_view text);

    uint64_t value = 0;
    bool present = false;
    bool operator==(const SystemProfileId &) const = default;
};

// The lane of an event: from its content (system_profile.json: hardware names, `type`, `group`), or as
// its reader decided (ntrace: records carry no type or group; Explorer's SystemProfileEvents: its
// trace_event_source; Other: a lane "<group> · NC n" of its own, the group naming the source).
enum class SystemProfileLane : uint8_t { ByContent, Runtime, Hardware, Framework, Other };

struct SystemProfileEvent
{
    uint64_t offset = 0; // byte offset of the event object in the file
    int64_t ts = 0, duration = 0;
    bool hasTs = false, hasDuration = false;
    StringId name, group, instance, process;
    int64_t pid = -1;    // process_id when it is a number
    int64_t thread = -1; // thread_id when it is a number
    int64_t lnc = -1;    // lnc_idx
    int64_t type = 0;
    bool hasType = false;
    SystemProfileId id, parent;
    int64_t syncHost = 0, syncDevice = 0;
    bool hasSyncHost = false, hasSyncDevice = false;
    uint32_t argBegin = 0, argCount = 0; // into SystemProfileData::args
    int64_t deviceCore = -1; // ntrace: the physical core (device_core_idx): one hardware lane per device core
    SystemProfileLane lane = SystemProfileLane::ByContent;
    bool instant = false;     // ntrace: a single record (timestamp_sync_point): an instant, not a slice
    bool onHostClock = false; // ntrace: a hardware event already on the host clock (no sync point moves it)
};

struct SystemProfileSample
{
    uint64_t offset = 0;
    int64_t ts = 0;
    StringId instance, process;
    int64_t cpu = -1;        // cpu_util: cpu_id
    double value = 0;        // cpu_util: util; mem_usage: usage
    double percent = 0;      // mem_usage: percent_usage
    bool hasValue = false, hasPercent = false;
};

// A counter of its own (ntrace: device memory per NeuronCore and usage type), in its process group.
struct SystemProfileCounter
{
    StringId instance, process;
    std::string name, unit;
    std::vector<std::pair<int64_t, double>> samples; // (ts, value), any order
};

// A link a reader found between two events (indices into SystemProfileData::events), e.g. Explorer's
// shared flow_id: a flow of its own; its target takes no link by time (SystemProfileImporter).
struct SystemProfileLink
{
    uint32_t from = 0, to = 0;
    uint64_t id = 0;
    StringId category, name;
};

struct SystemProfileData
{
    std::vector<SystemProfileEvent> events;
    std::vector<Arg> args;
    std::vector<SystemProfileSample> memUsage, cpuUtil;
    std::vector<SystemProfileCounter> counters;
    std::vector<SystemProfileLink> links;
    uint64_t bytes = 0;
    bool sawEvents = false; // a trace_events array (or a bare array) was present
    // ntrace: one runtime lane per (NeuronCore, thread) ("neuron_rt · NC n · thread T"): the calls of
    // several threads overlap without nesting, and nothing but time nests them (no parent_id)
    bool runtimeLanesPerThread = false;
};

} // namespace lanescope
