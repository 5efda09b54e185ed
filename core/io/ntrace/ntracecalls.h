#pragma once
// Pairs the begin and end records of ntrace.pb into calls (docs/ntrace.md "Pairing"): an end record's
// correlation id (field 15) is the record id (field 10) of its begin. Neither a stack nor a FIFO per
// (type, thread) pairs every call of the real capture (device slices of two physical cores overlap on one
// thread without nesting; nested nc_model_switch slices defeat a FIFO); the correlation id pairs all.
//
// Counted warnings, the rest kept: an end whose correlation id names no begin (skipped), a second end
// for one begin (skipped), a begin without an end (a call of duration 0, `end_missing` in its args),
// a begin whose id repeats (the later one starts a call of its own, its ends unpaired), an end of another
// type or thread than its begin (paired anyway). Calls come in time order of their begin (then file order).
#include "model/diagnostics.h"
#include "ntracereader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

struct NtraceCall
{
    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t begin = kNone; // index into NtraceRecords::records (the single record of a Single call)
    uint32_t end = kNone;   // kNone: a single record, or a begin without an end
    bool single = false;
};

class NtraceCalls
{
public:
    // `file` names the file in warnings.
    static std::vector<NtraceCall> pair(const NtraceRecords &records, const std::string &file, Diagnostics &diagnostics);
};

} // namespace lanescope
