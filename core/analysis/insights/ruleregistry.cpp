#include "ruleregistry.h"

#include "devicerules.h"
#include "fusionrule.h"
#include "hostrules.h"
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
        RuleRegistry r;
        r.add(std::make_unique<FusionCandidateRule>());
        HostRules::addTo(r);
        StepRules::addTo(r);
        DeviceRules::addTo(r);
        return r;
    }();
    return registry;
}

} // namespace lanescope
