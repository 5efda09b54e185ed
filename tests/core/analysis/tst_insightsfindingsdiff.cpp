// FindingsDiff: findings of two profiles matched by rule and subject: resolved, new, changed.
#include "analysis/insights/findingsdiff.h"

#include <QtTest>

using namespace lanescope;

namespace {

Finding make(const char *rule, const std::string &title, double value, Severity s = Severity::Medium)
{
    Finding f;
    f.rule = rule;
    f.title = title;
    f.value = value;
    f.severity = s;
    return f;
}

} // namespace

class TestInsightsFindingsDiff : public QObject
{
    Q_OBJECT
private slots:
    void key()
    {
        QCOMPARE(FindingsDiff::key(make("fusion-candidate", "Fusion candidate: x makes 4 separate device executions", 4)),
                 FindingsDiff::key(make("fusion-candidate", "Fusion candidate: x makes 12 separate device executions", 12)));
        QVERIFY(FindingsDiff::key(make("fusion-candidate", "Fusion candidate: x makes 4", 4)) !=
                FindingsDiff::key(make("fusion-candidate", "Fusion candidate: y makes 4", 4)));
        QVERIFY(FindingsDiff::key(make("a", "t", 1)) != FindingsDiff::key(make("b", "t", 1)));
    }

    void compare()
    {
        const std::vector<Finding> a = {make("fusion-candidate", "Fusion candidate: n makes 4 separate", 4),
                                        make("device-idle", "Device idle 40.0 % of the time", 40),
                                        make("sync-stall", "Synchronisation 10.0 %", 10)};
        const std::vector<Finding> b = {make("device-idle", "Device idle 20.0 % of the time", 20, Severity::Low),
                                        make("sync-stall", "Synchronisation 10.2 %", 10.2),
                                        make("small-dma", "Small DMA transfers: 512 B on average", 512)};
        const FindingsDiffResult d = FindingsDiff::compare(a, b);
        QCOMPARE(d.resolved.size(), size_t(1));
        QCOMPARE(d.resolved[0].rule, std::string("fusion-candidate"));
        QCOMPARE(d.added.size(), size_t(1));
        QCOMPARE(d.added[0].rule, std::string("small-dma"));
        QCOMPARE(d.changed.size(), size_t(1)); // sync-stall moved by 2 %: unchanged
        QCOMPARE(d.changed[0].first.value, 40.0);
        QCOMPARE(d.changed[0].second.value, 20.0);
    }

    void empty()
    {
        const FindingsDiffResult d = FindingsDiff::compare({}, {});
        QVERIFY(d.resolved.empty() && d.added.empty() && d.changed.empty());
    }
};

QTEST_GUILESS_MAIN(TestInsightsFindingsDiff)
#include "tst_insightsfindingsdiff.moc"
