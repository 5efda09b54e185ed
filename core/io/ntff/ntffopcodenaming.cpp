#include "ntffopcodenaming.h"

#include "io/input/importerror.h"
#include "io/input/inputbuffer.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"
#include "opcodenametable.h"

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
    return out;
}

size_t NtffOpcodeNaming::nameFromNeighbour(NtffProfile &ntff, const std::string &ntffPath, const LoadOptions &options)
{
    // Only needed when a row has a byte the built-in table does not know.
    bool unknown = false;
    for (const NtffInstructionRow &r : ntff.instructions)
        if (!r.extraOpcode && !ntffOpcodeKnown(r.opcode)) {
            unknown = true;
            break;
        }
    if (!unknown)
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
