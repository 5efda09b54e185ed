// InputBuffer: compression detected by magic bytes, streamed decompression, clear errors and a
// memory budget against compression bombs.
#include "io/input/inputbuffer.h"

#include <QTemporaryDir>
#include "compress.h"

#include <QtTest>

#include <zlib.h>
#include <zstd.h>

using namespace lanescope;

using lanescope::test::gzipOf;
using lanescope::test::zstdOf;

namespace {

std::string errorOf(const std::string &bytes, uint64_t budget = uint64_t(1) << 30)
{
    LoadOptions opt;
    opt.memoryBudget = budget;
    try {
        InputBuffer::fromBytes(bytes, "x.bin", opt);
    } catch (const ImportError &e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestInputBuffer : public QObject
{
    Q_OBJECT
private slots:
    void plainGzipZstd()
    {
        const std::string text = std::string(3'000'000, 'a') + "{\"traceEvents\":[]}";
        LoadOptions opt;
        const InputBuffer plain = InputBuffer::fromBytes(text, "t", opt);
        const InputBuffer gz = InputBuffer::fromBytes(gzipOf(text), "t", opt);
        const InputBuffer zs = InputBuffer::fromBytes(zstdOf(text), "t", opt);
        QCOMPARE(plain.compression(), Compression::None);
        QCOMPARE(gz.compression(), Compression::Gzip);
        QCOMPARE(zs.compression(), Compression::Zstd);
        QVERIFY(plain.view() == text);
        QVERIFY(gz.view() == text);
        QVERIFY(zs.view() == text);
        QVERIFY(gz.capacity() >= gz.size() + InputBuffer::kPadding);
        QCOMPARE(gz.data()[gz.size()], '\0');
    }

    void concatenatedGzipMembers()
    {
        LoadOptions opt;
        const InputBuffer b = InputBuffer::fromBytes(gzipOf("hello ") + gzipOf("world"), "t", opt);
        QCOMPARE(std::string(b.view()), std::string("hello world"));
    }

    void readFromFileNamedWrongly()
    {
        // detection is by magic bytes, not by name: a gzip file called .json
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("trace.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const std::string gz = gzipOf("[1,2,3]");
        f.write(gz.data(), qint64(gz.size()));
        f.close();
        LoadOptions opt;
        int lastProgress = -1;
        opt.progress = [&](int p) { lastProgress = p; };
        const InputBuffer b = InputBuffer::read(path.toStdString(), opt);
        QCOMPARE(std::string(b.view()), std::string("[1,2,3]"));
        QCOMPARE(lastProgress, 200);
    }

    void corruptAndTruncated()
    {
        std::string gz = gzipOf(std::string(100000, 'x') + "abcdefghijklmnopqrstuvwxyz");
        std::string corrupt = gz;
        for (size_t i = 20; i < 40; ++i)
            corrupt[i] = char(corrupt[i] ^ 0x5a);
        const std::string e1 = errorOf(corrupt);
        QVERIFY2(e1.find("x.bin: at byte") == 0 && e1.find("corrupt gzip") != std::string::npos, e1.c_str());
        const std::string e2 = errorOf(gz.substr(0, gz.size() / 2));
        QVERIFY2(e2.find("truncated") != std::string::npos, e2.c_str());
        const std::string zs = zstdOf(std::string(100000, 'y'));
        const std::string e3 = errorOf(zs.substr(0, zs.size() - 3));
        QVERIFY2(e3.find("x.bin: at byte") == 0, e3.c_str());
    }

    void compressionBombHitsBudget()
    {
        const std::string bomb = gzipOf(std::string(64u << 20, '\0'));
        QVERIFY(bomb.size() < 200000);
        const std::string e = errorOf(bomb, 8u << 20);
        QVERIFY2(e.find("memory budget") != std::string::npos, e.c_str());
    }

    // The window a zstd frame asks for is allocated before the first byte comes out, so it counts
    // against the budget: a frame with a 16 MiB window is refused under a 1 MiB budget (a clear error,
    // not an allocation) and decodes under 1 GiB.
    void zstdWindowHitsBudget()
    {
        std::string data(20u << 20, '\0');
        for (size_t i = 0; i < data.size(); ++i)
            data[i] = char('a' + (i * 2654435761u >> 28));
        ZSTD_CCtx *c = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
        ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 24);
        std::string frame(ZSTD_compressBound(data.size()), '\0');
        const size_t n = ZSTD_compress2(c, frame.data(), frame.size(), data.data(), data.size());
        ZSTD_freeCCtx(c);
        QVERIFY(!ZSTD_isError(n));
        frame.resize(n);
        const std::string e = errorOf(frame, 1u << 20);
        QVERIFY2(e.find("x.bin: at byte 0: the zstd frame needs a decoding window larger than the memory budget of 1")
                     == 0, e.c_str());
        QVERIFY2(e.find("--memory-budget") != std::string::npos, e.c_str());
        LoadOptions opt;
        opt.memoryBudget = uint64_t(1) << 30;
        const InputBuffer b = InputBuffer::fromBytes(frame, "x.bin", opt);
        QCOMPARE(b.compression(), Compression::Zstd);
        QVERIFY(b.view() == data);
    }

    void missingFileAndFolder()
    {
        LoadOptions opt;
        QVERIFY_THROWS_EXCEPTION(ImportError, InputBuffer::read("/nonexistent/file.json", opt));
        QVERIFY_THROWS_EXCEPTION(ImportError, InputBuffer::read("/tmp", opt));
    }

    void cancel()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4 << 20, 'x'));
        f.close();
        std::atomic<bool> cancel{true};
        LoadOptions opt;
        opt.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, InputBuffer::read(path.toStdString(), opt));
    }
};

QTEST_GUILESS_MAIN(TestInputBuffer)
#include "tst_inputbuffer.moc"
