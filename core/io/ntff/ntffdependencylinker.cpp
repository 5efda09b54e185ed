#include "ntffdependencylinker.h"

#include "model/saturating.h"
#include "model/tracebuilder.h"

#include <algorithm>
#include <array>
#include <string>
#include <tuple>
#include <vector>

namespace lanescope {

namespace {

constexpr int64_t kToleranceNs = 1;
constexpr uint8_t kSourceDma = 6;
constexpr uint8_t kOpIncrement = 0xf3; // event op of the "++" updates (docs/ntff.md: increment-like)
constexpr size_t kMaxLookBack = 64; // candidates skipped before giving up (engine) / taking one anyway (DMA)

int64_t plusTolerance(int64_t t) { return t > INT64_MAX - kToleranceNs ? INT64_MAX : t + kToleranceNs; }

struct Update
{
    int64_t ts;
    uint32_t value;
    uint8_t source;
    uint8_t op;
    int64_t producer; // encoded: >= 0 instruction index, < -1 dma index as -(i + 2), -1 = unknown
};

struct Ended
{
    int64_t end;
    uint32_t index;
    bool operator<(const Ended &o) const { return end != o.end ? end < o.end : index < o.index; }
};

// Latest entry of `v` (sorted by end) ending at or before t, optionally passing `accept`.
template <class Accept> const Ended *latestBefore(const std::vector<Ended> &v, int64_t t, Accept &&accept)
{
    auto it = std::upper_bound(v.begin(), v.end(), Ended{plusTolerance(t), UINT32_MAX});
    while (it != v.begin()) {
        --it;
        if (accept(*it))
            return &*it;
    }
    return nullptr;
}

} // namespace

NtffDependencyLinker::Result NtffDependencyLinker::link(const NtffProfile &profile,
                                                        std::span<const uint32_t> instructionSlice,
                                                        std::span<const uint32_t> dmaSlice, TraceBuilder &b)
{
    Result result;
    const auto &ins = profile.instructions;
    const auto &dma = profile.dma;
    if (instructionSlice.size() != ins.size() || dmaSlice.size() != dma.size())
        return result;

    std::vector<NtffSync> sync(ins.size());
    for (size_t i = 0; i < ins.size(); ++i)
        sync[i] = profile.syncOf(i);

    // Semaphores are per physical core: everything is keyed by (core, semaphore) = core * 256 + semaphore.
    size_t cores = 1;
    for (const auto &r : ins)
        cores = std::max<size_t>(cores, r.core + 1u);
    for (const auto &r : dma)
        cores = std::max<size_t>(cores, r.core + 1u);
    for (const auto &r : profile.semaphores)
        cores = std::max<size_t>(cores, r.core + 1u);
    const auto key = [](uint8_t core, uint32_t semaphore) { return size_t(core) * 256 + (semaphore & 255); };
    const size_t keys = cores * 256;

    // Producers per semaphore, sorted by end time.
    std::vector<std::vector<Ended>> updaters(keys), dmaBySemaphore(keys), allDma(cores);
    for (size_t i = 0; i < ins.size(); ++i)
        if (sync[i].updatesSemaphore()) // keyed by start: "++@complete" updates land a little before the row's end
            updaters[key(ins[i].core, sync[i].updateSemaphore)].push_back({ins[i].timestamp, uint32_t(i)});
    for (size_t i = 0; i < dma.size(); ++i) {
        const Ended e{saturatingEnd(dma[i].timestamp, dma[i].duration), uint32_t(i)};
        allDma[dma[i].core].push_back(e);
        if (i < profile.dmaSemaphore.size() && profile.dmaSemaphore[i] >= 0)
            dmaBySemaphore[key(dma[i].core, uint32_t(profile.dmaSemaphore[i]))].push_back(e);
    }
    for (auto &v : updaters)
        std::sort(v.begin(), v.end());
    for (auto &v : dmaBySemaphore)
        std::sort(v.begin(), v.end());
    for (auto &v : allDma)
        std::sort(v.begin(), v.end());
    const bool dmaNamesSemaphores = !profile.dmaSemaphore.empty();

    // Updates per semaphore in time order, each with its producer (engine side here, DMA side below).
    std::vector<std::tuple<int64_t, uint32_t, uint32_t>> dmaSide; // (ts, key, index in updates[key])
    std::vector<std::vector<Update>> updates(keys);
    for (const auto &r : profile.semaphores)
        updates[key(r.core, r.id)].push_back({r.timestamp, r.value, r.source, r.op, -1});
    for (size_t s = 0; s < updates.size(); ++s) {
        auto &list = updates[s];
        std::stable_sort(list.begin(), list.end(), [](const Update &a, const Update &c) { return a.ts < c.ts; });
        for (size_t k = 0; k < list.size(); ++k) {
            Update &u = list[k];
            if (k > 0 && u.op == kOpIncrement && u.value > list[k - 1].value + 1)
                ++result.incrementSkips;
            if (k > 0 && u.value < list[k - 1].value)
                continue; // a clear or reset: releases no ">=" wait
            const bool engineSource = u.source >= 1 && u.source <= 5;
            if (u.source != kSourceDma) {
                size_t looked = 0; // bounded: give up rather than scan the whole program back
                const Ended *e = latestBefore(updaters[s], u.ts, [&](const Ended &c) {
                    return !engineSource || uint8_t(ins[c.index].engine) == u.source || ++looked > kMaxLookBack;
                });
                if (e && engineSource && uint8_t(ins[e->index].engine) != u.source)
                    e = nullptr;
                if (e) {
                    u.producer = e->index;
                    continue;
                }
            }
            if (!engineSource)
                dmaSide.push_back({u.ts, uint32_t(s), uint32_t(k)});
        }
    }
    // DMA-side updates in time order, each from the latest-completed packet not already credited with
    // an update (one packet completion, one increment); JSON rows name the semaphore of static queues
    // only ("-1" on the DGE queues): all packets otherwise. The look-back is bounded: a packet that
    // old is not the one.
    std::sort(dmaSide.begin(), dmaSide.end());
    std::vector<uint8_t> used(dma.size(), 0);
    for (const auto &[ts, s, k] : dmaSide) {
        const auto &pool = dmaNamesSemaphores && !dmaBySemaphore[s].empty() ? dmaBySemaphore[s] : allDma[s / 256];
        size_t looked = 0;
        const Ended *e = latestBefore(pool, ts, [&](const Ended &c) { return !used[c.index] || ++looked > kMaxLookBack; });
        if (e) {
            used[e->index] = 1;
            updates[s][k].producer = -int64_t(e->index) - 2;
        }
    }
    auto producerSlice = [&](int64_t producer) {
        return producer >= 0 ? instructionSlice[size_t(producer)] : dmaSlice[size_t(-producer - 2)];
    };

    const StringId catSemaphore = b.intern("semaphore"), catQueue = b.intern("dma_queue");
    for (size_t i = 0; i < ins.size(); ++i) {
        const NtffSync &w = sync[i];
        if (!w.waitsOnSemaphore())
            continue;
        const auto &list = updates[key(ins[i].core, w.waitSemaphore)];
        const int64_t start = ins[i].timestamp;
        auto it = std::upper_bound(list.begin(), list.end(), plusTolerance(start),
                                   [](int64_t t, const Update &u) { return t < u.ts; });
        size_t k = size_t(it - list.begin());
        const bool greaterEqual = w.waitOp == NtffSync::kWaitGreaterEqual;
        if (k == 0 || (greaterEqual && list[k - 1].value < w.waitValue)) {
            ++result.unresolvedWaits;
            continue;
        }
        --k;
        while (greaterEqual && k > 0 && list[k - 1].value >= w.waitValue && list[k - 1].value <= list[k].value)
            --k; // back to the update that crossed the threshold
        if (list[k].producer == -1) {
            ++result.unresolvedWaits;
            continue;
        }
        const std::string name = "S[" + std::to_string(w.waitSemaphore) + "]"
            + (greaterEqual ? " >= " + std::to_string(w.waitValue) : std::string(" wait"));
        b.addFlow(FlowEnd::slice(producerSlice(list[k].producer)), FlowEnd::slice(instructionSlice[i]), catSemaphore,
                  b.intern(name), w.waitSemaphore);
        ++result.semaphoreLinks;
    }

    // DMA triggers -> the packets that then updated the semaphore they name.
    std::vector<std::vector<uint32_t>> triggers(keys);
    for (size_t i = 0; i < ins.size(); ++i)
        if (sync[i].dmaSemaphore >= 0)
            triggers[key(ins[i].core, uint32_t(sync[i].dmaSemaphore))].push_back(uint32_t(i));
    std::vector<uint8_t> linked(dma.size(), 0); // a packet is credited with one update: linked once at most
    for (size_t s = 0; s < triggers.size(); ++s) {
        auto &t = triggers[s];
        if (t.empty())
            continue;
        std::stable_sort(t.begin(), t.end(), [&](uint32_t a, uint32_t c) { return ins[a].timestamp < ins[c].timestamp; });
        const StringId name = b.intern("S[" + std::to_string(s % 256) + "] queue");
        const auto &list = updates[s]; // sorted by time: one pass over it for all triggers
        size_t k = 0;
        for (size_t j = 0; j < t.size(); ++j) {
            const int64_t from = ins[t[j]].timestamp;
            const int64_t to = j + 1 < t.size() ? ins[t[j + 1]].timestamp : INT64_MAX;
            while (k < list.size() && list[k].ts < from)
                ++k;
            for (; k < list.size() && list[k].ts < to; ++k) {
                const Update &u = list[k];
                if (u.producer >= -1)
                    continue;
                const size_t d = size_t(-u.producer - 2);
                if (linked[d] || plusTolerance(dma[d].timestamp) < from)
                    continue;
                linked[d] = 1;
                b.addFlow(FlowEnd::slice(instructionSlice[t[j]]), FlowEnd::slice(dmaSlice[d]), catQueue, name, int64_t(s % 256));
                ++result.dmaQueueLinks;
            }
        }
    }
    return result;
}

} // namespace lanescope
