// lanescope-cli tree PATH [--range FROM:TO] [--thread TRACK | --rank N] [--merge-threads]
//                         [--weight cpu|self|device] [--min-share P] [--json | --format text|json|folded]
// The call tree of the host threads (core/analysis/calltree.h): calls, total, self and the device
// time launched beneath each path of names; --format folded prints Brendan Gregg's folded stacks.
// Text and JSON hide the nodes under --min-share (1 % by default) and say what they hid.
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/calltree.h"
#include "analysis/launchindex.h"
#include "model/trace.h"
#include "util/durationtext.h"
#include "util/textutil.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace lanescope::cli {

namespace {

struct TreeFlags
{
    std::string thread;
    bool hasThread = false;
    CallTree::Weight weight = CallTree::Weight::Cpu;
    double minShare = -1; // -1: the format's default
    bool mergeThreads = false;
    bool folded = false;
};

// Percent of the root's weight (self: of the root's total, the self times add up to it).
double share(const CallTree::Result &r, const CallTree::Node &n, CallTree::Weight w)
{
    const int64_t whole = w == CallTree::Weight::Device ? r.root().device : r.root().total;
    return whole > 0 ? 100.0 * double(n.weight(w)) / double(whole) : 0.0;
}

// A node stays when its inclusive weight (total, or device) reaches `minShare` % of the root's.
bool kept(const CallTree::Result &r, const CallTree::Node &n, CallTree::Weight w, double minShare)
{
    const CallTree::Weight inclusive = w == CallTree::Weight::Device ? w : CallTree::Weight::Cpu;
    return minShare <= 0 || share(r, n, inclusive) >= minShare;
}

// Children by the weight, heaviest first.
std::vector<uint32_t> ordered(const CallTree::Result &r, const CallTree::Node &n, CallTree::Weight w)
{
    std::vector<uint32_t> c = n.children;
    std::stable_sort(c.begin(), c.end(), [&](uint32_t a, uint32_t b) { return r.nodes[a].weight(w) > r.nodes[b].weight(w); });
    return c;
}

// What --min-share left out: subtrees whose root weighs under the share (`nodes` counts every node in
// them, `subtrees` their roots; the times sum over the roots, which are disjoint).
struct Cut
{
    uint64_t nodes = 0, subtrees = 0;
    int64_t total = 0, device = 0;

    void add(const Cut &o)
    {
        nodes += o.nodes;
        subtrees += o.subtrees;
        total += o.total;
        device += o.device;
    }
    QJsonObject json() const
    {
        return QJsonObject{{QStringLiteral("nodes"), qint64(nodes)},
                           {QStringLiteral("subtrees"), qint64(subtrees)},
                           {QStringLiteral("total_ns"), qint64(total)},
                           {QStringLiteral("device_ns"), qint64(device)}};
    }
};

// The subtree of `id` as one cut: its node count and its root's times.
Cut cutOf(const CallTree::Result &r, uint32_t id)
{
    Cut c{0, 1, r.nodes[id].total, r.nodes[id].device};
    std::vector<uint32_t> open{id};
    while (!open.empty()) {
        const uint32_t n = open.back();
        open.pop_back();
        ++c.nodes;
        open.insert(open.end(), r.nodes[n].children.begin(), r.nodes[n].children.end());
    }
    return c;
}

// A node with its kept children; the children left out are summed in the node's "cut" (present only
// when some are), so total = self + the children's totals + cut.total_ns still holds.
QJsonObject toJson(const CallTree::Result &r, uint32_t id, CallTree::Weight w, double minShare, Cut &cutAll)
{
    const CallTree::Node &n = r.nodes[id];
    QJsonArray children;
    Cut cut;
    for (uint32_t c : ordered(r, n, w)) {
        if (kept(r, r.nodes[c], w, minShare))
            children.append(toJson(r, c, w, minShare, cutAll));
        else
            cut.add(cutOf(r, c));
    }
    QJsonObject o{{QStringLiteral("name"), QString::fromStdString(n.name)},
                  {QStringLiteral("calls"), qint64(n.calls)},
                  {QStringLiteral("total_ns"), qint64(n.total)},
                  {QStringLiteral("self_ns"), qint64(n.self)},
                  {QStringLiteral("device_ns"), qint64(n.device)},
                  {QStringLiteral("device_self_ns"), qint64(n.deviceSelf)},
                  {QStringLiteral("share_percent"), share(r, n, w)},
                  {QStringLiteral("children"), children}};
    if (n.track.isValid())
        o[QStringLiteral("track_id")] = qint64(n.track.value);
    if (cut.subtrees) {
        o[QStringLiteral("cut")] = cut.json();
        cutAll.add(cut);
    }
    return o;
}

void printText(const CallTree::Result &r, uint32_t id, CallTree::Weight w, double minShare, std::string &out, Cut &cut)
{
    const CallTree::Node &n = r.nodes[id];
    char line[256];
    std::snprintf(line, sizeof line, "%10llu %13s %13s %13s %7.2f  ", (unsigned long long)n.calls,
                  DurationText::column(double(n.total)).c_str(), DurationText::column(double(n.self)).c_str(),
                  DurationText::column(double(n.device)).c_str(), share(r, n, w));
    out += line;
    out.append(size_t(2) * n.depth, ' ');
    out += n.name;
    out += '\n';
    for (uint32_t c : ordered(r, n, w)) {
        if (kept(r, r.nodes[c], w, minShare))
            printText(r, c, w, minShare, out, cut);
        else
            cut.add(cutOf(r, c));
    }
}

// Takes this command's own flags out of `args`; the rest are the table flags. Empty: no error.
std::string takeFlags(const Args &args, TreeFlags &flags, Args &rest)
{
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        auto value = [&](const char *name, std::string &out) { return takeValue(args, i, name, out); };
        std::string v;
        if (value("--thread", v)) {
            flags.thread = v;
            flags.hasThread = true;
            if (v.empty())
                return "--thread needs a track id or track path (see `info`)";
        } else if (value("--weight", v)) {
            if (!CallTree::weightFromName(v, flags.weight))
                return "--weight expects cpu, self or device, got '" + v + "'";
        } else if (value("--min-share", v)) {
            char *end = nullptr;
            flags.minShare = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || flags.minShare < 0 || flags.minShare > 100)
                return "--min-share expects a percentage 0..100, got '" + v + "'";
        } else if (a == "--merge-threads") {
            flags.mergeThreads = true;
        } else if ((a == "--format" && i + 1 < args.size() && args[i + 1] == "folded") || a == "--format=folded") {
            flags.folded = true;
            if (a == "--format")
                ++i;
        } else {
            rest.push_back(a);
        }
    }
    return {};
}

