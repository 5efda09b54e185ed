#include "explorersystemreader.h"

#include "io/input/importerror.h"
#include "model/saturating.h"
#include "util/textutil.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace lanescope::explorer {

namespace {

namespace fs = std::filesystem;

std::string fileName(const std::string &path) { return fs::path(path).filename().string(); }

// A scalar column of a loaded table (nullptr: absent, a LIST, or of another type: treated as absent).
struct Col
{
    const parquet::ColumnData *c = nullptr;
    bool has(size_t r) const { return c && r < c->rows() && !c->isNull(r); }
    int64_t i(size_t r) const { return c->ints[r]; }
    double d(size_t r) const { return c->reals[r]; }
    std::string_view t(size_t r) const { return c->textAt(r); }
};

Col scalar(LoadedTable &t, std::string_view name, ValueKind kind, Diagnostics &diag)
{
    const parquet::ColumnData *c = t.column(name, kind, diag);
    if (c && c->list) {
        diag.warn("column " + std::string(name) + " of " + t.name + " is a LIST; expected one value, " + valueKindName(kind) +
                      " (column ignored)",
                  t.files.empty() ? std::string() : fileName(t.files.front()));
        c = nullptr;
    }
    return Col{c};
}

// Decimal text as an integer arg (model ids and the like are written as strings), else text.
Arg typedText(TraceBuilder &b, StringId key, std::string_view value)
{
    int64_t i = 0;
    if (text::parseInt(value, i))
        return Arg::makeInt(key, i);
    uint64_t u = 0;
    if (auto r = std::from_chars(value.data(), value.data() + value.size(), u);
        !value.empty() && r.ec == std::errc() && r.ptr == value.data() + value.size())
        return Arg::makeUInt(key, u);
    return Arg::makeString(key, b.intern(value));
}

class Reader
{
public:
    Reader(const ProfileDirectory &dir, TraceBuilder &b, const LoadOptions &o) : m_dir(dir), m_b(b), m_options(o) {}
    SystemProfileData run();

private:
    Diagnostics &diag() { return m_b.diagnostics(); }
    bool load(std::string_view table, LoadedTable *t, const std::vector<std::string_view> &expected);
    void events();
    void addJsonArgs(std::string_view json, size_t row);
    void link(const std::unordered_map<uint64_t, std::vector<uint32_t>> &byFlow);
    StringId processOf(StringId instance) const;
    void cpuUsage();
    void hostMemUsage();
    void hbmUsage();
    void metadata();
    void deviceProfiles();

