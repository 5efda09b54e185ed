// lanescope-cli notes PATH [--json] | --add FROM:TO TEXT | --at T TEXT | --event ID TEXT | --remove N
// The notes (annotations) of a trace file or folder, kept in its sidecar "<name>.lanescope-notes.json"
// (docs/notes.md) or, next to a read-only trace, in the per-user data folder: list them, add one
// (a CI bot marking a regression), remove one. The same AnnotationStore as the GUI's Notes dock.
#include "commands.h"

#include "analysis/timerange.h"
#include "annotations/annotationsidecar.h"
#include "annotations/annotationstore.h"
#include "model/trace.h"
#include "util/durationtext.h"
#include "util/textutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

namespace lanescope::cli {

namespace {

constexpr const char *kUsage =
    "usage: lanescope-cli notes PATH [--json]                      list the notes\n"
    "       lanescope-cli notes PATH --add FROM:TO TEXT [--color #rrggbb]   a note on a time range\n"
    "       lanescope-cli notes PATH --at T TEXT [--color #rrggbb]          a note at a point in time\n"
    "       lanescope-cli notes PATH --event ID TEXT [--color #rrggbb]      a note on an event (slice id)\n"
    "       lanescope-cli notes PATH --remove N                             remove note N (its id)\n"
    "  FROM:TO and T: time after the trace start with units ns, us, ms, s (10ms:12.5ms); Nabs is\n"
    "  trace-clock ns. Notes live in PATH.lanescope-notes.json (docs/notes.md).\n";

int usageError(const std::string &message)
{
    std::fprintf(stderr, "lanescope-cli notes: %s\n%s", message.c_str(), kUsage);
    return kExitUnreadable;
}

// "1.250 ms" after the trace start, or the absolute ns when there is no trace.
std::string at(const Trace *trace, int64_t ns)
{
    return trace ? DurationText::format(ns - trace->startNs()) : std::to_string(ns) + "abs";
}

void printText(const AnnotationStore &store, const Trace *trace)
{
    std::printf("%zu note%s of %s (%s%s)\n", store.notes().size(), store.notes().size() == 1 ? "" : "s",
                store.tracePath().c_str(), store.path().c_str(),
                store.usesDataFolder() ? ", in the data folder: the trace's folder is read-only" : "");
    for (const Annotation &a : store.notes()) {
        std::string where;
        switch (a.kind) {
        case Annotation::Kind::Range:
            where = at(trace, a.startNs) + " - " + at(trace, a.endNs) + " (" + DurationText::format(a.endNs - a.startNs) + ")";
            break;
        case Annotation::Kind::Point: where = "at " + at(trace, a.startNs); break;
        case Annotation::Kind::Event:
            where = "\"" + a.eventName + "\" " + (a.eventFound ? "slice " + std::to_string(a.sliceId) : std::string("(not found)"))
                + " at " + at(trace, a.startNs) + " (" + DurationText::format(a.endNs - a.startNs) + ")";
            break;
        }
        std::printf("  %3d  %-5s  %s%s%s\n      %s\n", a.id, Annotation::kindName(a.kind), where.c_str(),
                    a.color.empty() ? "" : "  ", a.color.c_str(), a.text.c_str());
    }
}

void printJson(const AnnotationStore &store, const Trace *trace)
{
    QJsonArray list;
    for (const Annotation &a : store.notes()) {
        QJsonObject o = AnnotationSidecar::noteJson(a);
        if (trace)
            o.insert(QStringLiteral("offset_ns"), qint64(a.startNs - trace->startNs()));
        if (a.kind == Annotation::Kind::Event) {
            QJsonObject event = o.value(QStringLiteral("event")).toObject();
            event.insert(QStringLiteral("found"), a.eventFound);
            o.insert(QStringLiteral("event"), event);
        }
        list.append(o);
    }
    QJsonObject root;
    root.insert(QStringLiteral("trace"), QString::fromStdString(store.tracePath()));
    root.insert(QStringLiteral("file"), QString::fromStdString(store.path()));
    root.insert(QStringLiteral("data_folder"), store.usesDataFolder());
    root.insert(QStringLiteral("notes"), list);
    std::fputs(QJsonDocument(root).toJson(QJsonDocument::Indented).constData(), stdout);
}

// A note from --add / --at / --event, against the loaded trace; nullopt after printing why.
std::optional<Annotation> noteFromArgs(const Args &args, const Trace &trace, const std::string &noteText)
{
    std::string error;
    const std::string range = flagValue(args, "--add"), point = flagValue(args, "--at"), event = flagValue(args, "--event");
    if (!event.empty()) {
        int64_t id = -1;
        if (!text::parseInt(event, id) || id < 0 || uint64_t(id) >= trace.allSlices().size()) {
            usageError("--event " + event + ": expected a slice id below " + std::to_string(trace.allSlices().size()));
            return std::nullopt;
        }
        return Annotation::event(trace, SliceId(uint32_t(id)), noteText);
    }
    const std::string spec = range.empty() ? point + ":" + point : range;
    const auto parsed = TimeRange::parse(spec, TimeRange::BareNumber::AbsoluteNs, &error);
    int64_t t0 = 0, t1 = 0;
    if (!parsed || !parsed->resolve(trace.startNs(), trace.endNs(), !point.empty(), &t0, &t1, &error)) {
        usageError((range.empty() ? "--at " : "--add ") + error);
        return std::nullopt;
    }
    if (parsed->usedBareNumber)
        std::fprintf(stderr, "lanescope-cli notes: %s\n", TimeRange::deprecationNote(TimeRange::BareNumber::AbsoluteNs).c_str());
    return range.empty() ? Annotation::point(t0, noteText) : Annotation::range(t0, t1, noteText);
}

} // namespace

int cmdNotes(const Args &args)
{
    const std::vector<std::string> valued = {"--add", "--at", "--event", "--remove", "--color"};
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (std::find(valued.begin(), valued.end(), a) != valued.end())
            ++i;
        else if (a.size() > 1 && a[0] == '-' && a != "--json" && a != "--no-cache")
            return usageError("unknown option " + a);
    }
    const auto paths = positional(args, valued);
    const int adds = int(!flagValue(args, "--add").empty()) + int(!flagValue(args, "--at").empty())
        + int(!flagValue(args, "--event").empty());
    const std::string removeText = flagValue(args, "--remove");
    if (adds + int(!removeText.empty()) > 1)
        return usageError("one of --add, --at, --event, --remove at a time");
    if (paths.empty() || paths.size() != size_t(1 + (adds ? 1 : 0)))
        return usageError(adds ? "expected PATH and the note's TEXT" : "expected one PATH");
    const std::string color = flagValue(args, "--color");
    if (!Annotation::isValidColor(color))
        return usageError("--color " + color + ": expected #rrggbb");

