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
    // A processed Neuron Explorer profile directory itself: its importer (formats table).
    if (explorer::SystemDirectoryImporter::isSystemOnlyDirectory(path))
        return FileImporter::run(path, [&] { return FileImporter::importAs(path, FileFormat::ExplorerSystem, options); });
    if (ExplorerDeviceImporter::isDeviceProfile(path))
        return FileImporter::run(path, [&] { return FileImporter::importAs(path, FileFormat::ExplorerDevice, options); });
    return FileImporter::run(path, [&] {
        const ProfileFolder folder = ProfileFolder::scan(path, options);
        // A folder holding one Explorer device profile and nothing else to load (Explorer's data path,
        // profiles/global/<name>@latest) opens as that profile; with a system profile beside it (or
        // several profiles) the folder loader merges them, devices placed at their nc_exec_running.
        if (const FolderFile *only = folder.onlyLoadable(); only && only->kind == FileFormat::ExplorerDevice)
            return FileImporter::importAs(only->path, FileFormat::ExplorerDevice, options);
        // A folder of Kineto traces that all carry a rank is one multi-rank timeline (multirankloader.h);
        // which it is is decided from the scan, so the folder is read once either way.
        if (MultiRankLoader::isCandidate(folder))
            return MultiRankLoader::loadFolder(folder, options);
        return ProfileFolderLoader::load(folder, options);
    });
}

} // namespace lanescope