    const ProfileDirectory &m_dir;
    TraceBuilder &m_b;
    const LoadOptions &m_options;
    SystemProfileData m_data;
    std::map<uint32_t, std::set<uint32_t>> m_processes; // instance -> processes of its events (StringId values)
    simdjson::dom::parser m_json;
    std::vector<StringId> m_keys; // args of the current event, to leave out JSON keys a column gave
};

bool Reader::load(std::string_view table, LoadedTable *t, const std::vector<std::string_view> &expected)
{
    if (!m_dir.has(table)) {
        diag().note("Explorer system table absent (no rows of its kind)", std::string(table) + ".parquet");
        return false;
    }
    if (!m_dir.read(table, t, diag()))
        return false;
    uint64_t bytes = 0;
    for (const std::string &f : t->files) {
        std::error_code ec;
        const auto n = fs::file_size(f, ec);
        bytes += ec ? 0 : uint64_t(n);
    }
    m_data.bytes += bytes;
    const std::vector<std::string> missing = t->missing(expected);
    if (!missing.empty()) {
        std::string list;
        for (const std::string &m : missing)
            list += (list.empty() ? "" : ", ") + m;
        diag().note(std::string(table) + ": columns of the schema absent (read as null): " + list, fileName(t->files.front()),
                    missing.size());
    }
    m_b.metadata().entries.emplace_back("explorer.table." + std::string(table),
                                        std::to_string(t->rows) + " rows from " + std::to_string(t->files.size()) + " file" +
                                            (t->files.size() == 1 ? "" : "s"));
    return true;
}

void Reader::addJsonArgs(std::string_view json, size_t row)
{
    std::vector<Arg> &args = m_data.args;
    simdjson::dom::element root;
    simdjson::dom::object object;
    if (m_json.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS || root.get_object().get(object) != simdjson::SUCCESS) {
        diag().warn("SystemProfileEvents: extra_attributes_json that is not a JSON object (kept as text)",
                    "row " + std::to_string(row));
        args.push_back(Arg::makeString(m_b.intern("extra_attributes_json"), m_b.intern(json)));
        return;
    }
    for (const simdjson::dom::key_value_pair field : object) {
        const StringId key = m_b.intern(field.key);
        if (std::find(m_keys.begin(), m_keys.end(), key) != m_keys.end())
            continue; // a column already gave it
        const simdjson::dom::element v = field.value;
        switch (v.type()) {
        case simdjson::dom::element_type::INT64: args.push_back(Arg::makeInt(key, v.get_int64().value_unsafe())); break;
        case simdjson::dom::element_type::UINT64: args.push_back(Arg::makeUInt(key, v.get_uint64().value_unsafe())); break;
        case simdjson::dom::element_type::DOUBLE: args.push_back(Arg::makeDouble(key, v.get_double().value_unsafe())); break;
        case simdjson::dom::element_type::BOOL: args.push_back(Arg::makeBool(key, v.get_bool().value_unsafe())); break;
        case simdjson::dom::element_type::NULL_VALUE: args.push_back(Arg::makeNull(key)); break;
        case simdjson::dom::element_type::STRING: args.push_back(typedText(m_b, key, v.get_string().value_unsafe())); break;
        default: args.push_back(Arg::makeJson(key, m_b.intern(simdjson::minify(v)))); break;
        }
    }
}

// Stages of a flow: framework dispatch -> runtime -> hardware.
int stageOf(SystemProfileLane lane)
{
    switch (lane) {
    case SystemProfileLane::Framework: return 0;
    case SystemProfileLane::Runtime: return 1;
    case SystemProfileLane::Hardware: return 2;
    default: return -1;
    }
}

void Reader::link(const std::unordered_map<uint64_t, std::vector<uint32_t>> &byFlow)
{
    const StringId nrt = m_b.intern("nrt"), callName = m_b.intern("runtime call");
    const StringId exec = m_b.intern("exec"), execName = m_b.intern("hardware execution");
    std::vector<uint64_t> ids;
    ids.reserve(byFlow.size());
    for (const auto &[id, list] : byFlow)
        ids.push_back(id);
    std::sort(ids.begin(), ids.end()); // flows in a stable order
    uint64_t alone = 0;
    for (uint64_t id : ids) {
        std::vector<uint32_t> list = byFlow.at(id);
        std::stable_sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
            const SystemProfileEvent &x = m_data.events[a], &y = m_data.events[b];
            return std::make_pair(stageOf(x.lane), x.ts) < std::make_pair(stageOf(y.lane), y.ts);
        });
        // The earliest event of each stage present.
        int64_t first[3] = {-1, -1, -1};
        for (uint32_t e : list)
            if (const int s = stageOf(m_data.events[e].lane); s >= 0 && first[s] < 0)
                first[s] = e;
        bool linked = false;
        for (uint32_t e : list) {
            const int s = stageOf(m_data.events[e].lane);
            int from = s - 1;
            while (from >= 0 && first[from] < 0)
                --from;
            if (s <= 0 || from < 0)
                continue;
            m_data.links.push_back({uint32_t(first[from]), e, id, s == 1 ? nrt : exec, s == 1 ? callName : execName});
            linked = true;
        }
        alone += !linked;
    }
    if (alone)
        diag().note("SystemProfileEvents: flow ids on events of one stage only (nothing to link)", {}, alone);
}

