// Writes a processed Neuron Explorer profile (schema 7.4.0, ../shared/docs/explorer-parquet.md: one
// Parquet file per table) from a neuron-profile 2.28 JSON export, with DuckDB (@duckdb/node-api, installed
// by setup-duckdb.sh into CACHE_DIR): an independent Parquet writer, and a JSON -> schema mapping written
// here from the schema reference, not from Lanescope's reader. Test data for ExplorerDeviceReader.
//   - field names and types as the schema documents them: i64 -> BIGINT, i32 -> INTEGER, f32 -> FLOAT,
//     str -> VARCHAR, bool -> BOOLEAN; times are the JSON's ns, unchanged (device clock)
//   - codecs vary by table (ZSTD, SNAPPY, GZIP, UNCOMPRESSED), small row groups (several per file),
//     DuckDB's dictionary encoding for strings; Instruction is split into Instruction_0.parquet and
//     Instruction_1.parquet (first half, second half)
//   - a table is written only when the JSON has rows for it (a missing file means "none")
// Ids (Instruction.id, DmaPacket.id, packet_aggregation_id) are row numbers: the JSON's 64-bit ids do not
// survive JSON.parse as numbers. PsumUsage's bank_N_util_percent are the JSON's psum rows' bank_N_usage.
// The compiler hierarchy: FrameworkInstruction has one row per distinct instruction "layer", HloInstruction
// one per distinct "hlo_name" (raw_framework_id / raw_hlo_id numbered 1.. in order of first use, also
// written on the Instruction rows); Flow has one row per entry of the instructions' "predecessors" (in =
// the predecessor, out = the instruction; in_id / out_id their Instruction.id).
// Usage: node explorer-from-json.mjs CACHE_DIR JSON_FILE OUT_DIR [--row-group N]
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const [cacheDir, jsonFile, outDir] = args;
const rgAt = args.indexOf('--row-group');
const rowGroup = rgAt >= 0 ? Number(args[rgAt + 1]) : 64;
const require = createRequire(path.resolve(cacheDir) + '/');
const { DuckDBInstance } = require('@duckdb/node-api');

// The rows' 64-bit "id"s (the instructions' predecessors name them) kept exact: read as text
const j = JSON.parse(fs.readFileSync(jsonFile, 'utf8').replace(/"id":\s*(-?\d+)/g, '"id": "$1"'));
fs.mkdirSync(outDir, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'explorer-from-json-'));

// Physical core of a 2.28 row: its "subgraph"'s position among model_info's sg_name rows.
const subgraphs = (j.model_info || []).map((m) => m.sg_name);
const pcore = (sg) => {
  if (sg === undefined || sg === null || sg === '') return null;
  const i = subgraphs.indexOf(sg);
  return i >= 0 ? i : Number(String(sg).replace(/\D/g, '')) || 0;
};
const num = (v) => (v === undefined || v === null || v === '' ? null : Number(v));
const int = (v) => (num(v) === null || Number.isNaN(num(v)) ? null : Math.round(num(v)));
const str = (v) => (v === undefined || v === null ? null : String(v));
const first = (v) => { // [["WEIGHT"]] -> "[WEIGHT]", as DmaPacketAggregated's source / dest texts ("[SB]")
  while (Array.isArray(v)) v = v[0];
  return v === undefined ? null : '[' + v + ']';
};

const written = []; // [table, [[field, type], ...]]
const codecs = ['ZSTD', 'SNAPPY', 'GZIP', 'UNCOMPRESSED'];
let codecTurn = 0;
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
await db.run('SET threads = 1');
await db.run('SET preserve_insertion_order = true');