    AnnotationStore store;
    if (!store.open(paths[0])) {
        std::fprintf(stderr, "lanescope-cli: %s\n", store.error().c_str());
        return kExitUnreadable;
    }
    std::string error;
    if (!removeText.empty()) { // no need to read the trace
        int64_t id = 0;
        if (!text::parseInt(removeText, id) || !store.remove(int(id)))
            return usageError("--remove " + removeText + ": no note with that id (see lanescope-cli notes PATH)");
        if (!store.save(&error)) {
            std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
            return kExitUnreadable;
        }
        std::printf("removed note %s from %s\n", removeText.c_str(), store.path().c_str());
        return kExitOk;
    }
    const LoadResult r = loadTrace(paths[0], args);
    if (!r.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", r.error.c_str());
        return kExitUnreadable;
    }
    if (const size_t lost = store.resolve(*r.trace))
        std::fprintf(stderr, "lanescope-cli: %zu event note%s no longer find%s the event; shown at the stored time\n",
                     lost, lost == 1 ? "" : "s", lost == 1 ? "s" : "");
    if (adds) {
        auto note = noteFromArgs(args, *r.trace, paths[1]);
        if (!note)
            return kExitUnreadable;
        note->color = color;
        const int id = store.add(std::move(*note));
        if (!store.save(&error)) {
            std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
            return kExitUnreadable;
        }
        std::printf("added note %d to %s\n", id, store.path().c_str());
        return kExitOk;
    }
    if (hasFlag(args, "--json"))
        printJson(store, r.trace.get());
    else
        printText(store, r.trace.get());
    return kExitOk;
}

} // namespace lanescope::cli
