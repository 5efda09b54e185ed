#include "chromewindowreader.h"

#include "io/json/jsonreaderbase.h"
#include "io/json/jsonstringreader.h"
#include "chrometraceassembler.h"
#include "timestampparser.h"
#include "util/textutil.h"

#include <simdjson.h>

#include <charconv>
#include <limits>

namespace lanescope {

namespace sj = simdjson::ondemand;

namespace {

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

class ChromeWindowParser : JsonReaderBase
{
public:
    ChromeWindowParser(JsonWindow &window, const std::string &name, const LoadOptions &options, ChromeWindowEvents &out,
                       sj::parser *parser)
        : JsonReaderBase(window.text, name, options, kStyle, parser), m_out(out)
    {
        setTextOffset(window.offset, window.end);
    }

    void run()
    {
        m_out.textBytes = m_input.size();
        // Kineto: 190-320 bytes and about 4 args per event.
        m_out.events.reserve(m_input.size() / 180);
        m_out.argsEnd.reserve(m_input.size() / 180);
        m_out.stringsEnd.reserve(m_input.size() / 180);
        m_out.args.reserve(m_input.size() / 50);
        startDocument();
        sj::array events;
        if (auto err = m_doc.get_array().get(events))
            failJson(err, "expected an array of trace events");
        readEvents(events);
    }

private:
    void readEvents(sj::array events);
    bool readEvent(sj::object obj, uint64_t offset);
    void readArgs(sj::value &v);
    bool readTime(sj::value &v, int64_t &ns);
    bool stringOf(sj::value &v, std::string_view &out);
    ChromeEntityKey readEntity(sj::value &v);
    bool readId(sj::value &v, uint64_t &id);
    void countPhase(std::string_view ph);
    void warn(const char *message, uint64_t offset)
    {
        m_out.warnings.push_back({uint32_t(m_out.events.size()), message, offset});
    }

    ChromeWindowEvents &m_out;
    JsonStringReader m_strings;
    bool m_numericString = false; // the event being read has a ts, dur, pid, tid or id written as a numeric string
};

// A string value without copying it when it has no escapes (the common case): get_string() would
// copy every string into simdjson's buffer first.
bool ChromeWindowParser::stringOf(sj::value &v, std::string_view &out)
{
    return m_strings.read(m_parser, v, out);
}

bool ChromeWindowParser::readTime(sj::value &v, int64_t &ns)
{
    std::string_view text;
    if (!numberOrStringText(v, text) || !TimestampParser::microsToNs(text, ns))
        return false;
    // numberOrStringText hands a number its raw token, a string its text: a string's token starts with '"'
    m_numericString |= v.raw_json_token().starts_with('"');
    return true;
}

ChromeEntityKey ChromeWindowParser::readEntity(sj::value &v)
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
        m_numericString |= t == sj::json_type::string;
        return k;
    }
    k.text = m_out.strings.intern(text);
    k.number = int64_t(fnv1a(text) & 0x7fffffffffffffffull);
    return k;
}

bool ChromeWindowParser::readId(sj::value &v, uint64_t &id)
{
    std::string_view text;
    if (!numberOrStringText(v, text))
        return false;
    id = idFromText(text);
    // a decimal id written as a string ("0x..." strings are Chrome's own way of writing ids)
    if (int64_t n = 0; v.raw_json_token().starts_with('"') && text::parseInt(trim(text), n))
        m_numericString = true;
    return true;
}

void ChromeWindowParser::readArgs(sj::value &v)
{
    sj::object obj;
    if (v.get_object().get(obj))
        return;
    for (auto fr : obj) {
        if (auto ferr = fr.error())
            failJson(ferr, "expected an argument name and value inside \"args\"");
        sj::field &&f = std::move(fr).value_unsafe(); // in place: a copy of the field stalls on its own stores
        const StringId k = m_out.strings.intern(keyOf(f, "expected a valid argument name"));
        sj::value &val = f.value(); // a reference: a copy stalls on the stores that just made it
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
                    m_out.args.push_back(Arg::makeInt(k, i));
            } else if (nt == sj::number_type::unsigned_integer) {
                uint64_t u = 0;
                if (!val.get_uint64().get(u))
                    m_out.args.push_back(Arg::makeUInt(k, u));
            } else {
                double d = 0;
                if (val.get_double().get(d) == simdjson::SUCCESS) {
                    m_out.args.push_back(Arg::makeDouble(k, d));
                } else {
                    m_out.args.push_back(Arg::makeJson(k, m_out.strings.intern(trim(val.raw_json_token()))));
                }
            }
            break;
        }
        case sj::json_type::string: {
            std::string_view s;
            if (!stringOf(val, s))
                failJson(simdjson::STRING_ERROR, "expected a valid JSON string");
            m_out.args.push_back(Arg::makeString(k, m_out.strings.intern(s)));
            break;
        }
        case sj::json_type::boolean: {
            bool b = false;
            if (val.get_bool().get(b))
                failJson(simdjson::INCORRECT_TYPE, "expected true or false");
            m_out.args.push_back(Arg::makeBool(k, b));
            break;
        }
        case sj::json_type::null:
            m_out.args.push_back(Arg::makeNull(k));
            break;
        case sj::json_type::object: {
            sj::object o;
            std::string_view raw;
            if (val.get_object().get(o) || o.raw_json().get(raw))
                failJson(simdjson::TAPE_ERROR, "expected a JSON object");
            m_out.args.push_back(Arg::makeJson(k, m_out.strings.intern(trim(raw))));
            break;
        }
        case sj::json_type::array: {
            sj::array a;
            std::string_view raw;
            if (val.get_array().get(a) || a.raw_json().get(raw))
                failJson(simdjson::TAPE_ERROR, "expected a JSON array");
            m_out.args.push_back(Arg::makeJson(k, m_out.strings.intern(trim(raw))));
            break;
        }
        }
    }
}

