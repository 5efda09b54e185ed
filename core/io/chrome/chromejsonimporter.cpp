#include "chromejsonimporter.h"

#include "chrometraceassembler.h"
#include "chromewindowmerger.h"
#include "chromewindowreader.h"
#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/json/jsonreaderbase.h"
#include "io/json/jsonobjectpieces.h"
#include "io/json/jsonwindowsplitter.h"
#include "io/json/windowpipeline.h"
#include "model/tracebuilder.h"
#include "util/textutil.h"

#include <simdjson.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

namespace lanescope {

namespace sj = simdjson::ondemand;

namespace {

constexpr size_t kMaxKeptMetadataBytes = 1 << 20;

using text::trim;

constexpr JsonReaderBase::Style kStyle{200, 700, "a string is never closed (unescaped quote or truncated file)",
                                       "a control character inside a string is not escaped (or a quote is missing)"};

// Reads a trace from a stream: the event array in windows (parsed on the cores, merged in file
// order), the top-level keys before and after it as small documents of their own.
class ChromeTraceReader
{
public:
    ChromeTraceReader(InputStream &input, const LoadOptions &options)
        : m_input(input), m_name(input.name()), m_options(options), m_assembler(m_b),
          m_merger(m_b, m_assembler, m_name, options.memoryBudget)
    {
        m_b.metadata().format = "chrome-json";
        m_b.metadata().sourcePath = m_name;
    }

    Trace run();

    // Called by TopLevel for the "traceEvents" array.
    void readWindows(JsonWindowSplitter &splitter);
    void readInline(std::string_view array, uint64_t offset);
    TraceBuilder &builder() { return m_b; }

private:
    void progress(uint64_t windowBytes);
    Trace finish(const JsonWindowSplitter &splitter);
    void reportUnterminated(const JsonWindowSplitter &splitter, bool inObject);

    InputStream &m_input;
    const std::string &m_name;
    const LoadOptions &m_options;
    TraceBuilder m_b;
    ChromeTraceAssembler m_assembler;
    ChromeWindowMerger m_merger;
    uint64_t m_merged = 0;
};

// One top-level object text: the part before the event array (ending in "[]}"), the part after it
// ("{" and the rest), or the whole input when the array could not be found by the splitter.
class TopLevel : JsonReaderBase
{
public:
    enum class Part { Before, After, Whole };

    TopLevel(InputBuffer &text, uint64_t offset, ChromeTraceReader &owner, const std::string &name, const LoadOptions &options)
        : JsonReaderBase(text, name, options, kStyle), m_owner(owner)
    {
        setTextOffset(offset);
    }

    // Returns whether a "traceEvents" array was read; `splitter` reads the windowed one (Before).
    bool read(Part part, JsonWindowSplitter *splitter);

private:
    void keepMetadata(std::string_view key, sj::value v);
    ChromeTraceReader &m_owner;
    std::string m_keysSeen;
};

bool TopLevel::read(Part part, JsonWindowSplitter *splitter)
{
    startDocument();
    sj::object top = topObject();
    bool sawEvents = false;
    for (auto fr : top) {
        sj::field f = fieldOf(std::move(fr), "expected a top-level key and value");
        const std::string_view key = keyOf(f);
        if (key == "traceEvents") {
            sj::array events;
            std::string_view raw;
            if (auto err = f.value().get_array().get(events))
                failJson(err, "expected \"traceEvents\" to be an array of events");
            if (auto err = events.raw_json().get(raw))
                failJson(err, "expected a trace event object or ']'");
            sawEvents = true;
            const size_t at = size_t(raw.data() - m_input.data());
            if (part == Part::Before && splitter && at + raw.size() + 1 == m_input.size())
                m_owner.readWindows(*splitter); // the "[]" standing for the windowed array
            else
                m_owner.readInline(raw, textOffset() + at);
        } else {
            if (m_keysSeen.size() < 200)
                m_keysSeen += (m_keysSeen.empty() ? "" : ", ") + std::string(key);
            keepMetadata(key, f.value());
        }
    }
    if (part == Part::Whole && !sawEvents)
        fail(textOffset() + firstByte(), "JSON object has no \"traceEvents\" array, so it is not a Chrome/Kineto trace (top-level keys: "
                                        + m_keysSeen + ")");
    return sawEvents;
}

void TopLevel::keepMetadata(std::string_view key, sj::value v)
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
            m_owner.builder().metadata().entries.emplace_back(std::string(key), "(" + std::to_string(raw.size()) + " bytes of system trace text, not imported)");
            m_owner.builder().diagnostics().warn("systemTraceEvents (ftrace text) not imported");
            return;
        }
        m_owner.builder().metadata().entries.emplace_back(std::string(key), std::string(raw.substr(0, kMaxKeptMetadataBytes)));
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
            m_owner.builder().metadata().synthetic = true;
        break;
    }
    raw = trim(raw);
    if (raw.size() > kMaxKeptMetadataBytes)
        m_owner.builder().metadata().entries.emplace_back(std::string(key), "(" + std::to_string(raw.size()) + " bytes, not kept)");
    else
        m_owner.builder().metadata().entries.emplace_back(std::string(key), std::string(raw));
}