void Reader::events()
{
    LoadedTable t;
    if (!load("SystemProfileEvents", &t,
              {"id", "name", "start_ts", "end_ts", "duration_ns", "trace_event_source", "instance_id", "process_id", "thread_id",
               "nc_idx", "pcore_idx", "worker_gid", "flow_id", "framework_stream_id", "extra_attributes_json"}))
        return;
    Diagnostics &d = diag();
    const Col id = scalar(t, "id", ValueKind::Integer, d), name = scalar(t, "name", ValueKind::Text, d);
    const Col start = scalar(t, "start_ts", ValueKind::Integer, d), end = scalar(t, "end_ts", ValueKind::Integer, d);
    const Col dur = scalar(t, "duration_ns", ValueKind::Integer, d);
    const Col source = scalar(t, "trace_event_source", ValueKind::Text, d);
    const Col instance = scalar(t, "instance_id", ValueKind::Text, d);
    const Col process = scalar(t, "process_id", ValueKind::Integer, d), thread = scalar(t, "thread_id", ValueKind::Integer, d);
    const Col nc = scalar(t, "nc_idx", ValueKind::Integer, d), pcore = scalar(t, "pcore_idx", ValueKind::Integer, d);
    const Col worker = scalar(t, "worker_gid", ValueKind::Integer, d);
    const Col stream = scalar(t, "framework_stream_id", ValueKind::Text, d);
    const Col extra = scalar(t, "extra_attributes_json", ValueKind::Text, d);
    const parquet::ColumnData *flow = t.find("flow_id");
    if (flow && (!flow->list || !(flow->type == parquet::PhysicalType::ByteArray || flow->type == parquet::PhysicalType::Int32 ||
                                  flow->type == parquet::PhysicalType::Int64))) {
        d.warn("column flow_id of SystemProfileEvents is " + std::string(flow->list ? "a LIST of " : "a single ") +
                   parquet::physicalTypeName(flow->type) + "; expected a LIST of strings or integers (column ignored)",
               fileName(t.files.front()));
        flow = nullptr;
    }

    const StringId kId = m_b.intern("id"), kThread = m_b.intern("thread_id"), kNc = m_b.intern("nc_idx"),
                   kPcore = m_b.intern("pcore_idx"), kWorker = m_b.intern("worker_gid"),
                   kStream = m_b.intern("framework_stream_id"), kFlow = m_b.intern("flow_id");
    const StringId syncName = m_b.intern("timestamp_sync_point");
    std::map<std::string, uint64_t> otherSources;
    uint64_t noStart = 0, disagree = 0;
    size_t firstNoStart = 0, firstDisagree = 0;
    std::unordered_map<uint64_t, std::vector<uint32_t>> byFlow;
    m_data.events.reserve(size_t(t.rows));
    for (size_t r = 0; r < size_t(t.rows); ++r) {
        if ((r & 0xffff) == 0xffff && m_options.cancelled())
            throw LoadCancelled();
        if (!start.has(r)) {
            if (!noStart++)
                firstNoStart = r;
            continue;
        }
        SystemProfileEvent e;
        e.offset = r;
        e.ts = start.i(r);
        e.hasTs = e.hasDuration = true;
        if (dur.has(r)) {
            e.duration = dur.i(r);
            if (end.has(r) && saturatingSub(end.i(r), e.ts) != e.duration && !disagree++)
                firstDisagree = r;
        } else if (end.has(r)) {
            e.duration = saturatingSub(end.i(r), e.ts);
        }
        if (name.has(r))
            e.name = m_b.intern(name.t(r));
        e.instance = m_b.intern(instance.has(r) ? instance.t(r) : std::string_view("(no instance id)"));
        if (process.has(r)) {
            e.pid = process.i(r);
            e.process = m_b.intern(std::to_string(e.pid));
            m_processes[e.instance.value].insert(e.process.value);
        }
        e.thread = thread.has(r) ? thread.i(r) : -1;
        e.lnc = nc.has(r) ? nc.i(r) : -1;
        const std::string_view src = source.has(r) ? source.t(r) : std::string_view();
        if (src == "neuron_rt") {
            e.lane = SystemProfileLane::Runtime;
        } else if (src == "neuron_hw") {
            e.lane = SystemProfileLane::Hardware;
            e.onHostClock = true; // the runtime converted the device time (explorer-parquet.md section 3)
            e.deviceCore = pcore.has(r) ? pcore.i(r) : -1;
            e.instant = e.name == syncName && e.duration == 0;
        } else if (src == "framework") {
            e.lane = SystemProfileLane::Framework;
        } else {
            e.lane = SystemProfileLane::Other;
            const std::string shown = src.empty() ? std::string("(no trace_event_source)") : std::string(src);
            e.group = m_b.intern(shown);
            ++otherSources[shown];
        }

        std::vector<Arg> &args = m_data.args;
        e.argBegin = uint32_t(args.size());
        if (id.has(r))
            args.push_back(Arg::makeInt(kId, id.i(r)));
        if (thread.has(r))
            args.push_back(Arg::makeInt(kThread, thread.i(r)));
        if (nc.has(r))
            args.push_back(Arg::makeInt(kNc, nc.i(r)));
        if (pcore.has(r))
            args.push_back(Arg::makeInt(kPcore, pcore.i(r)));
        if (worker.has(r))
            args.push_back(Arg::makeInt(kWorker, worker.i(r)));
        if (stream.has(r))
            args.push_back(Arg::makeString(kStream, m_b.intern(stream.t(r))));
        if (flow && r < flow->rows() && !flow->isNull(r) && flow->listEnd(r) > flow->listBegin(r)) {
            std::string shown;
            for (size_t k = flow->listBegin(r); k < flow->listEnd(r); ++k) {
                if (!flow->elementValid[k])
                    continue;
                const std::string v = flow->type == parquet::PhysicalType::ByteArray ? std::string(flow->textAt(k))
                                                                                     : std::to_string(flow->ints[k]);
                shown += (shown.empty() ? "" : ",") + v;
                const SystemProfileId fid = SystemProfileId::fromText(v);
                if (fid.present) {
                    std::vector<uint32_t> &members = byFlow[fid.value];
                    if (members.empty() || members.back() != uint32_t(m_data.events.size()))
                        members.push_back(uint32_t(m_data.events.size()));
                }
            }
            args.push_back(Arg::makeString(kFlow, m_b.intern(shown)));
        }
        if (extra.has(r) && !extra.t(r).empty()) {
            m_keys.clear();
            for (size_t k = e.argBegin; k < args.size(); ++k)
                m_keys.push_back(args[k].key);
            addJsonArgs(extra.t(r), r);
        }
        e.argCount = uint32_t(args.size() - e.argBegin);
        m_data.events.push_back(e);
    }
    if (noStart)
        d.warn("SystemProfileEvents rows without start_ts skipped", "row " + std::to_string(firstNoStart), noStart);
    if (disagree)
        d.warn("SystemProfileEvents rows whose duration_ns differs from end_ts - start_ts (duration_ns used)",
               "row " + std::to_string(firstDisagree), disagree);
    for (const auto &[src, count] : otherSources)
        d.warn("SystemProfileEvents rows of a trace_event_source other than neuron_rt, neuron_hw and framework (kept on a "
               "lane '<source> · NC n')",
               src, count);
    link(byFlow);
}

