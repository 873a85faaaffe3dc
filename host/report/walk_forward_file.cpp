#include "host/report/walk_forward_file.h"

#include <stdexcept>

#include "host/json/checked_json.h"

namespace btforge {

namespace {

const nlohmann::json& member(const nlohmann::json& object, const char* key, const std::string& where,
                             const std::string& origin) {
    if (!object.is_object() || !object.contains(key)) {
        throw std::runtime_error(origin + ": " + where + " has no \"" + key + "\"");
    }
    return object.at(key);
}

template <class T>
T number(const nlohmann::json& value, const std::string& where, const std::string& origin) {
    if (!value.is_number()) throw std::runtime_error(origin + ": " + where + " is not a number");
    return value.get<T>();
}

}  // namespace

WalkForwardFile read_walk_forward_file(const std::filesystem::path& file) {
    const std::string origin = file.string();
    nlohmann::json doc;
    try {
        doc = parse_checked_json(read_json_file(file, origin), origin);
    } catch (const JsonInputError& e) {
        throw std::runtime_error(e.what());
    }
    WalkForwardFile out;
    out.periods = number<int>(member(doc, "periods", "the document", origin), "/periods", origin);
    if (!doc.contains("walk_forward")) {
        throw std::runtime_error(origin + " has no walk-forward: it comes from `btforge sweep --walk-forward " +
                                 "anchored|rolling:K`");
    }
    for (const nlohmann::json& span : member(doc, "period_spans", "the document", origin)) {
        out.period_spans.emplace_back(member(span, "first_bar_time", "a period span", origin).get<std::string>(),
                                      member(span, "last_bar_time", "a period span", origin).get<std::string>());
    }
    if (static_cast<int>(out.period_spans.size()) != out.periods) {
        throw std::runtime_error(origin + ": " + std::to_string(out.period_spans.size()) + " period spans for " +
                                 std::to_string(out.periods) + " periods");
    }
    const nlohmann::json& walk = doc.at("walk_forward");
    out.stitched_return = number<double>(member(walk, "stitched_return", "/walk_forward", origin),
                                         "/walk_forward/stitched_return", origin);
    int step = 0;
    for (const nlohmann::json& s : member(walk, "steps", "/walk_forward", origin)) {
        const std::string where = "/walk_forward/steps/" + std::to_string(step);
        WalkForwardLeg leg;
        leg.step = ++step;
        leg.combination_id = number<std::uint64_t>(member(s, "combination_id", where, origin), where, origin);
        leg.out_of_sample_period = number<int>(member(s, "out_of_sample_period", where, origin), where, origin);
        if (leg.out_of_sample_period < 0 || leg.out_of_sample_period >= out.periods) {
            throw std::runtime_error(origin + ": " + where + " trades period " +
                                     std::to_string(leg.out_of_sample_period) + " of " + std::to_string(out.periods));
        }
        out.legs.push_back(leg);
        out.parameters.push_back(member(s, "parameters", where, origin).get<std::vector<std::string>>());
    }
    if (out.legs.empty()) throw std::runtime_error(origin + ": the walk-forward has no step");
    return out;
}

}  // namespace btforge
