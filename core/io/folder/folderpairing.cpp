#include "folderpairing.h"

#include <map>

namespace lanescope {

void FolderPairing::pair(std::vector<FolderFile> &files)
{
    std::map<std::string, std::vector<int>> neffByUuid, neffByHash;
    std::vector<int> ntffs;
    for (int i = 0; i < int(files.size()); ++i) {
        const FolderFile &f = files[size_t(i)];
        if (f.status == FileOutcome::NotReadable)
            continue;
        if (f.kind == FileFormat::Neff) {
            if (uuidKnown(f.uuid))
                neffByUuid[f.uuid].push_back(i);
            if (!f.name.hash.empty())
                neffByHash[f.name.hash].push_back(i);
        } else if (f.kind == FileFormat::Ntff) {
            ntffs.push_back(i);
        }
    }
    // Among several candidates: the same folder, then the same process folder, then the first by path.
    auto best = [&files](const FolderFile &ntff, const std::vector<int> &cands) {
        int pick = cands.front();
        int score = -1;
        for (int c : cands) {
            const FolderFile &n = files[size_t(c)];
            const int s = dirName(n.relativePath) == dirName(ntff.relativePath) ? 2
                        : n.name.processFolder == ntff.name.processFolder ? 1 : 0;
            if (s > score) {
                score = s;
                pick = c;
            }
        }
        return pick;
    };
    auto link = [&files](int ntff, int neff, PairedBy by) {
        FolderFile &t = files[size_t(ntff)];
        FolderFile &n = files[size_t(neff)];
        t.pairedWith = {neff};
        t.pairedBy = by;
        t.status = FileOutcome::Paired;
        n.pairedWith.push_back(ntff);
        n.pairedBy = n.pairedBy == PairedBy::None ? by : n.pairedBy;
        n.status = FileOutcome::Paired;
    };
    for (int t : ntffs) {
        const FolderFile &f = files[size_t(t)];
        if (auto it = neffByUuid.find(f.uuid); uuidKnown(f.uuid) && it != neffByUuid.end())
            link(t, best(f, it->second), PairedBy::Uuid);
    }
    // Second: the hash in the names, only where a uuid cannot decide (unknown on one side).
    for (int t : ntffs) {
        FolderFile &f = files[size_t(t)];
        if (f.status == FileOutcome::Paired || f.name.hash.empty())
            continue;
        auto it = neffByHash.find(f.name.hash);
        std::vector<int> ok;
        std::string conflict;
        if (it != neffByHash.end())
            for (int c : it->second) {
                const FolderFile &n = files[size_t(c)];
                if (uuidKnown(f.uuid) && uuidKnown(n.uuid) && n.uuid != f.uuid)
                    conflict = n.relativePath + " has the hash " + f.name.hash + " in its name but uuid " + n.uuid;
                else
                    ok.push_back(c);
            }
        if (!ok.empty()) {
            link(t, best(f, ok), PairedBy::NameHash);
            continue;
        }
        f.detail = conflict; // completed below
    }
    for (int t : ntffs) {
        FolderFile &f = files[size_t(t)];
        if (f.status != FileOutcome::Unpaired)
            continue;
        std::string why = uuidKnown(f.uuid) ? "no NEFF in the folder has its uuid " + f.uuid : std::string("its uuid is not recorded");
        if (!f.name.hash.empty())
            why += f.detail.empty() ? ", nor the hash " + f.name.hash + " in its name" : "; " + f.detail + " (not paired)";
        if (!f.neffName.empty())
            why += "; it was recorded for '" + f.neffName + "'";
        f.detail = why;
    }
    // A neuron-profile JSON exported from an NTFF that is here too: the NTFF is loaded instead.
    for (FolderFile &j : files) {
        if (j.kind != FileFormat::NeuronProfileJson || !uuidKnown(j.uuid))
            continue;
        for (int t : ntffs)
            if (files[size_t(t)].uuid == j.uuid) {
                j.status = FileOutcome::Ignored;
                j.detail = "export of an NTFF with the same uuid " + j.uuid + " (" + files[size_t(t)].relativePath +
                           "), which is loaded instead";
                break;
            }
    }
    for (FolderFile &n : files) {
        if (n.kind != FileFormat::Neff || n.status != FileOutcome::Unpaired)
            continue;
        if (auto it = neffByUuid.find(n.uuid); uuidKnown(n.uuid) && it != neffByUuid.end()) {
            for (int other : it->second)
                if (!files[size_t(other)].pairedWith.empty()) {
                    n.detail = "same uuid as " + files[size_t(other)].relativePath +
                               ", which its NTFFs were paired with (a copy of the same program)";
                    break;
                }
            if (!n.detail.empty())
                continue;
        }
        std::string why = uuidKnown(n.uuid) ? "no NTFF in the folder has its uuid " + n.uuid : std::string("its uuid is empty");
        if (!n.name.hash.empty()) {
            std::string conflict;
            for (int t : ntffs)
                if (files[size_t(t)].name.hash == n.name.hash)
                    conflict = files[size_t(t)].relativePath + " has the hash in its name but uuid " + files[size_t(t)].uuid;
            why += conflict.empty() ? " or the hash " + n.name.hash + " in its name" : "; " + conflict + " (not paired)";
        }
        n.detail = why + "; a NEFF alone has no timeline";
    }
}

} // namespace lanescope
