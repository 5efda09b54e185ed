// libFuzzer harness: the TorchNeuron system trace, system_profile.json (core/io/systemprofileimporter.h):
// the one-pass reader (SystemProfileReader), the clock alignment by sync points, the parent_id nesting and
// the model built from it.
#include "fuzz_common.h"

#include "io/inputbuffer.h"
#include "io/systemprofileimporter.h"

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes = fuzz::asView(data, size);
    const LoadOptions options = fuzz::fuzzOptions();
    try {
        InputBuffer input = InputBuffer::fromBytes(bytes, "system_profile.json", options);
        const Trace trace = SystemProfileImporter::import(input, "system_profile.json", options);
        fuzz::checkTrace(trace);
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == "system_profile.json");
    }
    return 0;
}
