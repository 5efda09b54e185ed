// TableRowWriter: cells of a row description as JSON values and CSV fields.
#include "util/tablerowwriter.h"

#include <QtTest>

using namespace lanescope;

namespace {

struct Item
{
    std::string name;
    int64_t ns = 0;
    double pct = 0;
    bool known = true;
};

RowDescription<Item> columns()
{
    return {
        {"name", "Name", CellType::Text, "", OutAll, true, [](const Item &i) { return Cell(i.name); }},
        {"ns", "Time", CellType::Integer, "ns", OutAll, true, [](const Item &i) { return Cell(i.ns); }},
        {"pct", "%", CellType::Real, "%", OutJson, true, [](const Item &i) { return i.known ? Cell(i.pct) : Cell(); }},
        {"maybe", "Maybe", CellType::Real, "%", OutJson | OutCsv, false,
         [](const Item &i) { return i.known ? Cell(i.pct) : Cell(nullptr); }},
        {"db_only", "Id", CellType::Integer, "", OutSqlite, false, [](const Item &) { return Cell(int64_t(7)); }},
    };
}

} // namespace

class TestTableRowWriter : public QObject
{
    Q_OBJECT

private slots:
    void json()
    {
        const QJsonObject o = TableRowWriter::jsonObject(columns(), Item{"mm", 40000, 12.5, true});
        QCOMPARE(o.keys(), (QStringList{QStringLiteral("maybe"), QStringLiteral("name"), QStringLiteral("ns"), QStringLiteral("pct")}));
        QCOMPARE(o[QStringLiteral("ns")].toInteger(), 40000);
        QVERIFY(o[QStringLiteral("ns")].isDouble()); // JSON numbers; written without a fraction
        QCOMPARE(o[QStringLiteral("pct")].toDouble(), 12.5);
        // No value: the key is left out; an explicit null stays null.
        const QJsonObject unknown = TableRowWriter::jsonObject(columns(), Item{"x", 1, 0, false});
        QVERIFY(!unknown.contains(QStringLiteral("pct")));
        QVERIFY(unknown[QStringLiteral("maybe")].isNull());
        QVERIFY(!unknown.contains(QStringLiteral("db_only")));
        const std::vector<Item> items{{"a", 1, 0, true}, {"b", 2, 0, true}, {"c", 3, 0, true}};
        QCOMPARE(TableRowWriter::jsonArray(columns(), items, 2).size(), 2);
        QCOMPARE(TableRowWriter::jsonArray(columns(), items).size(), 3);
    }

    void csv()
    {
        const auto c = columns();
        QCOMPARE(TableRowWriter::csvHeader(c), std::string("name,ns,maybe\n"));
        QCOMPARE(TableRowWriter::csvLine(c, Item{"aten::mm", 40000, 0.1, true}), std::string("aten::mm,40000,0.1\n"));
        QCOMPARE(TableRowWriter::csvLine(c, Item{"a, \"b\"\nc", -5, 0, false}), std::string("\"a, \"\"b\"\"\nc\",-5,\n"));
        QCOMPARE(TableRowWriter::csv(Cell(1.0 / 3.0)), std::string("0.3333333333333333"));
        QCOMPARE(TableRowWriter::csv(Cell(INT64_MIN)), std::string("-9223372036854775808"));
        QCOMPARE(TableRowWriter::csv(Cell()), std::string());
        QCOMPARE(TableRowWriter::csvQuote("plain"), std::string("plain"));
    }
};

QTEST_GUILESS_MAIN(TestTableRowWriter)
#include "tst_tablerowwriter.moc"
