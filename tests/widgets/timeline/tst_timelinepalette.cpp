// TimelinePalette: both themes come from one table of colour roles; spot checks that the values are
// those the timeline always used (pixels must not change), that every role is set in both themes
// and that forTheme picks the right one.
#include "timeline/timelinepalette.h"

#include <QTest>

using namespace lanescope;

class TestTimelinePalette : public QObject
{
    Q_OBJECT

private:
    static std::vector<QColor> roles(const TimelinePalette &p)
    {
        return {p.background, p.headerBackground, p.groupBackground, p.rulerBackground, p.gridLine, p.separator,
                p.text,       p.mutedText,        p.selection,       p.rangeFill,       p.rangeEdge, p.searchMatch,
                p.flowArrow,  p.cursorLine,       p.chainEdge,       p.criticalPath};
    }

private slots:
    void values_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<QColor>("background");
        QTest::addColumn<QColor>("text");
        QTest::addColumn<QColor>("selection");
        QTest::addColumn<QColor>("rangeFill");
        QTest::addColumn<QColor>("cursorLine");
        QTest::addColumn<QColor>("criticalPath");
        QTest::addColumn<int>("dimPercent");
        QTest::newRow("light") << false << QColor(0xff, 0xff, 0xff) << QColor(0x1f, 0x23, 0x2b) << QColor(0x11, 0x18, 0x27)
                               << QColor(0x3b, 0x82, 0xf6, 40) << QColor(0x25, 0x63, 0xeb, 160)
                               << QColor(0xdc, 0x26, 0x26) << 22;
        QTest::newRow("dark") << true << QColor(0x1b, 0x1d, 0x22) << QColor(0xe5, 0xe7, 0xeb) << QColor(0xff, 0xff, 0xff)
                              << QColor(0x60, 0xa5, 0xfa, 45) << QColor(0x93, 0xc5, 0xfd, 170)
                              << QColor(0xf8, 0x71, 0x71) << 30;
    }

    void values()
    {
        QFETCH(bool, dark);
        const TimelinePalette p = dark ? TimelinePalette::dark() : TimelinePalette::light();
        QCOMPARE(p.theme, dark ? TimelinePalette::Theme::Dark : TimelinePalette::Theme::Light);
        QTEST(p.background, "background");
        QTEST(p.text, "text");
        QTEST(p.selection, "selection");
        QTEST(p.rangeFill, "rangeFill");
        QTEST(p.cursorLine, "cursorLine");
        QTEST(p.criticalPath, "criticalPath");
        QTEST(p.dimPercent, "dimPercent");
    }

    void everyRoleSet()
    {
        const auto light = roles(TimelinePalette::light()), dark = roles(TimelinePalette::dark());
        for (size_t i = 0; i < light.size(); ++i) {
            QVERIFY2(light[i].isValid() && dark[i].isValid(), qPrintable(QString::number(i)));
            QCOMPARE(light[i].spec(), QColor::Rgb);
        }
        QVERIFY(light != dark);
        QCOMPARE(roles(TimelinePalette::forTheme(TimelinePalette::Theme::Dark)), dark);
        QCOMPARE(roles(TimelinePalette::forTheme(TimelinePalette::Theme::Light)), light);
    }
};

QTEST_MAIN(TestTimelinePalette)
#include "tst_timelinepalette.moc"
