// JsonWindowSplitter: windows end only between elements of the event array, whatever the bytes around
// a block boundary are (inside a string, right after a backslash, inside a multi-byte character), the
// object form finds only the top-level "traceEvents", and offsets are file offsets (past 4 GiB too).
#include "io/input/importerror.h"
#include "io/input/inputstream.h"
#include "io/json/jsonwindowsplitter.h"

#include "jsonquote.h"

#include <QTest>

#include <string>
#include <vector>

using namespace lanescope;
using lanescope::test::q;

namespace {

struct Split
{
    JsonWindowSplitter::Shape shape;
    std::string prefix;
    std::vector<std::string> windows; // the text of each window
    std::vector<uint64_t> offsets;
    bool terminated = false;
    uint64_t arrayEnd = 0;
    uint64_t textSize = 0;
    std::string suffix;
};

Split split(const std::string &text, size_t windowBytes, size_t blockBytes, uint64_t startOffset = 0)
{
    LoadOptions options;
    InputStream in(text, "t.json", options, blockBytes, startOffset);
    JsonWindowSplitter s(in, "traceEvents", windowBytes, uint64_t(1) << 30);
    Split out;
    out.shape = s.start();
    out.prefix = s.prefix();
    JsonWindow w;
    while (s.next(w)) {
        out.windows.emplace_back(w.text.view());
        out.offsets.push_back(w.offset);
    }
    out.terminated = s.terminated();
    out.arrayEnd = s.arrayEnd();
    out.textSize = s.textSize();
    out.suffix = s.suffix();
    return out;
}

// Elements whose bytes would fool a scanner that did not track strings and escapes.
const std::vector<std::string> kElements = {
    q("{'name': 'a,b]c}', 'ph': 'X'}"),
    q("{'name': 'quote \\' inside, ]', 'args': {'k': [1, 2, {'x': '}'}]}}"),
    q("{'name': 'ends in backslash \\\\', 'ph': 'i'}"),
    q("{'name': 'two \\\\\\' escapes, [', 'ph': 'i'}"),
    "{\"name\": \"caf\xC3\xA9 \xF0\x9D\x84\x9E, ] multi-byte\", \"ph\": \"X\"}",
    q("[1, 2, 3]"),
    q("'a string element, with ] and {'"),
    q("{'name': '\\u005D unicode escape', 'ph': 'X'}"),
};

std::string joined(const std::string &sep)
{
    std::string s;
    for (size_t i = 0; i < kElements.size(); ++i)
        s += (i ? sep : "") + kElements[i];
    return s;
}

} // namespace

class TestJsonWindowSplitter : public QObject
{
    Q_OBJECT
private slots:
    // Every element its own window (window size 1), with the input handed over in blocks of every size
    // from 1 byte up: block boundaries land inside strings, after backslashes and inside UTF-8
    // sequences, and the windows are always the same.
    void elementsNeverSplitAtAnyBlockBoundary()
    {
        const std::string text = "[" + joined(",\n ") + "]\n";
        for (size_t block = 1; block <= text.size(); ++block) {
            const Split s = split(text, 1, block);
            QCOMPARE(int(s.shape), int(JsonWindowSplitter::Shape::Array));
            QCOMPARE(s.windows.size(), kElements.size());
            for (size_t i = 0; i < kElements.size(); ++i) {
                const std::string &w = s.windows[i];
                // "[" + leading whitespace + element + "]"
                QCOMPARE(w.front(), '[');
                QCOMPARE(w.back(), ']');
                const std::string inner = w.substr(1, w.size() - 2);
                QCOMPARE(QString::fromStdString(std::string(inner.substr(inner.find_first_not_of(" \n")))),
                         QString::fromStdString(kElements[i]));
                // The window's inner bytes are the file's bytes at offset + 1.
                QCOMPARE(QByteArray::fromStdString(text.substr(size_t(s.offsets[i]) + 1, inner.size())), QByteArray::fromStdString(inner));
                // the '[' stands for the array's '[' or the ',' before the element
                QVERIFY(text[size_t(s.offsets[i])] == '[' || text[size_t(s.offsets[i])] == ',');
            }
            QVERIFY(s.terminated);
            QCOMPARE(s.arrayEnd, uint64_t(text.rfind(']')));
            QCOMPARE(s.suffix, std::string("\n"));
        }
    }

