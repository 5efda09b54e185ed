#pragma once
// The JSON shape of insights (`lanescope-cli insights --json`, the findings of `diff --json`):
//   {"metrics":{...},"capture":[...],"findings":[{"rule","severity","title","detail","action","value",
//    "threshold","recoverable_ns","events","ranges"}, ...]}
// "capture" holds the capture checks (Finding::isCapture), "findings" every other rule's findings.
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
};

} // namespace lanescope
