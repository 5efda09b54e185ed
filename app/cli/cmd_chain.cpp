// lanescope-cli chain PATH --event ID [--json] [--max N] [--critical-path] [--wait]
// --wait: a NeuronCore instruction's upstream wait trace (WaitTrace: back to the engine that sat idle waiting)
// The dependency chain of one event (a slice id, as `rows` and the GUI's details panel show it):
// everything upstream (what it waited for) and downstream (what waited for it) over the dependency
// graph (core/analysis/dependencygraph.h), the edges between them and optionally the critical path.
#include "commands.h"

#include "analysis/dependencychain.h"
#include "analysis/dependencygraph.h"
#include "analysis/waittrace.h"
#include "io/traceloader.h"
#include "util/qtext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <chrono>
#include <cstdio>
#include <string>

namespace lanescope::cli {

namespace {


int usageError(const std::string &message)
{
    std::fprintf(stderr, "lanescope-cli chain: %s\nusage: lanescope-cli chain PATH --event ID [--json] [--max N] "
                         "[--critical-path] [--wait]\n",
                 message.c_str());
    return kExitUnreadable;
}

bool parseCount(const std::string &text, uint64_t max, uint64_t &out)
{
    if (text.empty() || text.size() > 19)
        return false;
    out = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
        out = out * 10 + uint64_t(c - '0');
    }
    return out <= max;
}

QJsonObject nodeJson(const Trace &t, SliceId id, const char *role)
{
    const Slice &s = t.slice(id);
    QJsonObject o;
    o[QStringLiteral("id")] = qint64(id.value);
    o[QStringLiteral("name")] = qs(t.str(s.name));
    o[QStringLiteral("lane")] = qs(t.trackPath(t.trackOfSlice(id)));
    o[QStringLiteral("start_ns")] = qint64(s.start);
    o[QStringLiteral("dur_ns")] = qint64(s.duration);
    o[QStringLiteral("role")] = QString::fromLatin1(role);
    return o;
}

std::string edgeLabel(const Trace &t, const DependencyEdge &e)
{
    if (!e.flow.isValid() || e.flow.value >= t.flows().size())
        return {};
    const Flow &f = t.flows()[e.flow.value];
    std::string label(t.str(f.category));
    if (!t.str(f.name).empty())
        label += (label.empty() ? "" : ": ") + std::string(t.str(f.name));
    return label;
}

QJsonObject edgeJson(const Trace &t, const DependencyEdge &e)
{
    QJsonObject o;
    o[QStringLiteral("from")] = qint64(e.from.value);
    o[QStringLiteral("to")] = qint64(e.to.value);
    o[QStringLiteral("kind")] = QString::fromLatin1(dependencyKindName(e.kind));
    const std::string label = edgeLabel(t, e);
    if (!label.empty())
        o[QStringLiteral("label")] = qs(label);
    return o;
}

void printNode(const Trace &t, SliceId id, const char *prefix)
{
    const Slice &s = t.slice(id);
    std::printf("%s%-8u %-48.48s %12lld ns %10lld ns  %s\n", prefix, id.value, std::string(t.str(s.name)).c_str(),
                (long long)s.start, (long long)s.duration, t.trackPath(t.trackOfSlice(id)).c_str());
}

QJsonObject waitJson(const Trace &t, const WaitTraceResult &w)
{
    QJsonArray steps;
    for (const WaitStep &s : w.steps)
        steps.append(QJsonObject{{QStringLiteral("id"), qint64(s.slice.value)},
                                 {QStringLiteral("name"), qs(std::string(t.str(t.slice(s.slice).name)))},
                                 {QStringLiteral("via"), QString::fromLatin1(WaitTraceResult::viaName(s.via))}});
    QJsonObject o{{QStringLiteral("steps"), steps}, {QStringLiteral("stop"), QString::fromLatin1(WaitTraceResult::stopName(w.stop))}};
    if (w.wait.isValid()) {
        o[QStringLiteral("wait_id")] = qint64(w.wait.value);
        o[QStringLiteral("wait_ns")] = qint64(w.waitNs);
        o[QStringLiteral("engine")] = qs(w.engine);
    }
    if (w.releasedBy.isValid())
        o[QStringLiteral("released_by")] = qint64(w.releasedBy.value);
    if (!w.semaphore.empty())
        o[QStringLiteral("semaphore")] = qs(w.semaphore);
    return o;
}

void printWait(const Trace &t, const WaitTraceResult &w)
{
    std::printf("wait trace (%zu steps, %s):\n", w.steps.size(), WaitTraceResult::stopName(w.stop));
    for (const WaitStep &s : w.steps)
    {
        std::string prefix = std::string("  ") + WaitTraceResult::viaName(s.via);
        prefix.resize(13, ' ');
        printNode(t, s.slice, prefix.c_str());
    }
    if (w.stop == WaitTraceResult::Stop::SemaphoreWait)
        std::printf("  -> %s sat idle %lld ns waiting%s%s%s\n", w.engine.c_str(), (long long)w.waitNs,
                    w.semaphore.empty() ? "" : " on ", w.semaphore.c_str(),
                    w.releasedBy.isValid() ? (", released by event " + std::to_string(w.releasedBy.value)).c_str() : " (no releasing producer linked)");
    else if (w.stop == WaitTraceResult::Stop::IdleGap)
        std::printf("  -> %s sat idle %lld ns before event %u (no producer in the trace explains it)\n", w.engine.c_str(),
                    (long long)w.waitNs, w.wait.value);
}

} // namespace

