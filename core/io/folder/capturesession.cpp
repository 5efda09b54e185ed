#include "capturesession.h"

#include "io/formats.h"
#include "io/ntrace/ntraceimporter.h"
#include "io/systemprofile/systemprofileimporter.h"
#include "model/saturating.h"

#include <charconv>
#include <cstdio>
#include <limits>
#include <map>

namespace lanescope {

namespace {

std::string dirOf(const std::string &relativePath) { return relativePath.substr(0, relativePath.rfind('/') + 1); }
std::string baseOf(const std::string &relativePath) { return relativePath.substr(relativePath.rfind('/') + 1); }

bool isSessionPart(const FolderFile &f) { return Formats::info(f.kind).role == FolderRole::SessionPart; }

// "1,389,606,495,950 ns (1,389.6 s)", "50 ns"
std::string span(int64_t ns)
{
    const uint64_t a = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    if (a < 1'000'000'000)
        return formatThousands(a) + " ns";
    char seconds[48];
    std::snprintf(seconds, sizeof seconds, "%.1f", double(a) / 1e9);
    std::string s = seconds; // thousands separators in the whole seconds, as in the ns
    const size_t dot = s.find('.');
    return formatThousands(a) + " ns (" + formatThousands(std::stoull(s.substr(0, dot))) + s.substr(dot) + " s)";
}

// An integer arg as text (model ids past 2^63 are UInt args).
std::string idArg(const Trace &t, const Slice &s, StringId key)
{
    if (key.isValid())
        for (const Arg &a : t.args().args(s.args))
            if (a.key == key && (a.type == ArgType::Int || a.type == ArgType::UInt))
                return a.type == ArgType::Int ? std::to_string(a.value.i) : std::to_string(a.value.u);
    return {};
}

bool intArg(const Trace &t, const Slice &s, StringId key, int64_t &out)
{
    if (!key.isValid())
        return false;
    for (const Arg &a : t.args().args(s.args))
        if (a.key == key && a.type == ArgType::Int) {
            out = a.value.i;
            return true;
        }
    return false;
}

} // namespace

void CaptureSession::reportFiles(ProfileFolder &folder, size_t system, const Trace &trace)
{
    if (trace.metadata().format != NtraceImporter::kFormat)
        return;
    const std::string dir = dirOf(folder.files()[system].relativePath);
    for (size_t i = 0; i < folder.files().size(); ++i) {
        const FolderFile &f = folder.files()[i];
        if (!isSessionPart(f) || dirOf(f.relativePath) != dir)
            continue;
        const std::string *said = trace.metadata().find(NtraceImporter::kSessionFileKey + baseOf(f.relativePath));
        if (!said) {
            folder.setOutcome(i, FileOutcome::Ignored, "not read by the ntrace.pb beside it");
            continue;
        }
        const size_t colon = said->find(": ");
        const std::string outcome = said->substr(0, std::min(colon, said->size()));
        const std::string detail = colon == std::string::npos ? std::string() : said->substr(colon + 2);
        folder.setOutcome(i, outcome.starts_with("not_readable") ? FileOutcome::NotReadable : FileOutcome::Loaded,
                          outcome.find('(') != std::string::npos ? outcome.substr(outcome.find('(')) + " " + detail : detail);
    }
}

void CaptureSession::reportUnread(ProfileFolder &folder, size_t system, const std::string &why)
{
    const std::string &sys = folder.files()[system].relativePath;
    if (baseOf(sys) != NtraceImporter::kTraceFile)
        return;
    const std::string dir = dirOf(sys);
    for (size_t i = 0; i < folder.files().size(); ++i) {
        const FolderFile &f = folder.files()[i];
        if (isSessionPart(f) && dirOf(f.relativePath) == dir)
            folder.setOutcome(i, FileOutcome::Ignored,
                              "not read: it is read with " + baseOf(sys) + ", which cannot be read (" + why.substr(0, 300) + ")");
    }
}

void CaptureSession::pairPrograms(ProfileFolder &folder, size_t system, const Trace &trace)
{
    std::map<std::string, std::string> models; // id -> system_trace name
    for (const auto &[key, value] : trace.metadata().entries)
        if (key.starts_with("model.") && key.size() > 6 && key.find_first_not_of("0123456789", 6) == std::string::npos)
            models.emplace(key.substr(6), value);
    if (models.empty())
        return;
    // Records per model id, for the report.
    std::map<std::string, std::map<std::string, uint64_t>> uses; // id -> call name -> count
    const StringId modelKey = trace.strings().find("model_id");
    for (const Slice &s : trace.allSlices())
        if (const std::string id = idArg(trace, s, modelKey); models.count(id))
            ++uses[id][std::string(trace.str(s.name))];
    const FolderFile &sys = folder.files()[system];
    for (size_t i = 0; i < folder.files().size(); ++i) {
        const FolderFile &f = folder.files()[i];
        if (f.kind != FileFormat::Neff || f.group != sys.group)
            continue;
        for (const auto &[id, name] : models) {
            const bool byName = f.name.hash == id, byNetwork = !name.empty() && f.neffName == name;
            // (the hash of neff_<id>.neff, neff_<id>_vnc_0.neff, ...)
            if (!byName && !byNetwork)
                continue;
            // the runtime calls that name it (nrt_load, nrt_execute, ...); the others are counted
            std::string calls;
            uint64_t total = 0;
            for (const auto &[call, n] : uses[id]) {
                total += n;
                if (call.starts_with("nrt_"))
                    calls += ", " + call + " x" + std::to_string(n);
            }
            const std::string how = std::string(byName ? "its file name carries it" : "") + (byName && byNetwork ? ", " : "") +
                                    (byNetwork ? "its network name (header offset 220) is system_trace[" + id + "]" : std::string());
            const std::string note = " (" + how + "; " + std::to_string(total) + " calls carry it" + calls + ")";
            if (f.pairedWith.empty()) {
                folder.setPairing(i, {int(system)}, PairedBy::ModelId);
                folder.setOutcome(i, FileOutcome::Paired, "model_id " + id + note);
            } else {
                const std::string also = "model_id " + id + " of " + baseOf(sys.relativePath) + note;
                folder.setOutcome(i, f.status, f.detail.empty() ? also : f.detail + "; " + also);
            }
            break;
        }
    }
}

bool CaptureSession::otherInstance(const Trace &system, const FolderFile &device)
{
    const std::string *instance = system.metadata().find("session.instance_id");
    return instance && !instance->empty() && !device.ntffInstanceId.empty() && *instance != device.ntffInstanceId;
}

CaptureSession::Placement CaptureSession::checkWindow(const Trace &system, const FolderFile &device, int64_t deviceCore,
                                                      uint32_t slice, int64_t start)
{
    Placement out;
    out.slice = slice;
    out.start = start;
    if (!device.hasDeviceWindow || slice >= system.allSlices().size())
        return out;
    const StringId beginKey = system.strings().find("nc_timestamp_ns"), endKey = system.strings().find("end_nc_timestamp_ns");
    auto window = [&](uint32_t index, int64_t &begin, int64_t &end) {
        const Slice &s = system.allSlices()[index];
        if (!intArg(system, s, beginKey, begin))
            return false;
        if (!intArg(system, s, endKey, end))
            end = saturatingAdd(begin, s.duration);
        return true;
    };
    int64_t placedBegin = 0, placedEnd = 0;
    if (!window(slice, placedBegin, placedEnd))
        return out;
    out.checked = true;
    const int64_t deviceStart = int64_t(std::min<uint64_t>(device.deviceStartPs / 1000, uint64_t(INT64_MAX)));
    // The traced executions of its NeuronCore (and physical core) whose device window holds its start;
    // the one that began nearest to it.
    const SystemProfileImporter::Event *best = nullptr;
    int64_t bestDistance = std::numeric_limits<int64_t>::max(), bestBegin = 0;
    size_t executions = 0;
    const std::vector<SystemProfileImporter::Event> execs = SystemProfileImporter::executions(system);
    int64_t core = -1;
    for (const SystemProfileImporter::Event &e : execs)
        if (e.slice == slice)
            core = e.core;
    for (const SystemProfileImporter::Event &e : execs) {
        if (e.core != core || (deviceCore >= 0 && e.deviceCore >= 0 && e.deviceCore != deviceCore))
            continue;
        int64_t begin = 0, end = 0;
        if (!window(e.slice, begin, end))
            continue;
        ++executions;
        if (deviceStart < saturatingSub(begin, kWindowSlackNs) || deviceStart > end)
            continue;
        const int64_t distance = deviceStart > begin ? deviceStart - begin : begin - deviceStart;
        if (distance < bestDistance) {
            best = &e;
            bestDistance = distance;
            bestBegin = begin;
        }
    }
    if (best) {
        out.slice = best->slice;
        out.start = best->start;
        out.note = "its device window starts " + std::string(deviceStart >= bestBegin ? "+" : "-") + span(deviceStart - bestBegin) +
                   " from the execution's begin on the device clock";
        return out;
    }
    out.approximate = true;
    const int64_t delta = saturatingSub(deviceStart, placedBegin);
    const int64_t host = saturatingAdd(start, delta); // the sync rule, through the execution's own device time
    out.note = "its own device clock puts it elsewhere: its window starts " + std::string(delta >= 0 ? "" : "-") + span(delta) +
               (delta >= 0 ? " after" : " before") + " this execution began (device ns " + std::to_string(deviceStart) + " vs " +
               std::to_string(placedBegin) + ") and lies inside none of the traced executions of its core (" + std::to_string(executions) +
               "); by the sync rule it would start at host ns " + std::to_string(host);
    const std::string *s0 = system.metadata().find("session.start_ns"), *s1 = system.metadata().find("session.end_ns");
    int64_t sessionStart = 0, sessionEnd = 0;
    if (s0 && s1 && std::from_chars(s0->data(), s0->data() + s0->size(), sessionStart).ec == std::errc() &&
        std::from_chars(s1->data(), s1->data() + s1->size(), sessionEnd).ec == std::errc()) {
        if (host > sessionEnd)
            out.note += ", " + span(host - sessionEnd) + " after the capture session ended (trace_info.pb: " + *s1 + ")";
        else if (host < sessionStart)
            out.note += ", " + span(sessionStart - host) + " before the capture session began (trace_info.pb: " + *s0 + ")";
    }
    out.note += ": a capture of another run";
    return out;
}

} // namespace lanescope