    // Larger windows hold several elements and end at the first boundary past the size.
    void windowsGatherElementsUpToTheSize()
    {
        const std::string text = "[" + joined(",") + "]";
        const Split s = split(text, 100, 7);
        QVERIFY(s.windows.size() > 1);
        QVERIFY(s.windows.size() < kElements.size());
        std::string inner;
        for (size_t i = 0; i < s.windows.size(); ++i) {
            const std::string &w = s.windows[i];
            if (i + 1 < s.windows.size())
                QVERIFY(w.size() - 2 >= 100);
            inner += (i ? "," : "") + w.substr(1, w.size() - 2);
        }
        QCOMPARE(inner, joined(","));
    }

    // Object form: only the top-level key counts, not "traceEvents" as a nested key or a string value.
    void objectFormFindsTheTopLevelKey()
    {
        const std::string head = q("{'meta': {'traceEvents': [1]}, 'note': 'traceEvents', 'trace\\'Events': [2], 'traceEvents' : [");
        const std::string tail = q("], 'displayTimeUnit': 'ms', 'x': {'a': ']'}}");
        const std::string text = head + joined(",") + tail;
        for (size_t block : {size_t(1), size_t(5), size_t(64), text.size()}) {
            const Split s = split(text, 1, block);
            QCOMPARE(int(s.shape), int(JsonWindowSplitter::Shape::Object));
            QCOMPARE(s.prefix, head);
            QCOMPARE(s.windows.size(), kElements.size());
            QVERIFY(s.terminated);
            QCOMPARE(s.arrayEnd, uint64_t(head.size() + joined(",").size()));
            QCOMPARE(s.suffix, tail.substr(1));
        }
    }

    void noEventArrayIsOther()
    {
        const std::string text = q("{'traceEvents': 5, 'other': [1, 2]}");
        const Split s = split(text, 1, 3);
        QCOMPARE(int(s.shape), int(JsonWindowSplitter::Shape::Other));
        QCOMPARE(s.prefix, text);
        QVERIFY(s.windows.empty());
    }

    // An unterminated bare array (older exporters) with a trailing comma: the last window ends at the
    // last element, arrayEnd is the end of the text.
    void unterminatedArray()
    {
        const std::string text = "[{\"ph\": \"X\"},\n{\"ph\": \"i\"},\n  ";
        const Split s = split(text, 1, 4);
        QVERIFY(!s.terminated);
        QCOMPARE(s.windows.size(), size_t(2));
        QCOMPARE(s.windows[1], std::string("[\n{\"ph\": \"i\"}]"));
        QCOMPARE(s.arrayEnd, uint64_t(text.find_last_not_of(" \n") + 1));
    }

