// Writes Neuron Explorer's system tables (SystemProfileEvents, CpuUsage, HostMemUsage; the schema of
// ../shared/docs/explorer-parquet.md section 2.7) from an independent listing of a capture's records:
// the Parquet export (`lanescope-cli export-parquet ntrace.pb -o EXPORT_DIR`, docs/parquet.md) of the
// capture's ntrace.pb, read here with DuckDB and mapped column by column in JS:
//   slice / instant   -> one SystemProfileEvents row: id, name, start_ts = ts, end_ts = ts + dur,
//                        duration_ns = dur, trace_event_source = the slice's category (neuron_rt,
//                        neuron_hw, framework), instance_id / process_id from the lane's group path
//                        ("instance I / process P"), nc_idx from the lane name ("NC n"), pcore_idx from
//                        it ("core C"), thread_id and worker_gid from the args of those names, every other
//                        arg into extra_attributes_json (numbers as JSON numbers, text as JSON strings)
//   flow              -> its id (decimal text) in the flow_id list of both its slices
//   counters "cpu_util · CPU n" -> CpuUsage (cpu_id "n"; "cpu_util" -> "average"), util_percent FLOAT
//   counter "mem_usage (bytes)" -> HostMemUsage used_bytes; used_percent = used_bytes / the session's
//                        host memory (meta trace.session.host_memory_bytes) x 100
// The device memory counters have no row in these tables (SystemProfileHbmUsage is per HBM, not per
// NeuronCore and usage type) and are not written.
// SystemProfileEvents is written as two numbered splits (_0: the first half of the rows, _1 the rest).
// Prints what it wrote as JSON: {"events": N, "instants": N, "flows": N, "cpu": N, "mem": N, "lanes": {...}}.
// Usage: node explorer-system-from-capture.mjs CACHE_DIR EXPORT_DIR OUT_DIR
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [cacheDir, exportDir, outDir] = process.argv.slice(2);
const require = createRequire(path.resolve(cacheDir) + '/');
const { DuckDBInstance } = require('@duckdb/node-api');

const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
const table = (name) => `read_parquet('${path.join(exportDir, name + '.parquet')}')`;
async function rows(sql) {
  const r = await db.runAndReadAll(sql);
  const cols = r.columnNames();
  return r.getRowsJson().map((a) => Object.fromEntries(cols.map((c, i) => [c, a[i]])));
}

// Lanes: the group path gives instance and process, the name NeuronCore, physical core, thread.
const lanes = new Map();
for (const t of await rows(`SELECT t.id, t.name, t.kind, g.path AS gpath FROM ${table('tracks')} t JOIN ${table('groups')} g ON g.id = t.group_id`)) {
  const m = (re, s) => { const x = re.exec(s); return x ? x[1] : null; };
  lanes.set(String(t.id), {
    name: t.name,
    instance: m(/instance (\S+)/, t.gpath),
    process: m(/process (\S+)/, t.gpath),
    nc: m(/· NC (\d+)/, t.name),
    core: m(/· core (\d+)/, t.name),
  });
}

const args = new Map(); // arg_set_id -> [{key, type, value}]
for (const a of await rows(`SELECT arg_set_id, key, type, value FROM ${table('args')} ORDER BY arg_set_id`)) {
  const k = String(a.arg_set_id);
  if (!args.has(k)) args.set(k, []);
  args.get(k).push(a);
}

const flowsOf = new Map(); // slice id -> [flow id]
let flowCount = 0;
for (const f of await rows(`SELECT id, from_slice_id, to_slice_id FROM ${table('flows')} ORDER BY id`)) {
  for (const s of [f.from_slice_id, f.to_slice_id]) {
    const k = String(s);
    if (!flowsOf.has(k)) flowsOf.set(k, []);
    flowsOf.get(k).push(String(f.id));
  }
  ++flowCount;
}

function jsonValue(a) {
  switch (a.type) {
    case 'int': case 'uint': case 'real': return a.value; // decimal text: a JSON number as written
    case 'bool': return a.value === '1' || a.value === 'true' ? 'true' : 'false';
    case 'json': return a.value;
    case 'null': return 'null';
    default: return JSON.stringify(a.value);
  }
}

const events = [];
function addEvent(e, ts, dur, sliceId) {
  const lane = lanes.get(String(e.track_id));
  const list = e.arg_set_id === null ? [] : args.get(String(e.arg_set_id)) || [];
  let thread = null, worker = null;
  const extra = [];
  for (const a of list) {
    if (a.key === 'thread_id') thread = a.value;
    else if (a.key === 'worker_gid') worker = a.value;
    else if (a.key !== 'nc_idx') extra.push(`${JSON.stringify(a.key)}:${jsonValue(a)}`);
  }
  events.push({
    id: String(events.length),
    name: e.name,
    start_ts: String(ts),
    end_ts: (BigInt(ts) + BigInt(dur)).toString(),
    duration_ns: String(dur),
    trace_event_source: e.category,
    instance_id: lane.instance,
    process_id: lane.process,
    thread_id: thread,
    nc_idx: lane.nc,
    pcore_idx: lane.core,
    worker_gid: worker,
    flow_id: sliceId !== null && flowsOf.has(sliceId) ? flowsOf.get(sliceId) : null,
    extra_attributes_json: extra.length ? `{${extra.join(',')}}` : null,
  });
}
const slices = await rows(`SELECT id, track_id, ts, dur, name, category, arg_set_id FROM ${table('slices')} ORDER BY id`);
for (const s of slices) addEvent(s, s.ts, s.dur, String(s.id));
const instants = await rows(`SELECT track_id, ts, name, category, arg_set_id FROM ${table('instants')} ORDER BY id`);
for (const i of instants) addEvent(i, i.ts, 0, null);

