#include "ntracesamples.h"

#include "io/input/importerror.h"
#include "io/protobuf/protobufreader.h"
#include "ntraceframes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <initializer_list>

namespace lanescope {

namespace {

using Field = ProtobufReader::Field;
using Wire = ProtobufReader::WireType;

struct Expect
{
    uint32_t number;
    Wire type;
    const char *what;
};

// Reads every record of `bytes`, calling `onField(record index, field)` for the documented fields;
// `finish(problem)` ends the record (kept when the problem it returns is "").
template<typename OnField, typename Finish>
void readRecords(std::string_view bytes, const std::string &file, Diagnostics &d, const LoadOptions &options,
                 std::initializer_list<Expect> fields, OnField onField, Finish finish)
{
    NtraceFrames frames(bytes, file, d);
    NtraceFrame frame;
    uint64_t n = 0;
    while (frames.next(frame)) {
        if ((++n & 0xffff) == 0 && options.cancelled())
            throw LoadCancelled();
        std::string problem;
        uint64_t at = frame.offset;
        try {
            ProtobufReader r(frame.message, file, frame.messageOffset);
            Field f;
            while (problem.empty() && r.next(f)) {
                for (const Expect &e : fields) {
                    if (e.number != f.number)
                        continue;
                    if (e.type != f.type) {
                        problem = "field " + std::to_string(f.number) + " is " + ProtobufReader::wireTypeName(f.type) + "; expected " + e.what;
                        at = f.offset;
                    } else {
                        onField(f);
                    }
                }
            }
        } catch (const ImportError &e) {
            problem = e.problem();
            at = e.offset();
        }
        problem = finish(problem); // resets the record being read
        if (!problem.empty())
            d.warn(file + ": samples that cannot be read (skipped)", "byte " + std::to_string(at) + ": " + problem);
    }
}

} // namespace

std::vector<NtraceCpuSample> NtraceSamplesReader::readCpuUtil(std::string_view bytes, const std::string &file, Diagnostics &d,
                                                              const LoadOptions &options)
{
    std::vector<NtraceCpuSample> out;
    out.reserve(bytes.size() / 16);
    NtraceCpuSample s;
    bool hasTs = false;
    readRecords(
        bytes, file, d, options,
        {{1, Wire::Fixed32, "a 32-bit float (utilisation in %)"}, {2, Wire::Varint, "a varint (timestamp)"},
         {3, Wire::Varint, "a varint (CPU index)"}},
        [&](const Field &f) {
            if (f.number == 1)
                s.percent = double(std::bit_cast<float>(uint32_t(f.value)));
            else if (f.number == 2) {
                s.ts = int64_t(f.value & uint64_t(INT64_MAX));
                hasTs = f.value <= uint64_t(INT64_MAX);
            } else
                s.cpu = int64_t(std::min<uint64_t>(f.value, 1u << 20));
        },
        [&](const std::string &problem) -> std::string {
            const NtraceCpuSample got = s;
            const bool had = hasTs;
            s = {};
            hasTs = false;
            if (!problem.empty())
                return problem;
            if (!had)
                return "no timestamp (field 2) below 2^63; expected Unix-epoch ns";
            if (!std::isfinite(got.percent))
                return "utilisation is not a finite number";
            out.push_back(got);
            return {};
        });
    return out;
}

std::vector<NtraceMemorySample> NtraceSamplesReader::readHostMem(std::string_view bytes, const std::string &file,
                                                                 Diagnostics &d, const LoadOptions &options)
{
    std::vector<NtraceMemorySample> out;
    out.reserve(bytes.size() / 16);
    NtraceMemorySample s;
    bool hasTs = false;
    readRecords(
        bytes, file, d, options, {{1, Wire::Varint, "a varint (bytes)"}, {2, Wire::Varint, "a varint (timestamp)"}},
        [&](const Field &f) {
            if (f.number == 1)
                s.bytes = f.value;
            else {
                s.ts = int64_t(f.value & uint64_t(INT64_MAX));
                hasTs = f.value <= uint64_t(INT64_MAX);
            }
        },
        [&](const std::string &problem) -> std::string {
            const NtraceMemorySample got = s;
            const bool had = hasTs;
            s = {};
            hasTs = false;
            if (!problem.empty())
                return problem;
            if (!had)
                return "no timestamp (field 2) below 2^63; expected Unix-epoch ns";
            out.push_back(got);
            return {};
        });
    return out;
}

} // namespace lanescope