    // A ',' with no element before it ends no window, at any window or block size: alone such a window
    // parsed as "[]" and hid the stray ',' (fuzz_jsonwindows); after an element it would read as a
    // trailing comma. It stays with the next element, so the parser sees it as in one piece.
    void strayCommaEndsNoWindow()
    {
        const std::string a = q("{'ph': 'X', 'name': ', ,'}"), b = q("{'ph': 'i'}");
        for (const std::string &text : {"[\n , " + a + ", " + b + "]", "[" + a + ", , " + b + "]", "[" + a + ",\n,\n" + b + "]",
                                        "[" + a + ",, ," + b + "]"})
            for (size_t window : {size_t(1), size_t(2), size_t(5), size_t(40)})
                for (size_t block : {size_t(1), size_t(3), size_t(0)}) {
                    const Split s = split(text, window, block);
                    QVERIFY(s.terminated);
                    std::string joinedContent;
                    for (size_t w = 0; w < s.windows.size(); ++w) {
                        const std::string &v = s.windows[w];
                        const std::string inner = v.substr(1, v.size() - 2);
                        const size_t last = inner.find_last_not_of(" \n");
                        QVERIFY2(last != std::string::npos && inner[last] != ',',
                                 qPrintable(QStringLiteral("window %1 of %2 (size %3, block %4): %5")
                                                .arg(w).arg(s.windows.size()).arg(window).arg(block).arg(QString::fromStdString(v))));
                        joinedContent += (w ? "," : "") + inner;
                    }
                    // The windows still hold the whole array between its brackets, in order.
                    QCOMPARE(joinedContent, text.substr(1, text.size() - 2));
                }
    }

    // At the end of an unterminated array, a trailing ',' is dropped but a stray one (no element since the
    // ',' before it) stays in the last window, at any window or block size, also when the element after
    // it is cut off: dropped, small windows read ", ," as one trailing comma and loaded what the whole
    // text's parse rejects (fuzz_jsonwindows; tests/data/fuzz-regressions/fuzz_jsonwindows/).
    void strayLastCommaStaysInTheLastWindow()
    {
        const std::string a = q("{'ph': 'X', 'name': 'a'}");
        for (const std::string &text : {"[" + a + ",\n  , ", "[" + a + ",\n  , " + q("{'tid':s': 10}"), std::string("[ ,\n"),
                                        "[" + a + ", ,, " + q("{'ph")})
            for (size_t window : {size_t(1), size_t(2), size_t(5), size_t(4096)})
                for (size_t block : {size_t(1), size_t(3), size_t(0)}) {
                    const Split s = split(text, window, block);
                    QVERIFY(!s.terminated);
                    QVERIFY(!s.windows.empty());
                    const std::string &last = s.windows.back();
                    const size_t end = last.find_last_not_of(" \n", last.size() - 2);
                    QVERIFY2(end != std::string::npos && last[end] == ',',
                             qPrintable(QStringLiteral("%1 (window %2, block %3): last window %4")
                                            .arg(QString::fromStdString(text)).arg(window).arg(block).arg(QString::fromStdString(last))));
                }
    }

    // A backslash before a quote outside any string (invalid JSON) is read the same way by the 64-byte
    // block scan and the byte scan: the quote opens no string. They disagreed, so the same text was cut
    // into other windows when it came in small blocks, and an unterminated file lost a different last
    // element (fuzz_jsonwindows; tests/data/fuzz-regressions/fuzz_jsonwindows/).
    void backslashQuoteOutsideStringsSplitsAlike()
    {
        const std::string pad(70, 'p');
        const std::string text = "[" + q("{'a': '") + pad + q("'},\n {'b': 1, \\'c': 'x, y', 'd': '") + pad + q("'},\n {'e': '")
            + pad + q("'}, {'f': 2}]");
        QVERIFY(text.find("\\\"c\"") != std::string::npos); // \"c" outside a string
        for (size_t window : {size_t(1), size_t(100), size_t(4096)}) {
            const Split whole = split(text, window, 0); // every 64 bytes through the block scan
            for (size_t block : {size_t(1), size_t(2), size_t(7), size_t(64)}) {
                const Split s = split(text, window, block);
                QCOMPARE(s.windows, whole.windows);
                QCOMPARE(s.terminated, whole.terminated);
            }
        }
    }

