// Not a harness: writes the synthetic sample profile folder (core/io/synthetic/samplefolderwriter.h, the one
// `make run` opens) into the fuzz build tree, so that make_seeds.py can seed the harnesses with small
// NTFF, NEFF, system_profile.json and folder inputs (4-18 KB each) next to the real corpus files (the
// real NTFFs are 50-130 KB; small inputs let a harness run several times as many mutations).
//
//   make_fuzz_samples <out dir>
#include "io/synthetic/samplefolderwriter.h"

#include <cstdio>
#include <exception>

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
    } catch (const std::exception &e) {
        std::fprintf(stderr, "make_fuzz_samples: %s\n", e.what());
        return 1;
    }
    return 0;
}
