// lanescope-cli info PATH [--json]: what was loaded.
#include "commands.h"

#include "io/traceloader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace lanescope::cli {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

const char *kindName(TrackKind k)
{
    switch (k) {
    case TrackKind::Slices: return "slices";
    case TrackKind::Async: return "async";
    case TrackKind::Counter: return "counter";
    }
    return "slices";
}

uint64_t trackCount(const Track &tr)
{
    return tr.kind == TrackKind::Counter ? tr.counterCount : uint64_t(tr.sliceCount) + tr.instantCount;
}

QJsonObject infoJson(const Trace &t)
{
    QJsonObject o;
    o[QStringLiteral("file")] = qs(t.metadata().sourcePath);
    o[QStringLiteral("format")] = qs(t.metadata().format);
    o[QStringLiteral("synthetic")] = t.metadata().synthetic;
    o[QStringLiteral("events")] = qint64(t.stats().eventsRead);
    o[QStringLiteral("slices")] = qint64(t.allSlices().size());
    o[QStringLiteral("instants")] = qint64(t.allInstants().size());
    o[QStringLiteral("counter_samples")] = qint64(t.allCounterSamples().size());
    o[QStringLiteral("flows")] = qint64(t.flows().size());
    o[QStringLiteral("start_ns")] = qint64(t.startNs());
    o[QStringLiteral("end_ns")] = qint64(t.endNs());
    o[QStringLiteral("duration_ns")] = qint64(t.endNs() - t.startNs());
    QJsonObject phases;
    for (const auto &[k, n] : t.stats().phases)
        phases[qs(k)] = qint64(n);
    o[QStringLiteral("phases")] = phases;
    QJsonObject cats;
    for (const auto &[k, n] : t.stats().categories)
        cats[qs(k)] = qint64(n);
    o[QStringLiteral("categories")] = cats;
    QJsonArray tracks;
    for (uint32_t i = 0; i < t.tracks().size(); ++i) {
        const Track &tr = t.tracks()[i];
        QJsonObject to;
        to[QStringLiteral("group")] = qs(t.groupPath(tr.group));
        to[QStringLiteral("name")] = qs(t.str(tr.name));
        to[QStringLiteral("kind")] = QString::fromLatin1(kindName(tr.kind));
        to[QStringLiteral("count")] = qint64(trackCount(tr));
        tracks.append(to);
    }
    o[QStringLiteral("tracks")] = tracks;
    QJsonArray warnings;
    for (const auto &w : t.diagnostics().warnings()) {
        QJsonObject wo;
        wo[QStringLiteral("message")] = qs(w.message);
        wo[QStringLiteral("count")] = qint64(w.count);
        if (!w.firstSeen.empty())
            wo[QStringLiteral("first_seen")] = qs(w.firstSeen);
        warnings.append(wo);
    }
    o[QStringLiteral("warnings")] = warnings;
    QJsonObject meta;
    for (const auto &[k, v] : t.metadata().entries)
        meta[qs(k)] = qs(v);
    o[QStringLiteral("metadata")] = meta;
    return o;
}

void printText(const Trace &t)
{
    const auto &st = t.stats();
    std::printf("file:            %s\n", t.metadata().sourcePath.c_str());
    std::printf("format:          %s%s\n", t.metadata().format.c_str(), t.metadata().synthetic ? " (synthetic data)" : "");
    std::printf("events read:     %s\n", formatThousands(st.eventsRead).c_str());
    std::printf("slices:          %s\n", formatThousands(t.allSlices().size()).c_str());
    std::printf("instants:        %s\n", formatThousands(t.allInstants().size()).c_str());
    std::printf("counter samples: %s\n", formatThousands(t.allCounterSamples().size()).c_str());
    std::printf("flows:           %s\n", formatThousands(t.flows().size()).c_str());
    std::printf("time range:      %lld .. %lld ns (%.6f ms)\n", (long long)t.startNs(), (long long)t.endNs(),
                double(t.endNs() - t.startNs()) / 1e6);
    std::printf("phases:         ");
    for (const auto &[k, n] : st.phases)
        std::printf(" %s:%llu", k.empty() ? "(none)" : k.c_str(), (unsigned long long)n);
    std::printf("\ncategories:     ");
    for (const auto &[k, n] : st.categories)
        std::printf(" %s:%llu", k.c_str(), (unsigned long long)n);
    std::printf("\ntracks (%zu):\n", t.tracks().size());
    for (const Track &tr : t.tracks())
        std::printf("  %-60s %-8s %llu\n", (t.groupPath(tr.group) + " / " + std::string(t.str(tr.name))).c_str(),
                    kindName(tr.kind), (unsigned long long)trackCount(tr));
    for (const auto &[k, v] : t.metadata().entries)
        std::printf("metadata %s: %.120s%s\n", k.c_str(), v.c_str(), v.size() > 120 ? "..." : "");
    if (t.diagnostics().empty()) {
        std::printf("warnings:        none\n");
    } else {
        std::printf("warnings:\n");
        for (const auto &w : t.diagnostics().warnings())
            std::printf("  %s\n", Diagnostics::format(w).c_str());
    }
}

} // namespace

int cmdInfo(const Args &args)
{
    const auto paths = positional(args);
    if (paths.size() != 1) {
        std::fprintf(stderr, "usage: lanescope-cli info PATH [--json]\n");
        return kExitUnreadable;
    }
    const LoadResult r = TraceLoader::load(paths[0]);
    if (!r.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", r.error.c_str());
        return kExitUnreadable;
    }
    if (hasFlag(args, "--json")) {
        const QByteArray out = QJsonDocument(infoJson(*r.trace)).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    } else {
        printText(*r.trace);
    }
    return kExitOk;
}

} // namespace lanescope::cli
