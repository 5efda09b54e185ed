#include "neuronprofilejsonimporter.h"

#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/ntff/ntffimporter.h"
#include "neuronprofilejsonreader.h"

namespace lanescope {

Trace NeuronProfileJsonImporter::import(InputBuffer &input, const std::string &name, const LoadOptions &options)
{
    InputStream stream(input.view(), name, options);
    return importStream(stream, options);
}

Trace NeuronProfileJsonImporter::importStream(InputStream &input, const LoadOptions &options)
{
    // The reader reports 200..900 itself; NtffImporter::build reports 900..1000.
    const NtffProfile profile = NeuronProfileJsonReader::read(input, options);
    return NtffImporter::build(profile, input.name(), options);
}

} // namespace lanescope
