#include "ntffopcodenaming.h"

#include "io/input/importerror.h"
#include "io/input/inputbuffer.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"
#include "ntffexportops.h"
#include "opcodenametable.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace lanescope {

std::vector<std::string> NtffOpcodeNaming::neighbours(const std::string &ntffPath)
{
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    const fs::path p(ntffPath);
    if (p.extension() != ".ntff")
        return out;
    std::error_code ec;
    for (const char *ext : {".json", ".json.gz", ".json.zst"}) {
        fs::path candidate = p;
        candidate.replace_extension(ext);
        if (fs::is_regular_file(candidate, ec))
            out.push_back(candidate.string());
    }
    // "baseline_exec_2.ntff" + "baseline_exec_2_profile_full.json": the stem, "_", anything, ".json"
    const std::string stem = p.stem().string() + "_";
    std::vector<std::string> more;
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const bool json = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
        if (json && name.compare(0, stem.size(), stem) == 0 && it->is_regular_file(ec))
            more.push_back(it->path().string());
        if (more.size() > 8)
            break; // a folder of many exports of one trace: the first few by name are enough
    }
    std::sort(more.begin(), more.end());
    out.insert(out.end(), more.begin(), more.end());
    return out;
}

size_t NtffOpcodeNaming::nameFromNeighbour(NtffProfile &ntff, const std::string &ntffPath, const LoadOptions &options)
{
    // Only needed when a row has a byte the built-in table does not know, or no row has a layer yet.
    bool unknown = false;
    for (const NtffInstructionRow &r : ntff.instructions)
        if (!r.extraOpcode && !ntffOpcodeKnown(r.opcode)) {
            unknown = true;
            break;
        }
    const bool wantOps = ntff.instructionOps.empty() && !ntff.instructions.empty();
    if (!unknown && !wantOps)
        return 0;
    for (const std::string &path : neighbours(ntffPath)) {
        const std::string base = std::filesystem::path(path).filename().string();
        LoadOptions quiet; // no progress: the NTFF's load reports it
        quiet.cancel = options.cancel;
        quiet.memoryBudget = options.memoryBudget;
        NtffProfile json;
        try {
            InputBuffer input = InputBuffer::read(path, quiet);
            json = NeuronProfileJsonReader::read(input, path, quiet);
        } catch (const ImportError &e) {
            ntff.diagnostics.note("opcode names: " + base + " beside it is not a readable neuron-profile export (" +
                                  e.what() + ")", ntffPath);
            continue;
        }
        std::string whyNot;
        const OpcodeNameTable table = OpcodeNameTable::learn(ntff, json, ntffPath, &whyNot);
        if (table.empty()) {
            ntff.diagnostics.note("opcode names: " + base + " is not the same program (" + whyNot + ")", ntffPath);
            continue;
        }
        if (wantOps) {
            const NtffExportOps::Result ops = NtffExportOps::copy(ntff, json);
            if (ops.copied)
                ntff.diagnostics.note("layers and HLO ops from " + base + " (neuron-profile export of this profile): " +
                                          std::to_string(ops.tagged) + " of " + std::to_string(ops.rows) + " instructions",
                                      ntffPath, ops.tagged);
            else if (ops.tagged || ops.matched < ops.rows)
                ntff.diagnostics.note("layers from " + base + ": not taken, " + std::to_string(ops.matched) + " of " +
                                          std::to_string(ops.rows) + " instructions have their row there (another execution?)",
                                      ntffPath);
        }
        if (!unknown)
            return 0;
        const size_t renamed = table.apply(ntff);
        if (renamed == 0)
            return 0;
        std::string names;
        for (const uint8_t b : table.newNames()) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", unsigned(b));
            names += (names.empty() ? "" : ", ") + std::string(hex) + ' ' + std::string(table.name(b));
        }
        ntff.diagnostics.note("opcode names from " + base + " (neuron-profile export of the same program): " + names,
                              ntffPath, renamed);
        return renamed;
    }
    return 0;
}

} // namespace lanescope
