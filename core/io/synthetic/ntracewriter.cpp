#include "ntracewriter.h"

#include "protobufwire.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <stdexcept>

namespace lanescope {

namespace {

void appendFramed(std::string &out, const std::string &message)
{
    const uint32_t n = uint32_t(message.size());
    for (int i = 0; i < 4; ++i)
        out.push_back(char((n >> (8 * i)) & 0xff));
    out += message;
}

void writeFile(const std::string &path, const std::string &bytes)
{
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
    const size_t written = std::fwrite(bytes.data(), 1, bytes.size(), f);
    const bool closed = std::fclose(f) == 0;
    if (written != bytes.size() || !closed)
        throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
}

std::string table(const std::string &name, const std::vector<std::pair<uint64_t, std::string>> &entries)
{
    std::string t = pbwire::bytes(1, name);
    for (const auto &[number, text] : entries) {
        std::string e = pbwire::integer(1, number); // written even when 0, as the runtime does
        pbwire::appendBytes(e, 2, text);
        pbwire::appendBytes(t, 2, e);
    }
    return t;
}

} // namespace

NtraceWriter::NtraceWriter(Session session) : m_session(std::move(session)), m_types(defaultTypeNames()) {}

std::vector<std::string> NtraceWriter::defaultTypeNames()
{
    return {"generic", "nrt_load", "async_post_request", "nrt_execute", "kmgr_exec_core", "nrt_load_collectives",
            "cc_exec_barrier", "nc_exec_running", "cc_running", "nrt_tensor_read", "nrt_tensor_write",
            "nrt_tensor_read_batch", "nrt_tensor_write_batch", "numerical_err", "enc_barrier_recv", "enc_barrier_send",
            "enc_barrier", "kbl_exec_pre", "kbl_exec_core", "kbl_exec_wait", "kbl_exec_post", "nrt_model_switch",
            "nrt_model_submit", "nrt_async_sema_wait", "hw_notify", "timestamp_sync_point", "nc_model_switch",
            "nrt_tensor_allocate", "nrt_tensor_free", "tensor_block_while_exec", "dmem_buf_copyin", "dmem_buf_copyout",
            "dmem_buf_batch_copyin", "dmem_buf_batch_copyout", "nrt_dma_mem_alloc", "nrt_dma_mem_dealloc",
            "exec_consume_nc_status_notifications", "exec_consume_cc_core_notifications", "notification_consume_errors",
            "exec_consume_gpsimd_stdio"};
}

uint64_t NtraceWriter::typeNumber(const std::string &name) const
{
    const auto it = std::find(m_types.begin(), m_types.end(), name);
    if (it == m_types.end())
        throw std::runtime_error("NtraceWriter: no record type named " + name);
    return uint64_t(it - m_types.begin());
}

uint64_t NtraceWriter::nextId(uint64_t worker)
{
    for (auto &[w, seq] : m_sequence)
        if (w == worker)
            return worker << 50 | ++seq;
    m_sequence.emplace_back(worker, 1);
    return worker << 50 | 1;
}

uint64_t NtraceWriter::begin(const std::string &type, int64_t thread, int64_t ts, uint64_t worker, Attributes attributes)
{
    Record r{ts, typeNumber(type), thread, nextId(worker), 0, worker, 1, std::move(attributes)};
    r.correlation = r.id;
    m_records.push_back(std::move(r));
    return m_records.back().id;
}

void NtraceWriter::end(uint64_t id, int64_t ts, Attributes attributes)
{
    for (const Record &b : m_records)
        if (b.id == id && b.phase == 1) {
            Record r{ts, b.type, b.thread, nextId(b.worker), id, b.worker, 2, std::move(attributes)};
            m_records.push_back(std::move(r));
            return;
        }
    throw std::runtime_error("NtraceWriter: end of an unknown call");
}

void NtraceWriter::single(const std::string &type, int64_t thread, int64_t ts, uint64_t worker, Attributes attributes)
{
    Record r{ts, typeNumber(type), thread, nextId(worker), 0, worker, 3, std::move(attributes)};
    r.correlation = r.id;
    m_records.push_back(std::move(r));
}

std::string NtraceWriter::ntrace() const
{
    // Grouped per worker, in id order within each (the runtime writes one block per worker).
    std::vector<const Record *> order;
    for (const Record &r : m_records)
        order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](const Record *a, const Record *b) { return a->id < b->id; });
    std::string out;
    for (const Record *r : order) {
        std::string m;
        pbwire::appendInteger(m, 2, uint64_t(r->ts));
        pbwire::appendInteger(m, 7, r->type);
        pbwire::appendInteger(m, 9, uint64_t(r->thread));
        pbwire::appendInteger(m, 10, r->id);
        Attributes attributes = r->attributes;
        attributes.emplace_back("nc_idx", std::to_string(r->worker));
        attributes.emplace_back("worker_gid", std::to_string(r->worker));
        for (const auto &[k, v] : attributes) {
            std::string a = pbwire::bytes(1, k);
            pbwire::appendBytes(a, 2, v);
            pbwire::appendBytes(m, 12, a);
        }
        pbwire::appendInteger(m, 14, uint64_t(r->phase));
        pbwire::appendInteger(m, 15, r->correlation);
        appendFramed(out, m);
    }
    return out;
}

