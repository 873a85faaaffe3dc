#include "host/report/walk_forward_file.h"

#include <limits>
#include <stdexcept>

#include "host/json/checked_json.h"
#include "reference/metrics/period_statistics.h"

namespace btforge {

namespace {

// Note [Reading a validation file]
// The file is a sweep's output, but the reader takes whatever it is given
// as hostile: every member is looked up by name and checked for its type and
// range before it is used, so a wrong file is refused with its JSON pointer
// and what was expected, never with a library's text or a number converted
// out of range. The periods are 1..kMaxPeriods with one span each; the steps
// trade periods 1..periods-1 in increasing order (a walk-forward needs one
// in-sample period before the first), each a combination id that is a
// whole number and the parameters as strings.
class Reader {
public:
    explicit Reader(std::string origin) : origin_(std::move(origin)) {}

    // "FILE: /pointer: what" ("the document" for the root).
    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        throw std::runtime_error(origin_ + ": " + where(pointer) + ": " + what);
    }

    static std::string where(const std::string& pointer) {
        return pointer.empty() ? std::string("the document") : pointer;
    }

    static std::string kind(const nlohmann::json& value) {
        if (value.is_null()) return "null";
        if (value.is_boolean()) return "a boolean";
        if (value.is_number()) return "a number";
        if (value.is_string()) return "a string";
        if (value.is_array()) return "an array";
        return "an object";
    }

    const nlohmann::json& object(const nlohmann::json& value, const std::string& pointer) const {
        if (!value.is_object()) fail(pointer, "expected an object, got " + kind(value));
        return value;
    }

    const nlohmann::json& array(const nlohmann::json& value, const std::string& pointer) const {
        if (!value.is_array()) fail(pointer, "expected an array, got " + kind(value));
        return value;
    }

    const nlohmann::json& member(const nlohmann::json& object, const std::string& pointer, const char* key) const {
        const auto found = object.find(key);
        if (found == object.end()) {
            throw std::runtime_error(origin_ + ": " + where(pointer) + " has no \"" + key + "\"");
        }
        return *found;
    }

    std::string text(const nlohmann::json& value, const std::string& pointer) const {
        if (!value.is_string()) fail(pointer, "expected a string, got " + kind(value));
        return value.get<std::string>();
    }

    double real(const nlohmann::json& value, const std::string& pointer) const {
        if (!value.is_number()) fail(pointer, "expected a number, got " + kind(value));
        return value.get<double>();
    }

    // A whole number in [low, high], read without converting out of range.
    std::uint64_t whole(const nlohmann::json& value, const std::string& pointer, std::uint64_t low,
                        std::uint64_t high) const {
        const std::string range = std::to_string(low) + ".." + std::to_string(high);
        if (value.is_number_unsigned()) {
            const std::uint64_t x = value.get<std::uint64_t>();
            if (x >= low && x <= high) return x;
            fail(pointer, "expected a whole number in " + range + ", got " + value.dump());
        }
        fail(pointer, "expected a whole number in " + range + ", got " +
                          (value.is_number() ? value.dump() : kind(value)));
    }

private:
    std::string origin_;
};

}  // namespace

WalkForwardFile parse_walk_forward_file(std::string_view text, const std::string& origin) {
    nlohmann::json parsed;
    try {
        parsed = parse_checked_json(text, origin);
    } catch (const JsonInputError& e) {
        throw std::runtime_error(e.what());
    }
    const Reader read(origin);
    const nlohmann::json& doc = read.object(parsed, "");
    WalkForwardFile out;
    out.periods = static_cast<int>(read.whole(read.member(doc, "", "periods"), "/periods", 1, kMaxPeriods));
    if (!doc.contains("walk_forward")) {
        throw std::runtime_error(origin + " has no walk-forward: it comes from `btforge sweep --walk-forward " +
                                 "anchored|rolling:K`");
    }
    if (out.periods < 2) read.fail("/periods", "a walk-forward needs at least 2 periods, the file has 1");
    const nlohmann::json& spans = read.array(read.member(doc, "", "period_spans"), "/period_spans");
    if (spans.size() != static_cast<std::size_t>(out.periods)) {
        read.fail("/period_spans", std::to_string(spans.size()) + " period spans for " + std::to_string(out.periods) +
                                       " periods");
    }
    for (std::size_t p = 0; p < spans.size(); ++p) {
        const std::string where = json_pointer_child("/period_spans", p);
        const nlohmann::json& span = read.object(spans[p], where);
        out.period_spans.emplace_back(
            read.text(read.member(span, where, "first_bar_time"), json_pointer_child(where, "first_bar_time")),
            read.text(read.member(span, where, "last_bar_time"), json_pointer_child(where, "last_bar_time")));
    }
    const nlohmann::json& walk = read.object(doc.at("walk_forward"), "/walk_forward");
    out.stitched_return = read.real(read.member(walk, "/walk_forward", "stitched_return"), "/walk_forward/stitched_return");
    const nlohmann::json& steps = read.array(read.member(walk, "/walk_forward", "steps"), "/walk_forward/steps");
    if (steps.empty()) read.fail("/walk_forward/steps", "the walk-forward has no step");
    int previous = 0;  // the first step trades period 1 or later
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string where = json_pointer_child("/walk_forward/steps", i);
        const nlohmann::json& s = read.object(steps[i], where);
        WalkForwardLeg leg;
        leg.step = static_cast<int>(i) + 1;
        leg.combination_id = read.whole(read.member(s, where, "combination_id"), json_pointer_child(where, "combination_id"),
                                        0, std::numeric_limits<std::uint64_t>::max());
        const std::string period = json_pointer_child(where, "out_of_sample_period");
        leg.out_of_sample_period = static_cast<int>(
            read.whole(read.member(s, where, "out_of_sample_period"), period, 1, static_cast<std::uint64_t>(out.periods - 1)));
        if (leg.out_of_sample_period <= previous) {
            read.fail(period, "the steps trade periods in increasing order; period " +
                                  std::to_string(leg.out_of_sample_period) + " follows period " + std::to_string(previous));
        }
        previous = leg.out_of_sample_period;
        const std::string where_parameters = json_pointer_child(where, "parameters");
        const nlohmann::json& parameters = read.array(read.member(s, where, "parameters"), where_parameters);
        std::vector<std::string> assignments;
        for (std::size_t a = 0; a < parameters.size(); ++a) {
            assignments.push_back(read.text(parameters[a], json_pointer_child(where_parameters, a)));
        }
        out.legs.push_back(leg);
        out.parameters.push_back(std::move(assignments));
    }
    return out;
}

WalkForwardFile read_walk_forward_file(const std::filesystem::path& file) {
    const std::string origin = file.string();
    std::string text;
    try {
        text = read_json_file(file, origin);
    } catch (const JsonInputError& e) {
        throw std::runtime_error(e.what());
    }
    return parse_walk_forward_file(text, origin);
}

}  // namespace btforge