void ChromeTraceReader::progress(uint64_t windowBytes)
{
    if (m_options.cancelled())
        throw LoadCancelled();
    m_merged += windowBytes;
    if (m_options.progress && m_input.compressedSize())
        m_options.report(int(900 * std::min(m_input.compressedPosition(), m_input.compressedSize()) / m_input.compressedSize()));
}

void ChromeTraceReader::readWindows(JsonWindowSplitter &splitter)
{
    const std::string &name = m_name;
    const LoadOptions &options = m_options;
    std::vector<sj::parser> parsers(std::max(1u, m_options.jsonThreads));
    // Merged windows' events go back to the parsing threads: their vectors are reused, not faulted in anew.
    std::mutex spareMutex;
    std::vector<ChromeWindowEvents> spare;
    parseWindowsInOrder(
        splitter, m_options.jsonThreads,
        [&](JsonWindow &w, unsigned worker) {
            ChromeWindowEvents events;
            {
                std::lock_guard lock(spareMutex);
                if (!spare.empty()) {
                    events = std::move(spare.back());
                    spare.pop_back();
                }
            }
            ChromeWindowReader::read(w, name, options, &parsers[worker], events);
            return events;
        },
        [&](ChromeWindowEvents &events) {
            m_merger.merge(events);
            progress(events.textBytes);
            std::lock_guard lock(spareMutex);
            spare.push_back(std::move(events));
        });
}

void ChromeTraceReader::readInline(std::string_view array, uint64_t offset)
{
    JsonWindow w{InputBuffer::ofText({array}), offset, 0, 0};
    ChromeWindowEvents events = ChromeWindowReader::read(w, m_name, m_options);
    m_merger.merge(events);
}

