// InputStream: plain, gzip (several members) and zstd files read in blocks on the decoder's thread give
// back exactly the file's bytes; a truncated or corrupt stream hands out what came before the damage,
// then a clear error naming the compressed offset; stopping early never hangs.
#include "compress.h"

#include "io/input/importerror.h"
#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <string>

using namespace lanescope;
using namespace lanescope::test;

namespace {

// About 12 MiB of trace-like JSON: several blocks.
std::string sampleText()
{
    std::string s = "{\"traceEvents\": [\n";
    for (int i = 0; i < 60000; ++i)
        s += "{\"ph\": \"X\", \"name\": \"aten::op_" + std::to_string(i % 977) + "\", \"ts\": " + std::to_string(i * 3)
            + ", \"dur\": 2, \"pid\": 1, \"tid\": " + std::to_string(i % 7)
            + ", \"args\": {\"Input Dims\": [[64, 128], [128]], \"External id\": " + std::to_string(i) + "}},\n";
    s += "{\"ph\": \"i\", \"name\": \"end\", \"ts\": 0, \"pid\": 1, \"tid\": 1}]}\n";
    return s;
}

std::string drain(InputStream &in, size_t *blocks = nullptr)
{
    std::string out;
    std::string_view b;
    while (in.next(b)) {
        out.append(b);
        if (blocks)
            ++*blocks;
    }
    return out;
}

} // namespace

