// jsonscan::scanBlocks: every instruction-set variant finds exactly the brackets and commas outside
// strings that a byte-by-byte reading finds, with escaped quotes, runs of backslashes, multi-byte UTF-8
// and strings that cross 64-byte blocks and calls; a stop is reported where the callback asks.
#include "io/json/jsonblockscan.h"

#include <QTest>

#include <random>
#include <string>
#include <vector>

using namespace lanescope;

namespace {

// Byte-by-byte: positions of brackets and commas outside strings in the whole blocks of `s`.
std::vector<size_t> reference(const std::string &s)
{
    std::vector<size_t> out;
    bool inString = false;
    const size_t n = s.size() / 64 * 64;
    for (size_t i = 0; i < n; ++i) {
        const char c = s[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == ']' || c == '{' || c == '}' || c == ',') {
            out.push_back(i);
        }
    }
    return out;
}

// JSON-like text: strings with escapes (\\", \\\\, \\u), UTF-8, brackets inside and outside strings.
std::string randomText(unsigned seed, size_t size)
{
    std::mt19937 rng(seed);
    static const char *pieces[] = {"{", "}", "[", "]", ",", ":", " ", "1.5e3", "\"plain\"", "\"a\\\"b\"", "\"\\\\\"",
                                   "\"x\\\\\\\"y\"", "\"{[,]}\"", "\"\xC3\xA9\xE2\x82\xAC\"", "\"\\u00e9\"",
                                   "\"ends in \\\\\\\\\"",
                                   "\"a string longer than one 64-byte block, with [brackets], {braces} and, commas inside\""};
    std::string s;
    while (s.size() < size)
        s += pieces[rng() % (sizeof pieces / sizeof *pieces)];
    return s;
}

// One variant over `s` in calls of `step` bytes (state carried), stopping at the `stopAfter`-th hit.
template <class Variant>
std::vector<size_t> run(const std::string &s, size_t step, size_t stopAfter, size_t &stopAt)
{
    std::vector<size_t> hits;
    jsonscan::State state;
    size_t i = 0;
    stopAt = SIZE_MAX;
    while (i + 64 <= s.size()) {
        const size_t end = std::min(s.size(), i + step);
        bool stopped = false;
        i = Variant::scan(s.data(), i, end, state, stopped, [&](size_t at) {
            hits.push_back(at);
            return hits.size() == stopAfter;
        });
        if (stopped) {
            stopAt = i;
            break;
        }
        if (end == s.size())
            break;
    }
    return hits;
}

#if defined(LANESCOPE_JSON_BLOCK_SCAN)
// The byte at `at` is in the mask of its kind and in no other (the splitter counts opening and closing
// brackets by popcount); a failure is recorded and the byte is not reported, so the positions differ.
bool kindOk(const char *p, size_t at, const jsonscan::Masks &m, size_t base)
{
    const uint64_t bit = uint64_t(1) << (at - base);
    const char c = p[at];
    const bool open = m.open & bit, close = m.close & bit, comma = m.comma & bit;
    const bool ok = (c == '[' || c == '{') ? open && !close && !comma
                    : (c == ']' || c == '}') ? close && !open && !comma
                                             : c == ',' && comma && !open && !close;
    if (!ok)
        qWarning("byte %zu ('%c') is in the wrong masks", at, c);
    return ok;
}

// The variant named `isa`, as run<> takes it.
#define LANESCOPE_SCAN_VARIANT(NS)                                                                                   \
    struct NS                                                                                                        \
    {                                                                                                                \
        template <class On>                                                                                          \
        static size_t scan(const char *p, size_t i, size_t n, jsonscan::State &st, bool &stopped, On &&on)           \
        {                                                                                                            \
            return jsonscan::NS::scanBlocks(p, i, n, st, stopped, [&](size_t base, const jsonscan::Masks &m) {        \
                return jsonscan::eachStructural(base, m, [&](size_t at) { return kindOk(p, at, m, base) && on(at); }); \
            });                                                                                                      \
        }                                                                                                            \
    };
namespace variant {
LANESCOPE_SCAN_VARIANT(sse2)
LANESCOPE_SCAN_VARIANT(avx2)
LANESCOPE_SCAN_VARIANT(avx512)
} // namespace variant

std::vector<size_t> runIsa(const QString &isa, const std::string &s, size_t step, size_t stopAfter, size_t &stopAt)
{
    if (isa == QLatin1String("sse2"))
        return run<variant::sse2>(s, step, stopAfter, stopAt);
    if (isa == QLatin1String("avx2"))
        return run<variant::avx2>(s, step, stopAfter, stopAt);
    return run<variant::avx512>(s, step, stopAfter, stopAt);
}
#endif

} // namespace

