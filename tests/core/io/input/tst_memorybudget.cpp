// MemoryBudget: the size syntax of --memory-budget / $LANESCOPE_MEMORY_BUDGET, the default every
// LoadOptions starts from, and the clear error when parsing a JSON text would go past the budget.
#include "io/chrome/chromejsonimporter.h"
#include "io/input/inputbuffer.h"
#include "io/input/memorybudget.h"
#include "io/neuronprofile/neuronprofilejsonimporter.h"
#include "io/systemprofile/systemprofileimporter.h"

#include <QTest>

#include <cstdlib>
#include <string>

using namespace lanescope;

class TestMemoryBudget : public QObject
{
    Q_OBJECT

    // A Chrome trace of about `bytes` bytes.
    static std::string chromeTrace(size_t bytes)
    {
        std::string s = "{\"traceEvents\":[";
        for (int i = 0; s.size() < bytes; ++i)
            s += std::string(i ? "," : "") + "{\"ph\":\"X\",\"name\":\"op\",\"ts\":" + std::to_string(i) +
                 ",\"dur\":1,\"pid\":1,\"tid\":1}";
        return s + "]}";
    }

private slots:
    void init() { ::unsetenv(MemoryBudget::kEnvironmentVariable); }
    void cleanupTestCase() { ::unsetenv(MemoryBudget::kEnvironmentVariable); }

    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qulonglong>("bytes"); // 0: rejected
        QTest::newRow("plain") << "1073741824" << (qulonglong(1) << 30);
        QTest::newRow("K") << "64K" << qulonglong(64) * 1024;
        QTest::newRow("M") << "512M" << (qulonglong(512) << 20);
        QTest::newRow("G") << "8G" << (qulonglong(8) << 30);
        QTest::newRow("GiB") << "8GiB" << (qulonglong(8) << 30);
        QTest::newRow("MB") << "512MB" << (qulonglong(512) << 20);
        QTest::newRow("lower") << "2g" << (qulonglong(2) << 30);
        QTest::newRow("fraction") << "1.5G" << (qulonglong(3) << 29);
        QTest::newRow("T") << "1T" << (qulonglong(1) << 40);
        QTest::newRow("spaces") << " 4G " << (qulonglong(4) << 30);
        QTest::newRow("zero") << "0" << qulonglong(0);
        QTest::newRow("empty") << "" << qulonglong(0);
        QTest::newRow("unit only") << "G" << qulonglong(0);
        QTest::newRow("dot only") << ".G" << qulonglong(0);
        QTest::newRow("negative") << "-1G" << qulonglong(0);
        QTest::newRow("unknown unit") << "5X" << qulonglong(0);
        QTest::newRow("two units") << "5GG" << qulonglong(0);
        QTest::newRow("words") << "lots" << qulonglong(0);
        QTest::newRow("too big") << "99999999T" << qulonglong(0);
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(qulonglong, bytes);
        const auto v = MemoryBudget::parse(text.toStdString());
        if (bytes == 0)
            QVERIFY2(!v, qPrintable(QString::number(v.value_or(0))));
        else
            QCOMPARE(qulonglong(v.value_or(0)), bytes);
    }

    void environmentSetsTheDefault()
    {
        QCOMPARE(LoadOptions().memoryBudget, MemoryBudget::kDefault);
        ::setenv(MemoryBudget::kEnvironmentVariable, "3G", 1);
        QCOMPARE(LoadOptions().memoryBudget, uint64_t(3) << 30);
        ::setenv(MemoryBudget::kEnvironmentVariable, "nonsense", 1); // ignored, not zero
        QCOMPARE(LoadOptions().memoryBudget, MemoryBudget::kDefault);
    }

    void format()
    {
        QCOMPARE(MemoryBudget::format(uint64_t(16) << 30), std::string("16 GiB"));
        QCOMPARE(MemoryBudget::format(uint64_t(1536) << 20), std::string("1536 MiB"));
        QCOMPARE(MemoryBudget::format(4096), std::string("4096 bytes"));
    }

    // Issue 18: the event array is parsed in windows, so the budget bounds the model (and the few
    // windows in flight), not the text: a trace whose text and index would not fit loads when its model
    // does, and a model growing past the budget is a clear error naming it.
    void budgetBoundsTheModel()
    {
        const std::string text = chromeTrace(300 * 1024);
        LoadOptions options;
        options.memoryBudget = 512 * 1024; // less than the text and its index (600 KiB)
        InputBuffer in = InputBuffer::fromBytes(text, "big.json", options);
        QVERIFY(ChromeJsonImporter::import(in, "big.json", options).allSlices().size() > 1000);
        const std::string bigger = chromeTrace(4 * 1024 * 1024);
        InputBuffer big = InputBuffer::fromBytes(bigger, "big.json", LoadOptions()); // in memory already
        try {
            (void)ChromeJsonImporter::import(big, "big.json", options);
            QFAIL("a model past the budget loaded");
        } catch (const ImportError &e) {
            const std::string what = e.what();
            QVERIFY2(what.rfind("big.json: at byte ", 0) == 0, e.what());
            QVERIFY2(what.find("trace model grows past the memory budget of 524288 bytes") != std::string::npos, e.what());
            QVERIFY2(what.find("--memory-budget") != std::string::npos, e.what());
        }
    }

    // The other two JSON readers check the same way. They read in windows now (as the Chrome reader):
    // the budget bounds one element (a quarter of it) and the model, not the whole text.
    void everyJsonReaderChecks()
    {
        const std::string text = "{\"trace_events\":[" + std::string(200 * 1024, ' ') + "]}";
        LoadOptions options;
        options.memoryBudget = 300 * 1024;
        for (int reader = 0; reader < 2; ++reader) {
            InputBuffer in = InputBuffer::fromBytes(text, "x.json", options);
            try {
                if (reader == 0)
                    (void)SystemProfileImporter::import(in, "x.json", options);
                else
                    (void)NeuronProfileJsonImporter::import(in, "x.json", options);
                QFAIL("loaded past the budget");
            } catch (const ImportError &e) {
                QVERIFY2(std::string(e.what()).find("a quarter of the memory budget") != std::string::npos, e.what());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "tst_memorybudget.moc"
