#include "jsonobjectpieces.h"

#include "io/input/importerror.h"
#include "io/input/inputstream.h"
#include "io/input/memorybudget.h"
#include "jsonwindowsplitter.h"
#include "model/diagnostics.h"
#include "jsontextscan.h"
#include "util/textutil.h"

#include <algorithm>

namespace lanescope {

namespace {

// "{" + text after the ']' with the ',' that continues the object made a space. Anything else is
// left for the piece's reader to name, as it names it in the whole text.
std::string continued(std::string_view rest)
{
    std::string out = "{" + std::string(rest);
    const size_t c = out.find_first_not_of(" \t\r\n", 1);
    if (c != std::string::npos && out[c] == ',')
        out[c] = ' ';
    return out;
}

} // namespace

InputBuffer JsonObjectPieces::before(std::string_view prefix)
{
    return InputBuffer::ofText({prefix, "]}"});
}

InputBuffer JsonObjectPieces::between(std::string_view lead)
{
    return InputBuffer::ofText({continued(lead.substr(1)), "]}"});
}

InputBuffer JsonObjectPieces::after(std::string_view suffix)
{
    return InputBuffer::ofText({continued(suffix)});
}

uint64_t JsonObjectPieces::firstByte(std::string_view prefix, uint64_t prefixOffset)
{
    size_t first = prefix.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (first < prefix.size() && text::isSpace(prefix[first]))
        ++first;
    return prefixOffset + first;
}

void JsonObjectPieces::reportCut(const JsonWindowSplitter &splitter, Diagnostics &diagnostics, std::string_view array, const char *rows)
{
    const uint64_t cut = splitter.cutElementAt();
    std::string where = "byte " + std::to_string(splitter.inputEnd());
    if (cut)
        where += " (the cut " + std::string(rows) + " starts at byte " + std::to_string(cut) + ")";
    if (!splitter.endsEarly().empty())
        where += "; " + splitter.endsEarly();
    const std::string name = array.empty() ? "the \"" + std::string(splitter.arrayKey()) + "\" array" : std::string(array);
    diagnostics.warn("the file ends inside " + name + " (truncated: a cut or partial file): every " + rows +
                         " before the cut is loaded, the rest of the file is missing",
                     where);
}

void JsonObjectPieces::requireModel(uint64_t modelBytes, uint64_t budget, const std::string &name, uint64_t offset, uint64_t records)
{
    if (modelBytes > budget)
        throw ImportError(name, offset,
                          "the profile grows past the memory budget of " + MemoryBudget::format(budget) + " (" +
                              MemoryBudget::format(modelBytes) + " after " + std::to_string(records) + " records; " +
                              MemoryBudget::hint() + ")");
}

size_t JsonObjectPieces::windowBytes(const InputStream &input, const LoadOptions &options)
{
    const uint64_t bySize = std::max<uint64_t>(input.compressedSize() / 32, uint64_t(1) << 20);
    return size_t(std::min<uint64_t>({options.jsonWindowBytes, bySize, std::max<uint64_t>(options.memoryBudget / 8, 1)}));
}

void JsonObjectPieces::progress(const InputStream &input, uint64_t mergedTo, const LoadOptions &options, int from, int span)
{
    if (options.cancelled())
        throw LoadCancelled();
    if (!options.progress || !input.compressedSize())
        return;
    const uint64_t done = input.compression() == Compression::None ? mergedTo : input.compressedPosition();
    options.report(from + int(uint64_t(span) * std::min(done, input.compressedSize()) / input.compressedSize()));
}

} // namespace lanescope
