#include "systemprofilereader.h"

#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/json/jsonobjectpieces.h"
#include "io/json/jsonobjectwindows.h"
#include "io/json/jsonwindowsplitter.h"
#include "systemprofileparser.h"
#include "util/textutil.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>

namespace lanescope {

namespace {

using Piece = SystemProfileParser::Piece;
using text::trim;

// Progress 100..800 (the importer reports the rest).
constexpr int kProgressFrom = 100, kProgressSpan = 700;

// Reads the file from a stream: the event and sample arrays in windows parsed on the cores, merged in
// file order with the top-level text around them.
class Reader
{
public:
    Reader(InputStream &input, TraceBuilder &b, const LoadOptions &options)
        : m_input(input), m_name(input.name()), m_b(b), m_options(options)
    {
    }

    SystemProfileData run();

private:
    void piece(InputBuffer text, uint64_t offset, Piece kind);
    void merge(SystemProfilePart &part);

    InputStream &m_input;
    const std::string &m_name;
    TraceBuilder &m_b;
    const LoadOptions &m_options;
    SystemProfileData m_data;
    std::string m_keys; // top-level keys that are no arrays of events, for the error of a file without them
    std::vector<StringId> m_map; // the part's StringIds -> the trace's
    uint64_t m_modelBytes = 0;   // records merged so far and the windows' strings (an upper bound)
};

// The part's strings are interned in the order the part first used them, so every StringId is the
// one a single pass gives; its records and warnings follow in file order.
void Reader::merge(SystemProfilePart &part)
{
    if (part.error)
        std::rethrow_exception(part.error);
    if (!part.lead.empty())
        piece(JsonObjectPieces::between(part.lead), part.leadOffset, Piece::Between);
    m_map.resize(part.strings.size());
    uint64_t stringBytes = 0;
    for (size_t i = 0; i < m_map.size(); ++i) {
        const std::string_view text = part.strings.view(StringId(uint32_t(i)));
        m_map[i] = m_b.intern(text);
        stringBytes += text.size();
    }
    const auto global = [this](StringId &id) {
        if (id.isValid())
            id = m_map[id.value];
    };
    SystemProfileData &d = part.data;
    const uint32_t argBase = uint32_t(m_data.args.size());
    for (Arg &a : d.args) {
        global(a.key);
        if (a.type == ArgType::String || a.type == ArgType::Json)
            a.value.s = m_map[a.value.s].value;
    }
    for (SystemProfileEvent &e : d.events) {
        global(e.name);
        global(e.group);
        global(e.instance);
        global(e.process);
        e.argBegin += argBase;
    }
    for (auto *samples : {&d.memUsage, &d.cpuUtil})
        for (SystemProfileSample &s : *samples) {
            global(s.instance);
            global(s.process);
        }
    m_modelBytes += d.events.size() * sizeof(SystemProfileEvent) + d.args.size() * sizeof(Arg) +
                    (d.memUsage.size() + d.cpuUtil.size()) * sizeof(SystemProfileSample) + stringBytes;
    JsonObjectPieces::requireModel(m_modelBytes, m_options.memoryBudget, m_name, part.end,
                                   m_data.events.size() + m_data.memUsage.size() + m_data.cpuUtil.size());
    m_data.args.insert(m_data.args.end(), d.args.begin(), d.args.end());
    m_data.events.insert(m_data.events.end(), d.events.begin(), d.events.end());
    m_data.memUsage.insert(m_data.memUsage.end(), d.memUsage.begin(), d.memUsage.end());
    m_data.cpuUtil.insert(m_data.cpuUtil.end(), d.cpuUtil.begin(), d.cpuUtil.end());
    m_data.sawEvents = m_data.sawEvents || d.sawEvents;
    m_b.diagnostics().merge(part.diagnostics);
}

void Reader::piece(InputBuffer text, uint64_t offset, Piece kind)
{
    SystemProfilePart part;
    SystemProfileParser::parsePiece(text, offset, kind, m_name, m_options, m_b, m_keys, part);
    merge(part);
}

SystemProfileData Reader::run()
{
    JsonWindowSplitter splitter(m_input, SystemProfileParser::windowedKeys(), JsonObjectPieces::windowBytes(m_input, m_options),
                                m_options.memoryBudget / 4);
    const JsonWindowSplitter::Shape shape = splitter.start();
    const std::string &prefix = splitter.prefix();
    const uint64_t first = JsonObjectPieces::firstByte(prefix, splitter.prefixOffset());
    if (shape == JsonWindowSplitter::Shape::Other) {
        piece(InputBuffer::ofText({prefix}), splitter.prefixOffset(), Piece::Whole);
    } else {
        const bool bare = shape == JsonWindowSplitter::Shape::Array;
        if (!bare)
            piece(JsonObjectPieces::before(prefix), splitter.prefixOffset(), Piece::Before);
        readObjectWindows<SystemProfilePart>(
            splitter, m_input, m_options, kProgressFrom, kProgressSpan,
            [&](JsonWindow &w, simdjson::ondemand::parser *parser, SystemProfilePart &part) {
                SystemProfileParser::parseWindow(w, m_name, m_options, parser, part);
            },
            [&](SystemProfilePart &part) { merge(part); });
        if (!splitter.terminated())
            JsonObjectPieces::reportCut(splitter, m_b.diagnostics(), bare ? "the array of trace events" : "", "event");
        else if (!bare)
            piece(JsonObjectPieces::after(splitter.suffix()), splitter.arrayEnd(), Piece::After);
    }
    if (!m_data.sawEvents)
        throw ImportError(m_name, first,
                          "JSON object has no \"trace_events\" array, so it is not a system profile (top-level keys: " + m_keys + ")");
    m_data.bytes = m_input.position();
    return std::move(m_data);
}

} // namespace

SystemProfileData SystemProfileReader::read(InputStream &input, TraceBuilder &b, const LoadOptions &options)
{
    Reader r(input, b, options);
    return r.run();
}

SystemProfileData SystemProfileReader::read(InputBuffer &input, const std::string &name, TraceBuilder &b, const LoadOptions &options)
{
    InputStream stream(input.view(), name, options);
    return read(stream, b, options);
}

} // namespace lanescope
