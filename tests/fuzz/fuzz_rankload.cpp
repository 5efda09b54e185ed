// libFuzzer harness: the multi-rank load (core/io/ranks/multirankloader.h) on a small folder tree in
// the text format of folderspec.h: scanned, judged by MultiRankLoader::isCandidate and loaded with
// loadFolder when it is a rank set (every rank file imported, clocks aligned, merged); its Chrome JSON
// files are also judged by looksLikeRankSet and loaded with load() as files given together. The
// detection and the clock alone are fuzz_ranks, which runs a few hundred times as fast.
#include "folderspec.h"
#include "fuzz_common.h"

#include "io/folder/profilefolder.h"
#include "io/ranks/multirankloader.h"
#include "io/ranks/rankdetection.h"

#include <optional>
#include <string>
#include <vector>

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz::ScratchTree tree(fuzz::asView(data, size));
    const LoadOptions options = fuzz::fuzzOptions();
    const ProfileFolder folder = fuzz::scanFolder(tree.root(), options);
    std::vector<std::string> paths;
    std::vector<MultiRankLoader::Input> files;
    for (const FolderFile &f : folder.files()) {
        if (f.kind == FileFormat::ChromeJson && paths.size() < 4) {
            paths.push_back(f.path);
            files.push_back({f.path, f.relativePath, f.relativePath});
            LANESCOPE_FUZZ_CHECK(f.distributedRank >= -1);
        }
    }
    if (MultiRankLoader::isCandidate(folder)) {
        try {
            fuzz::checkTrace(MultiRankLoader::loadFolder(folder, options));
        } catch (const ImportError &) {
            // none of the rank files can be read
        }
    }
    (void)MultiRankLoader::looksLikeRankSet(paths);
    if (files.size() >= 2) {
        try {
            if (const std::optional<Trace> t = MultiRankLoader::load(files, MultiRankLoader::title(paths), options))
                fuzz::checkTrace(*t);
        } catch (const ImportError &) {
            // none of the files can be read
        }
    }
    return 0;
}
