#include "host/app/run_inputs.h"

#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>

namespace btforge {

nlohmann::ordered_json run_inputs_json(const RunInputs& r) {
    nlohmann::ordered_json in;
    const auto path = [](const std::string& file) {
        return file.empty() || file.front() == '<' ? file : std::filesystem::absolute(file).lexically_normal().string();
    };
    in["strategy"] = r.strategy.strategy;
    if (!r.strategy.spec_file.empty()) in["spec"] = path(r.strategy.spec_file);
    if (!r.strategy.grid_file.empty()) in["grid"] = path(r.strategy.grid_file);
    if (!r.strategy.grid_text.empty()) {
        in["grid_text"] = r.strategy.grid_text;
        in["grid_text_origin"] = r.strategy.grid_text_origin;
    }
    if (!r.strategy.param_options.empty()) in["param"] = r.strategy.param_options;
    const MarketChoice& m = r.market;
    const MarketChoice defaults;
    if (!m.data_file.empty()) in["data"] = path(m.data_file);
    if (!m.instruments_file.empty()) in["instruments"] = path(m.instruments_file);
    if (!m.symbols.empty()) in["symbols"] = m.symbols;
    if (m.timestamp_unit != defaults.timestamp_unit) in["timestamp_unit"] = m.timestamp_unit;
    if (!m.funding_file.empty()) in["funding_file"] = path(m.funding_file);
    if (!m.intrabar_file.empty()) in["intrabar"] = path(m.intrabar_file);
    if (!m.mark_file.empty()) in["mark"] = path(m.mark_file);
    if (m.funding_rate != defaults.funding_rate) in["funding_rate"] = m.funding_rate;
    if (m.funding_interval_hours != defaults.funding_interval_hours) in["funding_interval_hours"] = m.funding_interval_hours;
    if (m.data_file.empty()) {
        in["synthetic_seed"] = m.synthetic_seed;
        in["synthetic_symbols"] = m.synthetic_symbols;
        in["synthetic_bars"] = m.synthetic_bars;
        in["synthetic_bar_minutes"] = m.synthetic_bar_minutes;
    }
    if (!r.window.from.empty()) in["from"] = r.window.from;
    if (!r.window.to.empty()) in["to"] = r.window.to;
    for (std::size_t i = 0; i < kAccountSettings; ++i) {
        if (r.account.overrides.values[i]) in[std::string(account_settings()[i].key)] = *r.account.overrides.values[i];
    }
    if (!r.account.margin_mode.empty()) in["margin_mode"] = r.account.margin_mode;
    return in;
}

RunInputs run_inputs_from_json(const nlohmann::json& inputs, const std::string& origin) {
    if (!inputs.is_object()) throw std::runtime_error(origin + ": /inputs: expected an object of the run's options");
    RunInputs r;
    const auto fail = [&origin](const std::string& key, const std::string& what) {
        return std::runtime_error(origin + ": /inputs/" + key + ": expected " + what);
    };
    using Reader = std::function<void(const std::string&, const nlohmann::json&)>;
    const auto text = [&fail](std::string& target) -> Reader {
        return [&target, fail](const std::string& key, const nlohmann::json& v) {
            if (!v.is_string()) throw fail(key, "a string");
            target = v.get<std::string>();
        };
    };
    const auto number = [&fail](double& target) -> Reader {
        return [&target, fail](const std::string& key, const nlohmann::json& v) {
            if (!v.is_number()) throw fail(key, "a number");
            target = v.get<double>();
        };
    };
    const auto whole = [&fail](auto& target) -> Reader {
        return [&target, fail](const std::string& key, const nlohmann::json& v) {
            using T = std::remove_reference_t<decltype(target)>;
            if (!v.is_number_integer() || (v.is_number_unsigned() ? v.get<std::uint64_t>() > std::numeric_limits<T>::max()
                                                                   : v.get<std::int64_t>() < 0 ||
                                                                         static_cast<std::uint64_t>(v.get<std::int64_t>()) >
                                                                             std::numeric_limits<T>::max())) {
                throw fail(key, "a whole number");
            }
            target = v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>()) : static_cast<T>(v.get<std::int64_t>());
        };
    };
    std::map<std::string, Reader> readers = {
        {"strategy", text(r.strategy.strategy)},
        {"spec", text(r.strategy.spec_file)},
        {"grid", text(r.strategy.grid_file)},
        {"grid_text", text(r.strategy.grid_text)},
        {"grid_text_origin", text(r.strategy.grid_text_origin)},
        {"param",
         [&](const std::string& key, const nlohmann::json& v) {
             if (!v.is_array()) throw fail(key, "a list of --param texts");
             for (const nlohmann::json& item : v) {
                 if (!item.is_string()) throw fail(key, "a list of --param texts");
                 r.strategy.param_options.push_back(item.get<std::string>());
             }
         }},
        {"data", text(r.market.data_file)},
        {"instruments", text(r.market.instruments_file)},
        {"symbols", text(r.market.symbols)},
        {"timestamp_unit", text(r.market.timestamp_unit)},
        {"funding_file", text(r.market.funding_file)},
        {"intrabar", text(r.market.intrabar_file)},
        {"mark", text(r.market.mark_file)},
        {"funding_rate", number(r.market.funding_rate)},
        {"funding_interval_hours", number(r.market.funding_interval_hours)},
        {"synthetic_seed", whole(r.market.synthetic_seed)},
        {"synthetic_symbols", whole(r.market.synthetic_symbols)},
        {"synthetic_bars", whole(r.market.synthetic_bars)},
        {"synthetic_bar_minutes", whole(r.market.synthetic_bar_minutes)},
        {"from", text(r.window.from)},
        {"to", text(r.window.to)},
        {"margin_mode", text(r.account.margin_mode)},
    };
    for (std::size_t i = 0; i < kAccountSettings; ++i) {
        readers[std::string(account_settings()[i].key)] = [&r, i, fail](const std::string& key,
                                                                          const nlohmann::json& v) {
            if (!v.is_number()) throw fail(key, "a number");
            r.account.overrides.values[i] = v.get<double>();
        };
    }
    for (const auto& [key, value] : inputs.items()) {
        const auto reader = readers.find(key);
        if (reader == readers.end()) {
            throw std::runtime_error(origin + ": /inputs/" + key + ": not an option this btforge knows");
        }
        reader->second(key, value);
    }
    return r;
}

}  // namespace btforge
