#pragma once
// Reader for neuron-profile's legacy JSON export (`neuron-profile view --output-format json`, see
// ../shared/docs/formats.md section 4): one object of arrays, keys in any order (and repeated). Read
// from an InputStream (plain, gzip or zstd streamed from disk, or text in memory) in bounded memory:
// the "instruction", "dma", "semaphore_update" and "ham" arrays are cut into windows of whole rows
// (JsonWindowSplitter, LoadOptions::jsonWindowBytes) parsed with simdjson On-Demand on
// LoadOptions::jsonThreads threads (windowpipeline.h, NeuronProfileJsonParser) and merged in file
// order with the small tables around them, so the profile is the one a single pass builds: the same
// rows, opcode codes, names and warnings with the same first offsets, whatever the window size or
// thread count. It is the NtffProfile NtffReader decodes from the NTFF the JSON was exported from, so
// both go through NtffImporter::build:
//   instruction       -> instructions (label -> lane, subgroup -> engine, opcode name -> byte via
//                        ntffOpcodeName, names the table lacks kept in extraOpcodeNames)
//   dma               -> dma packets (rows with aggregated == "no"; block-level rows are counted, skipped);
//                        dma_engine 0..255 (trn2: 64..95 = 16 x physical core + engine), "queue_type"
//                        ("hardware_dynamic", ...) kept in dmaTags
//   subgraph (2.28)   -> every row's physical core; model_info (one row per core: sg_name, nc_idx) -> cores,
//                        its per-core instruction counts checked against the rows (NeuronProfileCores);
//                        rows without one (2.27) are the one core
//   semaphore_update  -> semaphores ("12" or "S[8] (qSyncSpillReload0)": the number; the name is kept
//                        in semaphoreNames)
//   ham               -> throttle rows
//   dma_queues_info   -> dmaQueues; but a queue that carried packets is named as neuron-profile named
//                        its lane on those rows ("qSyncSpillReload0-Q1-E0"), or left unnamed where the
//                        rows say "Q0-E15" (software DGE queues), so the tracks match neuron-profile's
//   metadata, neff_header, profile_info, summary, model_info -> version, uuid, names, versions, total
//                        time; these, layer_summary, dma_queues_info, warnings (neuron-profile's own:
//                        category, message; the capture-profiler-warning findings) and terminology (the
//                        definition of each summary metric) are also kept verbatim in reportedMetadata as
//                        "neuron_profile.<table>.<key>" ("neuron_profile.<table>[i].<key>" for row i > 0;
//                        layer_summary, dma_queues_info and warnings rows always carry their index)
// Progress is reported 200..900 per window (by the input read) and cancel checked per window and every
// kCheckEvery rows.
//
// Errors (ImportError naming the file, byte offset and expectation): not a JSON object, no
// "instruction" array, invalid or truncated JSON. Rows with missing or invalid fields are skipped (or
// given a default, for optional fields) with counted warnings in NtffProfile::diagnostics.
#include "io/input/loadoptions.h"
#include "io/ntff/ntffprofile.h"
#include "neuronprofilejsonpart.h"

#include <cstdint>
#include <string>

namespace lanescope {

class InputBuffer;
class InputStream;

class NeuronProfileJsonReader
{
public:
    static constexpr uint64_t kCheckEvery = kNeuronProfileCheckEvery; // rows between cancel checks / progress reports

    // Throws ImportError or LoadCancelled (a decoder's error, e.g. a truncated gzip member, as
    // InputStream throws it: file and compressed offset).
    static NtffProfile read(InputStream &input, const LoadOptions &options = {});
    // Bytes already in memory, read the same way (InputStream's in-memory form, no copy of the text).
    static NtffProfile read(InputBuffer &input, const std::string &name, const LoadOptions &options = {});
};

} // namespace lanescope