std::string NtraceWriter::traceInfo() const
{
    std::string m;
    pbwire::appendInteger(m, 1, 2);
    pbwire::appendInteger(m, 2, m_session.pid);
    pbwire::appendBytes(m, 4, m_session.instanceId);
    const std::string dir = "./output/" + m_session.instanceId + "_pid_" + std::to_string(m_session.pid) + "/";
    auto file = [&](const char *name, uint64_t kind, uint64_t records) {
        std::string f = pbwire::bytes(1, dir + name);
        pbwire::appendInteger(f, 2, kind);
        pbwire::appendInteger(f, 3, records);
        return f;
    };
    pbwire::appendBytes(m, 6, file("ntrace.pb", 1, m_records.size()));
    std::set<int64_t> cpuTimes;
    for (const CpuSample &s : m_cpu)
        cpuTimes.insert(s.ts);
    std::string host = pbwire::integer(1, m_session.cpuCount);
    pbwire::appendBytes(host, 2, m_session.cpuModel);
    pbwire::appendInteger(host, 3, m_session.hostMemoryBytes);
    pbwire::appendBytes(host, 6, file("cpu_util.pb", 2, cpuTimes.size()));
    pbwire::appendBytes(host, 7, file("host_mem.pb", 3, m_memory.size()));
    pbwire::appendBytes(m, 7, host);
    std::vector<std::pair<uint64_t, std::string>> types;
    for (size_t i = 0; i < m_types.size(); ++i)
        types.emplace_back(i, m_types[i]);
    std::vector<std::pair<uint64_t, std::string>> interned{{0, "invalid_interned_string"}};
    interned.insert(interned.end(), m_interned.begin(), m_interned.end());
    static const char *usage[] = {"generic", "pe", "act", "pool", "io", "spill", "weight", "profiler buffers", "act table", "dve",
                                  "sp", "shared scratchpad", "tensor", "ucode", "pool stdio", "collectives", "scratchpad",
                                  "xt cc", "dma rings runtime", "dma rings spill", "dma rings io", "dma rings collectives"};
    std::vector<std::pair<uint64_t, std::string>> usages;
    for (size_t i = 0; i < std::size(usage); ++i)
        usages.emplace_back(i, usage[i]);
    pbwire::appendBytes(m, 10, table("ntrace_inspect_type", types));
    pbwire::appendBytes(m, 10, table("system_trace", interned));
    pbwire::appendBytes(m, 10, table("nrt_inspect_mem_usage_type", usages));
    pbwire::appendBytes(m, 10, table("nrt_inspect_mem_alloc_errno_type", {{0, "SUCCESS"}, {12, "OUT_OF_MEMORY"}}));
    pbwire::appendInteger(m, 11, uint64_t(m_session.start));
    pbwire::appendInteger(m, 12, uint64_t(m_session.end));
    pbwire::appendInteger(m, 14, m_records.size());
    pbwire::appendBytes(m, 15, m_session.instanceType);
    pbwire::appendBytes(m, 17, m_session.hostName);
    return m;
}

std::string NtraceWriter::cpuUtil() const
{
    std::string out;
    for (const CpuSample &s : m_cpu) {
        std::string m;
        if (s.percent != 0.0f) { // proto3: 0.0 and CPU 0 are left out
            pbwire::appendVarint(m, 1 << 3 | 5);
            const uint32_t bits = std::bit_cast<uint32_t>(s.percent);
            for (int i = 0; i < 4; ++i)
                m.push_back(char((bits >> (8 * i)) & 0xff));
        }
        pbwire::appendInteger(m, 2, uint64_t(s.ts));
        if (s.cpu != 0)
            pbwire::appendInteger(m, 3, s.cpu);
        appendFramed(out, m);
    }
    return out;
}

std::string NtraceWriter::hostMem() const
{
    std::string out;
    for (const auto &[ts, bytes] : m_memory) {
        std::string m;
        if (bytes)
            pbwire::appendInteger(m, 1, bytes);
        pbwire::appendInteger(m, 2, uint64_t(ts));
        appendFramed(out, m);
    }
    return out;
}

void NtraceWriter::save(const std::string &dir) const
{
    writeFile(dir + "/trace_info.pb", traceInfo());
    writeFile(dir + "/ntrace.pb", ntrace());
    writeFile(dir + "/cpu_util.pb", cpuUtil());
    writeFile(dir + "/host_mem.pb", hostMem());
}

} // namespace lanescope