class TestInputStream : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_text = sampleText();
        QVERIFY(m_text.size() > 2 * InputStream::kBlockBytes);
    }

    void readsEveryCompression_data()
    {
        QTest::addColumn<std::string>("kind");
        QTest::newRow("plain") << std::string("plain");
        QTest::newRow("gzip") << std::string("gzip");
        QTest::newRow("gzip, 3 members") << std::string("gzip3");
        QTest::newRow("zstd") << std::string("zstd");
    }

    void readsEveryCompression()
    {
        QFETCH(std::string, kind);
        std::string bytes;
        if (kind == "plain")
            bytes = m_text;
        else if (kind == "gzip")
            bytes = gzipOf(m_text);
        else if (kind == "zstd")
            bytes = zstdOf(m_text);
        else {
            const size_t third = m_text.size() / 3;
            bytes = gzipOf(m_text.substr(0, third)) + gzipOf(m_text.substr(third, third)) + gzipOf(m_text.substr(2 * third));
        }
        const std::string path = write(kind, bytes);
        LoadOptions options;
        InputStream in(path, options);
        QCOMPARE(in.compressedSize(), uint64_t(bytes.size()));
        QCOMPARE(QByteArray::fromStdString(std::string(in.peek(16))), QByteArray::fromStdString(m_text.substr(0, 16)));
        size_t blocks = 0;
        const std::string got = drain(in, &blocks);
        QCOMPARE(got.size(), m_text.size());
        QVERIFY(got == m_text);
        QVERIFY(blocks >= 2);
        QCOMPARE(in.position(), uint64_t(m_text.size()));
        QCOMPARE(in.compressedPosition(), uint64_t(bytes.size()));
        QCOMPARE(int(in.compression()), int(kind == "plain" ? Compression::None : kind == "zstd" ? Compression::Zstd : Compression::Gzip));
    }

    // A gzip / zstd file cut in the middle: the decoded bytes come first, then the error (as
    // InputBuffer::read gives it for the whole file).
    void truncatedStreams_data()
    {
        QTest::addColumn<bool>("zstd");
        QTest::newRow("gzip") << false;
        QTest::newRow("zstd") << true;
    }

    void truncatedStreams()
    {
        QFETCH(bool, zstd);
        const std::string whole = zstd ? zstdOf(m_text) : gzipOf(m_text);
        const std::string cut = whole.substr(0, whole.size() / 2);
        const std::string path = write(zstd ? "cut.zst" : "cut.gz", cut);
        LoadOptions options;
        InputStream in(path, options);
        std::string got;
        try {
            std::string_view b;
            while (in.next(b))
                got.append(b);
            QFAIL("no error for a truncated stream");
        } catch (const ImportError &e) {
            const std::string expected = path + ": at byte " + std::to_string(cut.size()) + ": " + (zstd ? "zstd" : "gzip")
                + " stream ends early (truncated file); expected more compressed data";
            QCOMPARE(QString::fromStdString(e.what()), QString::fromStdString(expected));
            // the same message as reading the whole file
            try {
                (void)InputBuffer::read(path, options);
                QFAIL("InputBuffer::read accepted it");
            } catch (const ImportError &whole) {
                QCOMPARE(QString::fromStdString(whole.what()), QString::fromStdString(expected));
            }
        }
        QVERIFY2(got.size() > m_text.size() / 8, qPrintable(QString::number(got.size())));
        QVERIFY(m_text.compare(0, got.size(), got) == 0);
    }

    void corruptGzipNamesTheOffset()
    {
        std::string bytes = gzipOf(m_text);
        for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
            bytes[i] = char(0xff);
        const std::string path = write("corrupt.gz", bytes);
        LoadOptions options;
        InputStream in(path, options);
        try {
            (void)drain(in);
            QFAIL("no error for a corrupt stream");
        } catch (const ImportError &e) {
            QVERIFY2(std::string(e.what()).find("corrupt gzip stream") != std::string::npos, e.what());
        }
    }

    // Destroying a stream that is still decoding (the queue full) returns at once.
    void stopsEarly()
    {
        const std::string path = write("early.gz", gzipOf(m_text));
        LoadOptions options;
        for (int i = 0; i < 20; ++i) {
            InputStream in(path, options);
            std::string_view b;
            QVERIFY(in.next(b));
        }
    }

    // readAll after a peek (a sniff) or after some blocks gives every byte not handed out yet, once,
    // for every compression; a budget smaller than the rest is the budget's error.
    void readAllAfterSniff_data() { readsEveryCompression_data(); }
    void readAllAfterSniff()
    {
        QFETCH(std::string, kind);
        const std::string bytes = kind == "plain" ? m_text : kind == "zstd" ? zstdOf(m_text) : gzipOf(m_text);
        const std::string path = write("all_" + kind, bytes);
        LoadOptions options;
        {
            InputStream in(path, options);
            QCOMPARE(QByteArray::fromStdString(std::string(in.peek(32))), QByteArray::fromStdString(m_text.substr(0, 32)));
            const InputBuffer all = in.readAll();
            QVERIFY(all.view() == m_text);
            QCOMPARE(all.capacity() >= all.size() + InputBuffer::kPadding, true);
            QCOMPARE(int(all.compression()), int(kind == "plain" ? Compression::None : kind == "zstd" ? Compression::Zstd : Compression::Gzip));
            QCOMPARE(all.compressedSize(), uint64_t(bytes.size()));
        }
        {
            InputStream in(path, options);
            std::string_view first;
            QVERIFY(in.next(first));
            const size_t taken = first.size();
            const InputBuffer rest = in.readAll();
            QVERIFY(rest.view() == std::string_view(m_text).substr(taken));
        }
        {
            LoadOptions small;
            small.memoryBudget = m_text.size() / 2;
            InputStream in(path, small);
            QVERIFY_THROWS_EXCEPTION(ImportError, in.readAll());
        }
    }

    // Text in memory, handed out in blocks of any size, from any start offset.
    void memoryBlocks()
    {
        LoadOptions options;
        const std::string text = m_text.substr(0, 1000);
        InputStream in(text, "m.json", options, 7, uint64_t(6) << 30);
        QCOMPARE(in.position(), uint64_t(6) << 30);
        QCOMPARE(drain(in), text);
        QCOMPARE(in.position(), (uint64_t(6) << 30) + 1000);
    }

private:
    std::string write(const std::string &name, const std::string &bytes)
    {
        const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
        return path;
    }

    QTemporaryDir m_dir;
    std::string m_text;
};

QTEST_GUILESS_MAIN(TestInputStream)
#include "tst_inputstream.moc"
