#include "chromejsonimporter.h"

#include "chromeevent.h"
#include "chrometraceassembler.h"
#include "inputbuffer.h"
#include "jsonreaderbase.h"
#include "jsonstringreader.h"
#include "timestampparser.h"
#include "model/tracebuilder.h"
#include "util/textutil.h"

#include <simdjson.h>

#include <charconv>
#include <cstring>
#include <string>

namespace lanescope {

namespace sj = simdjson::ondemand;

namespace {

constexpr size_t kMaxKeptMetadataBytes = 1 << 20;

using text::trim;

uint64_t fnv1a(std::string_view s)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

// Reduces an id as written ("0x1f", "123", 123, "some-name") to 64 bits.
uint64_t idFromText(std::string_view s)
{
    s = trim(s);
    uint64_t v = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        auto r = std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
        if (r.ec == std::errc() && r.ptr == s.data() + s.size())
            return v;
    } else if (!s.empty()) {
        auto r = std::from_chars(s.data(), s.data() + s.size(), v, 10);
        if (r.ec == std::errc() && r.ptr == s.data() + s.size())
            return v;
        int64_t sv = 0;
        auto r2 = std::from_chars(s.data(), s.data() + s.size(), sv, 10);
        if (r2.ec == std::errc() && r2.ptr == s.data() + s.size())
            return uint64_t(sv);
    }
    return fnv1a(s) | (uint64_t(1) << 63);
}

// Chrome's wording: a string left open is more often an unescaped quote than a truncated file.
constexpr JsonReaderBase::Style kStyle{200, 700, "a string is never closed (unescaped quote or truncated file)",
                                       "a control character inside a string is not escaped (or a quote is missing)"};

class ChromeJsonReader : JsonReaderBase
{
public:
    ChromeJsonReader(InputBuffer &input, const std::string &name, const LoadOptions &options)
        : JsonReaderBase(input, name, options, kStyle), m_assembler(m_b)
    {
        m_b.metadata().format = "chrome-json";
        m_b.metadata().sourcePath = name;
    }

    Trace run();

private:
    void repairUnterminatedArray();
    void readEvents(sj::array events);
    bool readEvent(sj::object obj, uint64_t offset);
    void readArgs(sj::value v);
    bool readTime(sj::value v, int64_t &ns);
    bool stringOf(sj::value v, std::string_view &out);
    ChromeEntityKey readEntity(sj::value v);
    bool readId(sj::value v, uint64_t &id);
    void keepMetadata(std::string_view key, sj::value v);
    void countPhase(std::string_view ph);
    void finishStats();