void ChromeWindowParser::countPhase(std::string_view ph)
{
    if (ph.size() == 1)
        ++m_out.phaseCounts[uint8_t(ph[0])];
    else
        ++m_out.otherPhases[std::string(ph)];
}

bool ChromeWindowParser::readEvent(sj::object obj, uint64_t offset)
{
    ChromeEvent e;
    e.offset = offset;
    bool hasPhase = false;
    bool anyField = false;
    m_numericString = false;
    for (auto fr : obj) {
        anyField = true;
        if (auto ferr = fr.error())
            failJson(ferr, "expected a field of a trace event (\"name\": value)");
        sj::field &&f = std::move(fr).value_unsafe(); // in place: a copy of the field stalls on its own stores
        bool escaped = false;
        const std::string_view key = rawKey(f, escaped);
        if (escaped || key.empty())
            continue;
        sj::value &v = f.value(); // a reference: a copy stalls on the stores that just made it
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
                    warn("ts values that are not numbers (event kept without time)", offset);
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
                    e.name = m_out.strings.intern(s);
                } else {
                    e.name = m_out.strings.intern(trim(v.raw_json_token()));
                }
            }
            break;
        case 'c':
            if (key == "cat" && stringOf(v, s)) {
                e.category = m_out.strings.intern(s);
                if (m_out.categoryCounts.size() <= e.category.value)
                    m_out.categoryCounts.resize(e.category.value + 64, 0);
                ++m_out.categoryCounts[e.category.value];
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
        ++m_out.otherPhases[""];
    e.empty = !anyField;
    if (m_numericString && !m_out.numericStrings++) {
        m_out.firstNumericString = offset;
        // in place among the warnings, so the diagnostics come in file order however the text is windowed
        m_out.warnings.push_back({uint32_t(m_out.events.size()), ChromeTraceAssembler::kNumericStrings, offset, true});
    }
    m_out.events.push_back(e);
    m_out.argsEnd.push_back(uint32_t(m_out.args.size()));
    m_out.stringsEnd.push_back(uint32_t(m_out.strings.size()));
    return hasPhase;
}

void ChromeWindowParser::readEvents(sj::array events)
{
    for (auto er : events) {
        sj::value v;
        if (auto ferr = std::move(er).get(v))
            failJson(ferr, "expected a trace event object or ']'");
        ++m_out.elements;
        if ((m_out.elements & 0xffff) == 0)
            if (m_options.cancelled())
                throw LoadCancelled();
        sj::object obj;
        const auto err = v.get_object().get(obj);
        if (err == simdjson::INCORRECT_TYPE) {
            warn("array elements that are not event objects skipped", location());
            continue;
        }
        if (err)
            failJson(err, "expected a trace event object");
        ++m_out.objects;
        readEvent(obj, position(0));
    }
}

} // namespace

ChromeWindowEvents ChromeWindowReader::read(JsonWindow &window, const std::string &name, const LoadOptions &options,
                                            sj::parser *reuse)
{
    ChromeWindowEvents out;
    read(window, name, options, reuse, out);
    return out;
}

void ChromeWindowReader::read(JsonWindow &window, const std::string &name, const LoadOptions &options, sj::parser *reuse,
                              ChromeWindowEvents &out)
{
    out.reset();
    try {
        ChromeWindowParser parser(window, name, options, out, reuse);
        parser.run();
    } catch (...) {
        out.error = std::current_exception();
    }
}

} // namespace lanescope
