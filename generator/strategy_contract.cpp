#include "generator/strategy_contract.h"

#include <map>
#include <set>

namespace btforge::gen {

namespace {

const Entity* find(const ReferenceModel& model, const std::string& qualified_name) {
    for (const Entity& e : model.entities) {
        if (e.qualified_name == qualified_name) return &e;
    }
    return nullptr;
}

// "const btforge::SmaCrossParams &" -> "btforge::SmaCrossParams"; "" when the
// type is not a const reference.
std::string const_reference_target(const std::string& type) {
    const std::string prefix = "const ";
    const std::string suffix = " &";
    if (type.size() <= prefix.size() + suffix.size() || type.compare(0, prefix.size(), prefix) != 0 ||
        type.compare(type.size() - suffix.size(), suffix.size(), suffix) != 0) {
        return "";
    }
    return type.substr(prefix.size(), type.size() - prefix.size() - suffix.size());
}

struct Expected {
    std::string name;
    std::string type;     // the field's type the spec asks for
    std::string pointer;  // into the spec, e.g. "/parameters/2"
    std::string what;     // "int parameter", "indicator series"
};

// One struct against the spec's list: missing, misplaced, mistyped and extra
// fields, every one of them.
void match_fields(const Entity& s, const std::vector<Expected>& expected, const std::string& spec_file,
                  std::vector<Violation>& out) {
    std::map<std::string, std::size_t> field_index;
    for (std::size_t i = 0; i < s.fields.size(); ++i) field_index.emplace(s.fields[i].name, i);
    std::set<std::string> wanted;
    for (std::size_t j = 0; j < expected.size(); ++j) {
        const Expected& e = expected[j];
        wanted.insert(e.name);
        auto it = field_index.find(e.name);
        if (it == field_index.end()) {
            out.push_back({s.location, "spec-mismatch",
                           s.name + " has no field '" + e.name + "' for " + spec_file + ": " + e.pointer + " (" +
                               e.what + "): add `" + e.type + " " + e.name + ";` as field " + std::to_string(j)});
            continue;
        }
        const Field& f = s.fields[it->second];
        if (f.type != e.type) {
            out.push_back({f.location, "spec-mismatch",
                           s.name + "::" + f.name + " is '" + f.type + "' but " + spec_file + ": " + e.pointer +
                               " is the " + e.what + " '" + e.name + "': declare it '" + e.type + "'"});
        }
        if (it->second != j) {
            out.push_back({f.location, "spec-mismatch",
                           s.name + "::" + f.name + " is field " + std::to_string(it->second) + " but " + spec_file +
                               ": " + e.pointer + " is entry " + std::to_string(j) +
                               ": keep the fields in the spec's order"});
        }
    }
    for (const Field& f : s.fields) {
        if (wanted.count(f.name) == 0) {
            out.push_back({f.location, "spec-mismatch",
                           s.name + "::" + f.name + " is not in " + spec_file +
                               ": every field is a spec entry (add it to the spec or remove the field)"});
        }
    }
}

// "run_x_strategy(const MarketView& market, const XSeries& series, ...)" as
// the config has it, for the messages.
std::string signature_text(const std::string& entry, const std::vector<EntryParameter>& expected) {
    std::string text = entry + "(";
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const EntryParameter& p = expected[i];
        const std::string type = p.type == "series" ? "const NAMESeries &" : p.type == "params" ? "const NAMEParams &" : p.type;
        text += (i == 0 ? "" : ", ") + type + (type.back() == '&' || type.back() == '*' ? "" : " ") + p.name;
    }
    return text + ")";
}

// Note [Entry signature checked]
// The templates call a strategy's entry with the arguments of
// spec/generator.json "strategy_entry". An entry written to an older
// signature (before `periods` was added, say) would otherwise pass the
// generator and fail later as a C++ error inside generated/NAME_binding.cpp,
// far from the strategy; here it is said at the entry, with the parameters
// it lacks or has too many and the signature to write.
void check_entry_signature(const Entity& entry, const StrategyTarget& t, const std::vector<EntryParameter>& expected,
                           std::vector<Violation>& out) {
    if (expected.empty()) return;
    const std::vector<Parameter>& got = entry.parameters;
    if (got.size() != expected.size()) {
        std::string missing;
        for (std::size_t i = got.size(); i < expected.size(); ++i) {
            missing += (missing.empty() ? "" : ", ") + expected[i].name;
        }
        std::string detail = got.size() < expected.size()
                                 ? "it lacks the last " + std::to_string(expected.size() - got.size()) + " (" + missing +
                                       "): an outdated signature"
                                 : "it has " + std::to_string(got.size() - expected.size()) + " too many";
        out.push_back({entry.location, "strategy-entry",
                       t.entry + " takes " + std::to_string(got.size()) + " parameters, the templates pass " +
                           std::to_string(expected.size()) + ": " + detail + "; write " +
                           signature_text(entry.name, expected)});
        return;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const EntryParameter& want = expected[i];
        if (want.type == "series" || want.type == "params") continue;  // checked against the spec below
        if (got[i].type != want.type) {
            out.push_back({entry.location, "strategy-entry",
                           t.entry + ": parameter " + std::to_string(i + 1) + " (" + got[i].name + ") is '" +
                               got[i].type + "' but the templates pass " + want.name + " as '" + want.type +
                               "'; write " + signature_text(entry.name, expected)});
        }
    }
}

}  // namespace

