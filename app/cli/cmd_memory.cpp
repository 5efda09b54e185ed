// lanescope-cli memory PATH [--json]: device memory of a NeuronCore profile as neuron-profile reported it
// (MemoryReport, the Memory dock): static memory by usage type, HBM / SBUF / PSUM traffic with spill
// reload / save, MBU beside MFU / HFU, and the SBUF / PSUM usage and DMA / HBM throughput counters (peak,
// time-weighted mean).
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/memoryreport.h"
#include "model/trace.h"
#include "util/qtext.h"
#include "util/unittext.h"

#include <QJsonArray>

#include <cstdio>

namespace lanescope::cli {

namespace {

std::string valueText(double v, const std::string &unit)
{
    char b[64];
    if (unit == "fraction")
        std::snprintf(b, sizeof b, "%.4f %%", 100.0 * v);
    else if (unit == "bytes/s")
        return UnitText::bytes(v) + "/s";
    else
        std::snprintf(b, sizeof b, "%g %s", v, unit.c_str());
    return b;
}

void printText(const MemoryReport &r)
{
    if (r.empty()) {
        std::printf("no device memory numbers in this trace (neuron-profile JSON exports carry them; an NTFF has the "
                    "static memory table only)\n");
        return;
    }
    if (!r.staticMemory.empty()) {
        std::printf("static memory by usage type\n");
        for (const MemoryReport::Usage &u : r.staticMemory)
            std::printf("  %-28s %14llu  %s\n", u.category.c_str(), (unsigned long long)u.bytes, UnitText::bytes(double(u.bytes)).c_str());
    }
    if (r.hasTraffic()) {
        std::printf("\ntraffic (neuron-profile summary)\n");
        for (const MemoryReport::Traffic &t : r.traffic)
            if (t.bytes)
                std::printf("  %-28s %14.0f  %s\n", t.label, *t.bytes, UnitText::bytes(*t.bytes).c_str());
    }
    if (r.mbuPercent || r.mfuPercent || r.hfuPercent) {
        std::printf("\n");
        const auto pct = [](const char *name, const std::optional<double> &v) {
            if (v)
                std::printf("  %s %.6f %%", name, *v);
        };
        pct("MBU", r.mbuPercent);
        pct("MFU", r.mfuPercent);
        pct("HFU", r.hfuPercent);
        std::printf("\n");
    }
    if (!r.counters.empty()) {
        std::printf("\n  %-32s %8s %16s %16s %12s\n", "counter", "samples", "peak", "mean", "peak at ns");
        for (const MemoryReport::Counter &c : r.counters)
            std::printf("  %-32s %8llu %16s %16s %12lld\n", c.name.c_str(), (unsigned long long)c.samples,
                        valueText(c.peak, c.unit).c_str(), valueText(c.mean, c.unit).c_str(), (long long)c.peakAtNs);
    }
}

QJsonObject toJson(const MemoryReport &r)
{
    QJsonArray usage, counters;
    for (const MemoryReport::Usage &u : r.staticMemory)
        usage.append(QJsonObject{{QStringLiteral("usage_type"), qs(u.category)}, {QStringLiteral("bytes"), qint64(u.bytes)}});
    QJsonObject traffic;
    for (const MemoryReport::Traffic &t : r.traffic)
        traffic[QLatin1String(t.key)] = t.bytes ? QJsonValue(*t.bytes) : QJsonValue();
    for (const MemoryReport::Counter &c : r.counters)
        counters.append(QJsonObject{{QStringLiteral("name"), qs(c.name)},
                                    {QStringLiteral("unit"), qs(c.unit)},
                                    {QStringLiteral("samples"), qint64(c.samples)},
                                    {QStringLiteral("peak"), c.peak},
                                    {QStringLiteral("peak_at_ns"), qint64(c.peakAtNs)},
                                    {QStringLiteral("mean"), c.mean}});
    const auto opt = [](const std::optional<double> &v) { return v ? QJsonValue(*v) : QJsonValue(); };
    return QJsonObject{{QStringLiteral("static_memory"), usage},
                       {QStringLiteral("traffic"), traffic},
                       {QStringLiteral("mbu_percent"), opt(r.mbuPercent)},
                       {QStringLiteral("mfu_percent"), opt(r.mfuPercent)},
                       {QStringLiteral("hfu_percent"), opt(r.hfuPercent)},
                       {QStringLiteral("counters"), counters}};
}

} // namespace

int cmdMemory(const Args &args)
{
    TableArgs ta;
    if (!ta.parse("memory", args, {.noCsv = "text or json (its parts are not one table)"}))
        return kExitUnreadable;
    LoadResult loaded;
    if (!ta.load(args, loaded))
        return kExitUnreadable;
    const MemoryReport r = MemoryReport::compute(*loaded.trace);
    if (ta.format == TableArgs::Format::Json) {
        QJsonObject o = toJson(r);
        o[QStringLiteral("file")] = qs(loaded.trace->metadata().sourcePath);
        printJson(o);
    } else {
        printText(r);
    }
    return kExitOk;
}

} // namespace lanescope::cli
