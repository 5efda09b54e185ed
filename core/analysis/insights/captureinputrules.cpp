#include "captureinputrules.h"

#include "insightcontext.h"
#include "insighttext.h"
#include "model/trace.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace lanescope {

namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The file a warning is about: the folder loader prefixes "<relative path>: ", else the trace's file.
std::string warningFile(const Trace &trace, const Warning &w)
{
    const size_t colon = w.message.find(": ");
    if (!trace.metadata().files.empty() && colon != std::string::npos)
        return w.message.substr(0, colon);
    return trace.metadata().sourcePath;
}

bool hasFrameworkTrace(const Trace &trace)
{
    for (const FileReport &f : trace.metadata().files)
        if (f.kind == FileFormat::ChromeJson && f.outcome == FileOutcome::Loaded)
            return true;
    return false;
}

// The "alignment.<file>" notes the folder loader recorded for its device timelines (NTFFs, neuron-profile
// JSON): "sync points: ...", "approximate: ...", "none: ..." (ClockAlignment::Placement::note).
std::vector<std::string> deviceAlignments(const Trace &trace)
{
    std::vector<std::string> notes;
    for (const auto &[key, value] : trace.metadata().entries) {
        if (!key.starts_with("alignment."))
            continue;
        const std::string_view path = std::string_view(key).substr(10);
        const auto f = std::find_if(trace.metadata().files.begin(), trace.metadata().files.end(),
                                    [&](const FileReport &r) { return r.path == path; });
        if (f == trace.metadata().files.end() || f->kind == FileFormat::Ntff || f->kind == FileFormat::NeuronProfileJson)
            notes.push_back(value);
    }
    return notes;
}

std::string plural(size_t n, const char *one, const char *many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

} // namespace

