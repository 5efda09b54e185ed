#pragma once
// neuron-profile's legacy JSON export (`neuron-profile view --output-format json`) -> trace model.
// The rows are read by NeuronProfileJsonReader into an NtffProfile and built by NtffImporter::build,
// so a JSON export and the NTFF it came from show the same tracks. Metadata format
// "neuron-profile-json"; the tool's own summary, layer_summary and model_info are kept as
// "neuron_profile.*" metadata entries.
#include "io/input/loadoptions.h"

#include <string>

namespace lanescope {

class InputBuffer;
class InputStream;

class NeuronProfileJsonImporter
{
public:
    // Throws ImportError (file, byte offset, expectation) or LoadCancelled.
    static Trace import(InputBuffer &input, const std::string &name, const LoadOptions &options);
    // The same streamed (plain, gzip or zstd from disk): the text is never held whole.
    static Trace importStream(InputStream &input, const LoadOptions &options);
};

} // namespace lanescope
