// StringPool: interning gives one id per distinct string in the order first met (0 is ""), through
// the cache, the table's growth and strings larger than a block; clear() empties it for reuse (a JSON
// window's pool) and the next strings get the same ids a fresh pool would give.
#include "model/stringpool.h"

#include <QTest>

#include <string>
#include <vector>

using namespace lanescope;

namespace {

// The strings a window might hold: short names repeated, a few long ones, one larger than a block.
std::vector<std::string> sampleStrings(int round)
{
    std::vector<std::string> out;
    for (int i = 0; i < 5000; ++i)
        out.push_back("name_" + std::to_string((i * 7 + round) % 1500));
    out.push_back(std::string(300000, char('a' + round)));
    for (int i = 0; i < 40; ++i)
        out.push_back(std::string(200 + size_t(i), 'k') + std::to_string(round));
    out.push_back("");
    return out;
}

} // namespace

class TestStringPool : public QObject
{
    Q_OBJECT
private slots:
    void idsInFirstMetOrder()
    {
        StringPool p;
        QCOMPARE(p.size(), size_t(1));
        QCOMPARE(p.intern(""), StringId(0));
        const StringId a = p.intern("a"), b = p.intern("bb"), a2 = p.intern(std::string("a"));
        QCOMPARE(a, StringId(1));
        QCOMPARE(b, StringId(2));
        QCOMPARE(a2, a);
        QCOMPARE(p.view(b), std::string_view("bb"));
        QCOMPARE(p.find("bb"), b);
        QVERIFY(!p.find("c").isValid());
    }

    // A pool cleared and reused gives every round the ids a fresh pool gives, and forgets the strings
    // of earlier rounds.
    void clearedPoolEqualsFreshOne()
    {
        StringPool reused;
        for (int round = 0; round < 4; ++round) {
            if (round)
                reused.clear();
            QCOMPARE(reused.size(), size_t(1));
            StringPool fresh;
            const std::vector<std::string> strings = sampleStrings(round);
            for (const std::string &s : strings) {
                const StringId want = fresh.intern(s);
                QCOMPARE(reused.intern(s), want);
            }
            QCOMPARE(reused.size(), fresh.size());
            for (uint32_t id = 0; id < fresh.size(); ++id)
                QCOMPARE(reused.view(StringId(id)), fresh.view(StringId(id)));
            if (round) // a name only an earlier round had
                QVERIFY(!reused.find(std::string(300000, char('a' + round - 1))).isValid());
        }
    }

    // Cleared when only a string larger than a block was interned (no block open).
    void clearAfterOnlyALargeString()
    {
        StringPool p;
        const std::string big(600000, 'z');
        QCOMPARE(p.intern(big), StringId(1));
        p.clear();
        QCOMPARE(p.intern("x"), StringId(1));
        QCOMPARE(p.intern(big), StringId(2));
        QCOMPARE(p.view(StringId(2)).size(), big.size());
    }
};

QTEST_APPLESS_MAIN(TestStringPool)
#include "tst_stringpool.moc"
