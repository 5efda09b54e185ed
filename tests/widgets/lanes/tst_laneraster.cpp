// LaneRaster: a lane's items written as pixels and drawn as one image give exactly the picture of one
// QPainter::fillRect per item (over a background with grid lines, which show through the gaps), and it
// is used only where that holds: raster painters without scaling, with enough items to pay off.
#include "lanes/laneraster.h"

#include <QImage>
#include <QPainter>
#include <QPicture>
#include <QTest>

#include <random>

using namespace lanescope;

class TestLaneRaster : public QObject
{
    Q_OBJECT
private slots:
    void samePixelsAsFillRect()
    {
        constexpr int kWidth = 700, kDepths = 5, kRowH = 14, kLeft = 37, kTop = 21;
        struct Item
        {
            int depth, x0, x1;
            QRgb rgb;
        };
        std::mt19937 rng(5);
        std::vector<Item> items;
        for (int d = 0; d < kDepths - 1; ++d) // the last depth stays empty
            for (int x = -3; x < kWidth + 3;) {
                const int w = 1 + int(rng() % 4);
                items.push_back({d, x, x + w, qRgb(int(rng() % 256), int(rng() % 256), int(rng() % 256))});
                x += w + int(rng() % 3); // gaps of 0-2 px
            }
        QVERIFY(items.size() > LaneRaster::kMinItems);
        const auto background = [&](QImage &img) {
            img.fill(QColor(0x1b, 0x1d, 0x22));
            QPainter p(&img);
            p.setPen(QColor(0x2a, 0x2d, 0x34));
            for (int x = kLeft; x < kLeft + kWidth; x += 50)
                p.drawLine(x, 0, x, img.height());
        };
        QImage expected(kLeft + kWidth + 20, kTop + kDepths * kRowH + 10, QImage::Format_ARGB32_Premultiplied);
        QImage actual = expected;
        background(expected);
        background(actual);
        {
            QPainter p(&expected);
            p.setClipRect(QRect(kLeft, 0, kWidth, expected.height()));
            for (const Item &i : items)
                p.fillRect(QRect(kLeft + i.x0, kTop + i.depth * kRowH, i.x1 - i.x0, kRowH - 1), QColor::fromRgb(i.rgb));
        }
        {
            QPainter p(&actual);
            QVERIFY(LaneRaster::usable(p, items.size()));
            LaneRaster r;
            r.begin(kWidth, kDepths, kRowH);
            for (const Item &i : items)
                r.fill(i.depth, i.x0, i.x1, i.rgb);
            r.draw(p, kLeft, kTop);
        }
        QCOMPARE(actual, expected);

        // Reused for a smaller lane: nothing of the previous lane is left.
        QImage again = expected;
        background(again);
        QImage once = again;
        {
            QPainter p(&again);
            LaneRaster r;
            r.begin(kWidth, kDepths, kRowH);
            for (const Item &i : items)
                r.fill(i.depth, i.x0, i.x1, i.rgb);
            r.begin(100, 2, kRowH);
            r.fill(1, 10, 20, qRgb(255, 0, 0));
            r.draw(p, kLeft, kTop);
        }
        {
            QPainter p(&once);
            p.fillRect(QRect(kLeft + 10, kTop + kRowH, 10, kRowH - 1), QColor(255, 0, 0));
        }
        QCOMPARE(again, once);
    }

    void usableOnlyForUnscaledRaster()
    {
        QImage img(10, 10, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&img);
        QVERIFY(!LaneRaster::usable(p, LaneRaster::kMinItems - 1));
        QVERIFY(LaneRaster::usable(p, LaneRaster::kMinItems));
        p.translate(3, 4);
        QVERIFY(LaneRaster::usable(p, LaneRaster::kMinItems));
        p.scale(2, 2); // a 2x export keeps one rectangle per item
        QVERIFY(!LaneRaster::usable(p, LaneRaster::kMinItems));
        p.end();
        QPicture picture; // vector devices (SVG, pictures) too
        QPainter v(&picture);
        QVERIFY(!LaneRaster::usable(v, 100'000));
    }
};

QTEST_MAIN(TestLaneRaster)
#include "tst_laneraster.moc"
