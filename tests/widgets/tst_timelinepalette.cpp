// TimelinePalette: both themes come from one table of colour roles; spot checks that the values are
// those the timeline always used (pixels must not change), that every role is set in both themes
// and that forTheme picks the right one.
#include "timelinepalette.h"

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
    void light()
    {
        const TimelinePalette p = TimelinePalette::light();
        QCOMPARE(p.theme, TimelinePalette::Theme::Light);
        QCOMPARE(p.background, QColor(0xff, 0xff, 0xff));
        QCOMPARE(p.text, QColor(0x1f, 0x23, 0x2b));
        QCOMPARE(p.rangeFill, QColor(0x3b, 0x82, 0xf6, 40));
        QCOMPARE(p.cursorLine, QColor(0x25, 0x63, 0xeb, 160));
        QCOMPARE(p.criticalPath, QColor(0xdc, 0x26, 0x26));
        QCOMPARE(p.dimPercent, 22);
    }

    void dark()
    {
        const TimelinePalette p = TimelinePalette::dark();
        QCOMPARE(p.theme, TimelinePalette::Theme::Dark);
        QCOMPARE(p.background, QColor(0x1b, 0x1d, 0x22));
        QCOMPARE(p.selection, QColor(0xff, 0xff, 0xff));
        QCOMPARE(p.rangeFill, QColor(0x60, 0xa5, 0xfa, 45));
        QCOMPARE(p.cursorLine, QColor(0x93, 0xc5, 0xfd, 170));
        QCOMPARE(p.chainEdge, QColor(0xc4, 0xb5, 0xfd));
        QCOMPARE(p.dimPercent, 30);
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
