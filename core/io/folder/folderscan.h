#pragma once
// The bounded walk of a profile folder and the recognition of each file by content (the formats
// table's folder rules, formats.h). ../shared/docs/formats.md section 1.
//
// At most kMaxDepth folder levels and kMaxEntries entries; hidden folders are not entered,
// symbolic-link loops are detected by (device, inode) and reported, special files (FIFOs, sockets,
// devices) are never opened. Each regular file is opened once to read its first bytes (gzip / zstd
// heads are inflated only as far as needed); an NTFF's metadata message is read only up to its uuid
// and NEFF name; nothing is fully parsed here.
#include "folderfile.h"
#include "io/input/loadoptions.h"

#include <string>
#include <vector>

namespace lanescope {

class FolderScan
{
public:
    static constexpr int kMaxDepth = 8;                // folder levels below the scanned one
    static constexpr size_t kMaxEntries = 20000;       // entries looked at (files + folders)
    static constexpr size_t kHeadBytes = 64 * 1024;    // bytes read (inflated) to recognise a file
    static constexpr size_t kJsonProbeBytes = 4 << 20; // a JSON object may carry "traceEvents" this late

    // Walks `root` (no trailing '/'): every entry in walk order (sorted names, depth first), problems of
    // the walk itself (limits, link loops, unreadable folders) in `diagnostics`. Throws ImportError when
    // `root` is not a readable folder, LoadCancelled on cancel.
    static std::vector<FolderFile> walk(const std::string &root, const LoadOptions &options, Diagnostics &diagnostics);

    // Recognises one regular file (path, relativePath and size set): kind, first outcome (Loaded,
    // Unpaired until paired, NotReadable, Ignored with the reason), uuid / NEFF name / NTFF version.
    static void classify(FolderFile &f, const LoadOptions &options);
};

} // namespace lanescope
