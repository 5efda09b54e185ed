// libFuzzer harness: profile folder classification (core/io/folder/profilefolder.h: the walk, recognition by
// name and content, NEFF <-> NTFF pairing, grouping, the typed reports) and ProfileFolder::parseName on
// the raw path text of each entry. The load on top of it (every importer) is fuzz_folderload.
//
// The input is a small folder tree in the text format of folderspec.h, materialised in a private
// scratch folder for each run.
#include "folderspec.h"
#include "fuzz_common.h"

#include "io/folder/profilefolder.h"

#include <string>

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz::ScratchTree tree(fuzz::asView(data, size));
    const std::string &root = tree.root();
    const LoadOptions options = fuzz::fuzzOptions();
    const ProfileFolder folder = fuzz::scanFolder(root, options);
    const auto &files = folder.files();
    for (size_t i = 0; i < files.size(); ++i) {
        const FolderFile &f = files[i];
        LANESCOPE_FUZZ_CHECK(f.path.compare(0, root.size(), root) == 0);
        // find() is a linear search: checked on the first entries only, so a folder of thousands of
        // entries (which the scan allows) does not make each run quadratic in the harness.
        if (i < 32) {
            const int at = folder.find(f.relativePath);
            LANESCOPE_FUZZ_CHECK(at >= 0 && files[size_t(at)].relativePath == f.relativePath);
        }
        for (int p : f.pairedWith)
            LANESCOPE_FUZZ_CHECK(p >= 0 && size_t(p) < files.size() && size_t(p) != i);
        LANESCOPE_FUZZ_CHECK(f.group == -1 || size_t(f.group) < folder.groups().size());
        const FileReport report = folder.report(f);
        LANESCOPE_FUZZ_CHECK(report.outcome == f.status && report.kind == f.kind && report.path == f.relativePath);
        LANESCOPE_FUZZ_CHECK(!report.text().empty());
    }
    for (const FolderGroup &g : folder.groups())
        for (int i : g.files)
            LANESCOPE_FUZZ_CHECK(i >= 0 && size_t(i) < files.size());
    return 0;
}
