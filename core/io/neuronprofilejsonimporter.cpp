#include "neuronprofilejsonimporter.h"

#include "neuronprofilejsonreader.h"
#include "ntffimporter.h"

namespace lanescope {

Trace NeuronProfileJsonImporter::import(InputBuffer &input, const std::string &name, const LoadOptions &options)
{
    // The reader reports 200..900 itself; NtffImporter::build reports 900..1000.
    const NtffProfile profile = NeuronProfileJsonReader::read(input, name, options);
    return NtffImporter::build(profile, name, options);
}

} // namespace lanescope