    TraceBuilder m_b;
    ChromeTraceAssembler m_assembler;
    std::vector<Arg> m_args;
    JsonStringReader m_strings;
    uint64_t m_events = 0;
    uint64_t m_objects = 0;
    uint64_t m_phaseCounts[256] = {};
    std::map<std::string, uint64_t> m_otherPhases;
    std::vector<uint64_t> m_categoryCounts; // by StringId
};

void ChromeJsonReader::repairUnterminatedArray()
{
    // Older exporters write a bare array and may stop without the closing ']' (and with a trailing comma).
    std::string_view v = m_input.view();
    size_t end = v.size();
    while (end > 0 && text::isSpace(v[end - 1]))
        --end;
    if (end > 0 && v[end - 1] == ']')
        return;
    size_t cut = end;
    if (cut > 0 && v[cut - 1] == ',')
        --cut;
    m_input.replaceTail(cut, "]");
    m_b.diagnostics().warnAtByte("array of events is not terminated (accepted, as Chrome does)", end);
}

// A string value without copying it when it has no escapes (the common case): get_string() would
// copy every string into simdjson's buffer first.
bool ChromeJsonReader::stringOf(sj::value v, std::string_view &out)
{
    return m_strings.read(m_parser, v, out);
}

bool ChromeJsonReader::readTime(sj::value v, int64_t &ns)
{
    std::string_view text;
    return numberOrStringText(v, text) && TimestampParser::microsToNs(text, ns);
}

ChromeEntityKey ChromeJsonReader::readEntity(sj::value v)
{
    ChromeEntityKey k;
    sj::json_type t;
    if (v.type().get(t))
        return k;
    std::string_view text;
    if (t == sj::json_type::number) {
        int64_t n = 0;
        if (v.get_int64().get(n) == simdjson::SUCCESS) {
            k.number = n;
            return k;
        }
        text = v.raw_json_token();
    } else if (t == sj::json_type::string) {
        if (v.get_string().get(text))
            return k;
    } else {
        return k;
    }
    text = trim(text);
    if (int64_t n = 0; text::parseInt(text, n)) {
        k.number = n;
        return k;
    }
    k.text = m_b.intern(text);
    k.number = int64_t(fnv1a(text) & 0x7fffffffffffffffull);
    return k;
}

bool ChromeJsonReader::readId(sj::value v, uint64_t &id)
{
    std::string_view text;
    if (!numberOrStringText(v, text))
        return false;
    id = idFromText(text);
    return true;
}

void ChromeJsonReader::readArgs(sj::value v)
{
    sj::object obj;
    if (v.get_object().get(obj))
        return;
    for (auto fr : obj) {
        sj::field f;
        if (auto ferr = std::move(fr).get(f))
            failJson(ferr, "expected an argument name and value inside \"args\"");
        const StringId k = m_b.intern(keyOf(f, "expected a valid argument name"));
        sj::value val = f.value();
        sj::json_type t;
        if (val.type().get(t))
            failJson(val.type().error(), "expected an argument value");
        switch (t) {
        case sj::json_type::number: {
            sj::number_type nt;
            if (val.get_number_type().get(nt))
                failJson(simdjson::NUMBER_ERROR, "expected a number");
            if (nt == sj::number_type::signed_integer) {
                int64_t i = 0;
                if (!val.get_int64().get(i))
                    m_args.push_back(Arg::makeInt(k, i));
            } else if (nt == sj::number_type::unsigned_integer) {
                uint64_t u = 0;
                if (!val.get_uint64().get(u))
                    m_args.push_back(Arg::makeUInt(k, u));
            } else {
                double d = 0;
                if (val.get_double().get(d) == simdjson::SUCCESS) {
                    m_args.push_back(Arg::makeDouble(k, d));
                } else {
                    m_args.push_back(Arg::makeJson(k, m_b.intern(trim(val.raw_json_token()))));
                }
            }
            break;
        }
        case sj::json_type::string: {
            std::string_view s;
            if (!stringOf(val, s))
                failJson(simdjson::STRING_ERROR, "expected a valid JSON string");
            m_args.push_back(Arg::makeString(k, m_b.intern(s)));
            break;
        }
        case sj::json_type::boolean: {
            bool b = false;
            if (val.get_bool().get(b))
                failJson(simdjson::INCORRECT_TYPE, "expected true or false");
            m_args.push_back(Arg::makeBool(k, b));
            break;
        }
        case sj::json_type::null:
            m_args.push_back(Arg::makeNull(k));
            break;
        case sj::json_type::object: {
            sj::object o;
            std::string_view raw;
            if (val.get_object().get(o) || o.raw_json().get(raw))
                failJson(simdjson::TAPE_ERROR, "expected a JSON object");
            m_args.push_back(Arg::makeJson(k, m_b.intern(trim(raw))));
            break;
        }
        case sj::json_type::array: {
            sj::array a;
            std::string_view raw;
            if (val.get_array().get(a) || a.raw_json().get(raw))
                failJson(simdjson::TAPE_ERROR, "expected a JSON array");
            m_args.push_back(Arg::makeJson(k, m_b.intern(trim(raw))));
            break;
        }
        }
    }
}

void ChromeJsonReader::countPhase(std::string_view ph)
{
    if (ph.size() == 1)
        ++m_phaseCounts[uint8_t(ph[0])];
    else
        ++m_otherPhases[std::string(ph)];
}

bool ChromeJsonReader::readEvent(sj::object obj, uint64_t offset)
{
    ChromeEvent e;
    e.offset = offset;
    m_args.clear();
    bool hasPhase = false;
    for (auto fr : obj) {
        sj::field f;
        if (auto ferr = std::move(fr).get(f))
            failJson(ferr, "expected a field of a trace event (\"name\": value)");
        bool escaped = false;
        const std::string_view key = rawKey(f, escaped);
        if (escaped || key.empty())
            continue;
        sj::value v = f.value();
        std::string_view s;
        switch (key[0]) {
        case 'p':
            if (key == "ph") {
                if (stringOf(v, s)) {
                    hasPhase = true;
                    countPhase(s);
                    e.phase = s.size() == 1 ? s[0] : '?';
                }
            } else if (key == "pid") {
                e.pid = readEntity(v);
            }
            break;
        case 't':
            if (key == "ts") {
                e.hasTs = readTime(v, e.ts);
                if (!e.hasTs)
                    m_b.diagnostics().warnAtByte("ts values that are not numbers (event kept without time)", offset);
            } else if (key == "tid") {
                e.tid = readEntity(v);
            }
            break;
        case 'd':
            if (key == "dur")
                e.hasDur = readTime(v, e.dur);
            break;
        case 'n':
            if (key == "name") {
                if (stringOf(v, s)) {
                    e.name = m_b.intern(s);
                } else {
                    e.name = m_b.intern(trim(v.raw_json_token()));
                }
            }
            break;
        case 'c':
            if (key == "cat" && stringOf(v, s)) {
                e.category = m_b.intern(s);
                if (m_categoryCounts.size() <= e.category.value)
                    m_categoryCounts.resize(e.category.value + 64, 0);
                ++m_categoryCounts[e.category.value];
            }
            break;
        case 'a':
            if (key == "args")
                readArgs(v);
            break;
        case 'i':
            if (key == "id") {
                e.hasId = readId(v, e.id);
            } else if (key == "id2") {
                sj::object o;
                if (v.get_object().get(o) == simdjson::SUCCESS) {
                    for (auto inner : o) {
                        sj::field g;
                        if (auto ferr = std::move(inner).get(g))
                            failJson(ferr, "expected \"local\" or \"global\" inside \"id2\"");
                        bool esc = false;
                        const std::string_view k2 = rawKey(g, esc);
                        if (k2 == "local" || k2 == "global") {
                            e.hasId = readId(g.value(), e.id);
                            e.idIsProcessLocal = k2 == "local";
                        }
                    }
                }
            }
            break;
        case 's':
            if (key == "s" && v.get_string().get(s) == simdjson::SUCCESS && !s.empty())
                e.scope = s[0];
            break;
        case 'b':
            if (key == "bp") {
                e.bindEnclosing = v.get_string().get(s) == simdjson::SUCCESS && s == "e";
            } else if (key == "bind_id") {
                e.hasBindId = readId(v, e.bindId);
            }
            break;
        case 'f':
            if (key == "flow_in") {
                bool b = false;
                e.flowIn = v.get_bool().get(b) == simdjson::SUCCESS && b;
            } else if (key == "flow_out") {
                bool b = false;
                e.flowOut = v.get_bool().get(b) == simdjson::SUCCESS && b;
            }
            break;
        default:
            break;
        }
    }
    if (!hasPhase)
        ++m_otherPhases[""];
    m_assembler.add(e, m_args);
    return hasPhase;
}

void ChromeJsonReader::readEvents(sj::array events)
{
    for (auto er : events) {
        sj::value v;
        if (auto ferr = std::move(er).get(v))
            failJson(ferr, "expected a trace event object or ']'");
        ++m_events;
        if ((m_events & 0xffff) == 0)
            progress();
        sj::object obj;
        const auto err = v.get_object().get(obj);
        if (err == simdjson::INCORRECT_TYPE) {
            m_b.diagnostics().warnAtByte("array elements that are not event objects skipped", location());
            continue;
        }
        if (err)
            failJson(err, "expected a trace event object");
        ++m_objects;
        readEvent(obj, position(0));
    }
}

void ChromeJsonReader::keepMetadata(std::string_view key, sj::value v)
{
    sj::json_type t;
    if (v.type().get(t))
        failJson(v.type().error(), "expected a value for top-level key \"" + std::string(key) + "\"");
    std::string_view raw;
    switch (t) {
    case sj::json_type::string:
        if (v.get_string().get(raw))
            failJson(simdjson::STRING_ERROR, "expected a valid JSON string");
        if (key == "systemTraceEvents") {
            m_b.metadata().entries.emplace_back(std::string(key), "(" + std::to_string(raw.size()) + " bytes of system trace text, not imported)");
            m_b.diagnostics().warn("systemTraceEvents (ftrace text) not imported");
            return;
        }
        m_b.metadata().entries.emplace_back(std::string(key), std::string(raw.substr(0, kMaxKeptMetadataBytes)));
        return;
    case sj::json_type::object: {
        sj::object o;
        if (v.get_object().get(o) || o.raw_json().get(raw))
            failJson(simdjson::TAPE_ERROR, "expected a JSON object for \"" + std::string(key) + "\"");
        break;
    }
    case sj::json_type::array: {
        sj::array a;
        if (v.get_array().get(a) || a.raw_json().get(raw))
            failJson(simdjson::TAPE_ERROR, "expected a JSON array for \"" + std::string(key) + "\"");
        break;
    }
    default:
        raw = v.raw_json_token();
        if (key == "synthetic" && trim(raw) == "true")
            m_b.metadata().synthetic = true;
        break;
    }
    raw = trim(raw);
    if (raw.size() > kMaxKeptMetadataBytes)
        m_b.metadata().entries.emplace_back(std::string(key), "(" + std::to_string(raw.size()) + " bytes, not kept)");
    else
        m_b.metadata().entries.emplace_back(std::string(key), std::string(raw));
}

void ChromeJsonReader::finishStats()
{
    ImportStats &st = m_b.stats();
    st.eventsRead = m_objects; // event objects; other array elements are skipped with a warning
    st.bytesRead = m_input.size();
    for (int c = 0; c < 256; ++c)
        if (m_phaseCounts[c])
            st.phases[std::string(1, char(c))] += m_phaseCounts[c];
    for (const auto &[k, n] : m_otherPhases)
        st.phases[k] += n;
    for (size_t i = 0; i < m_categoryCounts.size(); ++i)
        if (m_categoryCounts[i])
            st.categories[std::string(m_b.str(StringId(uint32_t(i))))] += m_categoryCounts[i];
}

Trace ChromeJsonReader::run()
{
    const std::string_view text = m_input.view();
    const size_t first = firstByte();
    if (first >= text.size())
        fail(0, "file is empty; expected a Chrome/Kineto trace (a JSON object with \"traceEvents\" or an array of events)");
    const char opener = text[first];
    if (opener != '{' && opener != '[')
        fail(first, "expected '{' or '[' at the start of a Chrome/Kineto trace");
    if (opener == '[')
        repairUnterminatedArray();

    // Reserve from the input size (Kineto: 190-320 bytes per event, ~4 args per event): growth by
    // doubling would copy and fault the pages twice. Unused reservations are never touched.
    m_b.reserveSlices(m_input.size() / 180);
    m_b.reserveArgs(m_input.size() / 50, m_input.size() / 180);

    startDocument();

    if (opener == '[') {
        sj::array events;
        if (auto err = m_doc.get_array().get(events))
            failJson(err, "expected an array of trace events");
        readEvents(events);
        if (m_events > 0 && m_objects == 0)
            fail(first, "this JSON array holds no event objects; it is not a Chrome/Kineto trace (expected objects with \"ph\", \"ts\", ...)");
    } else {
        sj::object top;
        if (auto err = m_doc.get_object().get(top))
            failJson(err, "expected a JSON object");
        bool sawEvents = false;
        std::string keysSeen;
        for (auto fr : top) {
            sj::field f;
            if (auto ferr = std::move(fr).get(f))
                failJson(ferr, "expected a top-level key and value");
            const std::string_view key = keyOf(f);
            if (key == "traceEvents") {
                sj::array events;
                if (auto err = f.value().get_array().get(events))
                    failJson(err, "expected \"traceEvents\" to be an array of events");
                sawEvents = true;
                readEvents(events);
            } else {
                if (keysSeen.size() < 200)
                    keysSeen += (keysSeen.empty() ? "" : ", ") + std::string(key);
                keepMetadata(key, f.value());
            }
        }
        if (!sawEvents)
            fail(first, "JSON object has no \"traceEvents\" array, so it is not a Chrome/Kineto trace (top-level keys: "
                     + keysSeen + ")");
    }
    m_assembler.finish();
    finishStats();
    m_options.report(950);
    Trace t = m_b.finish();
    m_options.report(1000);
    return t;
}

} // namespace

Trace ChromeJsonImporter::import(InputBuffer &input, const std::string &name, const LoadOptions &options)
{
    ChromeJsonReader reader(input, name, options);
    return reader.run();
}

} // namespace lanescope