// Writes `rows` (objects) as FILE.parquet with the typed `fields` ([name, DuckDB type]).
async function write(file, table, fields, rows, codec) {
  if (rows.length === 0 || fields.length === 0) return;
  const nd = path.join(tmp, file + '.ndjson');
  fs.writeFileSync(nd, rows.map((r) => JSON.stringify(Object.fromEntries(fields.map(([f]) => [f, r[f] ?? null])))).join('\n') + '\n');
  const columns = '{' + fields.map(([f, t]) => `'${f}': '${t}'`).join(', ') + '}';
  const c = codec || codecs[codecTurn++ % codecs.length];
  // DuckDB's writer cuts row groups at its chunks (2048 rows): the rows are given in slices of `rowGroup`
  // (one thread, insertion order kept) so that each slice is a row group of its own.
  await db.run(`CREATE OR REPLACE TABLE src AS SELECT * FROM read_json('${nd}', format = 'newline_delimited', columns = ${columns})`);
  const slices = [];
  for (let at = 0; at < rows.length; at += rowGroup)
    slices.push(`SELECT * FROM src WHERE rowid >= ${at} AND rowid < ${at + rowGroup}`);
  await db.run(`COPY (${slices.join(' UNION ALL ')}) TO '${path.join(outDir, file + '.parquet')}' ` +
               `(FORMAT PARQUET, COMPRESSION ${c}, ROW_GROUP_SIZE ${rowGroup})`);
  if (!written.some(([t]) => t === table)) written.push([table, fields]);
}

const B = 'BIGINT', I = 'INTEGER', F = 'FLOAT', S = 'VARCHAR', Bool = 'BOOLEAN';

// Instruction (one row per instruction execution)
const instructionFields = [['start_ts', B], ['end_ts', B], ['duration_ns', B], ['engine', S], ['timeline_track', S],
  ['pcore_idx', B], ['opcode', S], ['operands', S], ['id', B], ['pc', B], ['compiler_pc', B], ['penguin_id', S],
  ['raw_penguin_id', B], ['bir_id', S], ['raw_bir_id', B], ['bir_instruction_name', S], ['hlo_attrs', S],
  ['hlo_name', S], ['layer', S], ['crc_in', B], ['crc_out', B], ['evt_wait_time_ns', B],
  ['tensor_instruction_type', S], ['scalar_activation_fn', S], ['raw_framework_id', B], ['raw_hlo_id', B]];
const frameworkIds = new Map(), hloIds = new Map();
const keyOf = (ids, name) => {
  if (name === undefined || name === null || name === '') return null;
  if (!ids.has(name)) ids.set(name, ids.size + 1);
  return ids.get(name);
};
const instructions = (j.instruction || []).map((r, i) => ({
  start_ts: int(r.timestamp), end_ts: int(r.timestamp) + int(r.duration), duration_ns: int(r.duration),
  engine: str(r.subgroup), timeline_track: str(r.label), pcore_idx: pcore(r.subgraph), opcode: str(r.opcode),
  operands: str(r.operands), id: i, pc: int(r.pc), compiler_pc: int(r.compiler_pc), penguin_id: str(r.penguin_id),
  raw_penguin_id: int(r.raw_penguin_id), bir_id: str(r.bir_id), raw_bir_id: int(r.raw_bir_id),
  bir_instruction_name: str(r.bir_instruction_name), hlo_attrs: str(r.hlo_attrs), hlo_name: str(r.hlo_name),
  layer: str(r.layer), crc_in: int(r.crc_in), crc_out: int(r.crc_out), evt_wait_time_ns: int(r.evt_wait_time),
  tensor_instruction_type: str(r.instruction_type), scalar_activation_fn: str(r.activation_fn),
  raw_framework_id: keyOf(frameworkIds, r.layer), raw_hlo_id: keyOf(hloIds, r.hlo_name),
}));
const half = Math.ceil(instructions.length / 2);
await write('Instruction_0', 'Instruction', instructionFields, instructions.slice(0, half), 'ZSTD');
await write('Instruction_1', 'Instruction', instructionFields, instructions.slice(half), 'SNAPPY');

