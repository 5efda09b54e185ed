#pragma once
// Parses one text of neuron-profile's JSON export (../shared/docs/formats.md section 4) with simdjson
// On-Demand into a NeuronProfileJsonPart: a window "[" rows "]" of "instruction", "dma",
// "semaphore_update" or "ham" (JsonWindowSplitter), or a top-level object text (the whole file, or the
// part before / between / after the windowed arrays, each of those standing as "[]"). Field rules:
//   instruction       -> instructions (label -> lane, subgroup -> engine, opcode name -> byte via
//                        ntffOpcodeName; names the table lacks are resolved when the part is merged)
//   dma               -> dma packets (rows with aggregated == "no"; block-level rows are counted, skipped),
//                        engines 0..255, queue_type kept
//   "subgraph" (2.28) -> each row's core as a part-local index (NeuronProfileJsonPart::subgraphs)
//   semaphore_update  -> semaphores ("12" or "S[8] (qSyncSpillReload0)": the number; the name is kept)
//   ham               -> throttle rows
//   nc_mem_usage      -> memoryUsage
//   metadata, neff_header, profile_info, summary, model_info, layer_summary, dma_queues_info, warnings,
//                        terminology -> the profile's fields and reportedMetadata (NeuronProfileJsonTables)
// Every offset is a file offset. Rows with missing or invalid fields are skipped (or given a default,
// for optional fields) with counted warnings.
#include "io/input/loadoptions.h"
#include "io/json/jsonwindowsplitter.h"
#include "neuronprofilejsonpart.h"

#include <simdjson.h>

#include <string>

namespace lanescope {

class InputBuffer;

class NeuronProfileJsonParser
{
public:
    // The keys whose arrays are read in windows, in the order of JsonWindow::key.
    static const std::vector<std::string> &windowedKeys();

    // A window of windowedKeys()[window.key]. Never throws: a failure is kept in out.error. Checks
    // cancel, never reports progress (any thread). `parser`: reused across one thread's windows.
    static void parseWindow(JsonWindow &window, const std::string &name, const LoadOptions &options,
                            simdjson::ondemand::parser *parser, NeuronProfileJsonPart &out);

    enum class Piece { Whole, Before, Between, After };
    // A top-level object text starting at file offset `offset` (Before / Between end in the "[]" of a
    // windowed array and "}"; After starts with "{" standing for the array's ']'). Small tables go to
    // `tables`, rows to `out`. Reports progress; throws ImportError or LoadCancelled.
    static void parsePiece(InputBuffer &text, uint64_t offset, Piece piece, const std::string &name,
                           const LoadOptions &options, NeuronProfileJsonTables &tables, NeuronProfileJsonPart &out);
};

} // namespace lanescope
