// libFuzzer harness: NTFF (core/io/ntff/ntffreader.h + ntffimporter.h): header, protobuf metadata
// (programs, runtime blocks, sections, queues, clocks), the 16-byte records of every section, and the
// model built from the decoded profile.
#include "fuzz_common.h"

#include "io/input/inputbuffer.h"
#include "io/ntff/ntffimporter.h"

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes = fuzz::asView(data, size);
    const LoadOptions options = fuzz::fuzzOptions();
    try {
        const InputBuffer input = InputBuffer::fromBytes(bytes, "fuzz.ntff", options);
        const Trace trace = NtffImporter::import(input, "fuzz.ntff", options);
        fuzz::checkTrace(trace);
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == "fuzz.ntff");
    }
    return 0;
}
