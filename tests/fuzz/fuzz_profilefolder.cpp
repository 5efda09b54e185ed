// libFuzzer harness: profile folder classification (core/io/profilefolder.h: walk, recognition by
// content, NEFF <-> NTFF pairing, grouping) and the folder load on top of it (ProfileFolderLoader:
// every importer, the merge and the host-clock alignment).
//
// The input is a small folder tree in the text format of folderspec.h, materialised in a private
// scratch folder for each run. ProfileFolder::parseName is also run on the raw path text of each entry.
#include "fuzz_common.h"
#include "folderspec.h"

#include "io/profilefolder.h"
#include "io/profilefolderloader.h"

#include <unistd.h>

#include <filesystem>
#include <string>

using namespace lanescope;
namespace fs = std::filesystem;

namespace {

// $LANESCOPE_FUZZ_SCRATCH (the run script points it at a RAM file system when there is one), else
// $TMPDIR or /tmp; one folder per process, removed at exit.
const std::string &scratchRoot()
{
    // Never destroyed, so the exit handler can still use it.
    static const std::string *root = [] {
        const char *base = std::getenv("LANESCOPE_FUZZ_SCRATCH");
        if (!base || !*base)
            base = std::getenv("TMPDIR");
        auto *r = new std::string(std::string(base && *base ? base : "/tmp") + "/lanescope-fuzz-folder-" +
                                  std::to_string(::getpid()));
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(*root, ec);
        });
        return r;
    }();
    return *root;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string &root = scratchRoot();
    std::error_code ec;
    fs::remove_all(root, ec); // never follows symbolic links
    fs::create_directories(root, ec);
    fuzz::materialise(root, fuzz::asView(data, size));

    const LoadOptions options = fuzz::fuzzOptions();
    try {
        const ProfileFolder folder = ProfileFolder::scan(root, options);
        const auto &files = folder.files();
        for (size_t i = 0; i < files.size(); ++i) {
            const FolderFile &f = files[i];
            LANESCOPE_FUZZ_CHECK(f.path.compare(0, root.size(), root) == 0);
            LANESCOPE_FUZZ_CHECK(folder.find(f.relativePath) >= 0);
            for (int p : f.pairedWith)
                LANESCOPE_FUZZ_CHECK(p >= 0 && size_t(p) < files.size() && size_t(p) != i);
            LANESCOPE_FUZZ_CHECK(f.group == -1 || size_t(f.group) < folder.groups().size());
            const std::string text = folder.statusText(f);
            LANESCOPE_FUZZ_CHECK(ProfileFolder::statusFromText(text) == f.status);
        }
        for (const FolderGroup &g : folder.groups())
            for (int i : g.files)
                LANESCOPE_FUZZ_CHECK(i >= 0 && size_t(i) < files.size());
        try {
            const Trace trace = ProfileFolderLoader::load(folder, options);
            fuzz::checkTrace(trace);
        } catch (const ImportError &) {
            // no file with a timeline: a clear error
        }
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(false && "scan of an existing, readable folder failed");
        (void)e;
    }
    return 0;
}
