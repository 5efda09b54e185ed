#include "traceloader.h"

#include "fileimporter.h"
#include "io/explorer/explorerdeviceimporter.h"
#include "io/explorer/explorersystemimporter.h"
#include "io/folder/profilefolder.h"
#include "io/folder/profilefolderloader.h"
#include "io/ranks/multirankloader.h"

#include <filesystem>

namespace lanescope {

LoadResult TraceLoader::load(const std::string &path, const LoadOptions &options)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec))
        return FileImporter::load(path, options);
    // Neuron Explorer's processed system profile: a directory of system-table Parquet files.
    if (explorer::SystemDirectoryImporter::isSystemOnlyDirectory(path))
        return FileImporter::run(path, [&] { return explorer::SystemDirectoryImporter::import(path, options); });
    return FileImporter::run(path, [&] {
        // A processed Neuron Explorer profile (a directory of Parquet tables) or a folder holding one,
        // recognised by its table files (ExplorerDeviceImporter::find).
        if (!ExplorerDeviceImporter::find(path).empty())
            return ExplorerDeviceImporter::import(path, options);
        const ProfileFolder folder = ProfileFolder::scan(path, options);
        // A folder of Kineto traces that all carry a rank is one multi-rank timeline (multirankloader.h);
        // which it is is decided from the scan, so the folder is read once either way.
        if (MultiRankLoader::isCandidate(folder))
            return MultiRankLoader::loadFolder(folder, options);
        return ProfileFolderLoader::load(folder, options);
    });
}

} // namespace lanescope
