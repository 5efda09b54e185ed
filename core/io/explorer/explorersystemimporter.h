#pragma once
// A processed Neuron Explorer profile directory that holds system tables only (SystemProfileEvents,
// CpuUsage, HostMemUsage, SystemProfileHbmUsage, SystemProfileMetadata, DeviceProfileList; no device
// table) -> a trace, in the lanes of the raw system trace ntrace.pb (SystemTablesReader, then
// SystemProfileImporter::build). TraceLoader opens such a directory with it instead of scanning it as a
// profile folder; device-profile directories are another reader's.
#include "io/input/loadoptions.h"

#include <string>

namespace lanescope::explorer {

class SystemDirectoryImporter
{
public:
    static constexpr const char *kFormat = "explorer-system-parquet";

    // Whether `dir` is a directory with at least one system table and none of the device tables
    // (Metadata, Instruction, DmaPacket, ...; explorer-parquet.md section 1.4).
    static bool isSystemOnlyDirectory(const std::string &dir);

    // Throws ImportError (the directory and why: cannot be listed, no system table) or LoadCancelled.
    static Trace import(const std::string &dir, const LoadOptions &options);
};

} // namespace lanescope::explorer
