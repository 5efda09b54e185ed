#pragma once
// The tensors of a device profile and what moved them (`lanescope-cli tensors`, the Tensors dock): one row
// per tensor of the NEFF as neuron-profile lists it (JSON neff_node: variable name, type IN / OUT / WEIGHT,
// format, shape, size), plus any tensor the DMA rows name that neff_node lacks. A profile folder's paired
// NEFFs list theirs instead (metadata "<ntff>: neff.variable[i].*": name, type input / output / ...,
// dtype as the format, shape, size), one row per tensor and NEFF; the NTFF names no tensor on its
// DMAs, so those rows have no DMA numbers. Per tensor, from the
// trace's DMA slices tagged with it (model/hierarchynames.h):
//   packets, packet bytes   DMA packets on the queue lanes whose "variable" is the tensor
//   transfers, bytes        DMA transfers (the "DMA transfers" lane: neuron-profile's aggregated rows);
//                           by direction "source -> dest" ("WEIGHT -> SB")
//   load to SBUF            transfers into SBUF ("dest" SB): count, total and average bytes, and the
//                           repeat factor = total / the tensor's size (neuron-profile's
//                           load_to_sbuf_{dma_count,total_size_bytes,avg_size_bytes,repeat_factor};
//                           checked equal on every corpus JSON, tests/core/analysis/tst_tensortable.cpp)
// slicesOf() finds a tensor's DMAs for the timeline.
#include "model/ids.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

class Trace;

struct TensorRow
{
    std::string name;
    std::string program; // a profile folder: the NEFF that lists it ("stream_256k_fd1k.neff"); "" for neff_node
    std::string type, format, shape; // as neff_node has them ("" when unknown)
    std::optional<uint64_t> sizeBytes;
    bool listed = true; // in neff_node (false: only the DMA rows name it)
    uint64_t packets = 0, packetBytes = 0;
    uint64_t transfers = 0, transferBytes = 0;
    std::vector<std::pair<std::string, uint64_t>> bytesByDirection; // "WEIGHT -> SB", transfer bytes (else packet bytes)
    uint64_t loadToSbufCount = 0, loadToSbufBytes = 0;
    std::optional<double> loadToSbufAvgBytes, repeatFactor;
};

struct TensorTableResult
{
    std::vector<TensorRow> rows; // neff_node order, then the others by name
    bool listedAny = false;      // the trace has neff_node rows (or NEFF variables)
    bool fromNeff = false;       // the rows are a profile folder's NEFF variables
    std::string note;            // what is missing, when something is
};

class TensorTable
{
public:
    static TensorTableResult compute(const Trace &trace);
    // Cheap: whether compute() would list any tensor (neff_node, a paired NEFF's variables, tagged DMAs).
    static bool hasTensors(const Trace &trace);
    // Every DMA packet and transfer slice that moves `tensor`, in time order.
    static std::vector<SliceId> slicesOf(const Trace &trace, std::string_view tensor);
    // "WEIGHT -> SB: 32.0 KiB, ..." for one row.
    static std::string directionsText(const TensorRow &row);
};

} // namespace lanescope