// FrameworkInstruction, HloInstruction: one row per layer / HLO op, spanning its instructions
const hierarchyFields = (nameField) => [['id', B], ['raw_bir_id', B], ['raw_penguin_id', B], ['raw_hlo_id', B],
  ['raw_framework_id', B], [nameField, S], ['modular_flow_invocation_idx', B], ['start_ts', B], ['end_ts', B],
  ['time_intervals', S], ['element_count_per_interval', 'BIGINT[]'], ['transpose_element_count_per_interval', 'BIGINT[]'],
  ['hbm_transfer_size_per_interval', 'BIGINT[]'], ['hbm_read_bytes', B], ['hbm_write_bytes', B]];
const hierarchyRows = (ids, idField, nameField, nameOf) => [...ids].map(([name, key]) => {
  const rows = (j.instruction || []).map((r, i) => [r, i]).filter(([r]) => nameOf(r) === name);
  const start = Math.min(...rows.map(([r]) => int(r.timestamp)));
  const end = Math.max(...rows.map(([r]) => int(r.timestamp) + int(r.duration)));
  return { id: rows[0][1], raw_bir_id: 0, raw_penguin_id: 0, raw_hlo_id: idField === 'raw_hlo_id' ? key : 0,
    raw_framework_id: idField === 'raw_framework_id' ? key : 0, [nameField]: name, modular_flow_invocation_idx: 0,
    start_ts: start, end_ts: end, time_intervals: `[[${start}, ${end}]]`, element_count_per_interval: [0],
    transpose_element_count_per_interval: [0], hbm_transfer_size_per_interval: [0],
    hbm_read_bytes: rows.reduce((a, [r]) => a + (int(r.hbm_read_bytes) || 0), 0),
    hbm_write_bytes: rows.reduce((a, [r]) => a + (int(r.hbm_write_bytes) || 0), 0) };
});
await write('FrameworkInstruction', 'FrameworkInstruction', hierarchyFields('framework_name'),
  hierarchyRows(frameworkIds, 'raw_framework_id', 'framework_name', (r) => r.layer));
await write('HloInstruction', 'HloInstruction', hierarchyFields('hlo_name'),
  hierarchyRows(hloIds, 'raw_hlo_id', 'hlo_name', (r) => r.hlo_name));

// Flow: the instructions' predecessors (predecessor -> instruction)
const rowOfId = new Map((j.instruction || []).map((r, i) => [String(r.id), i]));
await write('Flow', 'Flow', [['in_id', B], ['out_id', B], ['in_table', S], ['out_table', S], ['dependency_type', S],
  ['gap_time', B]], (j.instruction || []).flatMap((r, i) => (r.predecessors || []).filter((d) => rowOfId.has(String(d.id)))
  .map((d) => {
    const from = j.instruction[rowOfId.get(String(d.id))];
    return { in_id: rowOfId.get(String(d.id)), out_id: i, in_table: 'instruction', out_table: 'instruction',
      dependency_type: str(d.type), gap_time: int(r.timestamp) - int(from.timestamp) - int(from.duration) };
  })));

