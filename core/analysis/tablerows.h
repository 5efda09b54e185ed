#pragma once
// The row description of every table the CLI prints, the SQLite export writes and the GUI's Analysis
// panel shows: one list of columns (key, header, type and unit, accessor, outputs) per table. The
// CLI's --json and --format csv (core/util/tablerowwriter.h), core/store/sqliteexporter.cpp and the
// GUI's table models (columns marked OutGui, headers as titles) read these, so each table's columns
// are listed here once. JSON keys are the documented ones (README, docs/sqlite-schema.md).
#include "collectivematch.h"
#include "collectivetable.h"
#include "commoverlap.h"
#include "devicesummary.h"
#include "enginebreakdown.h"
#include "kerneltable.h"
#include "opbreakdown.h"
#include "optable.h"
#include "profilediff.h"
#include "ranksteptable.h"
#include "tensortable.h"
#include "util/tablecolumn.h"

namespace lanescope {

class TableRows
{
public:
    // `ops`: OpTable rows; input_shapes only when grouped by shapes (the GUI takes it always and hides
    // the column). SQLite table `ops`.
    static const RowDescription<OpTable::Row> &ops(bool withShapes = false);
    // `kernels`: KernelTable rows. SQLite table `kernels`.
    static const RowDescription<KernelTable::Row> &kernels();
    // `devices`: DeviceSummary rows. SQLite table `devices`.
    static const RowDescription<DeviceSummary::Row> &devices();
    // `engines`: one Neuron engine of a core (EngineBreakdown). SQLite table `engines`.
    static const RowDescription<EngineBreakdownRow> &engines();
    // `engines` --table dma: one DMA queue of a core. SQLite table `dma_queues`.
    static const RowDescription<DmaQueueBreakdownRow> &dmaQueues();
    // `engines` --table cores: DMA totals and MFU / HFU per core.
    static const RowDescription<CoreBreakdown> &cores();
    // `engines --by layer|hlo`: one layer / HLO op of a core (OpBreakdown), per engine in neuron-profile's
    // layer_summary names plus a unit ("tensor_engine_active_time_ns"); FLOPs / MFU / HFU null when not
    // reported.
    static const RowDescription<OpBreakdownRow> &opRows();
    // `tensors`: one tensor of the NEFF (TensorTable), neuron-profile's load_to_sbuf_* names. SQLite table
    // `tensors`.
    static const RowDescription<TensorRow> &tensors();
    // `collectives`: one kind / process group / message size of NCCL collectives (CollectiveTable),
    // across ranks (rank null) or per rank. SQLite table `collectives` (rows, then perRank).
    static const RowDescription<CollectiveRow> &collectives();
    // `collectives` "overlap" / "overlap_steps": CommOverlap rows (rank null on a single-rank trace,
    // step null on a device's total row; overlap_pct null without communication).
    static const RowDescription<CommOverlapRow> &overlap();
    // `collectives` "skew": one collective matched across ranks (CollectiveMatch).
    static const RowDescription<MatchedCollective> &matchedCollectives();
    // `collectives` "lateness": per rank, how often and how late it entered matched collectives last.
    static const RowDescription<RankLateness> &rankLateness();
    // `diff`: op and kernel rows (delta_pct null for rows new in B), engine rows.
    static const RowDescription<DiffRow> &diffRows();
    static const RowDescription<EngineDiffRow> &engineDiffRows();
    // `info` of a multi-rank trace: RankStepTable rows (JSON `ranks`; straggler 1 or 0).
    static const RowDescription<RankStepTable::Row> &rankSteps();
    // A percentage rounded to 3 decimals as diff prints it; null when there is none.
    static Cell roundedPercent(std::optional<double> pct);
};

} // namespace lanescope
