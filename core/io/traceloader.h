#pragma once
// Loads one file or folder without the cache: recognises the format by content (never by name) and
// runs the matching importer of the formats table (formats.h). The GUI and the CLI open traces
// through CachedLoader (store/cachedloader.h), which calls this on a cache miss; tests and the
// cache-less paths call it directly.
#include "formats.h"
#include "io/input/loadoptions.h"

#include <string>
#include <string_view>

namespace lanescope {

class TraceLoader
{
public:
    // Bump whenever an importer changes the model it builds: every trace cache entry made by an older
    // version is then stale and rebuilt (core/store/tracecache.h).
    // 3: a folder's per-file reports travel typed with the trace (TraceMetadata::files).
    // 4: a profile folder's metadata says what each DMA queue of a paired NEFF moves (neff.dma_queue.*).
    // 5: a folder of Kineto traces of distinct ranks loads as one multi-rank trace (MultiRankLoader).
    // 6: ranks also from the folder name (rank_3/trace.json); two files of one rank are kept apart.
    // 7: producer habits are notes (Kineto's unmatched flows, overlapping slices); a cut JSON file loads
    //    its complete events with one warning (docs/diagnostics.md).
    // 8: neuron-profile JSON: layers / HLO ops per instruction and their lanes, tensors of DMA rows, the
    //    DMA transfers lane, SBUF / PSUM usage and DMA / HBM throughput counters, neff_node, memory usage.
    // 9: rank files of different jobs (world size / process groups) are kept apart (RankJob).
    // 10: a profile folder records each paired NEFF's model FLOPs per execution (<ntff>: neff.model_flops,
    //     2 x hlo_stats.json HloMacCount) and warns about an hlo_stats.json that does not parse.
    // 11: ntrace.pb and its session files (trace_info.pb, cpu_util.pb, host_mem.pb) are read (NtraceImporter).
    // 12: neuron-profile JSON 2.28: physical cores (model_info, "subgraph"), DMA engines from 64, queue
    //     types, warnings and terminology kept; NTFF hardware-DGE queues ("...DynamicHW") unnamed as neuron-profile.
    // 13: NTFF instructions keep the ps their ns row drops (arg sub_ns_ps), for times exact to neuron-profile's.
    // 14: slice depth by time containment (a slice that outlives the one it starts in goes beside it).
    // 15: Chrome JSON: numbers written as strings, rocprof's {} and s / t flows, 2022 Kineto
    //     (async_cpu_to_gpu) flows and a graph launch's several ends are notes; the ends are linked.
    // 16: a processed Neuron Explorer profile directory (Parquet device tables) opens as a device trace.
    // 17: a directory of Neuron Explorer system tables (SystemProfileEvents.parquet, ...) opens as a
    //     system trace (explorer::SystemDirectoryImporter) instead of an empty profile folder.
    // 18: Explorer profile directories inside a folder are entries of the folder (system + device
    //     profiles merged, devices placed at their nc_exec_running).
    // 19: neuron-profile JSON exports read the psum rows' bank_N_usage ("PSUM usage (bank N)" counters).
    // 20: Explorer device profiles read CcOp, CcInstruction, CoreBarriers, Error, SbufAllocation, Flow,
    //     the Framework/Hlo instruction tables and ActiveTime.
    // 21: neuron-profile JSON exports read the instructions' "predecessors" (dependency flows).
    static constexpr uint32_t kImporterVersion = 21;

    // Never throws: failures come back as LoadResult::error ("file: at byte N: problem").
    // A file is read by FileImporter. A directory of Neuron Explorer system tables is read by
    // explorer::SystemDirectoryImporter, a processed Neuron Explorer device profile directory (or a folder
    // holding one) by ExplorerDeviceImporter. Any other folder is scanned (ProfileFolder) and all its traces merged into
    // one (ProfileFolderLoader), or, when they are Kineto traces that all carry a rank, into one
    // multi-rank trace (MultiRankLoader).
    static LoadResult load(const std::string &path, const LoadOptions &options = {});

    // The rules live in the formats table; these forward to it for existing callers.
    static FileFormat sniff(std::string_view head, uint64_t fileSize) { return Formats::sniff(head, fileSize); }
    static FileFormat sniffPath(const std::string &path) { return Formats::sniffPath(path); }
};

} // namespace lanescope
