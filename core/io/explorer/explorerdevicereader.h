#pragma once
// Reader for the device tables of a processed Neuron Explorer profile (a directory of Parquet files,
// ../shared/docs/explorer-parquet.md; ProfileDirectory lists and reads them). It gives the NtffProfile
// NeuronProfileJsonReader gives for neuron-profile's JSON export of the same capture, so both go through
// NtffImporter::build and show the same lanes. Times are the tables' ns on the device clock, unchanged.
//   Instruction          -> instructions: engine -> engine, timeline_track -> lane ("TensorMatrix"),
//                           opcode name -> byte as the JSON reader does (names the table lacks kept in
//                           extraOpcodeNames), pc, compiler_pc, crc_in/out, evt_wait_time_ns, operands ->
//                           instructionSync, layer / hlo_name -> instructionOps, pcore_idx -> core
//   DmaPacket            -> dma: engine_idx (trn2 64..95), queue_idx, transfer_bytes, crc, pcore_idx;
//                           queue_type / variable -> dmaTags; queue_name names the queue's lane as the
//                           JSON "subgroup" does ("qSyncIO0-Q1-E64", or "Q0-E64": unnamed); the packet's
//                           DmaPacketAggregated row (packet_aggregation_id) gives its semaphore
//   DmaPacketAggregated  -> dmaBlocks (queue_name, transfer_bytes, variable, source, dest, queue_type)
//   SemaphoreUpdate      -> semaphores: id "12" or "S[8] (qSyncSpillReload0)" (the name kept per core)
//   Throttle             -> throttle (type "activity_N" -> N, other text -> 255)
//   SbufUsage, PsumUsage -> counters "SBUF usage (average)", "SBUF usage (partitions 0-31)", "PSUM usage
//                           (bank 3)", ... (fractions, as written); DmaUsage / HbmUsage current_throughput
//                           -> "DMA throughput" / "HBM throughput" (bytes/s)
//   HbmUsageSummaryByType-> memoryUsage (neuroncore_idx -> the core of that number)
//   DmaQueuesInfo        -> dmaQueues (queues without packets; lanes with packets are named by them)
//   Metadata             -> version (ntff_version), last_hw_timestamp, num_physical_cores, versions,
//                           instance type; every column kept as neuron_profile.metadata.<column>, plus
//                           the JSON names the analyses read (pe_clock_freq = tensor_engine_clock_freq,
//                           pe_clock_others = scalar_engine_clock_freq, pe_num_rows / pe_num_cols)
//   Summary              -> neuron_profile.summary.<column> (seconds and 0-1 fractions as written);
//                           total_time -> totalTimePs, event_count -> eventRecordCount
//   NeffHeader           -> uuid, neffName (network_name); neuron_profile.neff_header.<column>
//   TensorInfo, Warning, ExecutionInfo -> neuron_profile.neff_node[i].*, neuron_profile.warnings[i].*,
//                           neuron_profile.execution_info[i].* (what the tensor table and the capture
//                           findings read from a JSON export)
//   CcOp, CcInstruction  -> lanes "collective ops" and "CC-Core N" of the NeuronCore; CoreBarriers ->
//   CoreBarriers, Error     "core barriers", Error -> "errors" (instants) of the physical core
//                           (NtffProfile::eventLanes; explorerdevicelanes.cpp)
//   SbufAllocation       -> counters "SBUF allocated (partitions 0-31)", ... (bytes)
//   ActiveTime           -> neuron_profile.active_time.<engine> (ns summed) and .intervals
//   FrameworkInstruction, HloInstruction -> the layer / HLO op of the instructions whose raw_framework_id
//                           / raw_hlo_id they name, where Instruction.layer / hlo_name gives none
//   Flow                 -> dependencies (flows "dependency" between instructions and DMA transfers)
// Physical cores: pcore_idx 0..num_physical_cores-1 ("sg00", "sg01"); a core's number (NtffCore::index,
// "pcore 4") is its DMA engines' (engine_idx / 16 on trn2), when they agree.
//
// Tolerated, as diagnostics in NtffProfile::diagnostics: an absent table (none of its rows; a note for
// Instruction, Metadata), absent columns (one note per table listing them), a column of another type
// (ProfileDirectory's warning; treated as absent), null values in required columns (rows skipped,
// counted), a Metadata.profile_schema_version whose major is not 7 or 12 (one warning: what is
// recognised is read). Errors (ImportError): the directory cannot be listed, or holds no device table.
#include "explorerdirectory.h"
#include "io/input/loadoptions.h"
#include "io/ntff/ntffprofile.h"

#include <string>

namespace lanescope {

class ExplorerDeviceReader
{
public:
    // Throws ImportError (the directory and why) or LoadCancelled.
    static NtffProfile read(const std::string &dir, const LoadOptions &options = {});
    static NtffProfile read(const explorer::ProfileDirectory &dir, const LoadOptions &options = {});
    // Whether `dir` (opened) holds a device table: Instruction, DmaPacket, DmaPacketAggregated,
    // SemaphoreUpdate, Metadata or Summary (the system tables are another reader's).
    static bool hasDeviceTables(const explorer::ProfileDirectory &dir);
};

} // namespace lanescope
