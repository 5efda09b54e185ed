#pragma once
// The JSON shape of insights (`lanescope-cli insights --json`, the findings of `diff --json`):
//   {"metrics":{...},"capture":[...],"findings":[{"rule","severity","title","detail","action","value",
//    "threshold","recoverable_ns","events","ranges"}, ...]}
// "capture" holds the capture checks (Finding::isCapture), "findings" every other rule's findings.
// A finding reads back from its JSON (readFinding: the rank summaries of docs/job-summary.md).
#include "findingsdiff.h"
#include "insights.h"

#include <QJsonObject>

namespace lanescope {

class InsightsJson
{
public:
    static QJsonObject finding(const Finding &f);
    static QJsonObject metrics(const KeyMetrics &m);
    static QJsonObject result(const Insights::Result &r); // {"metrics", "capture", "findings"}
    static QJsonObject diff(const FindingsDiffResult &d);  // {"resolved", "new", "changed": [{"a", "b"}]}
    // finding() read back: empty on success, else what is wrong ("severity: expected high, medium or
    // low"); at most Finding::kMaxEvents events and ranges are kept.
    static std::string readFinding(const QJsonObject &o, Finding &out);
};

} // namespace lanescope
