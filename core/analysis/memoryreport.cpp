#include "memoryreport.h"

#include "neuroncoretracks.h"

#include "model/trace.h"
#include "util/textutil.h"

#include <cstring>

namespace lanescope {

bool MemoryReport::hasTraffic() const
{
    for (const Traffic &t : traffic)
        if (t.bytes)
            return true;
    return false;
}

const MemoryReport::Traffic *MemoryReport::trafficOf(const char *key) const
{
    for (const Traffic &t : traffic)
        if (std::strcmp(t.key, key) == 0)
            return &t;
    return nullptr;
}

bool MemoryReport::isMemoryCounter(const std::string &laneName)
{
    return laneName.starts_with("SBUF usage") || laneName.starts_with("PSUM usage") || laneName == "DMA throughput"
        || laneName == "HBM throughput";
}

MemoryReport MemoryReport::compute(const Trace &trace)
{
    MemoryReport r;
    for (size_t i = 0;; ++i) {
        const std::string prefix = "memory_usage[" + std::to_string(i) + "].";
        const std::string *category = trace.metadata().find(prefix + "category");
        const std::string *bytes = trace.metadata().find(prefix + "bytes");
        if (!category || !bytes)
            break;
        int64_t b = 0;
        std::string name = category->empty() ? "(unnamed)" : *category;
        // trn2: each physical core has its own table ("Generic (pcore 5)")
        if (const std::string *core = trace.metadata().find(prefix + "pcore")) {
            const std::string *index = trace.metadata().find("pcore[" + *core + "].index");
            name += " (" + (index ? "pcore " + *index : "core " + *core) + ")";
        }
        if (text::parseInt(*bytes, b) && b >= 0)
            r.staticMemory.push_back({name, uint64_t(b)});
    }
    static constexpr std::pair<const char *, const char *> fields[] = {
        {"hbm_read_bytes", "HBM read"},       {"hbm_write_bytes", "HBM write"},   {"spill_reload_bytes", "Spill reload"},
        {"spill_save_bytes", "Spill save"},   {"sbuf_read_bytes", "SBUF read"},   {"sbuf_write_bytes", "SBUF write"},
        {"psum_read_bytes", "PSUM read"},     {"psum_write_bytes", "PSUM write"},
    };
    for (const auto &[key, label] : fields)
        r.traffic.push_back({key, label, coretracks::metadataNumber(trace, std::string("neuron_profile.summary.") + key)});
    const auto percent = [&trace](const char *key) -> std::optional<double> {
        const auto v = coretracks::metadataNumber(trace, std::string("neuron_profile.summary.") + key);
        return v ? std::optional<double>(100.0 * *v) : std::nullopt;
    };
    r.mbuPercent = percent("mbu_estimated_percent");
    r.mfuPercent = percent("mfu_estimated_percent");
    r.hfuPercent = percent("hfu_estimated_percent");
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track &track = trace.tracks()[t];
        const std::string name(trace.str(track.name));
        if (track.kind != TrackKind::Counter || !isMemoryCounter(name))
            continue;
        const auto samples = trace.counterSamples(TrackId(t));
        if (samples.empty())
            continue;
        Counter c;
        c.name = name;
        for (GroupId g = track.group; g.isValid(); g = trace.group(g).parent)
            if (trace.group(g).kind == GroupKind::PhysicalCore) { // trn2: per physical core ("DMA throughput (pcore 5)")
                c.name += " (" + std::string(trace.str(trace.group(g).name)) + ")";
                break;
            }
        c.unit = std::string(trace.str(track.unit));
        c.samples = samples.size();
        c.peak = samples.front().value;
        c.peakAtNs = samples.front().ts;
        double area = 0;
        for (size_t i = 0; i < samples.size(); ++i) {
            if (samples[i].value > c.peak) {
                c.peak = samples[i].value;
                c.peakAtNs = samples[i].ts;
            }
            if (i + 1 < samples.size())
                area += samples[i].value * double(samples[i + 1].ts - samples[i].ts);
        }
        const double span = double(samples.back().ts - samples.front().ts);
        c.mean = span > 0 ? area / span : samples.front().value;
        r.counters.push_back(std::move(c));
    }
    return r;
}

} // namespace lanescope