// DmaPacket ("aggregated": "no" rows) and DmaPacketAggregated ("yes" rows)
const aggregationIds = new Map();
const aggregationId = (v) => {
  const k = String(v);
  if (!aggregationIds.has(k)) aggregationIds.set(k, aggregationIds.size);
  return aggregationIds.get(k);
};
const dma = j.dma || [];
await write('DmaPacket', 'DmaPacket', [['start_ts', B], ['end_ts', B], ['duration_ns', B], ['pcore_idx', B], ['id', B],
  ['packet_idx', I], ['packet_aggregation_id', B], ['engine_idx', B], ['read_bytes', B], ['write_bytes', B],
  ['transfer_bytes', B], ['throughput', F], ['queue_type', S], ['variable', S], ['queue_name', S], ['queue_idx', B],
  ['crc', B]], dma.filter((r) => r.aggregated === 'no').map((r, i) => ({
  start_ts: int(r.timestamp), end_ts: int(r.timestamp) + int(r.duration), duration_ns: int(r.duration),
  pcore_idx: pcore(r.subgraph), id: i, packet_idx: int(r.packet_idx),
  packet_aggregation_id: aggregationId(r.packet_aggregation_id), engine_idx: int(r.dma_engine),
  read_bytes: int(r.read_size), write_bytes: int(r.write_size), transfer_bytes: int(r.transfer_size),
  throughput: num(r.transfer_rate), queue_type: str(r.queue_type), variable: str(r.variable),
  queue_name: str(r.subgroup), queue_idx: int(r.dma_queue), crc: int(r.crc),
})), 'GZIP');
await write('DmaPacketAggregated', 'DmaPacketAggregated', [['start_ts', B], ['end_ts', B], ['duration_ns', B], ['id', B],
  ['pcore_idx', B], ['block_id', I], ['queue_idx', B], ['queue_name', S], ['queue_type', S], ['op', S], ['variable', S],
  ['read_bytes', B], ['write_bytes', B], ['transfer_bytes', B], ['throughput', F], ['source', S], ['dest', S],
  ['semaphore_id', S]], dma.filter((r) => r.aggregated !== 'no').map((r) => ({
  start_ts: int(r.timestamp), end_ts: int(r.timestamp) + int(r.duration), duration_ns: int(r.duration),
  id: aggregationId(r.packet_aggregation_id ?? r.id), pcore_idx: pcore(r.subgraph), block_id: int(r.block_id),
  queue_idx: int(r.dma_queue), queue_name: str(r.subgroup), queue_type: str(r.queue_type), op: str(r.op),
  variable: str(r.variable), read_bytes: int(r.read_size), write_bytes: int(r.write_size),
  transfer_bytes: int(r.transfer_size), throughput: num(r.transfer_rate), source: first(r.source), dest: first(r.dest),
  semaphore_id: str(r.semaphore_id),
})));

// SemaphoreUpdate, Throttle ("ham"), ActiveTime, PendingDma
await write('SemaphoreUpdate', 'SemaphoreUpdate', [['timestamp', B], ['id', S], ['value', I], ['pcore_idx', B]],
  (j.semaphore_update || []).map((r) => ({ timestamp: int(r.timestamp), id: str(r.id), value: int(r.value),
    pcore_idx: pcore(r.subgraph) })), 'UNCOMPRESSED');
await write('Throttle', 'Throttle', [['duration', B], ['k', I], ['n', I], ['timestamp', B], ['type', S], ['pcore_idx', B]],
  (j.ham || []).map((r) => ({ duration: int(r.duration), k: int(r.k), n: int(r.n), timestamp: int(r.timestamp),
    type: r.type === undefined || r.type === null ? 'unknown' : 'activity_' + r.type, pcore_idx: pcore(r.subgraph) })));
await write('ActiveTime', 'ActiveTime', [['start_ts', B], ['end_ts', B], ['engine', S], ['pcore_idx', B], ['duration_ns', B]],
  (j.active_time || []).map((r) => ({ start_ts: int(r.start_ts), end_ts: int(r.end_ts), engine: str(r.engine),
    pcore_idx: int(r.pcore_idx ?? pcore(r.subgraph)), duration_ns: int(r.duration_ns) })));
await write('PendingDma', 'PendingDma', [['timestamp', B], ['value', I], ['pcore_idx', B]],
  (j.pending_dma || []).map((r) => ({ timestamp: int(r.timestamp), value: int(r.value), pcore_idx: pcore(r.subgraph) })));

// Usage series: instruction_usage "sb" -> SbufUsage, "psum" -> PsumUsage; dma_throughput -> DmaUsage, HbmUsage
const usage = j.instruction_usage || [];
const partitions = [0, 32, 64, 96];
await write('SbufUsage', 'SbufUsage', [['timestamp', B], ['avg_util_percent', F],
  ...partitions.map((p) => [`partition_${p}_util_percent`, F]), ['pcore_idx', B]],
  usage.filter((r) => r.type === 'sb').map((r) => ({ timestamp: int(r.timestamp), avg_util_percent: num(r.usage_avg),
    ...Object.fromEntries(partitions.map((p) => [`partition_${p}_util_percent`, num(r[`partition_${p}_usage`])])),
    pcore_idx: pcore(r.subgraph) })));
