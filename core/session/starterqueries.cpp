#include "starterqueries.h"

#include <array>

namespace lanescope {

namespace {

constexpr std::array kStarters = {
    StarterQuery{
        "Slowest kernels and what launched them",
        "The 50 longest GPU kernels, the runtime call that launched each (the flow into the kernel) and the op "
        "that made that call. Pin it: every kernel on one lane, a click selects it.",
        "-- The 50 longest kernels, the launch call (flow into the kernel) and the op around that call\n"
        "SELECT k.id, k.ts, k.dur, k.name, k.track_id,\n"
        "       l.name AS launched_by, op.name AS op\n"
        "FROM slices k\n"
        "JOIN flows f ON f.to_slice_id = k.id\n"
        "JOIN slices l ON l.id = f.from_slice_id\n"
        "LEFT JOIN slices op ON op.id = l.parent_id\n"
        "WHERE lower(k.category) = 'kernel'\n"
        "ORDER BY k.dur DESC\n"
        "LIMIT 50;"},
    StarterQuery{
        "Gaps on the device",
        "The 100 longest idle gaps between top-level slices on each device track (GPU streams, NeuronCore "
        "engines and queues): where the device waited. Pin it to see them over the timeline.",
        "-- The longest gaps between top-level slices on device tracks (LAG over ts per track)\n"
        "SELECT track_id, prev_end AS ts, ts - prev_end AS dur,\n"
        "       'idle after ' || prev_name AS name, track\n"
        "FROM (SELECT s.track_id, s.ts, s.name, t.path AS track,\n"
        "             LAG(s.ts + s.dur) OVER (PARTITION BY s.track_id ORDER BY s.ts) AS prev_end,\n"
        "             LAG(s.name) OVER (PARTITION BY s.track_id ORDER BY s.ts) AS prev_name\n"
        "      FROM slices s\n"
        "      JOIN tracks t ON t.id = s.track_id\n"
        "      JOIN groups g ON g.id = t.group_id\n"
        "      WHERE s.depth = 0\n"
        "        AND (g.kind IN ('device', 'neuron_core', 'physical_core') OR t.name LIKE 'stream %'))\n"
        "WHERE ts > prev_end\n"
        "ORDER BY dur DESC\n"
        "LIMIT 100;"},
    StarterQuery{
        "Ops whose device time grew between two steps",
        "Device time per op (its kernels, through the launch flows) in the first two ProfilerStep#N steps, "
        "and the ops that took longer in the second. Change the step numbers to compare others.",
        "-- Device time per op in two ProfilerStep#N steps; the ops that grew\n"
        "WITH steps AS (\n"
        "  SELECT ts, ts + dur AS end_ts, ROW_NUMBER() OVER (ORDER BY ts) AS n\n"
        "  FROM slices WHERE name LIKE 'ProfilerStep#%' AND depth = 0),\n"
        "per_op AS (\n"
        "  SELECT op.name AS op, st.n AS step, SUM(k.dur) AS device_ns, COUNT(*) AS kernels\n"
        "  FROM flows f\n"
        "  JOIN slices k ON k.id = f.to_slice_id\n"
        "  JOIN slices l ON l.id = f.from_slice_id\n"
        "  JOIN slices op ON op.id = COALESCE(l.parent_id, l.id)\n"
        "  JOIN steps st ON l.ts >= st.ts AND l.ts < st.end_ts\n"
        "  WHERE lower(k.category) = 'kernel' AND st.n IN (1, 2)\n"
        "  GROUP BY op.name, st.n)\n"
        "SELECT a.op, a.device_ns AS step1_ns, b.device_ns AS step2_ns,\n"
        "       b.device_ns - a.device_ns AS grew_ns, a.kernels AS step1_kernels, b.kernels AS step2_kernels\n"
        "FROM per_op a JOIN per_op b ON b.op = a.op\n"
        "WHERE a.step = 1 AND b.step = 2 AND b.device_ns > a.device_ns\n"
        "ORDER BY grew_ns DESC\n"
        "LIMIT 50;"},
    StarterQuery{
        "Idle engines of each NeuronCore",
        "Every NeuronCore's engines, idlest first: the share of the trace each was active, its idle time and "
        "idle gaps (the engines table, as the Engines dock computes it).",
        "-- Each NeuronCore's engines, idlest first (the engines table)\n"
        "SELECT core, engine, active_percent, idle_time_ns / 1e6 AS idle_ms, idle_gap_count,\n"
        "       instruction_count, semaphore_wait_time_ns / 1e6 AS semaphore_wait_ms\n"
        "FROM engines\n"
        "ORDER BY core, active_percent;"},
    StarterQuery{
        "Slice names with the most time",
        "The ten slice names with the most total time (docs/sqlite-schema.md's first example).",
        "-- The ten slice names with the most total time\n"
        "SELECT name, COUNT(*) AS calls, SUM(dur) / 1e6 AS total_ms, AVG(dur) / 1e3 AS avg_us\n"
        "FROM slices GROUP BY name ORDER BY SUM(dur) DESC LIMIT 10;"},
};

} // namespace

std::span<const StarterQuery> StarterQueries::all() { return kStarters; }

} // namespace lanescope