int cmdChain(const Args &args)
{
    const std::vector<std::string> withValue = {"--event", "--max"};
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--event" || a == "--max") {
            if (i + 1 >= args.size())
                return usageError(a + " needs a value");
            ++i;
        } else if (a.size() > 1 && a[0] == '-' && a != "--json" && a != "--critical-path" && a != "--wait"
                   && a.rfind("--event=", 0) != 0 && a.rfind("--max=", 0) != 0) {
            return usageError("unknown option '" + a + "'");
        }
    }
    const auto paths = positional(args, withValue);
    if (paths.size() != 1)
        return usageError(paths.empty() ? "missing PATH" : "expected one PATH");
    uint64_t event = 0, maxNodes = DependencyChain::kDefaultMaxNodes;
    const std::string eventText = flagValue(args, "--event");
    if (eventText.empty())
        return usageError("missing --event ID");
    if (!parseCount(eventText, UINT32_MAX - 1, event))
        return usageError("--event expects a slice id (a non-negative integer), got '" + eventText + "'");
    if (hasFlag(args, "--max") || flagValue(args, "--max") != "")
        if (!parseCount(flagValue(args, "--max"), UINT32_MAX, maxNodes) || maxNodes == 0)
            return usageError("--max expects a positive integer");

    const LoadResult r = loadTrace(paths[0], args);
    if (!r.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", r.error.c_str());
        return kExitUnreadable;
    }
    const Trace &t = *r.trace;
    if (event >= t.allSlices().size()) {
        std::fprintf(stderr, "lanescope-cli chain: %s: no event %llu (the trace has %zu slices, ids 0..%zu)\n",
                     paths[0].c_str(), (unsigned long long)event, t.allSlices().size(),
                     t.allSlices().empty() ? size_t(0) : t.allSlices().size() - 1);
        return kExitUnreadable;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const DependencyGraph graph = DependencyGraph::build(t);
    const double buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const DependencyChain chain = DependencyChain::query(graph, SliceId(uint32_t(event)), size_t(maxNodes));
    const bool critical = hasFlag(args, "--critical-path");
    const bool wait = hasFlag(args, "--wait");
    const WaitTraceResult waits = wait ? WaitTrace::upstream(t, graph, SliceId(uint32_t(event))) : WaitTraceResult();
    int64_t criticalNs = 0;
    const std::vector<SliceId> path = critical ? chain.criticalPath(&criticalNs) : std::vector<SliceId>();

    if (hasFlag(args, "--json")) {
        QJsonObject o;
        o[QStringLiteral("file")] = qs(t.metadata().sourcePath);
        o[QStringLiteral("event")] = qint64(event);
        QJsonObject g;
        g[QStringLiteral("slices")] = qint64(graph.sliceCount());
        g[QStringLiteral("edges")] = qint64(graph.edgeCount());
        g[QStringLiteral("bytes_per_slice")] = graph.bytesPerSlice();
        g[QStringLiteral("build_ms")] = buildMs;
        o[QStringLiteral("graph")] = g;
        QJsonArray nodes, up, down, edges;
        nodes.append(nodeJson(t, chain.root(), "root"));
        for (SliceId id : chain.upstream()) {
            nodes.append(nodeJson(t, id, "upstream"));
            up.append(qint64(id.value));
        }
        for (SliceId id : chain.downstream()) {
            nodes.append(nodeJson(t, id, "downstream"));
            down.append(qint64(id.value));
        }
        for (const auto &e : chain.upstreamEdges())
            edges.append(edgeJson(t, e));
        for (const auto &e : chain.downstreamEdges())
            edges.append(edgeJson(t, e));
        o[QStringLiteral("nodes")] = nodes;
        o[QStringLiteral("upstream")] = up;
        o[QStringLiteral("downstream")] = down;
        o[QStringLiteral("edges")] = edges;
        o[QStringLiteral("upstream_truncated")] = chain.upstreamTruncated();
        o[QStringLiteral("downstream_truncated")] = chain.downstreamTruncated();
        if (critical) {
            QJsonObject cp;
            QJsonArray ids;
            for (SliceId id : path)
                ids.append(qint64(id.value));
            cp[QStringLiteral("ids")] = ids;
            cp[QStringLiteral("duration_ns")] = qint64(criticalNs);
            o[QStringLiteral("critical_path")] = cp;
        }
        if (wait)
            o[QStringLiteral("wait_trace")] = waitJson(t, waits);
        const QByteArray out = QJsonDocument(o).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        return kExitOk;
    }

    std::printf("graph: %zu slices, %zu edges, %.1f bytes/slice, built in %.1f ms\n", graph.sliceCount(),
                graph.edgeCount(), graph.bytesPerSlice(), buildMs);
    printNode(t, chain.root(), "event      ");
    std::printf("upstream (%zu%s):\n", chain.upstream().size(), chain.upstreamTruncated() ? ", truncated" : "");
    for (SliceId id : chain.upstream())
        printNode(t, id, "  ");
    std::printf("downstream (%zu%s):\n", chain.downstream().size(), chain.downstreamTruncated() ? ", truncated" : "");
    for (SliceId id : chain.downstream())
        printNode(t, id, "  ");
    std::printf("edges (%zu):\n", chain.upstreamEdges().size() + chain.downstreamEdges().size());
    for (const auto *list : {&chain.upstreamEdges(), &chain.downstreamEdges()})
        for (const auto &e : *list) {
            const std::string label = edgeLabel(t, e);
            std::printf("  %u -> %u  %s%s%s\n", e.from.value, e.to.value, dependencyKindName(e.kind),
                        label.empty() ? "" : "  ", label.c_str());
        }
    if (critical) {
        std::printf("critical path (%zu slices, %lld ns):\n", path.size(), (long long)criticalNs);
        for (SliceId id : path)
            printNode(t, id, "  ");
    }
    if (wait)
        printWait(t, waits);
    return kExitOk;
}

} // namespace lanescope::cli
