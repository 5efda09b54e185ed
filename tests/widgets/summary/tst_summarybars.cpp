// SummaryBars: bars scaled to the largest value or to a fixed maximum, painted (the bar's pixels are
// there, in proportion), its height grows with the rows.
#include "summary/summarybars.h"

#include <QImage>
#include <QtTest>

using namespace lanescope;

namespace {

// Columns of the accent or bar colour on the row through y.
int colouredColumns(const QImage &image, int y, QColor colour)
{
    int n = 0;
    for (int x = 0; x < image.width(); ++x)
        n += image.pixelColor(x, y) == colour;
    return n;
}

} // namespace

class TestSummaryBars : public QObject
{
    Q_OBJECT

private slots:
    void paintsProportionalBars()
    {
        SummaryBars bars(QStringLiteral("Engine active"));
        bars.setBars({{QStringLiteral("Vector"), 50, QStringLiteral("50.0 %")}, {QStringLiteral("Scalar"), 25, QStringLiteral("25.0 %")}}, 100);
        QCOMPARE(bars.bars().size(), size_t(2));
        bars.resize(600, bars.sizeHint().height());
        QCOMPARE(bars.sizeHint().height(), bars.fontMetrics().height() * 3 + 3 * 4 + 4);
        QImage image(bars.size(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        bars.render(&image);
        const int row = bars.fontMetrics().height() + 4;
        const QColor blue(0x0072b2);
        const int first = colouredColumns(image, row + row / 2, blue);
        const int second = colouredColumns(image, 2 * row + row / 2, blue);
        QVERIFY(first > 50);
        QVERIFY(qAbs(first - 2 * second) <= 2); // 50 % vs 25 % of the same track
    }

    void scalesToTheLargest()
    {
        SummaryBars bars(QStringLiteral("DMA bytes"));
        bars.setBars({{QStringLiteral("io"), 4096, QStringLiteral("4 KiB"), true}});
        bars.resize(400, bars.sizeHint().height());
        QImage image(bars.size(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        bars.render(&image);
        const int row = bars.fontMetrics().height() + 4;
        QVERIFY(colouredColumns(image, row + row / 2, QColor(0xd55e00)) > 100); // highlighted, full track
        bars.setDark(true);
        bars.setBars({});
        QCOMPARE(bars.sizeHint().height(), row + 4);
    }
};

QTEST_MAIN(TestSummaryBars)
#include "tst_summarybars.moc"
