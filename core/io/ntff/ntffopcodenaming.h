#pragma once
// Names an NTFF's unknown opcodes from the neuron-profile JSON export beside it: the file in the same
// folder whose name is the NTFF's with ".json" (".json.gz", ".json.zst") for ".ntff", the way
// `neuron-profile view -s X.ntff --output-format json` exports are kept next to their trace
// ("profile_128x128x1024.ntff" + "profile_128x128x1024.json"). The JSON is read with
// NeuronProfileJsonReader and must be the same program (OpcodeNameTable's rules); then every row whose
// byte the built-in table does not know gets the JSON's name, in lanes, tables and `rows` alike.
// Used by NtffImporter::import and the NTFF's row reader (formats.cpp), so single files, profile
// folders and the CLI name opcodes the same way.
//
// The same export also gives each NTFF instruction its layer and HLO op (NtffExportOps), when the NTFF
// has none: `engines --by layer` and the layer lanes then work on the NTFF, with its picosecond times.
// Besides "<stem>.json", "<stem>_*.json" in the same folder is tried ("baseline_exec_2.ntff" with
// "baseline_exec_2_profile_full.json", as the trn2 corpus keeps them); identity decides, never the name.
//
// Renaming adds one note to the profile's diagnostics ("opcode names from X.json: 0x41 TENSOR_TENSOR");
// a neighbour that cannot be read or is another program adds a note and changes nothing. Never throws
// ImportError; LoadCancelled passes through.
#include "io/input/loadoptions.h"
#include "ntffprofile.h"

#include <string>
#include <vector>

namespace lanescope {

class NtffOpcodeNaming
{
public:
    // The neighbour files that exist, in the order tried.
    static std::vector<std::string> neighbours(const std::string &ntffPath);
    // Returns the number of rows renamed.
    static size_t nameFromNeighbour(NtffProfile &ntff, const std::string &ntffPath, const LoadOptions &options = {});
};

} // namespace lanescope
