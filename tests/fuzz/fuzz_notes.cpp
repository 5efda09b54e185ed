// libFuzzer harness: the notes sidecar (core/annotations: AnnotationSidecar::parse, docs/notes.md), as
// AnnotationStore::open reads "<trace>.lanescope-notes.json" next to a trace.
//
// A file that parses holds only notes the format allows (ids positive and unique, a known kind, end
// not before start, a point as long as nothing, a colour "#rrggbb" or none); written back by
// serialize() it parses again to the same notes (what save() writes, open() must read). Event notes
// are resolved against a small trace (slice ids out of range, times that match no slice). A file that
// does not parse gives a message naming the file. One input in eight also goes through the store on
// disk: open (the sidecar next to a trace in a scratch folder), add, remove, save, open again.
#include "fuzz_common.h"
#include "folderspec.h"

#include "annotations/annotation.h"
#include "annotations/annotationsidecar.h"
#include "annotations/annotationstore.h"
#include "model/tracebuilder.h"

#include <QByteArray>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

// Three slices, one nested, that event notes can name (built once: the same every run).
const Trace &smallTrace()
{
    static const Trace *t = [] {
        TraceBuilder b;
        const GroupId g = b.addGroup(GroupKind::Process, b.intern("process 1"), {}, 1);
        const TrackId tr = b.addTrack(g, TrackKind::Slices, b.intern("thread 1"), 1);
        b.addSlice(tr, 0, 100, b.intern("step"), b.intern("cpu_op"));
        b.addSlice(tr, 10, 20, b.intern("aten::mm"), b.intern("cpu_op"));
        b.addSlice(tr, 1000, 5, b.intern("aten::mm"), b.intern("cpu_op"));
        return new Trace(b.finish());
    }();
    return *t;
}

void checkNotes(const std::vector<Annotation> &notes)
{
    std::set<int> ids;
    for (const Annotation &a : notes) {
        LANESCOPE_FUZZ_CHECK(a.id > 0 && ids.insert(a.id).second);
        LANESCOPE_FUZZ_CHECK(a.endNs >= a.startNs);
        LANESCOPE_FUZZ_CHECK(a.kind != Annotation::Kind::Point || a.endNs == a.startNs);
        LANESCOPE_FUZZ_CHECK(a.color.empty() || Annotation::isValidColor(a.color));
        LANESCOPE_FUZZ_CHECK(Annotation::kindFromName(Annotation::kindName(a.kind)) == a.kind);
    }
}

void resolveAll(std::vector<Annotation> notes)
{
    const Trace &t = smallTrace();
    for (Annotation &a : notes) {
        const Annotation before = a;
        const bool found = a.resolve(t);
        LANESCOPE_FUZZ_CHECK(found == a.eventFound);
        if (a.kind != Annotation::Kind::Event) {
            LANESCOPE_FUZZ_CHECK(found && a == before);
        } else if (found) {
            LANESCOPE_FUZZ_CHECK(a.sliceId < t.allSlices().size());
            const Slice &s = t.allSlices()[a.sliceId];
            LANESCOPE_FUZZ_CHECK(s.start == a.eventStartNs && t.str(s.name) == a.eventName);
            LANESCOPE_FUZZ_CHECK(a.startNs == s.start && a.endNs == s.end());
        } else {
            LANESCOPE_FUZZ_CHECK(a.sliceId == before.sliceId && a.startNs == before.startNs && a.endNs == before.endNs);
        }
    }
}

// The store on disk: a trace file in a scratch folder with the input as its sidecar.
void throughStore(const QByteArray &bytes, bool parsed, const std::vector<Annotation> &notes)
{
    const std::string dir = fuzz::scratchFolder() + "-notes";
    const std::string trace = dir + "/trace.json";
    const std::string sidecar = AnnotationStore::sidecarPath(trace);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (std::FILE *f = std::fopen(trace.c_str(), "wb"))
        std::fclose(f);
    if (std::FILE *f = std::fopen(sidecar.c_str(), "wb")) {
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), f);
        std::fclose(f);
    }
    AnnotationStore::Options options;
    options.writable = [](const std::string &) { return true; };
    options.dataDir = dir + "/data";
    AnnotationStore store(options);
    const bool opened = store.open(trace);
    LANESCOPE_FUZZ_CHECK(opened == parsed && store.isUnreadable() == !parsed);
    std::string error;
    if (!opened) {
        LANESCOPE_FUZZ_CHECK(store.error().rfind(sidecar, 0) == 0);
        LANESCOPE_FUZZ_CHECK(!store.save(&error) && !error.empty()); // never overwrites an unreadable file
    } else {
        LANESCOPE_FUZZ_CHECK(store.notes() == notes);
        store.resolve(smallTrace());
        const int id = store.add(Annotation::range(5, 50, "added"));
        LANESCOPE_FUZZ_CHECK(store.find(id) && store.find(id)->text == "added");
        if (!notes.empty())
            LANESCOPE_FUZZ_CHECK(store.remove(notes.front().id));
        LANESCOPE_FUZZ_CHECK(store.save(&error));
        const std::vector<Annotation> saved = store.notes();
        AnnotationStore again(options);
        LANESCOPE_FUZZ_CHECK(again.open(trace));
        LANESCOPE_FUZZ_CHECK(again.notes().size() == saved.size());
        for (size_t i = 0; i < saved.size(); ++i) {
            Annotation a = again.notes()[i];
            a.eventFound = saved[i].eventFound; // not stored
            LANESCOPE_FUZZ_CHECK(a == saved[i]);
        }
    }
    std::remove(sidecar.c_str());
    std::remove(trace.c_str());
    std::filesystem::remove_all(dir, ec);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const std::string file = "trace.json.lanescope-notes.json";
    std::vector<Annotation> notes;
    std::string error;
    const bool parsed = AnnotationSidecar::parse(bytes, file, &notes, &error);
    if (!parsed) {
        LANESCOPE_FUZZ_CHECK(error.rfind(file + ": ", 0) == 0);
        LANESCOPE_FUZZ_CHECK(notes.empty());
    } else {
        checkNotes(notes);
        const QByteArray written = AnnotationSidecar::serialize(notes, "trace.json");
        std::vector<Annotation> back;
        if (!AnnotationSidecar::parse(written, file, &back, &error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            fuzz::violated("the notes serialize() wrote do not parse");
        }
        LANESCOPE_FUZZ_CHECK(back == notes);
        LANESCOPE_FUZZ_CHECK(AnnotationSidecar::serialize(back, "trace.json") == written);
        resolveAll(notes);
    }
    if (size && (data[size - 1] & 7) == 0)
        throughStore(bytes, parsed, notes);
    return 0;
}