    // An unterminated array stands for the same text at every window size: up to its last element and
    // the ']' the reader adds in place of the ',' after it, also when an earlier window ended at that ','
    // (it counted one byte more: fuzz_jsonwindows).
    void unterminatedTextSizeAtEveryWindowSize()
    {
        const std::string a = q("{'ph': 'X', 'name': 'a'}"), b = q("{'ph': 'i', 'name': 'b'}");
        for (const std::string &text : {"[" + a + ",\n" + b + ",\n  ", "[" + a + ",\n" + b + ",\n  {'ph': 'X', 'na",
                                        "[" + a + ",\n" + b + "\n"})
            for (size_t window : {size_t(1), size_t(2), size_t(30), size_t(4096)})
                for (size_t block : {size_t(1), size_t(0)}) {
                    const Split s = split(text, window, block);
                    QVERIFY(!s.terminated);
                    const size_t lastClose = text.rfind('}');
                    // through the last element's '}' and one byte for the ']' (standing at the ',' after it)
                    QCOMPARE(s.textSize, uint64_t(lastClose + 2));
                }
    }

    // A trailing comma before ']' stays visible to the parser (the ',' goes back into the window).
    void trailingCommaKept()
    {
        const std::string text = "[{\"a\": 1}, ]";
        const Split s = split(text, 1, 2);
        QCOMPARE(s.windows.back(), std::string("[, ]"));
        QCOMPARE(s.offsets.back(), uint64_t(text.find(',') - 1));
    }

    // Offsets are 64-bit: the same text placed 5 GiB into a file gives the same windows 5 GiB further on.
    void offsetsPast4GiB()
    {
        const std::string text = "[" + joined(",") + "]";
        constexpr uint64_t base = uint64_t(5) << 30;
        const Split a = split(text, 1, 9), b = split(text, 1, 9, base);
        QCOMPARE(a.windows, b.windows);
        for (size_t i = 0; i < a.offsets.size(); ++i)
            QCOMPARE(b.offsets[i], a.offsets[i] + base);
        QCOMPARE(b.arrayEnd, a.arrayEnd + base);
        QVERIFY(b.arrayEnd > (uint64_t(1) << 32));
    }

    // A window far larger than the array: every block before the end is counted by popcount, and the
    // array's ']' is still found exactly where it is, whatever the bracket nesting that ends there and
    // wherever it falls in a 64-byte block; the windows joined are the array's elements.
    void arrayEndFoundInCountedBlocks()
    {
        for (int pad = 0; pad < 70; pad += 3) {
            const std::string head = q("{'meta': {'a': [1, {'b': 2}]}, 'traceEvents': [") + std::string(size_t(pad), ' ');
            const std::string elements = joined(",") + "," + q("{'deep': {'x': [[{'y': [1]}]]}}");
            const std::string text = head + elements + q("], 'after': {'z': [1]}}");
            for (size_t block : {size_t(64), size_t(1000), text.size()}) {
                const Split big = split(text, size_t(1) << 20, block);
                QCOMPARE(int(big.shape), int(JsonWindowSplitter::Shape::Object));
                QCOMPARE(big.windows.size(), size_t(1));
                QCOMPARE(big.windows[0], "[" + std::string(size_t(pad), ' ') + elements + "]"); // the blanks after '[' go with it
                QVERIFY(big.terminated);
                QCOMPARE(big.arrayEnd, uint64_t(head.size() + elements.size()));
                QCOMPARE(big.suffix, q(", 'after': {'z': [1]}}"));
            }
        }
    }

    // One element that never ends (whitespace bomb, damaged file) is a clear error naming the budget.
    void oversizedElementIsAnError()
    {
        std::string text = "[{\"a\": \"" + std::string(4096, 'x');
        LoadOptions options;
        InputStream in(text, "big.json", options, 100);
        JsonWindowSplitter s(in, "traceEvents", 1, 1000);
        QCOMPARE(int(s.start()), int(JsonWindowSplitter::Shape::Array));
        JsonWindow w;
        try {
            s.next(w);
            QFAIL("no error");
        } catch (const ImportError &e) {
            QVERIFY2(std::string(e.what()).find("memory budget") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("big.json: at byte 1") != std::string::npos, e.what());
        }
    }

