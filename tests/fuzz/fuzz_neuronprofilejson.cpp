// libFuzzer harness: neuron-profile's JSON export (core/io/neuronprofilejsonimporter.h): the streaming
// reader into an NtffProfile and the model built from it (NtffImporter::build).
#include "fuzz_common.h"

#include "io/inputbuffer.h"
#include "io/neuronprofilejsonimporter.h"

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes = fuzz::asView(data, size);
    const LoadOptions options = fuzz::fuzzOptions();
    try {
        InputBuffer input = InputBuffer::fromBytes(bytes, "fuzz.json", options);
        const Trace trace = NeuronProfileJsonImporter::import(input, "fuzz.json", options);
        fuzz::checkTrace(trace);
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == "fuzz.json");
    }
    return 0;
}
