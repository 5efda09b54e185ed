// libFuzzer harness: the folder load (core/io/folder/profilefolderloader.h: every importer on the files the
// classification kept, the merge and the host-clock alignment) on a small folder tree in the text
// format of folderspec.h. The classification alone is fuzz_profilefolder, which runs faster;
// this one touches ~27,000 features per run and is the slowest harness (see README.md).
#include "folderspec.h"
#include "fuzz_common.h"

#include "io/folder/profilefolder.h"
#include "io/folder/profilefolderloader.h"

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz::ScratchTree tree(fuzz::asView(data, size));
    const std::string &root = tree.root();
    const LoadOptions options = fuzz::fuzzOptions();
    const ProfileFolder folder = fuzz::scanFolder(root, options);
    try {
        fuzz::checkTrace(ProfileFolderLoader::load(folder, options));
    } catch (const ImportError &) {
        // no file with a timeline: a clear error
    }
    return 0;
}
