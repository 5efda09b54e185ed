#pragma once
// The host samples of a Neuron capture session (docs/ntrace.md), length-prefixed like ntrace.pb
// (NtraceFrames):
//
//   cpu_util.pb  one record per CPU per sample: 1 utilisation in percent (fixed32 float), 2 timestamp
//                (Unix ns), 3 CPU index; CPU 0 and 0.0 % leave their field out (proto3)
//   host_mem.pb  one record per sample: 1 bytes (of host memory in use; meaning inferred), 2 timestamp
//
// A record without a timestamp, of another wire type than documented or not valid protobuf is skipped
// with a counted warning (file, byte offset, what was expected).
#include "io/input/loadoptions.h"
#include "model/diagnostics.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct NtraceCpuSample
{
    int64_t ts = 0;
    int64_t cpu = 0;
    double percent = 0;
};

struct NtraceMemorySample
{
    int64_t ts = 0;
    uint64_t bytes = 0;
};

class NtraceSamplesReader
{
public:
    static std::vector<NtraceCpuSample> readCpuUtil(std::string_view bytes, const std::string &file,
                                                    Diagnostics &diagnostics, const LoadOptions &options = {});
    static std::vector<NtraceMemorySample> readHostMem(std::string_view bytes, const std::string &file,
                                                       Diagnostics &diagnostics, const LoadOptions &options = {});
};

} // namespace lanescope