Trace ChromeTraceReader::run()
{
    // A window's text and its parse index (about twice the text) stay well inside the budget.
    const size_t windowBytes = size_t(std::min<uint64_t>(m_options.jsonWindowBytes, std::max<uint64_t>(m_options.memoryBudget / 8, 1)));
    JsonWindowSplitter splitter(m_input, "traceEvents", windowBytes, m_options.memoryBudget / 4);
    // Reserve from the input size (Kineto: 190-320 bytes per event, ~4 args per event; compressed
    // JSON inflates about 8x): growth by doubling would copy and fault the pages twice. Unused
    // reservations are never touched.
    const uint64_t expected = m_input.compressedSize() * (m_input.compression() == Compression::None ? 1 : 8);
    m_b.reserveSlices(size_t(expected / 180));
    m_b.reserveArgs(size_t(expected / 50), size_t(expected / 180));

    const JsonWindowSplitter::Shape shape = splitter.start();
    const std::string &prefix = splitter.prefix();
    if (shape == JsonWindowSplitter::Shape::Other) {
        InputBuffer whole = InputBuffer::ofText({prefix});
        TopLevel top(whole, splitter.prefixOffset(), *this, m_name, m_options);
        size_t first = prefix.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
        while (first < prefix.size() && text::isSpace(prefix[first]))
            ++first;
        if (first >= prefix.size())
            throw ImportError(m_name, 0, "file is empty; expected a Chrome/Kineto trace (a JSON object with \"traceEvents\" or an array of events)");
        if (prefix[first] != '{')
            throw ImportError(m_name, splitter.prefixOffset() + first, "expected '{' or '[' at the start of a Chrome/Kineto trace");
        top.read(TopLevel::Part::Whole, nullptr);
    } else if (shape == JsonWindowSplitter::Shape::Array) {
        readWindows(splitter);
        if (!splitter.terminated())
            reportUnterminated(splitter, false);
        if (m_merger.elements() > 0 && m_merger.objects() == 0)
            throw ImportError(m_name, splitter.prefixOffset() + prefix.size() - 1,
                              "this JSON array holds no event objects; it is not a Chrome/Kineto trace (expected objects with \"ph\", \"ts\", ...)");
    } else {
        InputBuffer before = InputBuffer::ofText({prefix, "]}"});
        TopLevel(before, splitter.prefixOffset(), *this, m_name, m_options).read(TopLevel::Part::Before, &splitter);
        if (!splitter.terminated()) {
            reportUnterminated(splitter, true);
            return finish(splitter);
        }
        // The rest of the object: "{" in place of the array's ']', its leading ',' made a space.
        std::string after = "{" + splitter.suffix();
        const size_t comma = after.find_first_not_of(" \t\r\n", 1);
        if (comma != std::string::npos && after[comma] == ',')
            after[comma] = ' ';
        else if (comma == std::string::npos || after[comma] != '}')
            throw ImportError(m_name, splitter.arrayEnd() + (comma == std::string::npos ? after.size() : comma),
                              "expected ',' or '}' after the \"traceEvents\" array");
        InputBuffer rest = InputBuffer::ofText({after});
        TopLevel(rest, splitter.arrayEnd(), *this, m_name, m_options).read(TopLevel::Part::After, nullptr);
    }
    return finish(splitter);
}

Trace ChromeTraceReader::finish(const JsonWindowSplitter &splitter)
{
    m_assembler.finish();
    m_merger.finishStats(splitter.textSize());
    m_options.report(950);
    Trace t = m_b.finish();
    m_options.report(1000);
    return t;
}

// The input ends inside the event array. A bare array may end so by design (the format makes the
// closing ']' optional, so that a crashing program's trace still loads): a note. An event cut off, or
// a "traceEvents" object without its end, is a cut file (a crashed export, a partial copy): one
// warning, every event before the cut loaded.
void ChromeTraceReader::reportUnterminated(const JsonWindowSplitter &splitter, bool inObject)
{
    if (!inObject && !splitter.cutElementAt() && splitter.endsEarly().empty())
        return m_b.diagnostics().noteAtByte("array of events is not terminated (accepted: the format makes the closing ']' optional)",
                                            splitter.arrayEnd());
    if (m_merger.elements() == 0) // nothing to show: as unreadable as a file cut before its events
        throw ImportError(m_name, splitter.inputEnd(),
                          "unexpected end of file inside the first event (truncated file?); expected a complete trace event");
    JsonObjectPieces::reportCut(splitter, m_b.diagnostics(), inObject ? "" : "the array of events", "event");
}

} // namespace

Trace ChromeJsonImporter::import(InputBuffer &input, const std::string &name, const LoadOptions &options)
{
    InputStream stream(input.view(), name, options);
    return importStream(stream, options);
}

Trace ChromeJsonImporter::importStream(InputStream &input, const LoadOptions &options)
{
    ChromeTraceReader reader(input, options);
    return reader.run();
}

} // namespace lanescope
