// libFuzzer harness: the TorchNeuron system trace, system_profile.json (core/io/systemprofile/systemprofileimporter.h):
// the one-pass reader (SystemProfileReader), the clock alignment by sync points, the parent_id nesting and
// the model built from it.
#include "fuzz_common.h"

#include "io/systemprofile/systemprofileimporter.h"

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::importAndCheck<SystemProfileImporter>(fuzz::asView(data, size), "system_profile.json");
    return 0;
}
