#include "collectivetable.h"

#include "rankfilter.h"
#include "stepstatistics.h"

#include "model/argint.h"
#include "model/saturating.h"
#include "model/trace.h"
#include "util/textutil.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace lanescope {

std::vector<CollectiveRow> CollectiveTableResult::allRows() const
{
    std::vector<CollectiveRow> all = rows;
    all.insert(all.end(), perRank.begin(), perRank.end());
    return all;
}

namespace {

struct Keys
{
    StringId collective, inElems, outElems, groupSize, dtype, group, kernel;
    explicit Keys(const Trace &t)
        : collective(t.strings().find("Collective name")), inElems(t.strings().find("In msg nelems")),
          outElems(t.strings().find("Out msg nelems")), groupSize(t.strings().find("Group size")), dtype(t.strings().find("dtype")),
          group(t.strings().find("Process Group Name")), kernel(t.strings().find("kernel"))
    {
    }
};

int64_t intOf(const Arg &a)
{
    return argInt(a).value_or(-1);
}

int64_t median(std::vector<int64_t> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<CollectiveRow> group(const std::vector<CollectiveInstance> &instances, bool perRank)
{
    using Key = std::tuple<int64_t, std::string, std::string, uint64_t, bool, std::string, int64_t>;
    std::map<Key, std::vector<const CollectiveInstance *>> groups;
    for (const CollectiveInstance &c : instances)
        groups[Key{perRank ? c.rank : -1, c.kind, c.processGroup, c.bytes.value_or(0), c.bytes.has_value(), c.dtype, c.groupSize}].push_back(&c);
    std::vector<CollectiveRow> rows;
    for (const auto &[key, members] : groups) {
        CollectiveRow r;
        r.rank = std::get<0>(key);
        r.kind = std::get<1>(key);
        r.processGroup = std::get<2>(key);
        if (std::get<4>(key))
            r.messageBytes = std::get<3>(key);
        r.dtype = std::get<5>(key);
        r.groupSize = std::get<6>(key);
        std::vector<int64_t> durations;
        for (const CollectiveInstance *c : members) {
            ++r.count;
            r.totalNs = saturatingAdd(r.totalNs, c->duration);
            r.maxNs = std::max(r.maxNs, c->duration);
            durations.push_back(c->duration);
        }
        r.minNs = *std::min_element(durations.begin(), durations.end());
        r.p25Ns = StepStatistics::percentile(durations, 0.25);
        r.p75Ns = StepStatistics::percentile(durations, 0.75);
        r.medianNs = median(std::move(durations));
        if (r.messageBytes && r.totalNs > 0) {
            r.algBwBytesPerSec = double(*r.messageBytes) * double(r.count) * 1e9 / double(r.totalNs);
            r.busBwBytesPerSec = *r.algBwBytesPerSec * CollectiveTable::busFactor(r.kind, r.groupSize);
        }
        rows.push_back(std::move(r));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const CollectiveRow &a, const CollectiveRow &b) {
        return std::tie(a.rank, b.totalNs) < std::tie(b.rank, a.totalNs);
    });
    return rows;
}

} // namespace

std::string CollectiveTable::normalizeKind(std::string_view name)
{
    std::string k;
    for (char c : text::lower(name))
        if (c != '_' && c != ' ' && c != '-')
            k += c;
    if (k.ends_with("base")) // _allgather_base, _reduce_scatter_base
        k.resize(k.size() - 4);
    if (k.ends_with("intocoalesced") || k.ends_with("coalesced"))
        k.resize(k.size() - (k.ends_with("intocoalesced") ? 13 : 9));
    if (k == "reducescatter" || k == "reducescattertensor")
        return "reduce_scatter";
    if (k == "allgatherintotensor")
        return "allgather";
    if (k == "alltoallv" || k == "alltoall" || k == "alltoallbase")
        return "alltoall";
    return k;
}

std::string CollectiveTable::kindOfKernel(std::string_view name)
{
    const std::string n = text::lower(name.substr(0, name.find('(')));
    for (const char *prefix : {"nccldevkernel_", "ncclkernel_", "rcclkernel_", "nccl_", "rccl_"})
        if (n.starts_with(prefix)) {
            const std::string rest = n.substr(std::string_view(prefix).size());
            return normalizeKind(rest.substr(0, rest.find('_')));
        }
    return {};
}

