#include "ruleregistry.h"

#include "capturerules.h"
#include "collectiverules.h"
#include "devicerules.h"
#include "fusionrule.h"
#include "hostrules.h"
#include "rankrules.h"
#include "steprules.h"

namespace lanescope {

const Rule *RuleRegistry::find(std::string_view id) const
{
    for (const auto &r : m_rules)
        if (r->id() == id)
            return r.get();
    return nullptr;
}

const RuleRegistry &RuleRegistry::defaults()
{
    static const RuleRegistry registry = [] {
        RuleList rules;
        rules.push_back(std::make_unique<FusionCandidateRule>());
        HostRules::addTo(rules);
        StepRules::addTo(rules);
        DeviceRules::addTo(rules);
        CaptureRules::addTo(rules); // capture checks (ids "capture-...", docs/insights.md)
        RankRules::addTo(rules);
        CollectiveRules::addTo(rules);
        RuleRegistry r;
        for (auto &rule : rules)
            r.add(std::move(rule));
        return r;
    }();
    return registry;
}

} // namespace lanescope
