#pragma once
// The list of insights rules. `defaults()` holds every rule family (host, fusion, steps, device);
// a new rule, or a family such as capture checks, is one more entry added here.
#include "rule.h"

#include <memory>
#include <span>
#include <vector>

namespace lanescope {

class RuleRegistry
{
public:
    void add(std::unique_ptr<Rule> rule) { m_rules.push_back(std::move(rule)); }
    std::span<const std::unique_ptr<Rule>> rules() const { return m_rules; }
    const Rule *find(std::string_view id) const;

    // Every rule Lanescope ships, in documentation order.
    static const RuleRegistry &defaults();

private:
    std::vector<std::unique_ptr<Rule>> m_rules;
};

} // namespace lanescope