std::optional<int> CollectiveTable::dtypeBytes(std::string_view dtype)
{
    const std::string d = text::lower(dtype);
    if (d == "float" || d == "float32" || d == "int" || d == "int32" || d == "uint32")
        return 4;
    if (d == "half" || d == "float16" || d == "bfloat16" || d == "short" || d == "int16")
        return 2;
    if (d == "double" || d == "float64" || d == "long" || d == "int64" || d == "uint64" || d == "complexfloat")
        return 8;
    if (d == "byte" || d == "char" || d == "bool" || d == "int8" || d == "uint8" || d.starts_with("float8"))
        return 1;
    if (d == "complexdouble")
        return 16;
    return std::nullopt;
}

bool CollectiveTable::inRow(const CollectiveInstance &c, const CollectiveRow &row)
{
    return c.kind == row.kind && c.processGroup == row.processGroup && c.bytes == row.messageBytes && c.dtype == row.dtype
        && c.groupSize == row.groupSize && (row.rank < 0 || c.rank == row.rank);
}

double CollectiveTable::busFactor(std::string_view kind, int64_t n)
{
    if (n < 1)
        return 1.0;
    const double r = double(n - 1) / double(n);
    if (kind == "allreduce")
        return 2.0 * r;
    if (kind == "allgather" || kind == "reduce_scatter" || kind == "alltoall")
        return r;
    return 1.0;
}

CollectiveTableResult CollectiveTable::compute(const Trace &trace, int64_t rank)
{
    std::vector<CollectiveInstance> instances;
    const Keys k(trace);
    const RankFilter filter(trace, rank);
    const bool multiRank = !RankFilter::ranks(trace).empty();
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &track = trace.tracks()[t];
        if (track.kind == TrackKind::Counter || track.sliceCount == 0 || !filter.acceptsTrack(TrackId(t)))
            continue;
        const int64_t trackRank = multiRank ? RankFilter::rankOfTrack(trace, TrackId(t)) : -1;
        const auto slices = trace.slices(TrackId(t));
        for (uint32_t i = 0; i < slices.size(); ++i) {
            const Slice &s = slices[i];
            if (s.category != k.kernel)
                continue;
            CollectiveInstance c;
            int64_t in = -1, out = -1;
            if (s.args.isValid())
                for (const Arg &a : trace.args().args(s.args)) {
                    if (a.key == k.collective && a.type == ArgType::String)
                        c.kind = normalizeKind(trace.str(a.stringValue()));
                    else if (a.key == k.inElems)
                        in = intOf(a);
                    else if (a.key == k.outElems)
                        out = intOf(a);
                    else if (a.key == k.groupSize)
                        c.groupSize = std::max<int64_t>(0, intOf(a));
                    else if (a.key == k.dtype && a.type == ArgType::String)
                        c.dtype = std::string(trace.str(a.stringValue()));
                    else if (a.key == k.group && a.type == ArgType::String)
                        c.processGroup = std::string(trace.str(a.stringValue()));
                }
            if (c.kind.empty())
                c.kind = kindOfKernel(trace.str(s.name));
            if (c.kind.empty())
                continue; // not a collective
            const auto size = dtypeBytes(c.dtype);
            if (size && std::max(in, out) >= 0)
                c.bytes = uint64_t(std::max(in, out)) * uint64_t(*size);
            c.slice = trace.sliceId(TrackId(t), i);
            c.rank = trackRank;
            c.start = s.start;
            c.duration = s.duration;
            instances.push_back(std::move(c));
        }
    }
    return fromInstances(std::move(instances), multiRank);
}

CollectiveTableResult CollectiveTable::fromInstances(std::vector<CollectiveInstance> instances, bool multiRank)
{
    CollectiveTableResult result;
    result.instances = std::move(instances);
    for (const CollectiveInstance &c : result.instances)
        result.totalNs = saturatingAdd(result.totalNs, c.duration);
    std::sort(result.instances.begin(), result.instances.end(), [](const CollectiveInstance &a, const CollectiveInstance &b) {
        return std::tie(a.start, a.slice) < std::tie(b.start, b.slice);
    });
    result.rows = group(result.instances, false);
    if (multiRank)
        result.perRank = group(result.instances, true);
    return result;
}

} // namespace lanescope
