// FindingsListView: one card per finding with its title, detail, action, recoverable time, rule and
// tag; Show is enabled only with events or ranges and emits the finding's index; an empty list shows
// its empty text; the cards are as tall as their wrapped text (nothing clipped in a narrow column).
#include "summary/findingslistview.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace lanescope;

namespace {

Finding finding(const std::string &rule, Severity s, bool withEvents)
{
    Finding f;
    f.rule = rule;
    f.severity = s;
    f.title = "Fusion candidate: rmsnorm naive makes 4 separate device executions";
    f.detail = "rmsnorm naive: 1 occurrence(s), 4 device executions (aten::pow, aten::mean, aten::rsqrt, aten::mul per "
               "occurrence); device total 351.117 us (op table); device idle between them 62.173 us in 18 gap(s)";
    f.action = "Fuse the ops into one device execution: torch.compile the region <or> write one kernel";
    f.recoverableNs = 62173;
    if (withEvents) {
        f.addEvent(7);
        f.ranges.push_back({100, 200});
    }
    return f;
}

} // namespace

class TestFindingsListView : public QObject
{
    Q_OBJECT

private slots:
    void cards()
    {
        FindingsListView list(QStringLiteral("Findings"));
        list.setFindings({finding("fusion-candidate", Severity::Medium, true), finding("small-dma", Severity::Low, false)},
                         {QStringLiteral("resolved"), QString()});
        QCOMPARE(list.count(), 2);
        const QString first = list.cardText(0);
        QVERIFY(first.contains(QStringLiteral("rmsnorm naive makes 4 separate device executions")));
        QVERIFY(first.contains(QStringLiteral("62.173 µs")));
        QVERIFY(first.contains(QStringLiteral("[resolved]")));
        QVERIFY(first.contains(QStringLiteral("&lt;or&gt;"))); // text is escaped, not markup
        QVERIFY(first.contains(QStringLiteral("1 event(s)")));
        QVERIFY(!list.cardText(1).contains(QStringLiteral("[")));
        QVERIFY(list.showButton(0)->isEnabled());
        QVERIFY(!list.showButton(1)->isEnabled()); // nothing to show
        QSignalSpy spy(&list, &FindingsListView::showRequested);
        list.showButton(0)->click();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.first().first().toInt(), 0);
        QVERIFY(list.showButton(5) == nullptr);
        QVERIFY(list.cardText(-1).isEmpty());
    }

    void emptyText()
    {
        FindingsListView list(QStringLiteral("Capture"));
        list.setEmptyText(QStringLiteral("No capture problem found."));
        list.setFindings({});
        list.show();
        const auto labels = list.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel *l) {
            return l->isVisible() && l->text() == QStringLiteral("No capture problem found.");
        }));
    }

    // In a narrow column the text wraps to many lines and the card grows with it.
    void narrowCardsAreNotClipped()
    {
        FindingsListView list(QStringLiteral("Findings"));
        list.setFindings({finding("fusion-candidate", Severity::High, true)});
        list.resize(260, 100);
        list.show();
        QTest::qWait(50);
        const auto labels = list.findChildren<QLabel *>();
        QLabel *body = nullptr;
        for (QLabel *l : labels)
            if (l->text().contains(QStringLiteral("Fuse the ops")))
                body = l;
        QVERIFY(body);
        QTRY_COMPARE(body->height(), body->heightForWidth(body->width()));
        QVERIFY(body->height() > 8 * body->fontMetrics().height()); // wrapped to many lines
        list.setShowEnabled(false);
        QVERIFY(!list.showButton(0)->isVisible());
    }

    void darkRebuildsCards()
    {
        FindingsListView list(QStringLiteral("Findings"));
        list.setFindings({finding("fusion-candidate", Severity::High, true)});
        QPushButton *before = list.showButton(0);
        list.setDark(true);
        QVERIFY(list.showButton(0) != before); // rebuilt with the dark colours
        QCOMPARE(list.count(), 1);
        QVERIFY(FindingsListView::severityColor(Severity::High, true) != FindingsListView::severityColor(Severity::High, false));
    }
};

QTEST_MAIN(TestFindingsListView)
#include "tst_findingslistview.moc"