const banks = [0, 1, 2, 3, 4, 5, 6, 7];
await write('PsumUsage', 'PsumUsage', [['timestamp', B], ['avg_util_percent', F],
  ...banks.map((b) => [`bank_${b}_util_percent`, F]), ['pcore_idx', B]],
  usage.filter((r) => r.type === 'psum').map((r) => ({ timestamp: int(r.timestamp), avg_util_percent: num(r.usage_avg),
    ...Object.fromEntries(banks.map((b) => [`bank_${b}_util_percent`, num(r[`bank_${b}_usage`])])),
    pcore_idx: pcore(r.subgraph) })));
const throughput = j.dma_throughput || [];
const usageFields = [['timestamp', B], ['current_throughput', F], ['total_transfer_bytes', B], ['pcore_idx', B]];
await write('DmaUsage', 'DmaUsage', usageFields, throughput.map((r) => ({ timestamp: int(r.timestamp),
  current_throughput: num(r.transfer_rate), total_transfer_bytes: int(r.total_transfer_bytes), pcore_idx: pcore(r.subgraph) })));
await write('HbmUsage', 'HbmUsage', usageFields, throughput.map((r) => ({ timestamp: int(r.timestamp),
  current_throughput: num(r.hbm_transfer_rate), total_transfer_bytes: int(r.hbm_total_transfer_bytes),
  pcore_idx: pcore(r.subgraph) })));

// Summary: the schema's fields that the JSON summary has (seconds and 0-1 fractions as written)
const summary = (j.summary || [{}])[0] || {};
const summaryInts = ['neuroncore_cycle_count', 'model_flops', 'hardware_flops', 'transpose_flops', 'adjusted_hardware_flops',
  'adjusted_transpose_flops', 'trace_count', 'event_count', 'total_row_count', 'dma_active_cycles', 'dma_transfer_count',
  'dma_transfer_total_bytes', 'dma_queue_count', 'inputs_and_weights_size_bytes', 'inputs_outputs_weights_size_bytes',
  'weight_size_bytes', 'static_dma_packet_count', 'static_dma_size', 'software_dynamic_dma_packet_count',
  'software_dynamic_dma_size', 'hardware_dynamic_dma_packet_count', 'hardware_dynamic_dma_size', 'hbm_write_bytes',
  'hbm_read_bytes', 'sbuf_write_bytes', 'sbuf_read_bytes', 'spill_save_bytes', 'spill_reload_bytes', 'psum_write_bytes',
  'psum_read_bytes', 'psum_read_sbuf_write_count', 'psum_read_sbuf_write_bytes', 'input_queue_bytes', 'output_queue_bytes',
  'weight_queue_bytes', 'tensor_engine_instruction_count', 'matmul_instruction_count', 'vector_engine_instruction_count',
  'scalar_engine_instruction_count', 'sync_engine_instruction_count', 'gpsimd_engine_instruction_count',
  'activate_instruction_count', 'cc_op_count', 'cc_cores_instruction_count'];
const summaryFloats = ['total_time', 'total_exec_time', 'total_active_time', 'total_active_time_percent',
  'mm_arithmetic_intensity', 'peak_flops_bandwidth_ratio', 'dma_active_time', 'dma_active_time_percent',
  'static_dma_active_time', 'dynamic_dma_active_time_percent', 'static_dma_active_time_percent',
  'dma_transfer_average_bytes', 'dma_packet_time', 'dma_transfer_time', 'dynamic_dma_packet_percent',
  'static_dma_packet_percent', 'dynamic_dma_size_percent', 'static_dma_size_percent',
  ...['software', 'hardware'].flatMap((k) => [`${k}_dynamic_dma_active_time`, `${k}_dynamic_dma_active_time_percent`,
    `${k}_dynamic_dma_packet_percent`, `${k}_dynamic_dma_size_percent`]),
  'mbu_estimated_percent', 'mbu_min_read_util_percent', 'tensor_engine_instruction_time', 'tensor_engine_active_time',
  'tensor_engine_active_time_percent', 'mfu_estimated_percent', 'mfu_max_achievable_estimated_percent',
  'mfu_hlo_estimated_percent', 'mfu_hlo_max_achievable_estimated_percent', 'mfu_inst_estimated_percent',
  'mfu_inst_max_achievable_estimated_percent', 'hfu_estimated_percent',
  ...['vector', 'scalar', 'sync', 'gpsimd'].flatMap((e) => [`${e}_engine_instruction_time`, `${e}_engine_active_time`,
    `${e}_engine_active_time_percent`]),
  'activate_instruction_time', 'cc_op_time', 'cc_op_active_time', 'cc_op_active_time_percent', 'cc_cores_instruction_time',
  'cc_cores_instruction_active_time', 'cc_cores_instruction_active_time_percent'];