fs.mkdirSync(outDir, { recursive: true });
const jsonl = (name, list) => {
  const f = path.join(outDir, name + '.jsonl.tmp');
  fs.writeFileSync(f, list.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return f;
};
const evFile = jsonl('events', events);
const half = Math.floor(events.length / 2);
const evColumns = `{id: 'VARCHAR', name: 'VARCHAR', start_ts: 'VARCHAR', end_ts: 'VARCHAR', duration_ns: 'VARCHAR',
  trace_event_source: 'VARCHAR', instance_id: 'VARCHAR', process_id: 'VARCHAR', thread_id: 'VARCHAR', nc_idx: 'VARCHAR',
  pcore_idx: 'VARCHAR', worker_gid: 'VARCHAR', flow_id: 'VARCHAR[]', extra_attributes_json: 'VARCHAR'}`;
const evSelect = `SELECT id::BIGINT AS id, name, start_ts::BIGINT AS start_ts, end_ts::BIGINT AS end_ts,
  duration_ns::BIGINT AS duration_ns, trace_event_source, instance_id, process_id::BIGINT AS process_id,
  thread_id::BIGINT AS thread_id, nc_idx::BIGINT AS nc_idx, pcore_idx::BIGINT AS pcore_idx, worker_gid::BIGINT AS worker_gid,
  flow_id, NULL::VARCHAR AS framework_stream_id, extra_attributes_json
  FROM read_json('${evFile}', format = 'newline_delimited', columns = ${evColumns})`;
await db.run(`CREATE TABLE ev AS ${evSelect}`);
await db.run(`COPY (SELECT * FROM ev WHERE id < ${half} ORDER BY id) TO '${path.join(outDir, 'SystemProfileEvents_0.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
await db.run(`COPY (SELECT * FROM ev WHERE id >= ${half} ORDER BY id) TO '${path.join(outDir, 'SystemProfileEvents_1.parquet')}' (FORMAT parquet, COMPRESSION snappy)`);

// Counters.
const hostMemory = (await rows(`SELECT value FROM ${table('meta')} WHERE key = 'trace.session.host_memory_bytes'`))[0]?.value;
const cpu = [], mem = [];
for (const c of await rows(`SELECT track_id, ts, value FROM ${table('counters')} ORDER BY track_id, ts`)) {
  const lane = lanes.get(String(c.track_id));
  const n = /^cpu_util · CPU (\d+)$/.exec(lane.name);
  if (n || lane.name === 'cpu_util')
    cpu.push({ timestamp: String(c.ts), util_percent: c.value, cpu_id: n ? n[1] : 'average', instance_id: lane.instance });
  else if (lane.name === 'mem_usage (bytes)')
    mem.push({ timestamp: String(c.ts), used_bytes: String(Math.round(c.value)),
               used_percent: hostMemory ? (c.value / Number(hostMemory)) * 100 : null, instance_id: lane.instance });
}
const cpuFile = jsonl('cpu', cpu), memFile = jsonl('mem', mem);
await db.run(`COPY (SELECT timestamp::BIGINT AS timestamp, util_percent::FLOAT AS util_percent, cpu_id, instance_id,
  NULL::BIGINT AS ultraserver_id, NULL::BIGINT AS ultraserver_instance_index
  FROM read_json('${cpuFile}', format = 'newline_delimited', columns = {timestamp: 'VARCHAR', util_percent: 'DOUBLE', cpu_id: 'VARCHAR', instance_id: 'VARCHAR'}))
  TO '${path.join(outDir, 'CpuUsage.parquet')}' (FORMAT parquet)`);
await db.run(`COPY (SELECT timestamp::BIGINT AS timestamp, used_bytes::BIGINT AS used_bytes, used_percent::FLOAT AS used_percent, instance_id,
  NULL::BIGINT AS ultraserver_id, NULL::BIGINT AS ultraserver_instance_index
  FROM read_json('${memFile}', format = 'newline_delimited', columns = {timestamp: 'VARCHAR', used_bytes: 'VARCHAR', used_percent: 'DOUBLE', instance_id: 'VARCHAR'}))
  TO '${path.join(outDir, 'HostMemUsage.parquet')}' (FORMAT parquet)`);
for (const f of [evFile, cpuFile, memFile]) fs.unlinkSync(f);

const perLane = {};
for (const e of [...slices, ...instants]) {
  const name = lanes.get(String(e.track_id)).name;
  perLane[name] = (perLane[name] || 0) + 1;
}
process.stdout.write(JSON.stringify({ events: events.length, slices: slices.length, instants: instants.length,
  flows: flowCount, cpu: cpu.length, mem: mem.length, lanes: perLane }) + '\n');
