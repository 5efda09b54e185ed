// Not a harness: writes the synthetic sample profile folder (core/io/synthetic/samplefolderwriter.h, the one
// `make run` opens) into the fuzz build tree, so that make_seeds.py can seed the harnesses with small
// NTFF, NEFF, system_profile.json and folder inputs (4-18 KB each) next to the real corpus files (the
// real NTFFs are 50-130 KB; small inputs let a harness run several times as many mutations). Also
// writes notes sidecars (notes/*.lanescope-notes.json, AnnotationSidecar::serialize) for fuzz_notes:
// the notes format is Lanescope's own, so the corpus has none.
//
//   make_fuzz_samples <out dir>
#include "annotations/annotation.h"
#include "annotations/annotationsidecar.h"
#include "io/synthetic/samplefolderwriter.h"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void writeNotes(const std::string &dir)
{
    using lanescope::Annotation;
    std::filesystem::create_directories(dir);
    std::vector<Annotation> notes;
    notes.push_back(Annotation::range(0, 100, "the first step"));
    notes.push_back(Annotation::point(1000, "here"));
    notes.back().color = "#1f77b4";
    Annotation event; // the shape Annotation::event gives: aten::mm at 10 ns, slice 1 (fuzz_notes' small trace)
    event.kind = Annotation::Kind::Event;
    event.text = "slow matmul \xE2\x80\x94 check the layout";
    event.startNs = event.eventStartNs = 10;
    event.endNs = 30;
    event.sliceId = 1;
    event.eventName = "aten::mm";
    notes.push_back(event);
    for (size_t i = 0; i < notes.size(); ++i)
        notes[i].id = int(i + 1);
    const auto write = [&](const std::string &name, const std::vector<Annotation> &list) {
        const std::string path = dir + "/" + name + ".lanescope-notes.json";
        std::FILE *f = std::fopen(path.c_str(), "wb");
        if (!f)
            throw std::runtime_error("cannot write " + path);
        const QByteArray bytes = lanescope::AnnotationSidecar::serialize(list, name);
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), f);
        std::fclose(f);
    };
    write("trace.json", notes);
    write("empty.json", {});
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_fuzz_samples <out dir>\n");
        return 2;
    }
    try {
        lanescope::SampleFolderWriter::Options options;
        options.variant = "torch.compile"; // one NEFF/NTFF pair: the smallest complete folder
        lanescope::SampleFolderWriter::write(argv[1], options);
        options.variant = "naive";         // four pairs with different programs
        options.folderName = "naive";
        lanescope::SampleFolderWriter::write(argv[1], options);
        writeNotes(std::string(argv[1]) + "/notes");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "make_fuzz_samples: %s\n", e.what());
        return 1;
    }
    return 0;
}
