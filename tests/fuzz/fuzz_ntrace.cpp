// libFuzzer harness: the raw Neuron system trace (core/io/ntrace/): a capture session's trace_info.pb
// (NtraceInfoReader), ntrace.pb (NtraceReader, NtraceCalls), cpu_util.pb and host_mem.pb
// (NtraceSamplesReader), converted (NtraceConverter: sync points, device memory) and built into lanes
// (SystemProfileImporter::build), all in memory. The input is the session packed as
//   u16 n, n bytes of trace_info.pb, u16 n, cpu_util.pb, u16 n, host_mem.pb, the rest: ntrace.pb
// (little-endian lengths, cut to what is left; make_seeds.py packs the real capture so). The readers
// never throw for damaged content: only the model checks and the sanitizers can fail a run.
#include "fuzz_common.h"

#include "io/ntrace/ntraceconverter.h"
#include "io/systemprofile/systemprofileimporter.h"

using namespace lanescope;

namespace {

std::string_view take(std::string_view &in)
{
    if (in.size() < 2)
        return in = {};
    const size_t n = std::min<size_t>(uint8_t(in[0]) | size_t(uint8_t(in[1])) << 8, in.size() - 2);
    const std::string_view part = in.substr(2, n);
    in.remove_prefix(2 + n);
    return part;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::string_view in = fuzz::asView(data, size);
    const std::string_view info = take(in), cpu = take(in), memory = take(in), trace = in;
    const LoadOptions options = fuzz::fuzzOptions();
    TraceBuilder b;
    NtraceSession session;
    session.info = NtraceInfoReader::read(info, "trace_info.pb", b.diagnostics());
    session.records = NtraceReader::read(trace, "ntrace.pb", b.diagnostics(), options);
    session.cpu = NtraceSamplesReader::readCpuUtil(cpu, "cpu_util.pb", b.diagnostics(), options);
    session.hostMemory = NtraceSamplesReader::readHostMem(memory, "host_mem.pb", b.diagnostics(), options);
    LANESCOPE_FUZZ_CHECK(session.records.bytes <= trace.size());
    for (const NtraceRecord &r : session.records.records)
        LANESCOPE_FUZZ_CHECK(r.offset < trace.size() && r.attrBegin + r.attrCount <= session.records.attributes.size());
    SystemProfileData converted = NtraceConverter::convert(session, b, options);
    for (const SystemProfileEvent &e : converted.events)
        LANESCOPE_FUZZ_CHECK(e.argBegin + e.argCount <= converted.args.size());
    fuzz::checkTrace(SystemProfileImporter::build(std::move(converted), std::move(b), options));
    return 0;
}