// --thread: a track id (as `info --json` lists the tracks, 0-based) or a track path.
std::vector<TrackId> resolveThread(const Trace &trace, const std::string &thread)
{
    std::vector<TrackId> out;
    int64_t id = -1;
    if (text::parseInt(thread, id) && id >= 0 && uint64_t(id) < trace.tracks().size())
        return {TrackId(uint32_t(id))};
    for (uint32_t t = 0; t < trace.tracks().size(); ++t)
        if (trace.trackPath(TrackId(t)) == thread)
            out.push_back(TrackId(t));
    return out;
}

} // namespace

int cmdTree(const Args &args)
{
    TreeFlags flags;
    Args rest;
    TableArgs ta;
    if (!ta.parse("tree", args, TableArgs::Accepts{.rank = true, .noCsv = "text, json or folded"}, takeFlags, flags, rest))
        return kExitUnreadable;
    if (flags.folded && hasFlag(rest, "--json"))
        return ta.usageError("--json and --format folded contradict each other");
    if (flags.hasThread && ta.rank >= 0)
        return ta.usageError("--thread and --rank contradict each other (one track, or one rank's tracks)");
    LoadResult loaded;
    CallTree::Options options;
    if (!ta.load(rest, loaded, options))
        return kExitUnreadable;
    const Trace &trace = *loaded.trace;
    options.mergeThreads = flags.mergeThreads;
    if (flags.hasThread) {
        options.tracks = resolveThread(trace, flags.thread);
        if (options.tracks.empty())
            return ta.usageError("--thread '" + flags.thread + "': no track with this id or path (see `info`)");
    }
    const LaunchIndex index = LaunchIndex::build(trace);
    const CallTree::Result result = CallTree::compute(trace, index, options);

    if (flags.folded) {
        const std::string out = CallTree::folded(result, flags.weight);
        std::fwrite(out.data(), 1, out.size(), stdout);
        return kExitOk;
    }
    // --min-share: 1 % unless given, for text and JSON alike (the whole tree of a big with_stack trace
    // is tens of thousands of nodes: 92 MB of JSON on tracelens/xdit_sd35_rank0); what it leaves out is
    // said (JSON: "cut", text: the last lines).
    const double minShare = flags.minShare < 0 ? 1.0 : flags.minShare;
    const char *inclusive = flags.weight == CallTree::Weight::Device ? "device" : "total";
    Cut cut;
    if (ta.format == TableArgs::Format::Json) {
        const QJsonObject root = toJson(result, 0, flags.weight, minShare, cut);
        QJsonObject o{{QStringLiteral("weight"), QString::fromLatin1(CallTree::weightName(flags.weight))},
                      {QStringLiteral("merge_threads"), flags.mergeThreads},
                      {QStringLiteral("min_share_percent"), minShare},
                      {QStringLiteral("min_share_of"), QString::fromLatin1(inclusive)},
                      {QStringLiteral("cut"), cut.json()},
                      {QStringLiteral("unattributed_device_ns"), qint64(result.unattributedDevice)},
                      {QStringLiteral("unattributed_device_count"), qint64(result.unattributedCount)},
                      {QStringLiteral("root"), root}};
        if (ta.hasRange)
            o[QStringLiteral("range")] = QJsonObject{{QStringLiteral("from_ns"), qint64(ta.t0)}, {QStringLiteral("to_ns"), qint64(ta.t1)}};
        printJson(o);
        return kExitOk;
    }
    std::string out;
    char head[160];
    std::snprintf(head, sizeof head, "%10s %13s %13s %13s %7s  %s\n", "Calls", "Total", "Self", "Device", "Share%", "Name");
    out += head;
    printText(result, 0, flags.weight, minShare, out, cut);
    if (cut.subtrees) {
        out += "(left out: " + std::to_string(cut.nodes) + " nodes in " + std::to_string(cut.subtrees) + " subtrees under ";
        char pct[32];
        std::snprintf(pct, sizeof pct, "%g", minShare);
        out += std::string(pct) + " % of the root's " + inclusive + " time, together " +
               DurationText::column(double(cut.total)) + " total, " +
               DurationText::column(double(cut.device)) + " device: --min-share 0 shows all)\n";
    }
    if (result.unattributedCount)
        out += "device work launched by no slice: " + DurationText::column(double(result.unattributedDevice)) + " (" +
               std::to_string(result.unattributedCount) + " items)\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
    return kExitOk;
}

} // namespace lanescope::cli
