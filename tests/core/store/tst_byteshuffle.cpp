// ByteShuffle: plane b of the shuffled bytes holds byte b of every record, in record order, and
// unshuffle() gives the records back, for the widths the trace cache stores (4, 8, 16, 32: the SSE2
// paths) and others (the plain loop), with record counts on and off the 16-record steps.
#include "store/byteshuffle.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace lanescope;

class TestByteShuffle : public QObject
{
    Q_OBJECT
private slots:
    void planesAndRoundTrip_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("records");
        for (int width : {1, 3, 4, 8, 12, 16, 24, 32, 48})
            for (int records : {0, 1, 15, 16, 17, 33, 1000})
                QTest::addRow("%d x %d", records, width) << width << records;
    }

    void planesAndRoundTrip()
    {
        QFETCH(int, width);
        QFETCH(int, records);
        const size_t w = size_t(width), n = size_t(records);
        std::string in(n * w, '\0');
        for (size_t i = 0; i < in.size(); ++i)
            in[i] = char((i * 131 + i / 7) & 0xff); // every byte differs from its neighbours
        std::string planes(in.size(), '\0'), back(in.size(), '\0');
        ByteShuffle::shuffle(in.data(), planes.data(), n, w);
        for (size_t r = 0; r < n; ++r)
            for (size_t b = 0; b < w; ++b)
                QCOMPARE(planes[b * n + r], in[r * w + b]);
        ByteShuffle::unshuffle(planes.data(), back.data(), n, w);
        QCOMPARE(back, in);
    }
};

QTEST_GUILESS_MAIN(TestByteShuffle)
#include "tst_byteshuffle.moc"
