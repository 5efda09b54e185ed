#include "explorersystemimporter.h"

#include "explorerdirectory.h"
#include "explorersystemreader.h"
#include "io/input/importerror.h"
#include "io/systemprofile/systemprofileimporter.h"

#include <algorithm>

namespace lanescope::explorer {

bool SystemDirectoryImporter::isSystemOnlyDirectory(const std::string &dir)
{
    if (!ProfileDirectory::looksLikeProfile(dir))
        return false;
    ProfileDirectory d;
    std::string error;
    if (!d.open(dir, &error))
        return false;
    const bool system = std::any_of(SystemTablesReader::kTables.begin(), SystemTablesReader::kTables.end(),
                                    [&](std::string_view t) { return d.has(t); });
    if (!system)
        return false;
    // A table of the device profile (the tables looksLikeProfile knows that are not system tables).
    static constexpr std::string_view kDevice[] = {"Metadata", "Instruction", "DmaPacket", "DmaPacketAggregated",
                                                   "SemaphoreUpdate", "CcOp", "CcInstruction", "ActiveTime",
                                                   "Summary", "ExecutionInfo", "TensorInfo", "Flow",
                                                   "FrameworkInstruction", "HloInstruction", "Throttle",
                                                   "DmaQueuesInfo", "OpcodeSummary"};
    return std::none_of(std::begin(kDevice), std::end(kDevice), [&](std::string_view t) { return d.has(t); });
}

Trace SystemDirectoryImporter::import(const std::string &dir, const LoadOptions &options)
{
    ProfileDirectory d;
    std::string error;
    if (!d.open(dir, &error))
        throw ImportError(dir, error);
    if (std::none_of(SystemTablesReader::kTables.begin(), SystemTablesReader::kTables.end(),
                     [&](std::string_view t) { return d.has(t); }))
        throw ImportError(dir, "no system table of a Neuron Explorer profile; expected SystemProfileEvents.parquet (or "
                               "CpuUsage, HostMemUsage, SystemProfileHbmUsage, SystemProfileMetadata, DeviceProfileList; "
                               "plain or split as <Table>_N.parquet)");
    TraceBuilder b;
    b.metadata().format = kFormat;
    b.metadata().sourcePath = dir;
    options.report(50);
    SystemProfileData data = SystemTablesReader::read(d, b, options);
    options.report(850);
    return SystemProfileImporter::build(std::move(data), std::move(b), options);
}

} // namespace lanescope::explorer
