// JsonReaderBase (core/io/json/jsonreaderbase.h): the error positions and messages, progress and cancel
// every JSON reader shares, through a minimal reader that walks an array of objects.
#include "io/input/inputbuffer.h"
#include "io/json/jsonreaderbase.h"

#include <QtTest>

#include <atomic>
#include <vector>

using namespace lanescope;

namespace {

namespace sj = simdjson::ondemand;

// Reads `[{"k": value, ...}, ...]`, reporting progress per element, and records the keys it saw.
class ArrayReader : JsonReaderBase
{
public:
    ArrayReader(InputBuffer &input, const LoadOptions &options, const Style &style = {})
        : JsonReaderBase(input, fileName(), options, style)
    {
    }

    std::vector<std::string> run()
    {
        if (firstByte() >= m_input.size())
            fail(0, "file is empty");
        startDocument();
        sj::array rows;
        if (auto err = m_doc.get_array().get(rows))
            failJson(err, "expected an array");
        std::vector<std::string> keys;
        for (auto rr : rows) {
            sj::value row;
            if (auto err = std::move(rr).get(row))
                failJson(err, "expected a row or ']'");
            progress();
            sj::object obj;
            if (auto err = row.get_object().get(obj))
                failJson(err, "expected a row object");
            for (auto fr : obj) {
                sj::field f;
                if (auto err = std::move(fr).get(f))
                    failJson(err, "expected a field");
                keys.emplace_back(keyOf(f));
                std::string_view text;
                if (numberOrStringText(f.value(), text))
                    keys.back() += "=" + std::string(text);
            }
        }
        return keys;
    }

    uint64_t firstByteOf() const { return firstByte(); }

private:
    static const std::string &fileName()
    {
        static const std::string name = "t.json";
        return name;
    }
};

struct Outcome
{
    std::string problem;
    uint64_t offset = 0;
    bool hasOffset = false;
};

Outcome failureOf(const std::string &json, const JsonReaderBase::Style &style = {})
{
    LoadOptions options;
    InputBuffer input = InputBuffer::fromBytes(json, "t.json", options);
    try {
        ArrayReader(input, options, style).run();
    } catch (const ImportError &e) {
        return {e.problem(), e.offset(), e.hasOffset()};
    }
    return {};
}

} // namespace

class TstJsonReaderBase : public QObject
{
    Q_OBJECT
private slots:
    void readsKeysAndScalars()
    {
        LoadOptions options;
        InputBuffer bom = InputBuffer::fromBytes("\xEF\xBB\xBF \n[]", "t.json", options);
        QCOMPARE(ArrayReader(bom, options).firstByteOf(), uint64_t(5)); // after the byte order mark and spaces
        InputBuffer input = InputBuffer::fromBytes("  [{\"a\": 12 , \"b\\u0063\": \"x\"}, {\"c\": null}]", "t.json", options);
        ArrayReader r(input, options);
        QCOMPARE(r.firstByteOf(), uint64_t(2));
        const std::vector<std::string> keys = r.run();
        QCOMPARE(keys, (std::vector<std::string>{"a=12 ", "bc=x", "c"})); // number tokens as written
    }

    // A file that starts with a UTF-8 byte order mark parses like one without it, and an error after
    // the mark is placed at its offset in the file (the mark counted).
    void byteOrderMarkIsSkipped()
    {
        LoadOptions options;
        InputBuffer input = InputBuffer::fromBytes("\xEF\xBB\xBF[{\"a\": 1}]", "t.json", options);
        QCOMPARE(ArrayReader(input, options).run(), (std::vector<std::string>{"a=1"}));
        const Outcome o = failureOf("\xEF\xBB\xBF[{\"a\": 1}, 7]");
        QVERIFY2(o.problem.rfind("invalid JSON (", 0) == 0, o.problem.c_str());
        QCOMPARE(o.offset, uint64_t(14));
    }

    void errorPositions_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<qulonglong>("offset");
        QTest::addColumn<QString>("problemStart");
        QTest::newRow("unclosed string") << QByteArray("[{\"a\": 1}, {\"b") << 12ull
                                         << "a string is never closed (truncated file?); expected";
        QTest::newRow("invalid utf-8") << QByteArray("[{\"a\": \"x\xff\"}]") << 9ull << "invalid UTF-8 in the JSON text; ";
        QTest::newRow("control character") << QByteArray("[{\"a\": \"x\ty\"}]") << 9ull
                                           << "a control character inside a string is not escaped (or a quote is missing); ";
        QTest::newRow("truncated") << QByteArray("[{\"a\": 1}, {\"b\": 2") << 18ull << "unexpected end of file (truncated file?); ";
        QTest::newRow("not an object") << QByteArray("[{\"a\": 1}, 7]") << 11ull << "invalid JSON (";
        QTest::newRow("too deep") << QByteArray(2000, '[') << 0ull << "";
    }
    void errorPositions()
    {
        QFETCH(QByteArray, json);
        QFETCH(qulonglong, offset);
        QFETCH(QString, problemStart);
        const Outcome o = failureOf(json.toStdString());
        QVERIFY2(!o.problem.empty(), "the reader must fail");
        QVERIFY2(o.problem.rfind(problemStart.toStdString(), 0) == 0, o.problem.c_str());
        if (!problemStart.isEmpty()) {
            QVERIFY(o.hasOffset);
            QCOMPARE(o.offset, uint64_t(offset));
        }
    }

    void styleWording()
    {
        JsonReaderBase::Style style;
        style.unclosedString = "never closed";
        style.unescapedControl = "control";
        QCOMPARE(failureOf("[{\"b", style).problem, std::string("never closed; expected a JSON document"));
        QVERIFY(failureOf("[{\"a\": \"x\ty\"}]", style).problem.rfind("control; ", 0) == 0);
    }

    void emptyFileFailsAtZero()
    {
        const Outcome o = failureOf(" \n\t");
        QCOMPARE(o.problem, std::string("file is empty"));
        QCOMPARE(o.offset, uint64_t(0));
    }

    void progressStaysInItsRange()
    {
        std::string json = "[";
        for (int i = 0; i < 200; ++i)
            json += std::string(i ? "," : "") + "{\"k\": " + std::to_string(i) + "}";
        json += "]";
        std::vector<int> seen;
        LoadOptions options;
        options.progress = [&seen](int p) { seen.push_back(p); };
        InputBuffer input = InputBuffer::fromBytes(json, "t.json", options);
        JsonReaderBase::Style style;
        style.progressFrom = 100;
        style.progressSpan = 700;
        ArrayReader(input, options, style).run();
        QCOMPARE(seen.size(), size_t(200));
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QVERIFY(seen.front() >= 100);
        QVERIFY(seen.back() <= 800);
        QVERIFY(seen.back() > 700);
    }

    void cancelStops()
    {
        std::atomic<bool> cancel{true};
        LoadOptions options;
        options.cancel = &cancel;
        InputBuffer input = InputBuffer::fromBytes("[{\"a\": 1}]", "t.json", options);
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, ArrayReader(input, options).run());
    }
};

QTEST_GUILESS_MAIN(TstJsonReaderBase)
#include "tst_jsonreaderbase.moc"
