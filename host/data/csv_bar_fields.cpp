#include "host/data/csv_bar_fields.h"

#include <string>

#include "host/data/market_rules.h"

namespace btforge {

namespace {

// Note [Market rules]: the rules are market_rules.h's; a CSV shows a value
// as its text and points at its field.
struct CsvBarFields {
    const CsvRow& row;
    const BarFieldIndex& at;
    std::size_t funding_index = kCsvAbsent;

    std::size_t index(BarField field) const {
        switch (field) {
            case BarField::open: return at.open;
            case BarField::high: return at.high;
            case BarField::low: return at.low;
            case BarField::close: return at.close;
            case BarField::volume: return at.volume;
            case BarField::funding_rate: return funding_index;
        }
        return at.open;
    }
    ShowBarField show() const {
        return [this](BarField field) { return in_quotes(row.fields[index(field)].text); };
    }
    void check(const std::optional<MarketRuleBreak>& broken) const {
        if (broken) row.fail(index(broken->field), broken->rule, broken->message);
    }
};

}  // namespace

Bar csv_bar(const CsvRow& row, const BarFieldIndex& at) {
    const CsvBarFields fields{row, at};
    const ShowBarField show = fields.show();
    Bar bar{};
    bar.open = csv_number(row, at.open, "open");
    fields.check(price_break(BarField::open, bar.open, show));
    bar.high = csv_number(row, at.high, "high");
    fields.check(price_break(BarField::high, bar.high, show));
    bar.low = csv_number(row, at.low, "low");
    fields.check(price_break(BarField::low, bar.low, show));
    bar.close = csv_number(row, at.close, "close");
    fields.check(price_break(BarField::close, bar.close, show));
    bar.volume = csv_number(row, at.volume, "volume");
    fields.check(volume_break(bar.volume, show));
    fields.check(bar_shape_break(bar, show));
    return bar;
}

double csv_funding_rate(const CsvRow& row, std::size_t index, std::string_view name, std::string_view per) {
    const BarFieldIndex unused{index, index, index, index, index};
    const CsvBarFields fields{row, unused, index};
    const double rate = csv_number(row, index, name);
    fields.check(funding_rate_break(rate, name, per, fields.show()));
    return rate;
}

}  // namespace btforge
