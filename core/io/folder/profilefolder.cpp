#include "profilefolder.h"

#include "folderpairing.h"
#include "io/formats.h"

#include <map>

namespace lanescope {

ProfileFolder ProfileFolder::scan(const std::string &dir, const LoadOptions &options)
{
    ProfileFolder pf;
    std::string root = dir;
    while (root.size() > 1 && root.back() == '/')
        root.pop_back();
    pf.m_root = root;
    pf.m_files = FolderScan::walk(root, options, pf.m_diagnostics);
    FolderPairing::pair(pf.m_files);
    pf.groupFiles();
    return pf;
}

void ProfileFolder::groupFiles()
{
    std::map<std::string, int> byKey;
    for (int i = 0; i < int(m_files.size()); ++i) {
        FolderFile &f = m_files[size_t(i)];
        std::string key, label;
        FolderGroup g;
        if (!f.name.processFolder.empty()) {
            key = f.name.processFolder;
            label = f.name.instanceId + " (pid " + std::to_string(f.name.pid) + ")";
            g.instanceId = f.name.instanceId;
            g.pid = f.name.pid;
        } else if (f.name.rank >= 0) {
            key = label = "rank " + std::to_string(f.name.rank);
            g.rank = f.name.rank;
        }
        auto it = byKey.find(key);
        if (it == byKey.end()) {
            g.key = key;
            g.label = label;
            m_groups.push_back(std::move(g));
            it = byKey.emplace(key, int(m_groups.size()) - 1).first;
        }
        f.group = it->second;
        m_groups[size_t(it->second)].files.push_back(i);
    }
}

int ProfileFolder::find(std::string_view relativePath) const
{
    for (size_t i = 0; i < m_files.size(); ++i)
        if (m_files[i].relativePath == relativePath)
            return int(i);
    return -1;
}

void ProfileFolder::setOutcome(size_t index, FileOutcome status, std::string detail)
{
    if (index >= m_files.size())
        return;
    m_files[index].status = status;
    m_files[index].detail = std::move(detail);
}

void ProfileFolder::setPairing(size_t index, std::vector<int> with, PairedBy by)
{
    if (index >= m_files.size())
        return;
    m_files[index].pairedWith = std::move(with);
    m_files[index].pairedBy = by;
}

FileReport ProfileFolder::report(const FolderFile &f) const
{
    FileReport r{f.relativePath, f.kind, f.status, f.detail};
    if (f.status != FileOutcome::Paired)
        return r;
    std::string s = "paired with ";
    for (size_t i = 0; i < f.pairedWith.size(); ++i) {
        const std::string &other = m_files[size_t(f.pairedWith[i])].relativePath;
        s += (i ? ", " : "") + (FolderPairing::dirName(other) == FolderPairing::dirName(f.relativePath)
                                    ? other.substr(other.rfind('/') + 1)
                                    : other);
    }
    s += f.pairedBy == PairedBy::Uuid       ? " by uuid"
         : f.pairedBy == PairedBy::ModelId ? " by model_id"
                                           : " by the hash in the names (uuid not recorded)";
    r.detail = f.detail.empty() ? s : s + "; " + f.detail;
    return r;
}

bool ProfileFolder::loadable(const FolderFile &f)
{
    const FormatInfo &info = Formats::info(f.kind);
    return (info.import || info.importStream || info.importDirectory) &&
           (f.status == FileOutcome::Loaded || f.status == FileOutcome::Paired || f.status == FileOutcome::Unpaired);
}

const FolderFile *ProfileFolder::onlyLoadable() const
{
    const FolderFile *one = nullptr;
    for (const FolderFile &f : m_files)
        if (loadable(f)) {
            if (one)
                return nullptr;
            one = &f;
        }
    return one;
}

} // namespace lanescope
