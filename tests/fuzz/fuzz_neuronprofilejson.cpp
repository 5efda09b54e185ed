// libFuzzer harness: neuron-profile's JSON export (core/io/neuronprofile/neuronprofilejsonimporter.h): the streaming
// reader into an NtffProfile and the model built from it (NtffImporter::build).
#include "fuzz_common.h"

#include "io/neuronprofile/neuronprofilejsonimporter.h"

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::importAndCheck<NeuronProfileJsonImporter>(fuzz::asView(data, size), "fuzz.json");
    return 0;
}