StringId Reader::processOf(StringId instance) const
{
    auto it = m_processes.find(instance.value);
    if (it == m_processes.end() || it->second.size() != 1)
        return {};
    return StringId(*it->second.begin());
}

void Reader::cpuUsage()
{
    LoadedTable t;
    if (!load("CpuUsage", &t, {"timestamp", "util_percent", "cpu_id", "instance_id"}))
        return;
    Diagnostics &d = diag();
    const Col ts = scalar(t, "timestamp", ValueKind::Integer, d), util = scalar(t, "util_percent", ValueKind::Real, d);
    const Col cpu = scalar(t, "cpu_id", ValueKind::Text, d), instance = scalar(t, "instance_id", ValueKind::Text, d);
    uint64_t skipped = 0, badCpu = 0;
    for (size_t r = 0; r < size_t(t.rows); ++r) {
        if (!ts.has(r) || !util.has(r)) {
            ++skipped;
            continue;
        }
        SystemProfileSample s;
        s.offset = r;
        s.ts = ts.i(r);
        s.value = util.d(r);
        s.hasValue = true;
        s.instance = m_b.intern(instance.has(r) ? instance.t(r) : std::string_view("(no instance id)"));
        s.process = processOf(s.instance);
        if (cpu.has(r) && cpu.t(r) != "average") {
            int64_t n = -1;
            if (!text::parseInt(cpu.t(r), n) || n < 0) {
                ++badCpu;
                continue;
            }
            s.cpu = n;
        }
        m_data.cpuUtil.push_back(s);
    }
    if (skipped)
        d.warn("CpuUsage rows without timestamp or util_percent skipped", {}, skipped);
    if (badCpu)
        d.warn("CpuUsage rows whose cpu_id is neither a CPU number nor \"average\" skipped", {}, badCpu);
}

