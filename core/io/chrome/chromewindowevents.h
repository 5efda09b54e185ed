#pragma once
// What one window of a Chrome/Kineto event array parses to, before it joins the trace: the events
// with window-local string ids, their args, the warnings met (each placed before the event it
// precedes) and the counts. Windows are parsed in parallel into these and merged in file order by
// ChromeWindowMerger, which replays them exactly as one reader going through the file would have.
#include "chromeevent.h"
#include "model/argstore.h"
#include "model/stringpool.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <exception>
#include <map>
#include <string>
#include <vector>

namespace lanescope {

struct ChromeWindowEvents
{
    struct Warning
    {
        uint32_t beforeEvent; // replayed before events[beforeEvent] (== events.size(): after the last)
        const char *message;
        uint64_t offset;      // file offset
        bool note = false;    // a note, not a warning
    };

    StringPool strings;              // window-local ids, in the order first met
    std::vector<ChromeEvent> events; // name, category, pid / tid texts: local ids
    std::vector<Arg> args;           // every event's args, keys and string values: local ids
    std::vector<uint32_t> argsEnd;   // per event: end of its args in `args`
    std::vector<uint32_t> stringsEnd; // per event: local strings first met up to and including it
    std::vector<Warning> warnings;   // in the order met
    uint64_t elements = 0;           // array elements
    uint64_t objects = 0;            // of them event objects
    uint64_t phaseCounts[256] = {};
    std::map<std::string, uint64_t> otherPhases;
    std::vector<uint64_t> categoryCounts; // by local StringId
    uint64_t textBytes = 0;          // size of the window's text (progress)
    uint64_t numericStrings = 0;     // events with ts, dur, pid, tid or id written as a numeric string
    uint64_t firstNumericString = 0; // file offset of the first (also replayed in place, as a note)
    std::exception_ptr error;        // the parse failed here (thrown when merged, in file order)

    // Empty again, keeping the vectors' memory for the next window.
    void reset()
    {
        strings.clear();
        events.clear();
        args.clear();
        argsEnd.clear();
        stringsEnd.clear();
        warnings.clear();
        elements = objects = textBytes = numericStrings = firstNumericString = 0;
        std::fill(std::begin(phaseCounts), std::end(phaseCounts), 0);
        otherPhases.clear();
        categoryCounts.clear();
        error = nullptr;
    }
};

} // namespace lanescope
