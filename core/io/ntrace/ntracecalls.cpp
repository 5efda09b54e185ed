#include "ntracecalls.h"

#include <algorithm>
#include <unordered_map>

namespace lanescope {

std::vector<NtraceCall> NtraceCalls::pair(const NtraceRecords &all, const std::string &file, Diagnostics &d)
{
    const std::vector<NtraceRecord> &records = all.records;
    std::vector<NtraceCall> calls;
    calls.reserve(records.size() / 2 + 1);
    std::unordered_map<uint64_t, uint32_t> open; // begin's record id -> call index
    open.reserve(records.size() / 2 + 1);
    auto at = [&](const NtraceRecord &r) { return "byte " + std::to_string(r.offset); };
    for (uint32_t i = 0; i < records.size(); ++i) {
        const NtraceRecord &r = records[i];
        if (r.phase == NtracePhase::Single) {
            calls.push_back({i, NtraceCall::kNone, true});
        } else if (r.phase == NtracePhase::Begin) {
            calls.push_back({i, NtraceCall::kNone, false});
            if (!open.emplace(r.id, uint32_t(calls.size() - 1)).second)
                d.warn(file + ": begin records whose record id repeats (the later one starts a call its end cannot find)",
                       at(r) + ": id " + std::to_string(r.id));
        }
    }
    // Ends second: an end written before its begin (the runtime back-dates device records) still pairs.
    for (uint32_t i = 0; i < records.size(); ++i) {
        const NtraceRecord &r = records[i];
        if (r.phase != NtracePhase::End)
            continue;
        auto it = open.find(r.correlation);
        if (it == open.end()) {
            d.warn(file + ": end records without a begin (field 15 names no begin record; skipped)",
                   at(r) + ": correlation id " + std::to_string(r.correlation) + "; expected the record id of an earlier begin");
            continue;
        }
        NtraceCall &c = calls[it->second];
        if (c.end != NtraceCall::kNone) {
            d.warn(file + ": end records for a call that already ended (skipped)",
                   at(r) + ": correlation id " + std::to_string(r.correlation));
            continue;
        }
        const NtraceRecord &b = records[c.begin];
        if (b.type != r.type || b.thread != r.thread)
            d.warn(file + ": end records of another type or thread than their begin (paired by field 15 anyway)",
                   at(r) + ": type " + std::to_string(r.type) + " thread " + std::to_string(r.thread) + ", begin at byte " +
                       std::to_string(b.offset) + ": type " + std::to_string(b.type) + " thread " + std::to_string(b.thread));
        c.end = i;
    }
    for (const NtraceCall &c : calls)
        if (!c.single && c.end == NtraceCall::kNone)
            d.warn(file + ": begin records without an end (shown with duration 0)", at(records[c.begin]));
    std::stable_sort(calls.begin(), calls.end(),
                     [&](const NtraceCall &a, const NtraceCall &b) { return records[a.begin].ts < records[b.begin].ts; });
    return calls;
}

} // namespace lanescope
