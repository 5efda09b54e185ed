// JsonStringReader: every string value reads as simdjson's own get_string() reads it (escapes
// unescaped, UTF-8 kept), whatever its length and wherever a quote or backslash falls in a 16-byte
// load; strings without escapes are views into the document, not copies.
#include "io/input/inputbuffer.h"
#include "io/json/jsonstringreader.h"

#include <QTest>

#include <string>
#include <vector>

using namespace lanescope;

namespace sj = simdjson::ondemand;

class TestJsonStringReader : public QObject
{
    Q_OBJECT
private slots:
    void readsLikeGetString()
    {
        // Strings of every length up to 70 bytes, plain, and with each escape at each position.
        std::vector<std::string> values; // JSON source text of each string value, quotes included
        const std::vector<std::string> escapes = {"\\\"", "\\\\", "\\n", "\\u00e9", "\\/"};
        for (size_t len = 0; len <= 70; ++len) {
            std::string plain(len, 'a');
            for (size_t k = 0; k < len; ++k)
                plain[k] = char('a' + k % 26);
            values.push_back("\"" + plain + "\"");
            values.push_back("\"" + plain + "\xC3\xA9\xF0\x9D\x84\x9E\"");
            for (const std::string &e : escapes)
                for (size_t at : {size_t(0), len / 2, len}) {
                    std::string s = plain;
                    s.insert(at, e);
                    values.push_back("\"" + s + "\"");
                }
        }
        std::string text = "[";
        for (size_t i = 0; i < values.size(); ++i)
            text += (i ? "," : "") + values[i];
        text += "]";
        // Read twice: with JsonStringReader, and with get_string(), which copies and unescapes.
        InputBuffer a = InputBuffer::ofText({text}), b = InputBuffer::ofText({text});
        sj::parser pa, pb;
        sj::document da = pa.iterate(a.data(), a.size(), a.capacity()), db = pb.iterate(b.data(), b.size(), b.capacity());
        sj::array ra, rb;
        QVERIFY(!da.get_array().get(ra));
        QVERIFY(!db.get_array().get(rb));
        JsonStringReader reader;
        std::vector<std::string> got, want;
        size_t views = 0;
        for (auto e : ra) {
            QVERIFY(!e.error());
            sj::value &&v = std::move(e).value_unsafe();
            std::string_view s;
            QVERIFY(reader.read(pa, v, s));
            if (s.data() >= a.data() && s.data() < a.data() + a.size())
                ++views;
            got.emplace_back(s);
        }
        for (auto e : rb) {
            std::string_view s;
            QVERIFY(!e.get_string().get(s));
            want.emplace_back(s);
        }
        QCOMPARE(got.size(), values.size());
        QVERIFY(got == want);
        QCOMPARE(views, size_t(2 * 71)); // the plain ones and the UTF-8 ones
    }
};

QTEST_APPLESS_MAIN(TestJsonStringReader)
#include "tst_jsonstringreader.moc"
