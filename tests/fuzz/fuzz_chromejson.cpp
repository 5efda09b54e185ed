// libFuzzer harness: Kineto / Chrome Trace Event JSON, as TraceLoader runs it (InputBuffer::fromBytes
// decompresses gzip / zstd / zip by magic bytes, then ChromeJsonImporter::import), plus the sniffer.
#include "fuzz_common.h"

#include "io/chrome/chromejsonimporter.h"
#include "io/traceloader.h"

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes = fuzz::asView(data, size);
    (void)TraceLoader::sniff(bytes.substr(0, 4096), size);
    fuzz::importAndCheck<ChromeJsonImporter>(bytes, "fuzz.json");
    return 0;
}
