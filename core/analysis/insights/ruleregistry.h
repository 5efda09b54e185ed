#pragma once
// The list of insights rules. `defaults()` holds every rule Lanescope ships, by id, in documentation
// order (fusion, host, steps, device, capture checks, ranks, collectives): a new rule is a RuleFunction
// in its family's file, declared in the family's header, and one line there.
#include "rule.h"

#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace lanescope {

class RuleRegistry
{
public:
    void add(std::unique_ptr<Rule> rule) { m_rules.push_back(std::move(rule)); }
    // A rule that is a function; it stamps `id` (a literal: it must outlive the registry) on every
    // finding `rule` appends (Finding::rule).
    void add(std::string_view id, RuleFunction *rule);
    void add(std::string_view id, EngineRuleFunction *rule);
    std::span<const std::shared_ptr<const Rule>> rules() const { return m_rules; }
    const Rule *find(std::string_view id) const;
    // The rules whose id `keep` accepts, in this registry's order (CaptureCheck: Finding::isCapture).
    RuleRegistry subset(bool (*keep)(std::string_view id)) const;

    // Every rule Lanescope ships, in documentation order.
    static const RuleRegistry &defaults();

private:
    std::vector<std::shared_ptr<const Rule>> m_rules;
};

} // namespace lanescope