void CaptureInputRules::partialInput(InsightContext &ctx, std::vector<Finding> &out)
{
    // Dropped NTFF records (begins without an end, ...) above this share of the device records.
    constexpr double kDroppedPercent = 1.0;
    const Trace &trace = ctx.trace();
    std::vector<std::string> truncated, noStart;
    uint64_t dropped = 0;
    for (const Warning &w : trace.diagnostics().warnings()) {
        if (contains(w.message, "is not terminated") || contains(w.message, "truncated"))
            truncated.push_back(warningFile(trace, w));
        else if (contains(w.message, "no start NOTIFY found"))
            noStart.push_back(warningFile(trace, w));
        else if (contains(w.message, "(dropped)") || contains(w.message, "without a begin (skipped)") ||
                 contains(w.message, "without a start (skipped)"))
            dropped += w.count;
    }
    uint64_t deviceRecords = 0;
    for (const LaunchIndex::Work &w : ctx.index().work())
        deviceRecords += !LaunchIndex::isExecutionLevel(w.kind);
    const double droppedPercent = dropped ? 100.0 * double(dropped) / double(deviceRecords + dropped) : 0;
    const bool windowDrops = droppedPercent >= kDroppedPercent;

    size_t neffs = 0, unpairedNeffs = 0, unpairedNtffs = 0, unreadable = 0;
    std::vector<std::string> unreadableNames;
    for (const FileReport &f : trace.metadata().files) {
        neffs += f.kind == FileFormat::Neff;
        unpairedNeffs += f.kind == FileFormat::Neff && f.outcome == FileOutcome::Unpaired;
        unpairedNtffs += f.kind == FileFormat::Ntff && f.outcome == FileOutcome::Unpaired;
        if (f.outcome == FileOutcome::NotReadable) {
            ++unreadable;
            if (unreadableNames.size() < 3)
                unreadableNames.push_back(f.path);
        }
    }
    size_t unplaced = 0, deviceTimelines = 0;
    if (hasFrameworkTrace(trace))
        for (const std::string &note : deviceAlignments(trace)) {
            ++deviceTimelines;
            unplaced += note.starts_with("none");
        }

    std::vector<std::string> parts, actions, labels; // labels: the title's short names of the parts
    bool serious = false;
    if (!truncated.empty()) {
        parts.push_back(insighttext::join(truncated, ", ") + (truncated.size() == 1 ? " is" : " are") +
                        " cut mid-file: the events after the cut are missing from every table");
        labels.push_back("trace cut mid-file");
        actions.push_back("let the profiler finish writing before copying: leave the `with torch.profiler.profile(...)` block (or "
                          "call prof.stop()) before the process exits, and copy the files after it ends");
        serious = true;
    }
    if (!noStart.empty() || windowDrops) {
        std::string s = "NTFF trace window dropped events";
        if (windowDrops)
            s += ": " + std::to_string(dropped) + " device records dropped (" + insighttext::pct(droppedPercent) + " of the device records)";
        if (!noStart.empty())
            s += std::string(windowDrops ? "; " : ": ") + plural(noStart.size(), "NTFF has", "NTFFs have") +
                 " no start NOTIFY (the execution began before the window: its device time is short)";
        parts.push_back(s);
        labels.push_back("NTFF trace window dropped events");
        actions.push_back("capture fewer executions per device trace so the whole execution fits its window (profile one step, "
                          "or one NEFF at a time)");
        serious = true;
    }
    if (unpairedNeffs) {
        parts.push_back("device time of " + std::to_string(unpairedNeffs) + " of " + std::to_string(neffs) +
                        " NEFFs is unknown (no NTFF: their executions were not captured or the NTFF was not copied)");
        labels.push_back("device time of " + std::to_string(unpairedNeffs) + " of " + std::to_string(neffs) + " NEFFs unknown");
        actions.push_back("copy the whole profile output folder: every neff_<H>.neff with its <H>_instid_<I>_vnc_<N>.ntff");
        serious = true;
    }
    if (unplaced) {
        parts.push_back(std::to_string(unplaced) + " of " + std::to_string(deviceTimelines) +
                        " device timelines have no execution in the framework trace (own clock): their device time belongs to "
                        "no op");
        labels.push_back(plural(unplaced, "NTFF", "NTFFs") + " without an execution in trace.json");
        actions.push_back("profile the framework and the device in one run (torch.profiler.profile with NeuronConfig) and keep "
                          "trace.json with the NTFFs of that run");
        serious = true;
    }
    if (unpairedNtffs) {
        parts.push_back(plural(unpairedNtffs, "NTFF has", "NTFFs have") + " no NEFF: instruction and DMA queue names are unknown");
        labels.push_back(plural(unpairedNtffs, "NTFF", "NTFFs") + " without a NEFF");
    }
    if (unreadable) {
        parts.push_back(plural(unreadable, "file", "files") + " cannot be read (" + insighttext::join(unreadableNames, ", ") +
                        "): what they hold is not in the tables");
        labels.push_back(plural(unreadable, "file", "files") + " not readable");
    }
    if (parts.empty())
        return;
    if (unpairedNtffs && actions.empty())
        actions.push_back("copy the NEFF of each NTFF into the folder (same hash in the name, same uuid inside)");
    if (unreadable && actions.empty())
        actions.push_back("copy the files that cannot be read again, whole, from the capture (a file of a version this build "
                          "does not read stays out of the tables until a reader for it is added)");
    Finding f;
    f.severity = serious ? Severity::Medium : Severity::Low;
    f.title = "Partial input: " + insighttext::join(labels, ", ");
    f.detail = insighttext::join(parts, "; ");
    f.action = insighttext::join(actions, "; ");
    f.value = double(truncated.size() + noStart.size() + unpairedNeffs + unplaced + unpairedNtffs + unreadable) + (windowDrops ? 1 : 0);
    f.threshold = 0;
    out.push_back(std::move(f));
}