class TestJsonBlockScan : public QObject
{
    Q_OBJECT
private slots:
    // One row per variant this processor can run (jsonscan::supported, what the dispatch picks from); a
    // variant it lacks gets no row, so it is neither run nor counted as a pass, and is named in the log.
    void variantsMatchByteByByte_data()
    {
        QTest::addColumn<QString>("isa");
#if defined(LANESCOPE_JSON_BLOCK_SCAN)
        QStringList ran, missing;
        for (const jsonscan::Isa isa : {jsonscan::Isa::Sse2, jsonscan::Isa::Avx2, jsonscan::Isa::Avx512}) {
            const QString name = QString::fromLatin1(jsonscan::isaName(isa));
            if (jsonscan::supported(isa)) {
                QTest::newRow(qPrintable(name)) << name;
                ran << name;
            } else {
                missing << name;
            }
        }
        qInfo("jsonblockscan variants run on this processor: %s; not available here (not run): %s",
              qPrintable(ran.join(QLatin1Char(' '))), missing.isEmpty() ? "none" : qPrintable(missing.join(QLatin1Char(' '))));
#endif
    }

    void variantsMatchByteByByte()
    {
#if !defined(LANESCOPE_JSON_BLOCK_SCAN)
        QSKIP("no vector variants on this architecture (the splitter scans byte by byte)");
#else
        QFETCH(QString, isa);
        size_t hits = 0;
        for (unsigned seed = 1; seed <= 40; ++seed) {
            const std::string s = randomText(seed, 4096 + seed * 97);
            const std::vector<size_t> want = reference(s);
            QVERIFY(want.size() > 100);
            for (size_t step : {size_t(64), size_t(128), size_t(1000), s.size()}) {
                size_t stopAt = 0;
                const std::vector<size_t> got = runIsa(isa, s, step, SIZE_MAX, stopAt);
                QVERIFY2(got == want, qPrintable(QStringLiteral("seed %1 step %2: %3 hits, want %4").arg(seed).arg(step).arg(got.size()).arg(want.size())));
                hits += got.size();
                // A stop at the 37th hit returns its position.
                const std::vector<size_t> stopped = runIsa(isa, s, step, 37, stopAt);
                QCOMPARE(stopped.size(), size_t(37));
                QCOMPARE(stopAt, want[36]);
            }
        }
        qInfo("jsonblockscan %s: 40 texts x 4 call sizes, %zu brackets and commas as the byte-by-byte reading finds them",
              qPrintable(isa), hits);
#endif
    }

    void picksTheWidestVariant()
    {
        const jsonscan::Isa isa = jsonscan::isa();
#if defined(__x86_64__)
        QVERIFY(isa != jsonscan::Isa::Scalar);
        QVERIFY(jsonscan::supported(isa));
        if (!qEnvironmentVariableIsSet("LANESCOPE_JSON_SCAN")) {
            // The processor's features asked directly, not through jsonscan::supported.
            __builtin_cpu_init();
            const bool clmul = __builtin_cpu_supports("pclmul");
            const jsonscan::Isa widest = clmul && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? jsonscan::Isa::Avx512
                                         : clmul && __builtin_cpu_supports("avx2")                                     ? jsonscan::Isa::Avx2
                                                                                                                       : jsonscan::Isa::Sse2;
            QCOMPARE(QString::fromLatin1(jsonscan::isaName(isa)), QString::fromLatin1(jsonscan::isaName(widest)));
        }
#else
        QCOMPARE(isa, jsonscan::Isa::Scalar);
#endif
    }
};

QTEST_GUILESS_MAIN(TestJsonBlockScan)
#include "tst_jsonblockscan.moc"
