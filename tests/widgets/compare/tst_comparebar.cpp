// CompareBar: the compare strip's controls describe the CompareOptions the window applies. Driven with
// key and mouse events as a user would: the alignment picked in the combo box, the step and marker
// typed and confirmed, a nudge per profile, "Leave compare"; and options given to setProfiles come
// back from options() unchanged.
#include "compare/comparebar.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QToolButton>
#include <QtTest>

using namespace lanescope;

namespace {

struct Controls
{
    QComboBox *mode = nullptr, *nudgeProfile = nullptr;
    QSpinBox *step = nullptr;
    QLineEdit *marker = nullptr;
    QDoubleSpinBox *nudge = nullptr;
    QToolButton *close = nullptr;
};

// The bar's controls, told apart by what they hold (the bar names none of them).
Controls controlsOf(CompareBar &bar)
{
    Controls c;
    for (QComboBox *box : bar.findChildren<QComboBox *>())
        (box->count() == 4 && box->itemText(0).contains(QStringLiteral("trace start")) ? c.mode : c.nudgeProfile) = box;
    c.step = bar.findChild<QSpinBox *>();
    c.marker = bar.findChild<QLineEdit *>();
    c.nudge = bar.findChild<QDoubleSpinBox *>();
    c.close = bar.findChild<QToolButton *>();
    return c;
}

// Shows the bar (key events need an exposed window) with n profiles A, B, ... of files a.json, b.json, ...
bool showWithProfiles(CompareBar &bar, int n, const CompareOptions &options = {})
{
    bar.show();
    if (!QTest::qWaitForWindowExposed(&bar))
        return false;
    QStringList names, files;
    for (int i = 0; i < n; ++i) {
        names << QString(QChar(u'A' + i));
        files << QString(QChar(u'a' + i)) + QStringLiteral(".json");
    }
    bar.setProfiles(names, files, options);
    return true;
}

// Picks an alignment with the keyboard (Home, then Down as often as needed), as a user tabbing to the box.
void pickMode(QComboBox *box, int index)
{
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Home);
    for (int i = 0; i < index; ++i)
        QTest::keyClick(box, Qt::Key_Down);
}

} // namespace

class TestCompareBar : public QObject
{
    Q_OBJECT
private slots:
    void profilesAndOptionsRoundTrip();
    void alignmentFromTheControls();
    void nudgePerProfile();
    void selectionAndClose();
};

