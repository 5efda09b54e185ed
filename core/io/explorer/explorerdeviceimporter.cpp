#include "explorerdeviceimporter.h"

#include "explorerdevicereader.h"
#include "explorerdirectory.h"
#include "io/input/importerror.h"
#include "io/ntff/ntffimporter.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace lanescope {

bool ExplorerDeviceImporter::isDeviceProfile(const std::string &dir)
{
    if (!explorer::ProfileDirectory::looksLikeProfile(dir))
        return false;
    explorer::ProfileDirectory d;
    std::string why;
    return d.open(dir, &why) && ExplorerDeviceReader::hasDeviceTables(d);
}

namespace {

void search(const fs::path &dir, int depth, std::vector<std::string> &out)
{
    if (depth == 0)
        return;
    std::error_code ec;
    std::vector<fs::path> subdirs;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code dec;
        if (it->is_directory(dec) && !it->is_symlink(dec))
            subdirs.push_back(it->path());
    }
    std::sort(subdirs.begin(), subdirs.end());
    for (const fs::path &sub : subdirs) {
        if (ExplorerDeviceImporter::isDeviceProfile(sub.string()))
            out.push_back(sub.string());
        else
            search(sub, depth - 1, out);
    }
}

} // namespace

std::vector<std::string> ExplorerDeviceImporter::find(const std::string &dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return {};
    if (isDeviceProfile(dir))
        return {dir};
    std::vector<std::string> out;
    // A folder of traces is not searched: only one without files of its own but subdirectories
    // (Explorer's data path, profiles/, profiles/global/).
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code fec;
        if (it->is_regular_file(fec) && it->path().extension() != ".tar" && it->path().extension() != ".gz" &&
            it->path().filename().string().front() != '.')
            return {};
    }
    search(dir, 3, out);
    return out;
}

NtffProfile ExplorerDeviceImporter::readRows(const std::string &path, const LoadOptions &options)
{
    const std::vector<std::string> found = find(path);
    if (found.empty())
        throw ImportError(path, "no processed Neuron Explorer device profile here (expected a directory of Parquet "
                                "tables such as Instruction.parquet and Metadata.parquet, or a folder holding one, "
                                "e.g. <data-path>/profiles/global/<name>@latest)");
    NtffProfile profile = ExplorerDeviceReader::read(found.front(), options);
    if (found.size() > 1) {
        std::string others;
        for (size_t i = 1; i < found.size(); ++i)
            others += (i > 1 ? ", " : "") + fs::path(found[i]).filename().string();
        profile.diagnostics.note("a folder of " + std::to_string(found.size()) + " Neuron Explorer device profiles: " +
                                     fs::path(found.front()).filename().string() + " opened; open the others' directories "
                                     "to see them (" + others + ")",
                                 path);
    }
    return profile;
}

Trace ExplorerDeviceImporter::import(const std::string &path, const LoadOptions &options)
{
    const NtffProfile profile = readRows(path, options);
    return NtffImporter::build(profile, path, options);
}

} // namespace lanescope