std::string owning_strategy(const Entity& entity, const GeneratorConfig& config) {
    for (const StrategyTarget& t : config.strategies) {
        const std::string folder = "reference/strategies/" + t.spec.name + "/";
        if (entity.location.file.compare(0, folder.size(), folder) == 0) return t.spec.name;
    }
    return "";
}

std::vector<Violation> check_strategy_contracts(const ReferenceModel& model, GeneratorConfig& config) {
    std::vector<Violation> out;
    for (StrategyTarget& t : config.strategies) {
        const SourceLocation header{t.header, 1, 1};
        const Entity* entry = find(model, t.entry);
        if (entry == nullptr || entry->kind != Entity::Kind::Function) {
            out.push_back({header, "strategy-entry",
                           "no BT_KERNEL function " + t.entry + " in " + t.header +
                               " (Note [Strategy discovery]: the entry of strategy '" + t.spec.name +
                               "' is named after it)"});
            continue;
        }
        check_entry_signature(*entry, t, config.strategy_entry, out);
        const Entity* structs[2] = {nullptr, nullptr};  // series, params
        const char* roles[2] = {"series", "parameter"};
        for (int k = 0; k < 2; ++k) {
            std::size_t position = static_cast<std::size_t>(k) + 1;
            std::string target =
                position < entry->parameters.size() ? const_reference_target(entry->parameters[position].type) : "";
            const Entity* s = target.empty() ? nullptr : find(model, target);
            if (s == nullptr || s->kind != Entity::Kind::Struct) {
                out.push_back({entry->location, "strategy-entry",
                               t.entry + ": parameter " + std::to_string(position + 1) +
                                   " must be a const reference to the strategy's BT_KERNEL " + roles[k] +
                                   " struct (run_NAME_strategy(market, series, params, account, metrics, log, "
                                   "equity_curve, periods))"});
                continue;
            }
            structs[k] = s;
        }
        if (structs[0] != nullptr) t.series_struct = structs[0]->qualified_name;
        if (structs[1] != nullptr) t.params_struct = structs[1]->qualified_name;
        if (structs[1] != nullptr) {
            std::vector<Expected> params;
            for (std::size_t j = 0; j < t.spec.parameters.size(); ++j) {
                const ParameterSpec& p = t.spec.parameters[j];
                params.push_back({p.name, p.type == ParameterType::Double ? "double" : "int",
                                  "/parameters/" + std::to_string(j), std::string(to_string(p.type)) + " parameter"});
            }
            match_fields(*structs[1], params, t.spec_file, out);
        }
        if (structs[0] != nullptr) {
            std::vector<Expected> series;
            for (std::size_t j = 0; j < t.spec.indicators.size(); ++j) {
                series.push_back({t.spec.indicators[j].id, "const double *", "/indicators/" + std::to_string(j),
                                  "indicator series (" + t.spec.indicators[j].indicator + ")"});
            }
            match_fields(*structs[0], series, t.spec_file, out);
        }
    }

    // A strategy's own entities are reached from its own folder only.
    std::map<std::string, std::string> owner_of;  // unqualified name -> strategy
    for (const Entity& e : model.entities) {
        std::string owner = owning_strategy(e, config);
        if (!owner.empty()) owner_of.emplace(e.name, owner);
    }
    for (const Entity& e : model.entities) {
        std::string user = owning_strategy(e, config);
        std::set<std::string> reported;
        for (const Token& token : e.tokens) {
            if (token.kind != Token::Kind::Identifier) continue;
            auto it = owner_of.find(token.spelling);
            if (it == owner_of.end() || it->second == user || !reported.insert(token.spelling).second) continue;
            out.push_back({e.location, "strategy-coupling",
                           e.name + (user.empty() ? " (shared code)" : " (strategy '" + user + "')") + " uses " +
                               token.spelling + " of strategy '" + it->second +
                               "': move what both need out of reference/strategies/" + it->second +
                               "/ into a shared folder of reference/"});
        }
    }
    return out;
}

}  // namespace btforge::gen
