// libFuzzer harness: NEFF (core/io/neff/neffreader.h): the 1024-byte header, the payload MD5, the gzip'd
// tar walked in memory with libarchive, and the JSON members (info, kelf, def, engine, tensor_map).
#include "fuzz_common.h"

#include "io/neff/neffreader.h"

using namespace lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes = fuzz::asView(data, size);
    (void)NeffReader::looksLikeNeff(bytes.substr(0, 1024), size);
    const LoadOptions options = fuzz::fuzzOptions();
    try {
        const NeffInfo info = NeffReader::readBytes(bytes, "fuzz.neff", options);
        LANESCOPE_FUZZ_CHECK(info.header.dataSize <= size - NeffReader::kHeaderSize);
        LANESCOPE_FUZZ_CHECK(info.tarBytes <= options.memoryBudget + (uint64_t(2) << 20));
        LANESCOPE_FUZZ_CHECK(info.members.size() <= NeffReader::kMaxMembers);
        volatile size_t sink = info.header.uuidDashed().size() + info.header.hashHex().size() +
                               info.header.featureBitsHex().size() + info.header.coresPerNodeHex().size();
        for (const NeffSubgraph &sg : info.subgraphs) {
            for (const NeffDmaBlock &b : sg.dmaBlocks)
                sink = sink + (sg.queue(b.queue) ? 1 : 0);
            for (const NeffVariable &v : sg.variables)
                sink = sink + neffVariableKindName(v.kind).size() + (sg.variable(v.name) ? 1 : 0);
            for (const NeffEngineFile &f : sg.engineFiles)
                sink = sink + neffEngineName(f.engine).size();
        }
        for (const Warning &w : info.diagnostics.warnings())
            sink = sink + Diagnostics::format(w).size();
        (void)sink;
    } catch (const ImportError &e) {
        LANESCOPE_FUZZ_CHECK(e.file() == "fuzz.neff");
    }
    return 0;
}
