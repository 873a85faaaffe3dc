#include "generator/parameter_claims.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace btforge::gen {

namespace {

using Values = std::set<long long>;

std::string listed(const Values& values) {
    std::string text;
    for (long long v : values) text += (text.empty() ? "" : ", ") + std::to_string(v);
    return text;
}

// The values of `base` under which every test of `guard` on `field` holds.
Values allowed(const Values& base, const std::vector<FieldTest>& guard, const std::string& field) {
    Values out;
    for (long long v : base) {
        bool holds = std::all_of(guard.begin(), guard.end(), [&](const FieldTest& t) {
            return t.field != field || (v == t.value) == t.equal;
        });
        if (holds) out.insert(v);
    }
    return out;
}

// One claimed parameter as the proof reads it: which fields stand for it.
struct Claim {
    std::size_t parameter = 0;
    Values values;
    std::string params_field;                         // e.g. "btforge::DefaultParams::ema_fast"
    std::map<std::string, std::string> series_fields;  // series field -> indicator id
};

class ClaimProof {
public:
    ClaimProof(const ReferenceModel& model, const StrategyTarget& target, std::vector<Violation>& out)
        : target_(target), out_(out) {
        for (const Entity& e : model.entities) {
            if (e.kind == Entity::Kind::Function) functions_.emplace(e.qualified_name, &e);
        }
        entities_ = &model.entities;
    }

    void prove(std::size_t controller) {
        const StrategySpec& spec = target_.spec;
        const ParameterSpec& c = spec.parameters[controller];
        const std::string controller_field = target_.params_struct + "::" + c.name;
        std::vector<Claim> claims;
        for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
            const ParameterSpec& p = spec.parameters[i];
            if (!p.read_when || p.read_when->parameter != controller) continue;
            Claim claim;
            claim.parameter = i;
            for (double v : p.read_when->values) claim.values.insert(static_cast<long long>(v));
            claim.params_field = target_.params_struct + "::" + p.name;
            for (const IndicatorUse& use : spec.indicators) {
                for (const IndicatorArg& arg : use.args) {
                    if (arg.parameter == i) claim.series_fields.emplace(target_.series_struct + "::" + use.id, use.id);
                }
            }
            claims.push_back(std::move(claim));
        }
        if (claims.empty()) return;

        Values domain;
        for (auto v = static_cast<long long>(c.min); v <= static_cast<long long>(c.max); ++v) domain.insert(v);
        std::map<std::string, Values> reach = reachable_values(domain, controller_field);

        std::set<std::tuple<std::string, unsigned, unsigned, std::size_t>> reported;
        for (const auto& [name, values] : reach) {
            for (const Entity* f : overloads(name)) {
                for (const GuardedUse& use : f->uses) {
                    if (use.kind != GuardedUse::Kind::FieldRead) continue;
                    for (const Claim& claim : claims) {
                        auto series = claim.series_fields.find(use.target);
                        if (use.target != claim.params_field && series == claim.series_fields.end()) continue;
                        Values outside;
                        for (long long v : allowed(values, use.guard, controller_field)) {
                            if (claim.values.count(v) == 0) outside.insert(v);
                        }
                        if (outside.empty()) continue;
                        auto key = std::make_tuple(use.location.file, use.location.line, use.location.column, claim.parameter);
                        if (!reported.insert(key).second) continue;
                        const ParameterSpec& p = spec.parameters[claim.parameter];
                        std::string what = series == claim.series_fields.end()
                                               ? p.name
                                               : "the series " + series->second + ", made from " + p.name + ",";
                        out_.push_back({use.location, "read-claim",
                                        what + " is read here where " + c.name + " may be " + listed(outside) + ", but " +
                                            target_.spec_file + ": " + p.read_when->json_path + " claims it is read only where " +
                                            c.name + " is " + listed(claim.values) +
                                            " (Note [Parameters a mode reads]: guard the read with a test of " + c.name +
                                            ", or correct the claim)"});
                    }
                }
            }
        }
    }

    // Note [Parameters a mode reads]: the tests mean what they say only for
    // the parameters the strategy received.
    void refuse_changeable_parameters() {
        std::set<std::pair<std::string, unsigned>> lines;  // one report per line
        for (const Entity& e : *entities_) {
            for (const ChangeableInstance& d : e.changeable_instances) {
                if (d.type != target_.params_struct || !lines.insert({d.location.file, d.location.line}).second) continue;
                out_.push_back({d.location, "read-claim",
                                "a copy of " + d.type + ", or a way to change it, is made here, so a test of a "
                                "parameter may not say what the strategy received; " + target_.spec_file +
                                "'s read_when claims need the parameters read through const references only "
                                "(Note [Parameters a mode reads])"});
            }
        }
    }

private:
    std::vector<const Entity*> overloads(const std::string& name) const {
        std::vector<const Entity*> out;
        auto [begin, end] = functions_.equal_range(name);
        for (auto it = begin; it != end; ++it) out.push_back(it->second);
        return out;
    }

    // Each function reachable from the entry, with the controller's values
    // under which it may run.
    std::map<std::string, Values> reachable_values(const Values& domain, const std::string& controller_field) const {
        std::map<std::string, Values> reach{{target_.entry, domain}};
        std::deque<std::string> work{target_.entry};
        while (!work.empty()) {
            std::string name = work.front();
            work.pop_front();
            Values values = reach[name];
            for (const Entity* f : overloads(name)) {
                for (const GuardedUse& use : f->uses) {
                    if (use.kind != GuardedUse::Kind::Call) continue;
                    Values& callee = reach[use.target];
                    std::size_t before = callee.size();
                    for (long long v : allowed(values, use.guard, controller_field)) callee.insert(v);
                    if (callee.size() != before) work.push_back(use.target);
                }
            }
        }
        return reach;
    }

    const StrategyTarget& target_;
    std::vector<Violation>& out_;
    std::multimap<std::string, const Entity*> functions_;
    const std::vector<Entity>* entities_ = nullptr;
};

}  // namespace

std::vector<Violation> check_parameter_claims(const ReferenceModel& model, const GeneratorConfig& config) {
    std::vector<Violation> out;
    for (const StrategyTarget& target : config.strategies) {
        std::set<std::size_t> controllers;
        for (const ParameterSpec& p : target.spec.parameters) {
            if (p.read_when) controllers.insert(p.read_when->parameter);
        }
        ClaimProof proof(model, target, out);
        for (std::size_t controller : controllers) proof.prove(controller);
        if (!controllers.empty()) proof.refuse_changeable_parameters();
    }
    std::stable_sort(out.begin(), out.end(), [](const Violation& a, const Violation& b) {
        return std::tie(a.location.file, a.location.line, a.location.column) <
               std::tie(b.location.file, b.location.line, b.location.column);
    });
    return out;
}

}  // namespace btforge::gen
