#pragma once
// A small Neuron capture session written with NtraceWriter (core/io/synthetic), shaped like the real one
// of ../shared/corpus/neuron-trn2-capture around its one execution: an nrt_load naming the model on its
// end, a tensor allocated (nrt_tensor_allocate > nrt_dma_mem_alloc) and freed (nrt_tensor_free >
// nrt_dma_mem_dealloc), an nrt_execute and, per physical core, a timestamp_sync_point and an
// nc_exec_running on the device clock with an nc_model_switch inside it; two CPUs of cpu_util and
// host_mem samples. The numbers are chosen here, so a test knows them independently of the reader:
// device ns = host ns - kLag - 1,500 x (the core's position), as in the real capture the second core's
// sync point is 1,500 ns apart.
#include "filebytes.h"
#include "io/synthetic/ntracewriter.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope::test {

struct MiniSession
{
    static constexpr int64_t kHost = 1'773'237'645'742'000'000; // session's first record, Unix ns
    static constexpr int64_t kLag = 1'773'237'645'000'000'000 - 257'063'000'000'000;
    static constexpr int64_t kExecuteAt = kHost + 1'000'000;      // nrt_execute begins
    static constexpr int64_t kRunningAt = kHost + 1'200'000;      // nc_exec_running begins (host)
    static constexpr int64_t kRunningNs[2] = {982'590, 14'763};  // per core, as in the real capture

    std::string instance = "i-0mini00000000000";
    uint64_t pid = 1000;
    uint64_t model = 171450338541704;
    std::string network = "/tmp/compile/model.MODULE_1+abcd.neff";
    std::vector<int64_t> cores{4, 5};
    bool syncPoints = true;
    std::vector<std::string> typeNames = NtraceWriter::defaultTypeNames();

    // The device time of host time `host` on the k-th core.
    static int64_t device(int64_t host, size_t k) { return host - kLag - 1500 * int64_t(k); }

    NtraceWriter writer() const
    {
        NtraceWriter::Session s;
        s.instanceId = instance;
        s.pid = pid;
        s.start = kHost - 2'000'000'000;
        s.end = kHost + 10'000'000'000;
        NtraceWriter w(s);
        w.setTypeNames(typeNames);
        w.addInternedString(model, network);
        const int64_t main = int64_t(pid), loader = main + 1, exec = main + 2, notify = main + 3;
        const std::string m = std::to_string(model);
        w.end(w.begin("nrt_load", loader, kHost, 0, {}), kHost + 400'000, {{"model_id", m}});
        const uint64_t alloc = w.begin("nrt_tensor_allocate", main, kHost + 500'000, 0, {{"size", "4096"}, {"tensor_id", "0"}});
        w.end(w.begin("nrt_dma_mem_alloc", main, kHost + 510'000, 0, {{"usage_type", "tensor"}, {"is_nc_hbm", "1"}}), kHost + 520'000,
              {{"allocated_bytes", "4096"}, {"physical_address", "0x5c040e000"}, {"return_code", "0"}});
        w.end(alloc, kHost + 530'000, {});
        const uint64_t call = w.begin("nrt_execute", exec, kExecuteAt, 0, {{"model_id", m}});
        for (size_t k = 0; k < cores.size(); ++k) {
            const std::string core = std::to_string(cores[k]);
            const int64_t at = kRunningAt + int64_t(k) * 2'000, dur = kRunningNs[k % 2];
            if (syncPoints)
                w.single("timestamp_sync_point", notify, kRunningAt + 50'000, 0,
                         {{"cpu_timestamp_ns", std::to_string(kRunningAt)}, {"nc_timestamp_ns", std::to_string(device(kRunningAt, k))},
                          {"exec_id", "1"}});
            const uint64_t running = w.begin("nc_exec_running", notify, at, 0,
                                             {{"device_core_idx", core}, {"exec_id", "1"}, {"nc_timestamp_ns", std::to_string(device(at, k))}});
            const uint64_t sw = w.begin("nc_model_switch", notify, at + 100, 0,
                                        {{"device_core_idx", core}, {"exec_id", "1"}, {"model_id", m},
                                         {"nc_timestamp_ns", std::to_string(device(at + 100, k))}});
            w.end(sw, at + 200, {{"nc_timestamp_ns", std::to_string(device(at + 200, k))}});
            w.end(running, at + dur, {{"nc_timestamp_ns", std::to_string(device(at + dur, k))}});
        }
        w.end(call, kRunningAt + 1'100'000, {});
        const uint64_t free = w.begin("nrt_tensor_free", main, kHost + 3'000'000, 0, {{"size", "4096"}});
        w.end(w.begin("nrt_dma_mem_dealloc", main, kHost + 3'010'000, 0, {{"usage_type", "tensor"}, {"physical_address", "0x5c040e000"}}),
              kHost + 3'020'000, {{"freed_bytes", "4096"}});
        w.end(free, kHost + 3'030'000, {});
        for (int s = 0; s < 3; ++s) {
            const int64_t ts = kHost - 1'000'000'000 + s * 1'000'000'000;
            w.cpuSample(ts, 0, s == 0 ? 0.0f : 29.42f);
            w.cpuSample(ts, 1, 7.5f);
            w.memorySample(ts, 14'472'425'472 + uint64_t(s) * 1'000);
        }
        return w;
    }

    // Writes the four files into `dir`; false when a write failed.
    bool save(const QString &dir) const
    {
        const NtraceWriter w = writer();
        return writeFile(dir + QStringLiteral("/trace_info.pb"), w.traceInfo()) && writeFile(dir + QStringLiteral("/ntrace.pb"), w.ntrace()) &&
               writeFile(dir + QStringLiteral("/cpu_util.pb"), w.cpuUtil()) && writeFile(dir + QStringLiteral("/host_mem.pb"), w.hostMem());
    }
};

} // namespace lanescope::test
