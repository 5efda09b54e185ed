// The rows of a processed Neuron Explorer profile that neither an NTFF nor neuron-profile's JSON export
// carries, each on a lane of its own (NtffEventLane, built by NtffImporter::build):
//   CcOp          -> "collective ops" of the NeuronCore: one slice per collective operation, named as
//                    its operation ("AllGather"), args algorithm, dtype, num_elements, op_id, stream_id,
//                    stream_index, trigger_engine, input_size, output_size, algorithm_bandwidth,
//                    bus_bandwidth, trigger_start_ts, cc_trigger_start_delay, replica_group(_id)
//   CcInstruction -> "CC-Core N" of the NeuronCore (N = core_idx): one slice per instruction of that
//                    collective core, named as its firmware name (description), args trigger_engine,
//                    trigger_start_ts
//   CoreBarriers  -> "core barriers" of the physical core (pcore_idx): named as the compiler opcode
//                    (PSEUDO_CORE_BARRIER), args engine (engine_name), id, semaphore, compiler_pc,
//                    compiler_operands
//   Error         -> "errors" of the physical core: instants named as the description ("DMA2D OOB"), args
//                    type, error_type_id, metadata, metadata_hex
#include "explorerdevicestate.h"

#include <algorithm>

namespace lanescope::explorer {

namespace {

// Sort indices among a lane set's lanes: engine lanes are 0..5, "DMA transfers" 99, DMA queues 100...
constexpr int64_t kBarrierSort = 10, kErrorSort = 11, kCcOpSort = 50, kCcCoreSort = 51;

} // namespace

void readCollectives(DeviceState &s)
{
    NtffProfile &p = s.profile;
    if (DeviceTable c(s, "CcOp"); c) {
        const auto *start = c.integer("start_ts");
        const auto *duration = c.integer("duration_ns");
        const auto *end = c.integer("end_ts");
        const auto *operation = c.text("operation");
        const auto *algorithm = c.text("algorithm");
        const auto *elements = c.integer("num_elements");
        const auto *dtype = c.text("dtype");
        const auto *opId = c.integer("op_id");
        const auto *streamId = c.integer("stream_id");
        const auto *streamIndex = c.integer("stream_index");
        const auto *trigger = c.text("trigger_engine");
        const auto *input = c.integer("input_size");
        const auto *output = c.integer("output_size");
        const auto *algBw = c.real("algorithm_bandwidth");
        const auto *busBw = c.real("bus_bandwidth");
        const auto *triggerStart = c.integer("trigger_start_ts");
        const auto *delay = c.integer("cc_trigger_start_delay");
        const auto *groupId = c.integer("replica_group_id");
        const auto *group = c.text("replica_group");
        c.note("those values are absent from the collective ops");
        RowProblems problems;
        const uint32_t lane = s.eventLane("collective ops", "cc_op", kNtffLogicalCore, kCcOpSort);
        for (size_t row = 0; row < c.rows(); ++row) {
            const auto ts = intAt(start, row);
            const int64_t dur = durationOf(duration, end, ts, row);
            if (!ts || dur < 0) {
                problems.add(std::string("CcOp rows without a valid ") + (!ts ? "start_ts" : "duration_ns (or end_ts)") + " (skipped)");
                continue;
            }
            s.beginEvent();
            s.argText("algorithm", textAt(algorithm, row));
            s.argText("dtype", textAt(dtype, row));
            s.argInt("num_elements", intAt(elements, row));
            s.argInt("op_id", intAt(opId, row));
            s.argInt("stream_id", intAt(streamId, row));
            s.argInt("stream_index", intAt(streamIndex, row));
            s.argText("trigger_engine", textAt(trigger, row));
            s.argInt("input_size", intAt(input, row));
            s.argInt("output_size", intAt(output, row));
            s.argReal("algorithm_bandwidth", realAt(algBw, row));
            s.argReal("bus_bandwidth", realAt(busBw, row));
            s.argInt("trigger_start_ts", intAt(triggerStart, row));
            s.argInt("cc_trigger_start_delay", intAt(delay, row));
            s.argInt("replica_group_id", intAt(groupId, row));
            s.argText("replica_group", textAt(group, row));
            s.addEvent(lane, *ts, dur, textAt(operation, row).value_or("collective op"));
        }
        s.rowsRead += c.rows();
        problems.report(p.diagnostics, c.where());
    }
    if (DeviceTable c(s, "CcInstruction"); c) {
        const auto *start = c.integer("start_ts");
        const auto *duration = c.integer("duration_ns");
        const auto *end = c.integer("end_ts");
        const auto *core = c.integer("core_idx");
        const auto *description = c.text("description");
        const auto *trigger = c.text("trigger_engine");
        const auto *triggerStart = c.integer("trigger_start_ts");
        c.note("those values are absent from the collective-core instructions");
        RowProblems problems;
        for (size_t row = 0; row < c.rows(); ++row) {
            const auto ts = intAt(start, row);
            const int64_t dur = durationOf(duration, end, ts, row);
            const auto k = intAt(core, row);
            if (!ts || dur < 0 || !k || *k < 0 || *k > 255) {
                problems.add(std::string("CcInstruction rows without a valid ") +
                             (!ts ? "start_ts" : dur < 0 ? "duration_ns (or end_ts)" : "core_idx (0..255)") + " (skipped)");
                continue;
            }
            const uint32_t lane = s.eventLane("CC-Core " + std::to_string(*k), "cc_instruction", kNtffLogicalCore, kCcCoreSort + *k);
            s.beginEvent();
            s.argText("trigger_engine", textAt(trigger, row));
            s.argInt("trigger_start_ts", intAt(triggerStart, row));
            s.addEvent(lane, *ts, dur, textAt(description, row).value_or("cc instruction"));
        }
        s.rowsRead += c.rows();
        problems.report(p.diagnostics, c.where());
    }
    if (DeviceTable c(s, "CoreBarriers"); c) {
        const auto *start = c.integer("start_ts");
        const auto *duration = c.integer("duration_ns");
        const auto *end = c.integer("end_ts");
        const auto *engine = c.text("engine_name");
        const auto *id = c.integer("id");
        const auto *semaphore = c.integer("semaphore");
        const auto *compilerPc = c.integer("compiler_pc");
        const auto *opcode = c.text("compiler_opcode");
        const auto *operands = c.text("compiler_operands");
        const auto *pcore = c.integer("pcore_idx");
        c.note("those values are absent from the core barriers");
        RowProblems problems;
        for (size_t row = 0; row < c.rows(); ++row) {
            const auto ts = intAt(start, row);
            const int64_t dur = durationOf(duration, end, ts, row);
            if (!ts || dur < 0) {
                problems.add(std::string("CoreBarriers rows without a valid ") + (!ts ? "start_ts" : "duration_ns (or end_ts)") +
                             " (skipped)");
                continue;
            }
            const uint32_t lane = s.eventLane("core barriers", "core_barrier", s.core(intAt(pcore, row), problems), kBarrierSort);
            s.beginEvent();
            s.argText("engine", textAt(engine, row));
            s.argInt("id", intAt(id, row));
            s.argInt("semaphore", intAt(semaphore, row));
            s.argInt("compiler_pc", intAt(compilerPc, row));
            s.argText("compiler_operands", textAt(operands, row));
            s.addEvent(lane, *ts, dur, textAt(opcode, row).value_or("core barrier"));
        }
        s.rowsRead += c.rows();
        problems.report(p.diagnostics, c.where());
    }
}

void readErrors(DeviceState &s)
{
    NtffProfile &p = s.profile;
    DeviceTable c(s, "Error");
    if (!c)
        return;
    const auto *ts = c.integer("timestamp");
    const auto *description = c.text("description");
    const auto *type = c.text("type");
    const auto *typeId = c.integer("error_type_id");
    const auto *metadata = c.text("metadata");
    const auto *hex = c.text("metadata_hex");
    const auto *pcore = c.integer("pcore_idx");
    c.note("those values are absent from the errors");
    RowProblems problems;
    for (size_t row = 0; row < c.rows(); ++row) {
        const auto time = intAt(ts, row);
        if (!time) {
            problems.add("Error rows without a valid timestamp (skipped)");
            continue;
        }
        const uint32_t lane = s.eventLane("errors", "hardware_error", s.core(intAt(pcore, row), problems), kErrorSort);
        s.beginEvent();
        s.argText("type", textAt(type, row));
        s.argInt("error_type_id", intAt(typeId, row));
        s.argText("metadata", textAt(metadata, row));
        s.argText("metadata_hex", textAt(hex, row));
        s.addEvent(lane, *time, -1, textAt(description, row).value_or("error"));
    }
    s.rowsRead += c.rows();
    problems.report(p.diagnostics, c.where());
}

} // namespace lanescope::explorer
