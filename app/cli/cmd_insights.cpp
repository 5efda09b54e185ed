// lanescope-cli insights PATH... [--json] [--range FROM:TO] [--min-severity low|medium|high]
// (several PATHs: the files of one job's ranks, as one multi-rank trace, as ops / kernels take them)
// Key metrics and ranked findings (core/analysis/insights): what is slow, why, what to change.
#include "commands.h"
#include "tableargs.h"

#include "analysis/insights/capturecheck.h"
#include "analysis/insights/findingsdiff.h"
#include "analysis/insights/insights.h"
#include "analysis/insights/insightsjson.h"
#include "analysis/timerange.h"
#include "io/traceloader.h"
#include "util/durationtext.h"
#include "util/unittext.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace lanescope::cli {

namespace {

constexpr const char *kUsage = "usage: lanescope-cli insights PATH... [--json] [--range FROM:TO] [--min-severity low|medium|high]\n";

void printMetrics(const KeyMetrics &m)
{
    std::printf("Key metrics (window %s)\n", DurationText::column(double(m.spanNs)).c_str());
    if (m.devices.empty())
        std::printf("  device: no device work\n");
    for (const auto &d : m.devices)
        std::printf("  %-24s total %s, busy %s (%.1f%%), idle %s\n", d.name.c_str(), DurationText::column(double(d.totalNs)).c_str(),
                    DurationText::column(double(d.busyNs)).c_str(), d.busyPercent, DurationText::column(double(d.idleNs)).c_str());
    for (const auto &e : m.engines)
        std::printf("  %s / %-8s active %5.1f%%\n", e.core.c_str(), e.engine.c_str(), e.activePercent);
    for (const auto &d : m.dma)
        std::printf("  DMA %-13s %llu bytes, %llu packets, %.3f GB/s\n", d.kind.c_str(), (unsigned long long)d.bytes,
                    (unsigned long long)d.packets, d.throughputBytesPerSec / 1e9);
    if (m.dmaPackets)
        std::printf("  average DMA size: %.0f bytes\n", m.averageDmaBytes);
    if (m.mfuPercent || m.hfuPercent)
        std::printf("  MFU %.2f%%, HFU %.2f%%\n", m.mfuPercent.value_or(0), m.hfuPercent.value_or(0));
    if (m.mbuPercent)
        std::printf("  MBU %.4f%%\n", *m.mbuPercent);
    for (const KeyMetrics::Traffic &t : m.hbmTraffic)
        std::printf("  %s: %s\n", t.label.c_str(), UnitText::bytes(t.bytes).c_str());
    std::printf("  framework CPU self %s, device time %s\n", DurationText::column(double(m.frameworkCpuNs)).c_str(),
                DurationText::column(double(m.deviceNs)).c_str());
    if (m.steps)
        std::printf("  steps: %llu, median %s\n", (unsigned long long)m.steps, DurationText::column(double(m.medianStepNs)).c_str());
}

} // namespace

void printFindings(const char *heading, const std::vector<Finding> &findings)
{
    std::printf("\n%s (%zu)\n", heading, findings.size());
    for (const Finding &f : findings) {
        std::printf("  [%s] %s  (%s)\n", Finding::severityName(f.severity), f.title.c_str(), f.rule.c_str());
        std::printf("      %s\n", f.detail.c_str());
        if (!f.source.empty())
            std::printf("      in %s (%.0f %% of it)\n", f.source.c_str(), 100.0 * f.sourceShare);
        std::printf("      -> %s\n", f.action.c_str());
        if (f.recoverableNs)
            std::printf("      recoverable ~%s; %zu event(s), %zu range(s)\n", DurationText::column(double(*f.recoverableNs)).c_str(),
                        f.events.size(), f.ranges.size());
    }
}

int cmdInsights(const Args &args)
{
    const auto paths = positional(args, {"--range", "--min-severity"});
    for (const auto &a : args)
        if (a.size() > 1 && a[0] == '-' && a != "--json" && a != "--range" && a != "--min-severity" && a != "--no-cache") {
            std::fprintf(stderr, "lanescope-cli insights: unknown option '%s'\n%s", a.c_str(), kUsage);
            return kExitUnreadable;
        }
    if (paths.empty()) {
        std::fprintf(stderr, "lanescope-cli insights: missing PATH\n%s", kUsage);
        return kExitUnreadable;
    }
    Insights::Options options;
    std::optional<TimeRange> range;
    if (hasFlag(args, "--range")) {
        std::string error;
        range = TimeRange::parse(flagValue(args, "--range"), TimeRange::BareNumber::AbsoluteNs, &error);
        if (!range) {
            std::fprintf(stderr, "lanescope-cli insights: --range %s\n%s", error.c_str(), kUsage);
            return kExitUnreadable;
        }
        if (range->usedBareNumber)
            std::fprintf(stderr, "lanescope-cli insights: %s\n",
                         TimeRange::deprecationNote(TimeRange::BareNumber::AbsoluteNs).c_str());
    }
    if (hasFlag(args, "--min-severity")) {
        const auto s = Finding::severityFromName(flagValue(args, "--min-severity"));
        if (!s) {
            std::fprintf(stderr, "lanescope-cli insights: --min-severity expects low, medium or high\n");
            return kExitUnreadable;
        }
        options.minSeverity = *s;
    }
    // Several PATHs: the files of one job's ranks, as one multi-rank trace.
    const LoadResult loaded = paths.size() > 1 ? loadTrace(paths, args) : loadTrace(paths[0], args);
    if (!loaded.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", loaded.error.c_str());
        return kExitUnreadable;
    }
    if (range) {
        std::string error;
        if (!range->resolve(loaded.trace->startNs(), loaded.trace->endNs(), true, &options.t0, &options.t1, &error)) {
            std::fprintf(stderr, "lanescope-cli insights: --range %s\n", error.c_str());
            return kExitUnreadable;
        }
        options.hasRange = true;
    }
    const Insights::Result r = Insights::run(*loaded.trace, options);
    if (hasFlag(args, "--json")) {
        const QByteArray out = QJsonDocument(InsightsJson::result(r)).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        return kExitOk;
    }
    std::vector<Finding> capture, other;
    for (const Finding &f : r.findings)
        (Finding::isCapture(f.rule) ? capture : other).push_back(f);
    // Capture first: when the profile was taken wrong, the numbers below mislead (docs/insights.md).
    std::printf("capture: %s\n", CaptureCheck::verdict(capture).c_str());
    if (!capture.empty())
        printFindings("Capture checks", capture);
    std::printf("\n");
    printMetrics(r.metrics);
    printFindings("Findings", other);
    return kExitOk;
}

} // namespace lanescope::cli