void TestCompareBar::profilesAndOptionsRoundTrip()
{
    CompareBar bar;
    CompareOptions in;
    in.anchor.kind = CompareAnchor::Kind::Step;
    in.anchor.step = 7;
    in.nudgeNs = {0, -2500, 1000};
    bar.setProfiles({QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")},
                    {QStringLiteral("/runs/naive/trace.json"), QStringLiteral("/runs/fused/trace.json"), QStringLiteral("/x/<b>.json")}, in);
    QCOMPARE(bar.mode(), CompareBar::AlignStep);
    const CompareOptions out = bar.options();
    QCOMPARE(int(out.anchor.kind), int(CompareAnchor::Kind::Step));
    QCOMPARE(out.anchor.step, int64_t(7));
    QCOMPARE(out.nudgeNs, (std::vector<int64_t>{0, -2500, 1000}));
    // The label names each profile by its file, escaped (a file name is not markup).
    const QLabel *label = bar.findChildren<QLabel *>().front();
    QVERIFY(label->text().contains(QStringLiteral("<b>B</b> = trace.json")));
    QVERIFY(label->text().contains(QStringLiteral("&lt;b&gt;.json")));
    QVERIFY(label->toolTip().contains(QStringLiteral("/runs/fused/trace.json")));

    // A marker anchor shows its name; fewer nudges than profiles leave the rest at 0.
    CompareOptions marker;
    marker.anchor.kind = CompareAnchor::Kind::Marker;
    marker.anchor.marker = "warmup_done";
    marker.nudgeNs = {5};
    bar.setProfiles({QStringLiteral("A"), QStringLiteral("B")}, {QStringLiteral("a.json"), QStringLiteral("b.json")}, marker);
    QCOMPARE(bar.mode(), CompareBar::AlignMarker);
    QCOMPARE(bar.options().anchor.marker, std::string("warmup_done"));
    QCOMPARE(bar.options().nudgeNs, (std::vector<int64_t>{5, 0}));
}

void TestCompareBar::alignmentFromTheControls()
{
    CompareBar bar;
    QVERIFY(showWithProfiles(bar, 2));
    const Controls c = controlsOf(bar);
    QVERIFY(c.mode && c.step && c.marker && c.nudge && c.nudgeProfile && c.close);
    QVERIFY(c.mode != c.nudgeProfile);
    QCOMPARE(bar.mode(), CompareBar::AlignStart);
    QVERIFY(!c.step->isVisible() && !c.marker->isVisible()); // only the chosen alignment's input shows

    QSignalSpy changed(&bar, &CompareBar::optionsChanged);
    pickMode(c.mode, CompareBar::AlignStep);
    QCOMPARE(bar.mode(), CompareBar::AlignStep);
    QVERIFY(c.step->isVisible() && !c.marker->isVisible());
    QVERIFY(changed.count() >= 1);
    // Typing a step and confirming it with Enter applies it.
    changed.clear();
    c.step->setFocus();
    c.step->selectAll();
    QTest::keyClicks(c.step, QStringLiteral("12"));
    QTest::keyClick(c.step, Qt::Key_Return);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(int(bar.options().anchor.kind), int(CompareAnchor::Kind::Step));
    QCOMPARE(bar.options().anchor.step, int64_t(12));

    pickMode(c.mode, CompareBar::AlignMarker);
    QVERIFY(c.marker->isVisible() && !c.step->isVisible());
    changed.clear();
    QTest::keyClicks(c.marker, QStringLiteral("nccl:all_reduce"));
    QCOMPARE(changed.count(), 0); // typing alone applies nothing
    QTest::keyClick(c.marker, Qt::Key_Return);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(int(bar.options().anchor.kind), int(CompareAnchor::Kind::Marker));
    QCOMPARE(bar.options().anchor.marker, std::string("nccl:all_reduce"));

    // Enter in the step box while aligning at a marker does not re-apply.
    changed.clear();
    c.step->setFocus();
    QTest::keyClick(c.step, Qt::Key_Return);
    QCOMPARE(changed.count(), 0);
}

void TestCompareBar::nudgePerProfile()
{
    CompareOptions in;
    in.nudgeNs = {0, 1500, -250};
    CompareBar bar;
    QVERIFY(showWithProfiles(bar, 3, in));
    const Controls c = controlsOf(bar);
    // The second profile is the one to nudge first; its nudge shows in µs.
    QCOMPARE(c.nudgeProfile->currentIndex(), 1);
    QCOMPARE(c.nudge->value(), 1.5);

    QSignalSpy changed(&bar, &CompareBar::optionsChanged);
    c.nudge->setFocus();
    c.nudge->selectAll();
    QTest::keyClicks(c.nudge, QStringLiteral("-3.25"));
    QTest::keyClick(c.nudge, Qt::Key_Return);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(bar.options().nudgeNs, (std::vector<int64_t>{0, -3250, -250}));

    // Switching the profile shows its own nudge and changes nothing.
    changed.clear();
    c.nudgeProfile->setFocus();
    QTest::keyClick(c.nudgeProfile, Qt::Key_Down);
    QCOMPARE(c.nudgeProfile->currentIndex(), 2);
    QCOMPARE(c.nudge->value(), -0.25);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(bar.options().nudgeNs, (std::vector<int64_t>{0, -3250, -250}));
}

void TestCompareBar::selectionAndClose()
{
    CompareBar bar;
    QVERIFY(showWithProfiles(bar, 2));
    const Controls c = controlsOf(bar);
    pickMode(c.mode, CompareBar::AlignMarker);
    QSignalSpy wantsAnchor(&bar, &CompareBar::alignToSelectionRequested);
    QSignalSpy changed(&bar, &CompareBar::optionsChanged);
    QTest::keyClick(c.mode, Qt::Key_Down); // marker -> selected event
    QCOMPARE(bar.mode(), CompareBar::AlignSelection);
    // The window computes the anchor from the selection; the bar asks for it instead of applying.
    QCOMPARE(wantsAnchor.count(), 1);
    QCOMPARE(changed.count(), 0);
    CompareAnchor anchor;
    anchor.kind = CompareAnchor::Kind::Times;
    anchor.times = {100, 250};
    bar.setSelectionAnchor(anchor);
    QCOMPARE(int(bar.options().anchor.kind), int(CompareAnchor::Kind::Times));
    QCOMPARE(bar.options().anchor.times, (std::vector<int64_t>{100, 250}));

    // A message: shown, red when it is an error, plain otherwise.
    const auto messageLabel = [&bar](const QString &text) -> QLabel * {
        for (QLabel *l : bar.findChildren<QLabel *>())
            if (l->text() == text)
                return l;
        return nullptr;
    };
    bar.setMessage(QStringLiteral("no ProfilerStep#3 in B"), true);
    QLabel *message = messageLabel(QStringLiteral("no ProfilerStep#3 in B"));
    QVERIFY(message);
    QVERIFY(message->styleSheet().contains(QStringLiteral("#c62828")));
    bar.setMessage(QStringLiteral("aligned at the selected event"));
    QCOMPARE(messageLabel(QStringLiteral("aligned at the selected event")), message);
    QVERIFY(message->styleSheet().isEmpty());

    QSignalSpy close(&bar, &CompareBar::closeRequested);
    QTest::mouseClick(c.close, Qt::LeftButton);
    QCOMPARE(close.count(), 1);
}

QTEST_MAIN(TestCompareBar)
#include "tst_comparebar.moc"