void Reader::hostMemUsage()
{
    LoadedTable t;
    if (!load("HostMemUsage", &t, {"timestamp", "used_bytes", "used_percent", "instance_id"}))
        return;
    Diagnostics &d = diag();
    const Col ts = scalar(t, "timestamp", ValueKind::Integer, d), bytes = scalar(t, "used_bytes", ValueKind::Real, d);
    const Col percent = scalar(t, "used_percent", ValueKind::Real, d), instance = scalar(t, "instance_id", ValueKind::Text, d);
    uint64_t skipped = 0;
    for (size_t r = 0; r < size_t(t.rows); ++r) {
        if (!ts.has(r) || (!bytes.has(r) && !percent.has(r))) {
            ++skipped;
            continue;
        }
        SystemProfileSample s;
        s.offset = r;
        s.ts = ts.i(r);
        s.instance = m_b.intern(instance.has(r) ? instance.t(r) : std::string_view("(no instance id)"));
        s.process = processOf(s.instance);
        s.hasValue = bytes.has(r);
        s.value = s.hasValue ? bytes.d(r) : 0.0;
        s.hasPercent = percent.has(r);
        s.percent = s.hasPercent ? percent.d(r) : 0.0;
        m_data.memUsage.push_back(s);
    }
    if (skipped)
        d.warn("HostMemUsage rows without timestamp or a value skipped", {}, skipped);
}

void Reader::hbmUsage()
{
    LoadedTable t;
    if (!load("SystemProfileHbmUsage", &t, {"timestamp", "total_bytes", "device_idx", "hbm_idx", "instance_id"}))
        return;
    Diagnostics &d = diag();
    const Col ts = scalar(t, "timestamp", ValueKind::Integer, d), device = scalar(t, "device_idx", ValueKind::Integer, d);
    const Col hbm = scalar(t, "hbm_idx", ValueKind::Integer, d), instance = scalar(t, "instance_id", ValueKind::Text, d);
    std::vector<std::pair<std::string, Col>> categories; // every *_bytes column
    std::vector<std::string> names;
    for (const parquet::ColumnData &c : t.columns)
        if (c.name.size() > 6 && c.name.ends_with("_bytes"))
            names.push_back(c.name);
    for (const std::string &n : names)
        if (const Col c = scalar(t, n, ValueKind::Real, d); c.c)
            categories.emplace_back(n == "total_bytes" ? std::string("total") : n.substr(0, n.size() - 6), c);
    using Key = std::tuple<uint32_t, int64_t, int64_t, size_t>; // instance, device, hbm, category
    std::map<Key, size_t> series;                                // -> m_data.counters index
    std::map<Key, bool> nonZero;
    uint64_t skipped = 0;
    for (size_t r = 0; r < size_t(t.rows); ++r) {
        if (!ts.has(r)) {
            ++skipped;
            continue;
        }
        const StringId inst = m_b.intern(instance.has(r) ? instance.t(r) : std::string_view("(no instance id)"));
        const int64_t dev = device.has(r) ? device.i(r) : -1, h = hbm.has(r) ? hbm.i(r) : -1;
        for (size_t k = 0; k < categories.size(); ++k) {
            const Col &c = categories[k].second;
            if (!c.has(r))
                continue;
            const Key key{inst.value, dev, h, k};
            auto it = series.find(key);
            if (it == series.end()) {
                SystemProfileCounter counter;
                counter.instance = inst;
                counter.process = processOf(inst);
                counter.name = "device memory · device " + (dev >= 0 ? std::to_string(dev) : std::string("?")) + " · HBM " +
                               (h >= 0 ? std::to_string(h) : std::string("?")) + " · " + categories[k].first;
                counter.unit = "bytes";
                it = series.emplace(key, m_data.counters.size()).first;
                m_data.counters.push_back(std::move(counter));
            }
            m_data.counters[it->second].samples.emplace_back(ts.i(r), c.d(r));
            nonZero[key] = nonZero[key] || c.d(r) != 0;
        }
    }
    // Categories that stay 0 are left out (a stacked chart would show nothing of them).
    std::vector<uint8_t> drop(m_data.counters.size(), 0);
    uint64_t zero = 0;
    for (const auto &[key, index] : series)
        if (!nonZero[key]) {
            drop[index] = 1;
            ++zero;
        }
    size_t w = 0;
    for (size_t i = 0; i < m_data.counters.size(); ++i)
        if (!drop[i]) {
            if (w != i)
                m_data.counters[w] = std::move(m_data.counters[i]);
            ++w;
        }
    m_data.counters.resize(w);
    if (zero)
        d.note("SystemProfileHbmUsage: categories that are 0 in every row (no counter)", {}, zero);
    if (skipped)
        d.warn("SystemProfileHbmUsage rows without timestamp skipped", {}, skipped);
}

