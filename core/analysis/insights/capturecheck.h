#pragma once
// The capture checks alone (CaptureRules: ids "capture-...", docs/insights.md "Capture checks") and
// their one-line verdict: "ok" or the most severe problem. `lanescope-cli info` prints the verdict;
// `insights` and the Summary page run them with every other rule (RuleRegistry::defaults()).
#include "finding.h"

#include <string>
#include <vector>

namespace lanescope {

class LaunchIndex;
class RuleRegistry;
class Trace;

class CaptureCheck
{
public:
    // Only the capture rules, in documentation order.
    static const RuleRegistry &rules();
    // The capture findings of the whole trace, most severe first.
    static std::vector<Finding> run(const Trace &trace, const LaunchIndex &index);
    static std::vector<Finding> run(const Trace &trace);
    // "ok" when `findings` holds no capture finding, else "<title> (<rule>)" of the first one, with
    // "; N more" when there are others.
    static std::string verdict(const std::vector<Finding> &findings);
};

} // namespace lanescope
