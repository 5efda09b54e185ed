#pragma once
// The command line of the benchmarks that read traces: `[--runs R] PATH...`, and without PATH the
// TraceLens xdit trace of the corpus ($LANESCOPE_CORPUS, else the corpus next to the source tree).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace lanescope::test {

// False (after a message naming `program`) when no PATH is given and the corpus file is missing.
inline bool benchInputs(int argc, char **argv, const char *program, int &runs, std::vector<std::string> &paths)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else
            paths.push_back(a);
    }
    if (!paths.empty())
        return true;
    const char *env = std::getenv("LANESCOPE_CORPUS");
    const std::string corpus = env ? env : LANESCOPE_CORPUS_DEFAULT;
    const std::string xdit = corpus + "/tracelens/xdit_sd35_rank0.json.gz";
    if (!std::filesystem::exists(xdit)) {
        std::fprintf(stderr, "%s: no PATH given and %s not found\n", program, xdit.c_str());
        return false;
    }
    paths.push_back(xdit);
    return true;
}

} // namespace lanescope::test