void Reader::metadata()
{
    LoadedTable t;
    if (!load("SystemProfileMetadata", &t, {"first_ts", "last_ts", "first_ts_ns", "last_ts_ns", "ntff_version", "hbm_capacity_bytes"}))
        return;
    if (t.rows != 1)
        diag().warn("SystemProfileMetadata holds " + std::to_string(t.rows) + " rows; the schema has one (the first is kept)",
                    fileName(t.files.front()));
    if (t.rows == 0)
        return;
    for (const parquet::ColumnData &c : t.columns) {
        std::string v;
        if (c.list || c.isNull(0))
            continue;
        if (c.type == parquet::PhysicalType::ByteArray)
            v = std::string(c.textAt(0));
        else if (c.type == parquet::PhysicalType::Float || c.type == parquet::PhysicalType::Double)
            v = std::to_string(c.reals[0]);
        else
            v = std::to_string(c.ints[0]);
        m_b.metadata().entries.emplace_back("explorer.system." + c.name, v);
    }
}

void Reader::deviceProfiles()
{
    LoadedTable t;
    if (!load("DeviceProfileList", &t, {"device_profile_name", "instance_id", "process_id", "nc_id", "session_id", "model_id"}))
        return;
    Diagnostics &d = diag();
    const Col name = scalar(t, "device_profile_name", ValueKind::Text, d), instance = scalar(t, "instance_id", ValueKind::Text, d);
    const Col process = scalar(t, "process_id", ValueKind::Integer, d), nc = scalar(t, "nc_id", ValueKind::Integer, d);
    const Col session = scalar(t, "session_id", ValueKind::Integer, d), model = scalar(t, "model_id", ValueKind::Integer, d);
    for (size_t r = 0; r < size_t(t.rows); ++r) {
        std::string v = name.has(r) ? std::string(name.t(r)) : std::string("(no name)");
        v += ": instance " + (instance.has(r) ? std::string(instance.t(r)) : std::string("?"));
        v += ", process " + (process.has(r) ? std::to_string(process.i(r)) : std::string("?"));
        v += ", NC " + (nc.has(r) ? std::to_string(nc.i(r)) : std::string("?"));
        if (session.has(r))
            v += ", session " + std::to_string(session.i(r));
        if (model.has(r))
            v += ", model " + std::to_string(model.i(r));
        m_b.metadata().entries.emplace_back("explorer.device_profile." + std::to_string(r + 1), v);
    }
    if (t.rows)
        d.note("device profiles listed by DeviceProfileList (each is a directory of its own beside this one; not loaded "
               "with the system tables)",
               fileName(t.files.front()), t.rows);
}

SystemProfileData Reader::run()
{
    m_b.metadata().entries.emplace_back("explorer.directory", m_dir.path());
    events();
    m_options.report(400);
    cpuUsage();
    hostMemUsage();
    m_options.report(600);
    hbmUsage();
    metadata();
    deviceProfiles();
    m_data.runtimeLanesPerThread = true; // as ntrace.pb: one runtime lane per (NeuronCore, thread)
    m_data.sawEvents = true;
    return std::move(m_data);
}

} // namespace

bool SystemTablesReader::hasSystemTables(const std::string &dir)
{
    ProfileDirectory d;
    std::string error;
    if (!d.open(dir, &error))
        return false;
    return std::any_of(kTables.begin(), kTables.end(), [&](std::string_view t) { return d.has(t); });
}

SystemProfileData SystemTablesReader::read(const ProfileDirectory &dir, TraceBuilder &b, const LoadOptions &options)
{
    return Reader(dir, b, options).run();
}

} // namespace lanescope::explorer