const summaryFields = [...summaryInts.filter((k) => k in summary).map((k) => [k, B]),
  ...summaryFloats.filter((k) => k in summary).map((k) => [k, F])];
await write('Summary', 'Summary', summaryFields,
  [Object.fromEntries(summaryFields.map(([k, t]) => [k, t === B ? int(summary[k]) : num(summary[k])]))]);

// Metadata (one row): the JSON's metadata, summary versions and profile_info
const md = (j.metadata || [{}])[0] || {};
const info = (j.profile_info || [{}])[0] || {};
await write('Metadata', 'Metadata', [['profile_schema_version', S], ['ntff_version', I], ['num_physical_cores', I],
  ['vnc_enabled', Bool], ['first_hw_timestamp', B], ['last_hw_timestamp', B], ['first_ts', S], ['last_ts', S],
  ['dma_ddr_bandwidth', F], ['num_dma_engines_per_neuroncore', I], ['hbm_ddr_bandwidth', F],
  ['tensor_engine_num_rows', B], ['tensor_engine_num_cols', B], ['tensor_engine_clock_freq', F],
  ['vector_engine_clock_freq', F], ['scalar_engine_clock_freq', F], ['gpsimd_engine_clock_freq', F],
  ['neuroncore_clock_freq', F], ['ticks_per_nanosec', B], ['instance_type', S], ['runtime_version', S],
  ['collectives_version', S], ['driver_version', S], ['explorer_version', S], ['compiler_version', S],
  ['neuroncore_idx', B], ['neuron_device_idx', B], ['profile_name', S], ['is_simulation', Bool]], [{
  profile_schema_version: '7.4.0', ntff_version: int(md.ntff_version), num_physical_cores: int(md.num_physical_cores),
  vnc_enabled: md.vnc_enabled ?? null, first_hw_timestamp: int(md.first_hw_timestamp),
  last_hw_timestamp: int(md.last_hw_timestamp), first_ts: str(md.first_ts), last_ts: str(md.last_ts),
  dma_ddr_bandwidth: num(md.dma_ddr_bandwidth), num_dma_engines_per_neuroncore: 16,
  hbm_ddr_bandwidth: num(md.hbm_ddr_bandwidth), tensor_engine_num_rows: int(md.pe_num_rows),
  tensor_engine_num_cols: int(md.pe_num_cols), tensor_engine_clock_freq: num(md.pe_clock_freq),
  vector_engine_clock_freq: num(md.pe_clock_others), scalar_engine_clock_freq: num(md.pe_clock_others),
  gpsimd_engine_clock_freq: num(md.pe_clock_others), neuroncore_clock_freq: num(md.pe_clock_others),
  ticks_per_nanosec: int(md.ticks_per_nanosec), instance_type: str(summary.instance_type),
  runtime_version: str(summary.runtime_version), collectives_version: str(summary.collectives_version),
  driver_version: str(summary.driver_version), explorer_version: str(info.profiler_version),
  compiler_version: str(summary.compiler_version), neuroncore_idx: int(summary.nc_idx),
  neuron_device_idx: int(summary.nd_idx), profile_name: str(info.profile_name), is_simulation: md.is_simulation ?? null,
}]);