void CaptureInputRules::clockAlignment(InsightContext &ctx, std::vector<Finding> &out)
{
    const Trace &trace = ctx.trace();
    size_t sync = 0, approximate = 0, none = 0;
    for (const std::string &note : deviceAlignments(trace)) {
        if (note.starts_with("sync points"))
            ++sync;
        else if (note.starts_with("approximate"))
            ++approximate;
        else
            ++none;
    }
    if (sync + approximate + none == 0 || !hasFrameworkTrace(trace))
        return; // nothing was placed on a host clock
    // Each launch call's successor on its thread: an execution must run between the two.
    const std::vector<uint32_t> calls = ctx.launchCalls();
    std::map<uint32_t, int64_t> nextStart;
    std::map<uint32_t, uint32_t> lastOnTrack;
    for (uint32_t c : calls) {
        const uint32_t track = trace.trackOfSlice(SliceId(c)).value;
        if (const auto it = lastOnTrack.find(track); it != lastOnTrack.end())
            nextStart[it->second] = trace.slice(SliceId(c)).start;
        lastOnTrack[track] = c;
    }
    struct Outside
    {
        uint32_t work;
        int64_t by;
    };
    std::vector<Outside> outside;
    int64_t largestOffset = 0;
    size_t checked = 0;
    const auto work = ctx.index().work();
    for (uint32_t i = 0; i < work.size(); ++i) {
        const LaunchIndex::Work &w = work[i];
        if (w.kind != LaunchIndex::WorkKind::NeffExecution || !w.launcher.isValid() || !ctx.startsInRange(w.start))
            continue;
        ++checked;
        const Slice &call = trace.slice(w.launcher);
        largestOffset = std::max(largestOffset, std::abs(w.start - call.start));
        const auto next = nextStart.find(w.launcher.value);
        const int64_t early = call.start - w.start, late = next == nextStart.end() ? 0 : w.end - next->second;
        if (early > 0 || late > 0)
            outside.push_back({i, std::max(early, late)});
    }
    if (outside.empty() && approximate + none == 0)
        return;
    std::sort(outside.begin(), outside.end(), [](const Outside &a, const Outside &b) { return a.by > b.by; });
    Finding f;
    const std::string placed = std::to_string(sync + approximate + none) + " device timelines: " + std::to_string(sync) +
                               " placed at system-trace sync points (nc_exec_running), " + std::to_string(approximate) +
                               " approximately at a host execution event (nrt_execute, or in order), " + std::to_string(none) +
                               " not placed (own clock)";
    std::string detail = placed + "; " + std::to_string(checked) + " NEFF executions linked to their launch call, largest start "
                         "offset from the call " + insighttext::ns(largestOffset);
    if (!outside.empty()) {
        f.severity = Severity::Medium;
        f.title = "Clock alignment disagrees with the host: " + std::to_string(outside.size()) + " of " + std::to_string(checked) +
                  " NEFF executions lie outside their launch call";
        detail += "; " + std::to_string(outside.size()) + " start before their launching call or end after the next launch call "
                  "begins (worst by " + insighttext::ns(outside.front().by) + "): host-device times there are not trustworthy";
        f.action = "keep one run per folder (no NTFFs of another run or session mixed in) and the system trace of that same "
                   "run (ntrace.pb with trace_info.pb, or system_profile.json), so each device timeline is placed at its own "
                   "nc_exec_running";
        f.value = double(outside.front().by);
    } else {
        f.severity = Severity::Low;
        f.title = "Clock alignment is approximate for " + std::to_string(approximate + none) + " of " +
                  std::to_string(sync + approximate + none) + " device timelines";
        detail += "; without a sync point host-device gaps and launch latencies are estimates";
        f.action = "capture the runtime (system) trace in the same run, NeuronConfig(modes=[ProfileMode.DEVICE, "
                   "ProfileMode.RUNTIME]), and keep its ntrace.pb with trace_info.pb (read as they are) next to trace.json, so "
                   "every device timeline is placed at its nc_exec_running sync point";
        f.value = double(approximate + none);
    }
    f.detail = detail;
    f.threshold = 0;
    for (const Outside &o : outside) {
        const LaunchIndex::Work &w = work[o.work];
        f.addEvent(w.slice.value);
        f.addEvent(w.launcher.value);
        f.addRange(std::min(w.start, trace.slice(w.launcher).start), w.end);
    }
    out.push_back(std::move(f));
}

