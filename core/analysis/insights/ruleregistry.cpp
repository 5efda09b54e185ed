#include "ruleregistry.h"

#include "captureinputrules.h"
#include "capturerules.h"
#include "collectiverules.h"
#include "devicerules.h"
#include "fusionrule.h"
#include "hostrules.h"
#include "insightcontext.h"
#include "rankrules.h"
#include "steprules.h"

#include <type_traits>

namespace lanescope {

namespace {

// A rule that is a function (RuleFunction or EngineRuleFunction): stamps its id on what it finds.
template <class Function>
class FunctionRule : public Rule
{
public:
    FunctionRule(std::string_view id, Function *rule) : m_id(id), m_rule(rule) {}
    std::string_view id() const override { return m_id; }
    void evaluate(InsightContext &context, std::vector<Finding> &out) const override
    {
        const size_t before = out.size();
        if constexpr (std::is_same_v<Function, EngineRuleFunction>) {
            const EngineBreakdownResult &engines = context.engines();
            if (engines.empty() || engines.denominatorNs <= 0)
                return;
            m_rule(context, engines, out);
        } else {
            m_rule(context, out);
        }
        for (size_t i = before; i < out.size(); ++i)
            out[i].rule = std::string(m_id);
    }

private:
    std::string_view m_id;
    Function *m_rule;
};

} // namespace

void RuleRegistry::add(std::string_view id, RuleFunction *rule)
{
    m_rules.push_back(std::make_shared<FunctionRule<RuleFunction>>(id, rule));
}

void RuleRegistry::add(std::string_view id, EngineRuleFunction *rule)
{
    m_rules.push_back(std::make_shared<FunctionRule<EngineRuleFunction>>(id, rule));
}

RuleRegistry RuleRegistry::subset(bool (*keep)(std::string_view id)) const
{
    RuleRegistry r;
    for (const auto &rule : m_rules)
        if (keep(rule->id()))
            r.m_rules.push_back(rule);
    return r;
}

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
        r.add("fusion-candidate", FusionRule::candidate);
        // host
        r.add("device-idle", HostRules::deviceIdle);
        r.add("sync-stall", HostRules::syncStall);
        r.add("launch-bound", HostRules::launchBound);
        r.add("host-device-copy", HostRules::hostDeviceCopy);
        r.add("launch-latency", HostRules::launchLatency);
        // steps
        r.add("step-warmup", StepRules::warmup);
        r.add("step-outlier", StepRules::outlier);
        // device (NTFF / neuron-profile engine breakdown)
        r.add("engine-bottleneck", DeviceRules::engineBottleneck);
        r.add("semaphore-wait", DeviceRules::semaphoreWait);
        r.add("dma-bound", DeviceRules::dmaBound);
        r.add("small-dma", DeviceRules::smallDma);
        r.add("spill-reload", DeviceRules::spillReload);
        r.add("throttling", DeviceRules::throttling);
        r.add("mfu-below-hfu", DeviceRules::mfuBelowHfu);
        r.add("tensor-transpose", DeviceRules::tensorTranspose);
        // capture checks: the host side, then the inputs (CaptureCheck runs these alone)
        r.add("capture-device-missing", CaptureRules::deviceMissing);
        r.add("capture-uncorrelated", CaptureRules::uncorrelated);
        r.add("capture-no-warmup", CaptureRules::noWarmup);
        r.add("capture-few-steps", CaptureRules::fewSteps);
        r.add("capture-partial-input", CaptureInputRules::partialInput);
        r.add("capture-clock-alignment", CaptureInputRules::clockAlignment);
        r.add("capture-profiler-warning", CaptureInputRules::profilerWarning);
        // ranks and collectives
        r.add("straggler-rank", RankRules::straggler);
        r.add("low-overlap", CollectiveRules::lowOverlap);
        r.add("collective-outlier", CollectiveRules::outlier);
        r.add("late-arrival", CollectiveRules::lateArrival);
        return r;
    }();
    return registry;
}

} // namespace lanescope