// NeffHeader, ExecutionInfo, TensorInfo (neff_node), DmaQueuesInfo, HbmUsageSummaryByType (nc_mem_usage), Warning
const neff = (j.neff_header || [{}])[0] || {};
await write('NeffHeader', 'NeffHeader', [['network_name', S], ['uuid', S], ['hash', S], ['enabled_features', S],
  ['header_size', B], ['data_size', B], ['major_version', B], ['minor_version', B], ['package_version', S],
  ['build_version', S], ['logical_neuroncore_count', B], ['pcore_count_per_lnc', B]], [{
  network_name: str(neff.network_name), uuid: str(neff.uuid), hash: str(neff.hash), enabled_features: str(neff.enabled_features),
  header_size: int(neff.header_size), data_size: int(neff.data_size), major_version: int(neff.major_version),
  minor_version: int(neff.minor_version), package_version: str(neff.package_version), build_version: str(neff.build_version),
  logical_neuroncore_count: int(neff.number_of_logical_neuroncores), pcore_count_per_lnc: int(neff.number_of_neuroncores_per_lnc),
}]);
await write('ExecutionInfo', 'ExecutionInfo', [['execution_index', I], ['neff_name', S], ['execution_start_ts', B],
  ['execution_end_ts', B], ['num_subgraphs', I], ['row_count', B]], [{ execution_index: 0,
  neff_name: str(neff.network_name), execution_start_ts: int(md.first_hw_timestamp), execution_end_ts: int(md.last_hw_timestamp),
  num_subgraphs: int(md.num_subgraphs), row_count: int(md.total_point_count) }]);
await write('TensorInfo', 'TensorInfo', [['variable_name', S], ['type', S], ['format', S], ['shape', S], ['size', B],
  ['node', B], ['pcore_idx', B]], (j.neff_node || []).map((r) => ({ variable_name: str(r.variable_name), type: str(r.type),
  format: str(r.format), shape: str(r.shape), size: int(r.size), node: int(r.node), pcore_idx: pcore(r.sg_name) })));
await write('DmaQueuesInfo', 'DmaQueuesInfo', [['name', S], ['type', S], ['pcore_idx', B], ['idx', B], ['engine_idx', B],
  ['axi_port', B], ['dram_channel', B]], (j.dma_queues_info || []).map((r) => ({ name: str(r.q_name), type: str(r.q_type),
  pcore_idx: pcore(r.subgraph), idx: int(r.q_idx), engine_idx: int(r.q_eng_idx), axi_port: int(r.q_axi_port),
  dram_channel: int(r.q_dram_channel) })));
await write('HbmUsageSummaryByType', 'HbmUsageSummaryByType', [['neuron_device_idx', B], ['neuroncore_idx', B],
  ['usage_type', S], ['usage_bytes', B]], (j.nc_mem_usage || []).map((r) => ({ neuron_device_idx: int(r.nd),
  neuroncore_idx: int(r.nc), usage_type: str(r.usage_type), usage_bytes: int(r.amount_bytes) })));
await write('Warning', 'Warning', [['message', S], ['category', S]],
  (j.warnings || []).map((r) => ({ message: str(r.message), category: str(r.category) })));

// SchemaFields: what was written, one row per (table, field)
const typeName = { BIGINT: 'integer', INTEGER: 'integer', FLOAT: 'number', VARCHAR: 'string', BOOLEAN: 'boolean',
  'BIGINT[]': 'array' };
const formatName = { BIGINT: 'int64', INTEGER: 'int32', FLOAT: 'float' };
await write('SchemaFields', 'SchemaFields', [['table_name', S], ['table_description', S], ['field_name', S],
  ['field_description', S], ['field_type', S], ['field_required', Bool], ['field_format', S]],
  written.flatMap(([table, fields]) => fields.map(([f, t]) => ({ table_name: table, table_description: '', field_name: f,
    field_description: '', field_type: typeName[t], field_required: false, field_format: formatName[t] ?? null }))));

fs.rmSync(tmp, { recursive: true, force: true });
console.log(JSON.stringify({ tables: written.map(([t]) => t).sort(), instructions: instructions.length }));
