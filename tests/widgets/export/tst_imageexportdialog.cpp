// ImageExportDialog: the choice round-trips, the lane pattern is checked as it is typed, SVG
// cannot go to the clipboard.
#include "export/imageexportdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>

using namespace lanescope;
using Choice = ImageExportDialog::Choice;
using Target = ImageExportDialog::Target;
using Output = ImageExportDialog::Output;

Q_DECLARE_METATYPE(ImageExportDialog::Target)
Q_DECLARE_METATYPE(ImageExportDialog::Output)

namespace {

QPushButton *button(const ImageExportDialog &d, const QString &text)
{
    for (QPushButton *b : d.findChildren<QPushButton *>())
        if (b->text().remove(QLatin1Char('&')).startsWith(text))
            return b;
    return nullptr;
}

} // namespace

class TestImageExportDialog : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<Target>("target");
        QTest::addColumn<int>("dock");
        QTest::addColumn<QString>("regex");
        QTest::addColumn<Output>("output");
        QTest::addColumn<bool>("caption");
        QTest::newRow("all lanes png") << Target::TimelineAllLanes << -1 << QString() << Output::PngScale1 << true;
        QTest::newRow("on screen 2x") << Target::TimelineLanesOnScreen << -1 << QString() << Output::PngScale2 << false;
        QTest::newRow("matching svg") << Target::TimelineMatchingLanes << -1 << QStringLiteral("GPU|stream") << Output::Svg << true;
        QTest::newRow("window") << Target::Window << -1 << QString() << Output::PngScale2 << false;
        QTest::newRow("second dock") << Target::Dock << 1 << QString() << Output::Svg << true;
    }

    void roundTrip()
    {
        QFETCH(Target, target);
        QFETCH(int, dock);
        QFETCH(QString, regex);
        QFETCH(Output, output);
        QFETCH(bool, caption);
        ImageExportDialog d({QStringLiteral("Details"), QStringLiteral("Range Summary")});
        QCOMPARE(d.targetBox()->count(), 6);
        QVERIFY(d.targetBox()->itemText(5).contains(QStringLiteral("Range Summary")));
        Choice c;
        c.target = target;
        c.dock = dock;
        c.laneRegex = regex;
        c.output = output;
        c.caption = caption;
        d.setChoice(c);
        const Choice back = d.choice();
        QCOMPARE(back.target, target);
        QCOMPARE(back.dock, dock);
        QCOMPARE(back.laneRegex, regex);
        QCOMPARE(back.output, output);
        QCOMPARE(back.caption, caption);
        QCOMPARE(back.scale(), output == Output::PngScale2 ? 2.0 : 1.0);
        QCOMPARE(back.format() == ImageExporter::Format::Svg, output == Output::Svg);
        QCOMPARE(back.isTimeline(), target != Target::Window && target != Target::Dock);
        QCOMPARE(d.laneRegexEdit()->isEnabled(), target == Target::TimelineMatchingLanes);
        QCOMPARE(button(d, QStringLiteral("Copy"))->isEnabled(), output != Output::Svg);
    }

    void patternChecked()
    {
        ImageExportDialog d({});
        QCOMPARE(d.targetBox()->count(), 4);
        QPushButton *save = button(d, QStringLiteral("Save"));
        QVERIFY(save);
        QVERIFY(save->isEnabled());
        d.targetBox()->setCurrentIndex(2); // lanes matching
        QVERIFY(!save->isEnabled());       // empty pattern
        QTest::keyClicks(d.laneRegexEdit(), QStringLiteral("(stream"));
        QVERIFY(!save->isEnabled());
        QTest::keyClicks(d.laneRegexEdit(), QStringLiteral(")"));
        QVERIFY(save->isEnabled());
        QCOMPARE(d.choice().laneRegex, QStringLiteral("(stream)"));
        if (!qEnvironmentVariableIsEmpty("LANESCOPE_KEEP_IMAGES")) {
            d.show();
            d.grab().save(qEnvironmentVariable("LANESCOPE_KEEP_IMAGES") + QStringLiteral("/export-dialog.png"));
        }
        d.targetBox()->setCurrentIndex(0); // all lanes: the pattern does not matter
        QVERIFY(d.choice().laneRegex.isEmpty());
        QVERIFY(save->isEnabled());
    }

    void buttonsCloseWithTheirResult()
    {
        ImageExportDialog d({});
        QTimer::singleShot(0, &d, [&d] { button(d, QStringLiteral("Copy"))->click(); });
        QCOMPARE(d.exec(), int(ImageExportDialog::Copy));
        QTimer::singleShot(0, &d, [&d] { button(d, QStringLiteral("Save"))->click(); });
        QCOMPARE(d.exec(), int(ImageExportDialog::Save));
        QTimer::singleShot(0, &d, [&d] { d.reject(); });
        QCOMPARE(d.exec(), int(ImageExportDialog::Cancelled));
    }
};

QTEST_MAIN(TestImageExportDialog)
#include "tst_imageexportdialog.moc"
