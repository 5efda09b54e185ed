#include "ntraceimporter.h"

#include "io/input/inputbuffer.h"
#include "io/systemprofile/systemprofileimporter.h"
#include "ntraceconverter.h"

#include <cerrno>
#include <cstring>
#include <set>
#include <sys/stat.h>

namespace lanescope {

namespace {

std::string folderOf(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash == 0 ? 1 : slash);
}

bool exists(const std::string &path)
{
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0;
}

class Session
{
public:
    Session(InputBuffer &input, const std::string &path, const LoadOptions &options)
        : m_input(input), m_path(path), m_dir(folderOf(path)), m_options(options)
    {
    }
    Trace run();

private:
    std::string sibling(const char *name) const { return m_dir + "/" + name; }
    void readInfo();
    template<typename Read>
    void readSamples(const char *name, const NtraceSessionFile &listed, Read read);
    void file(const char *name, const std::string &outcome) { m_b.metadata().entries.emplace_back(NtraceImporter::kSessionFileKey + std::string(name), outcome); }

    InputBuffer &m_input;
    const std::string &m_path;
    const std::string m_dir;
    const LoadOptions &m_options;
    TraceBuilder m_b;
    NtraceSession m_session;
};

void Session::readInfo()
{
    const std::string infoPath = sibling(NtraceImporter::kInfoFile);
    if (!exists(infoPath))
        throw ImportError(m_path, std::string("trace_info.pb is missing beside it (") + infoPath + ": " + std::strerror(errno) +
                                      "); expected the session's trace_info.pb, whose ntrace_inspect_type and system_trace "
                                      "tables name the record types and strings of ntrace.pb (copy it from the capture folder)");
    InputBuffer info = InputBuffer::read(infoPath, m_options);
    m_session.info = NtraceInfoReader::read(info.view(), NtraceImporter::kInfoFile, m_b.diagnostics());
    const NtraceInfo &in = m_session.info;
    const NtraceEnumTable *types = in.table(NtraceInfo::kTypeTable);
    if (!types || types->names.empty())
        throw ImportError(m_path, std::string("trace_info.pb beside it (") + std::to_string(info.size()) +
                                      " bytes" + (in.damaged ? ", damaged" : "") + ") has no ntrace_inspect_type table; expected "
                                      "an enum table of that name that names the record types (field 10)");
    std::string tables;
    for (const NtraceEnumTable &t : in.tables)
        tables += (tables.empty() ? "" : ", ") + t.name + " " + std::to_string(t.names.size());
    file(NtraceImporter::kInfoFile, std::string(in.damaged ? "loaded (damaged: see the warnings)" : "loaded") +
                                        ": read with ntrace.pb: instance " + in.instanceId + ", pid " +
                                        (in.hasPid ? std::to_string(in.pid) : std::string("?")) +
                                        (in.instanceType.empty() ? std::string() : ", " + in.instanceType) + "; tables " + tables);
}

template<typename Read>
void Session::readSamples(const char *name, const NtraceSessionFile &listed, Read read)
{
    const std::string p = sibling(name);
    if (!exists(p)) {
        if (listed.present) {
            m_b.diagnostics().warn(std::string(name) + ": listed by trace_info.pb but missing beside ntrace.pb (no counters from it)", p);
        }
        return;
    }
    try {
        InputBuffer in = InputBuffer::read(p, m_options);
        file(name, "loaded: read with ntrace.pb: " + read(in.view()));
    } catch (const ImportError &e) {
        m_b.diagnostics().warn(std::string(name) + ": cannot be read (no counters from it)", e.what());
        file(name, std::string("not_readable: ") + e.what());
    }
}

Trace Session::run()
{
    TraceMetadata &md = m_b.metadata();
    md.format = NtraceImporter::kFormat;
    md.sourcePath = m_path;
    readInfo();
    m_options.report(100);
    const NtraceInfo &info = m_session.info;
    m_session.records = NtraceReader::read(m_input.view(), NtraceImporter::kTraceFile, m_b.diagnostics(), m_options);
    const uint64_t said = info.recordCount ? info.recordCount : info.systemTrace.records;
    if (said && said != m_session.records.records.size() + m_session.records.skipped)
        m_b.diagnostics().warn("ntrace.pb: holds another number of records than trace_info.pb says",
                               std::to_string(m_session.records.records.size() + m_session.records.skipped) + " read, " +
                                   std::to_string(said) + " listed");
    m_options.report(400);
    readSamples(NtraceImporter::kCpuFile, info.cpuUtil, [&](std::string_view bytes) {
        m_session.cpu = NtraceSamplesReader::readCpuUtil(bytes, NtraceImporter::kCpuFile, m_b.diagnostics(), m_options);
        std::set<int64_t> times, cpus;
        for (const NtraceCpuSample &s : m_session.cpu) {
            times.insert(s.ts);
            cpus.insert(s.cpu);
        }
        if (info.cpuUtil.records && info.cpuUtil.records != times.size())
            m_b.diagnostics().warn("cpu_util.pb: holds another number of samples than trace_info.pb says",
                                   std::to_string(times.size()) + " sample times read, " + std::to_string(info.cpuUtil.records) + " listed");
        return formatThousands(m_session.cpu.size()) + " samples (" + std::to_string(cpus.size()) + " CPUs x " +
               formatThousands(times.size()) + " times) as cpu_util · CPU n counters";
    });
    readSamples(NtraceImporter::kMemoryFile, info.hostMem, [&](std::string_view bytes) {
        m_session.hostMemory = NtraceSamplesReader::readHostMem(bytes, NtraceImporter::kMemoryFile, m_b.diagnostics(), m_options);
        if (info.hostMem.records && info.hostMem.records != m_session.hostMemory.size())
            m_b.diagnostics().warn("host_mem.pb: holds another number of samples than trace_info.pb says",
                                   std::to_string(m_session.hostMemory.size()) + " read, " + std::to_string(info.hostMem.records) + " listed");
        return formatThousands(m_session.hostMemory.size()) + " samples as the mem_usage (bytes) counter";
    });
    m_options.report(600);
    SystemProfileData data = NtraceConverter::convert(m_session, m_b, m_options);
    m_options.report(850);
    return SystemProfileImporter::build(std::move(data), std::move(m_b), m_options);
}

} // namespace

Trace NtraceImporter::import(InputBuffer &input, const std::string &path, const LoadOptions &options)
{
    return Session(input, path, options).run();
}

bool NtraceImporter::isSessionFile(std::string_view base)
{
    return base == kInfoFile || base == kCpuFile || base == kMemoryFile;
}

} // namespace lanescope