std::pair<std::string, std::string> CaptureInputRules::splitAdvice(std::string_view message)
{
    const auto trim = [](std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\n'))
            s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\n'))
            s.remove_suffix(1);
        return s;
    };
    message = trim(message);
    const size_t end = message.find(". ");
    std::string_view problem = end == std::string_view::npos ? message : message.substr(0, end);
    const std::string_view advice = end == std::string_view::npos ? std::string_view() : trim(message.substr(end + 2));
    if (!problem.empty() && problem.back() == '.')
        problem.remove_suffix(1);
    return {std::string(problem), std::string(advice)};
}

std::vector<CaptureInputRules::ProfilerWarning> CaptureInputRules::profilerWarnings(const Trace &trace)
{
    static constexpr std::string_view kKey = "neuron_profile.warnings[";
    struct Fields
    {
        std::string category, message;
    };
    std::map<std::pair<std::string, int64_t>, Fields> rows; // (metadata prefix of the export, row index)
    for (const auto &[key, value] : trace.metadata().entries) {
        const size_t at = key.find(kKey);
        if (at == std::string::npos)
            continue;
        const size_t close = key.find("].", at + kKey.size());
        if (close == std::string::npos)
            continue;
        char *end = nullptr;
        const std::string digits = key.substr(at + kKey.size(), close - at - kKey.size());
        const long long index = std::strtoll(digits.c_str(), &end, 10);
        if (digits.empty() || *end)
            continue;
        Fields &f = rows[{key.substr(0, at), index}];
        const std::string_view field = std::string_view(key).substr(close + 2);
        if (field == "category")
            f.category = value;
        else if (field == "message")
            f.message = value;
    }
    std::vector<ProfilerWarning> out;
    for (const auto &row : rows) {
        const Fields &f = row.second;
        if (f.message.empty())
            continue;
        const std::string &prefix = row.first.first; // "run/x.json: " in a folder, "" for the file itself
        const std::string file = prefix.size() > 2 ? prefix.substr(0, prefix.size() - 2) : trace.metadata().sourcePath;
        auto it = std::find_if(out.begin(), out.end(), [&](const ProfilerWarning &w) { return w.category == f.category && w.message == f.message; });
        if (it == out.end()) {
            ProfilerWarning w{f.category, f.message, {}, {}};
            if (const std::string *v = trace.metadata().find(prefix + "neuron_profile.profile_info.profiler_version"))
                w.profilerVersion = v->substr(0, v->find('%')); // "2.28.23.0%kaena-tools/2.28@f1c114a"
            out.push_back(std::move(w));
            it = out.end() - 1;
        }
        if (std::find(it->files.begin(), it->files.end(), file) == it->files.end())
            it->files.push_back(file);
    }
    return out;
}

void CaptureInputRules::profilerWarning(InsightContext &ctx, std::vector<Finding> &out)
{
    for (const ProfilerWarning &w : profilerWarnings(ctx.trace())) {
        const auto [problem, advice] = splitAdvice(w.message);
        const bool missingData = w.category == "Missing Data";
        std::vector<std::string> shown(w.files.begin(), w.files.begin() + std::min<size_t>(w.files.size(), 3));
        std::string files = insighttext::join(shown, ", ");
        if (w.files.size() > shown.size())
            files += " and " + std::to_string(w.files.size() - shown.size()) + " more";
        Finding f;
        f.severity = missingData ? Severity::Low : Severity::Medium;
        f.title = "neuron-profile: " + problem;
        f.detail = "category \"" + (w.category.empty() ? std::string("none") : w.category) + "\" in " + files + " (neuron-profile" +
                   (w.profilerVersion.empty() ? std::string() : " " + w.profilerVersion) + "): \"" + w.message + "\"" +
                   (missingData ? "; the numbers it names may be missing or zero" : "");
        f.action = advice.empty() ? "neuron-profile gives no advice with this warning: read its message" : advice;
        f.value = double(w.files.size());
        f.threshold = 0;
        out.push_back(std::move(f));
    }
}

} // namespace lanescope