    // The same when the elements before it were counted in 64-byte blocks (a window far larger than
    // them): the error still names the first byte of the element that is too large, at every block size.
    void oversizedElementAfterCountedBlocks()
    {
        std::string small;
        for (int i = 0; i < 40; ++i)
            small += std::string(small.empty() ? "" : ",") + "{\"a\": [1, {\"b\": \"],}\"}], \"c\": \"" + std::string(100, 'y') + "\"}";
        const std::string text = "[" + small + ",{\"a\": \"" + std::string(4096, 'x');
        const uint64_t bigAt = text.find(",{\"a\": \"x") + 1;
        for (size_t block : {size_t(64), size_t(100), size_t(4096), text.size()}) {
            LoadOptions options;
            InputStream in(text, "big.json", options, block);
            JsonWindowSplitter s(in, "traceEvents", size_t(1) << 20, 1000);
            QCOMPARE(int(s.start()), int(JsonWindowSplitter::Shape::Array));
            JsonWindow w;
            try {
                s.next(w);
                QFAIL("no error");
            } catch (const ImportError &e) {
                const std::string want = "big.json: at byte " + std::to_string(bigAt) + ":";
                QVERIFY2(std::string(e.what()).find(want) != std::string::npos, e.what());
            }
        }
    }

    // Several keys: every top-level array of one of them, in file order, keys repeated and in any
    // order; each window names its key, the first of each later array carries the text before it,
    // and nested or quoted keys do not count. Offsets stay file offsets at every block size.
    void severalKeysInAnyOrder()
    {
        const std::string head = q("{'a': {'x': [0]}, 'note': 'x', 'x': [");
        const std::string lead1 = q("], 'b': {'z': [9]}, 'c': ']', 'z' : [");
        const std::string lead2 = q("], 'x': [");
        const std::string tail = q("], 'd': 2}");
        const std::string text = head + joined(",") + lead1 + q("4, 'five'") + lead2 + " " + tail;
        for (size_t block : {size_t(1), size_t(7), size_t(64), text.size()}) {
            LoadOptions options;
            InputStream in(text, "t.json", options, block, 1000);
            JsonWindowSplitter s(in, std::vector<std::string>{"x", "z"}, 1, uint64_t(1) << 30);
            QCOMPARE(int(s.start()), int(JsonWindowSplitter::Shape::Object));
            QCOMPARE(s.prefix(), head);
            std::vector<std::string> texts, leads;
            std::vector<uint32_t> keys;
            JsonWindow w;
            while (s.next(w)) {
                texts.emplace_back(w.text.view());
                keys.push_back(w.key);
                if (!w.lead.empty()) {
                    leads.push_back(w.lead);
                    QCOMPARE(text.substr(size_t(w.leadOffset - 1000), w.lead.size()), w.lead);
                }
                // the window's bytes after its '[' are the file's at its offset + 1
                const std::string_view inner = w.text.view().substr(1, w.text.size() - 2);
                QCOMPARE(std::string_view(text).substr(size_t(w.offset + 1 - 1000), inner.size()), inner);
            }
            QCOMPARE(texts.size(), kElements.size() + 2 + 1);
            QCOMPARE(std::vector<uint32_t>(keys.begin() + long(kElements.size()), keys.end()), (std::vector<uint32_t>{1, 1, 0}));
            QCOMPARE(texts[kElements.size()], std::string("[4]"));
            QCOMPARE(texts.back(), std::string("[ ]"));
            QCOMPARE(leads, (std::vector<std::string>{lead1, lead2}));
            QVERIFY(s.terminated());
            QCOMPARE(s.arrayEnd(), uint64_t(1000 + text.size() - tail.size()));
            QCOMPARE(s.suffix(), tail.substr(1));
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonWindowSplitter)
#include "tst_jsonwindowsplitter.moc"
