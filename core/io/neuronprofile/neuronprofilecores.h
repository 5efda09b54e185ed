#pragma once
// The physical cores of a neuron-profile JSON export, as NtffReader gives them for the NTFF it came from
// (NtffProfile::cores, every row's `core`). A trn2 logical NeuronCore is two physical cores: the 2.28
// export writes one model_info row per core (sg_name "sg00", nc_idx 4; "sg01", 5) and a "subgraph" on
// every row; 2.27 exports of one-core devices have one model_info row and no "subgraph" (every row is
// core 0). Windows of rows are parsed before model_info may have been seen (keys in any order), so the
// rows carry a provisional subgraph index while merged (adopt) and get their position in `cores` once
// the whole file is read (place):
//   cores        model_info rows in their order, then subgraphs only the rows name (a warning), at most
//                kNtffMaxCores; a core's `index` is nc_idx when the logical core has several (on one-core
//                devices the NTFF has none either)
//   rows         instruction, dma, semaphore_update and ham rows: their subgraph's position; rows without
//                one in an export whose rows name theirs are counted (the first core assumed)
//   semaphores   names keyed by core (NtffProfile::semaphoreNames)
//   memory       nc_mem_usage "nc" -> the core whose nc_idx it is
//   model_info   each core's five instruction counts checked against its rows (a warning when they
//                differ; a note in a cut file, whose rows end early); event_count summed
#include "io/ntff/ntffprofile.h"
#include "neuronprofilejsonpart.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

class NeuronProfileCores
{
public:
    // A part joins in file order: its subgraph indices become the profile's provisional ones (its rows,
    // queue lanes and semaphore names are rewritten), its rows without a subgraph are counted.
    void adopt(NeuronProfileJsonPart &part);

    // After the last part: fills profile.cores, rewrites every row's core, the semaphore-name keys and the
    // memory usage cores, checks model_info. `cut`: the file ended inside a row array (already warned).
    // Returns the position in `cores` of each provisional index (for the queue lanes the reader kept).
    std::array<uint8_t, 256> place(NtffProfile &profile, const NeuronProfileJsonTables &tables, bool cut);

    // The position in `cores` of a subgraph name after place(); 0 for "" and unknown names (`known` false).
    static uint8_t coreOf(const NtffProfile &profile, std::string_view subgraph, bool &known);

private:
    uint8_t provisional(const std::string &name, uint64_t offset);
    void checkModelInfo(NtffProfile &profile, const NeuronProfileJsonTables &tables,
                        const std::vector<int> &modelInfoCore, bool cut) const;

    std::vector<std::string> m_subgraphs; // provisional index -> name, in order of first use
    std::vector<uint64_t> m_first;        // parallel: file offset of the first row naming it
    std::array<NeuronProfileJsonPart::Unplaced, 4> m_without{}; // instruction, dma, semaphore_update, ham
    std::vector<std::pair<int64_t, uint64_t>> m_memoryNc;       // parallel to profile.memoryUsage
};

} // namespace lanescope
