// Golden tests of btforge-gen's emitters, and unit tests of the device rewriter.
//
// The golden test runs the whole generator pipeline in-process (the same steps
// as generator/main.cpp: load the generator spec, parse the reference with
// libclang, stamp, render every template) on the small fixture repository
// under generator/tests/golden/fixture/ -- its own reference/ headers, its own
// spec/generator.json and strategy specs -- with the REAL templates/ of this
// repository, and compares every rendered file byte for byte with
// generator/tests/golden/expected/<file>.
//
// Refreshing the expected files (after an intended change to a template, an
// emitter or the rewriter): on a mismatch the test writes the rendered file as
// generator/tests/golden/expected/<file>.actual and prints the command to
// accept it. Either review and move the .actual files over the expected ones:
//
//   cd generator/tests/golden/expected && for f in *.actual; do mv -- "$f" "${f%.actual}"; done
//
// or regenerate all expected files in place and review them with `git diff`:
//
//   BTFORGE_UPDATE_GOLDEN=1 ctest --test-dir <build> -R generator_emitters_test
//
// The stamp's version is fixed ("golden") so a project version bump does not
// touch the expected files; its template hash is that of the real templates,
// so any template edit shows up here too.
#include <doctest/doctest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "generator/device_code_emitter.h"
#include "generator/device_rewriter.h"
#include "generator/emit_context.h"
#include "generator/generator_config.h"
#include "generator/indicator_kernel_emitter.h"
#include "generator/input_stamp.h"
#include "generator/layout_emitter.h"
#include "generator/output_files.h"
#include "generator/reference_parser.h"
#include "generator/strategy_contract.h"
#include "generator/sweep_kernel_emitter.h"
#include "generator/tests/test_support.h"

namespace btforge::gen {
namespace {

namespace fs = std::filesystem;
using test::source_dir;

fs::path fixture_root() { return source_dir() / "generator" / "tests" / "golden" / "fixture"; }
fs::path expected_dir() { return source_dir() / "generator" / "tests" / "golden" / "expected"; }

std::optional<std::string> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

void write_file(const fs::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    REQUIRE_MESSAGE(out.good(), "cannot write " << path.string());
}

// The pipeline of generator/main.cpp on the fixture. The context refers to
// the model and the config, so all three live together.
struct Fixture {
    GeneratorConfig config;
    ReferenceModel model;
    std::unique_ptr<EmitContext> context;

    std::vector<OutputFile> render_all() const {
        std::vector<OutputFile> files;
        files.push_back(emit_layout_header(*context));
        files.push_back(emit_device_code(*context));
        for (const StrategyTarget& target : config.strategies) {
            files.push_back(emit_sweep_kernel(*context, target));
            files.push_back(emit_strategy_binding(*context, target));
        }
        files.push_back(emit_strategy_catalog(*context));
        files.push_back(emit_entry_points(*context));
        return files;
    }
};

const Fixture& fixture() {
    static const std::unique_ptr<Fixture> f = [] {
        auto out = std::make_unique<Fixture>();
        fs::path root = fixture_root();
        out->config = load_generator_config(root, "spec/generator.json");
        ParseOptions parse;
        parse.repository_root = root;
        parse.entry_headers = out->config.reference_headers;
        out->model = parse_reference(parse);
        REQUIRE(check_strategy_contracts(out->model, out->config).empty());
        InputStamp stamp{"golden", root, source_dir()};
        out->context = std::make_unique<EmitContext>(
            EmitContext{out->model, out->config, stamp, source_dir() / "templates"});
        return out;
    }();
    return *f;
}

std::string describe(const std::vector<Violation>& violations) { return test::describe(violations); }

// "line N: expected `...`, got `...`" for the first line that differs.
std::string first_difference(const std::string& expected, const std::string& actual) {
    std::istringstream e(expected);
    std::istringstream a(actual);
    std::string le;
    std::string la;
    for (int line = 1;; ++line) {
        bool more_e = static_cast<bool>(std::getline(e, le));
        bool more_a = static_cast<bool>(std::getline(a, la));
        if (!more_e && !more_a) return "they differ only in line endings or a final newline";
        if (!more_e) return "line " + std::to_string(line) + ": expected end of file, got `" + la + "`";
        if (!more_a) return "line " + std::to_string(line) + ": expected `" + le + "`, got end of file";
        if (le != la) return "line " + std::to_string(line) + ": expected `" + le + "`, got `" + la + "`";
    }
}

// ---------------------------------------------------------------- golden files

TEST_CASE("golden: the fixture reference parses cleanly") {
    const Fixture& f = fixture();
    INFO(describe(f.model.violations));
    CHECK(f.model.violations.empty());
    CHECK(f.model.input_files ==
          std::vector<std::string>{"reference/kernel_marker.h", "reference/strategies/toy_band/toy_band_strategy.h",
                                   "reference/strategies/toy_cross/toy_cross_strategy.h", "reference/toy/layout.h",
                                   "reference/toy/math.h"});
    std::vector<std::string> names;
    for (const Entity& e : f.model.entities) names.push_back(e.qualified_name);
    CHECK(names == std::vector<std::string>{"toy::kMaxLegs", "toy::kTick", "toy::Quote", "toy::Costs", "toy::Result",
                                            "toy::Side", "toy::kMaxSymbols", "toy::gap", "toy::best_leg", "toy::elapsed",
                                            "toy::ToyBandParams", "toy::ToyBandSeries", "toy::run_toy_band_strategy",
                                            "toy::ToyCrossParams", "toy::ToyCrossSeries",
                                            "toy::run_toy_cross_strategy"});
    // Discovered (Note [Strategy discovery]), sorted, structs read off the entries.
    REQUIRE(f.config.strategies.size() == 2);
    CHECK(f.config.strategies[0].spec.name == "toy_band");
    CHECK(f.config.strategies[0].entry == "toy::run_toy_band_strategy");
    CHECK(f.config.strategies[0].params_struct == "toy::ToyBandParams");
    CHECK(f.config.strategies[1].series_struct == "toy::ToyCrossSeries");
}

TEST_CASE("golden: every rendered file matches generator/tests/golden/expected/ byte for byte") {
    const Fixture& f = fixture();
    std::vector<OutputFile> files = f.render_all();
    const bool update = std::getenv("BTFORGE_UPDATE_GOLDEN") != nullptr;

    std::set<std::string> rendered;
    std::vector<std::string> mismatched;
    for (const OutputFile& file : files) {
        rendered.insert(file.name);
        fs::path expected_path = expected_dir() / file.name;
        fs::path actual_path = expected_dir() / (file.name + ".actual");
        std::optional<std::string> expected = read_file(expected_path);
        if (update) {
            if (expected != file.content) write_file(expected_path, file.content);
            fs::remove(actual_path);
            continue;
        }
        INFO("generator/tests/golden/expected/" << file.name);
        if (expected == file.content) {
            fs::remove(actual_path);  // a leftover from an earlier failure
            continue;
        }
        write_file(actual_path, file.content);
        mismatched.push_back(file.name);
        if (!expected) {
            FAIL_CHECK("no expected file; rendered output written to " << actual_path.string());
        } else {
            FAIL_CHECK("rendered output differs (" << first_difference(*expected, file.content) << "); written to "
                                                   << actual_path.string());
        }
    }
    if (!mismatched.empty()) {
        MESSAGE("to accept the rendered files after reviewing them (diff -u X X.actual):\n  cd "
                << expected_dir().string()
                << " && for f in *.actual; do mv -- \"$f\" \"${f%.actual}\"; done\n"
                   "or regenerate them all: BTFORGE_UPDATE_GOLDEN=1 ctest -R generator_emitters_test");
    }

    // expected/ holds exactly the files generation produces (a stale one
    // would mean the test silently stopped covering something).
    std::set<std::string> present;
    for (const auto& entry : fs::directory_iterator(expected_dir())) {
        std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && entry.path().extension() != ".actual") present.insert(name);
    }
    if (update) {
        for (const std::string& name : present) {
            if (rendered.count(name) == 0) fs::remove(expected_dir() / name);
        }
    } else {
        CHECK(present == rendered);
    }
    CHECK(rendered == std::set<std::string>{"btforge_layout.h", "btforge_device.cuh", "toy_cross_sweep.cu",
                                            "toy_band_sweep.cu", "toy_cross_binding.cpp", "toy_band_binding.cpp",
                                            "strategy_catalog.cpp", "btforge_entry_points.h"});
}

TEST_CASE("golden: rendering is deterministic and carries no absolute path") {
    const Fixture& f = fixture();
    std::vector<OutputFile> first = f.render_all();
    std::vector<OutputFile> second = f.render_all();
    REQUIRE(first.size() == second.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
        INFO(first[i].name);
        CHECK(first[i].name == second[i].name);
        CHECK(first[i].content == second[i].content);
        CHECK(first[i].content.find(source_dir().string()) == std::string::npos);
        CHECK(first[i].content.rfind("// @generated by btforge-gen golden -- do not edit;", 0) == 0);
        CHECK(first[i].content.find("\n// inputs: sha256:") != std::string::npos);
    }
}

TEST_CASE("golden: layout closure and the split between the layout and the device file") {
    const Fixture& f = fixture();
    // The listed structs and the marked names their text mentions (kMaxLegs
    // bounds Quote::legs); not a strategy's structs (its own file has them:
    // Note [Generated files stay local]), not kTick, not functions.
    CHECK(layout_entity_names(*f.context) ==
          std::set<std::string>{"toy::Quote", "toy::Costs", "toy::Result", "toy::kMaxLegs"});
    std::vector<OutputFile> files = f.render_all();
    const std::string& layout = files[0].content;
    const std::string& device = files[1].content;
    const std::string& band_kernel = files[2].content;
    CHECK(layout.find("inline constexpr int kMaxLegs = 3;") != std::string::npos);
    CHECK(device.find("kMaxLegs = 3") == std::string::npos);
    CHECK(device.find("inline constexpr double kTick = 0.5;") != std::string::npos);
    CHECK(layout.find("kTick = 0.5") == std::string::npos);
    CHECK(device.find("ToyCross") == std::string::npos);
    CHECK(device.find("ToyBand") == std::string::npos);
    CHECK(band_kernel.find("struct ToyBandSeries {") != std::string::npos);
    CHECK(band_kernel.find("static_assert(sizeof(ToyBandParams) == 24,") != std::string::npos);
    CHECK(band_kernel.find("ToyCross") == std::string::npos);
    // Unmarked host code is never emitted.
    CHECK(device.find("host_log") == std::string::npos);
    // x86-64 layout pinned by static_asserts.
    CHECK(layout.find("static_assert(sizeof(Quote) == 48, \"Quote must have the reference's size\");") !=
          std::string::npos);
    CHECK(layout.find("static_assert(__builtin_offsetof(Quote, legs) == 24, \"Quote::legs\");") != std::string::npos);
}

// ---------------------------------------------------------------- emitter errors

// Note [The strategy contract]: every break is reported, at the field, with
// the JSON pointer into the spec.
// The toy strategies' entry, as spec/generator.json "strategy_entry" would say it.
std::vector<EntryParameter> toy_entry() {
    return {{"tape", "const toy::Quote *"}, {"s", "series"},         {"p", "params"},
            {"costs", "const toy::Costs &"}, {"out", "toy::Result &"}, {"n", "int"}};
}

TEST_CASE("strategy contract: every mismatch between a kernel's structs and its spec, all at once") {
    const Fixture& f = fixture();
    const std::string cross = "reference/strategies/toy_cross/toy_cross_strategy.h:";
    const std::string band = "reference/strategies/toy_band/toy_band_strategy.h:";
    struct Case {
        const char* what;
        void (*edit)(GeneratorConfig&);
        std::vector<std::string> expected;  // every violation, in order
    };
    const Case cases[] = {
        {"as written", [](GeneratorConfig&) {}, {}},
        {"two parameters swapped in the spec",
         [](GeneratorConfig& c) { std::swap(c.strategies[1].spec.parameters[0], c.strategies[1].spec.parameters[1]); },
         {cross + "10:9: spec-mismatch: ToyCrossParams::slow_period is field 1 but spec/toy_cross.json: "
                  "/parameters/0 is entry 0: keep the fields in the spec's order",
          cross + "9:9: spec-mismatch: ToyCrossParams::fast_period is field 0 but spec/toy_cross.json: "
                  "/parameters/1 is entry 1: keep the fields in the spec's order"}},
        {"a double declared int in the spec",
         [](GeneratorConfig& c) { c.strategies[1].spec.parameters[2].type = ParameterType::Int; },
         {cross + "11:12: spec-mismatch: ToyCrossParams::stop_pct is 'double' but spec/toy_cross.json: "
                  "/parameters/2 is the int parameter 'stop_pct': declare it 'int'"}},
        {"a renamed parameter and a renamed series, together",
         [](GeneratorConfig& c) {
             c.strategies[1].spec.parameters[3].name = "shorts";
             c.strategies[1].spec.indicators[0].id = "fast";
         },
         {cross + "8:18: spec-mismatch: ToyCrossParams has no field 'shorts' for spec/toy_cross.json: "
                  "/parameters/3 (bool parameter): add `int shorts;` as field 3",
          cross + "12:9: spec-mismatch: ToyCrossParams::allow_short is not in spec/toy_cross.json: every field is a "
                  "spec entry (add it to the spec or remove the field)",
          cross + "15:18: spec-mismatch: ToyCrossSeries has no field 'fast' for spec/toy_cross.json: /indicators/0 "
                  "(indicator series (SMA)): add `const double * fast;` as field 0",
          cross + "16:19: spec-mismatch: ToyCrossSeries::sma_fast is not in spec/toy_cross.json: every field is a "
                  "spec entry (add it to the spec or remove the field)"}},
        {"a parameter the spec lacks",
         [](GeneratorConfig& c) { c.strategies[1].spec.parameters.pop_back(); },
         {cross + "12:9: spec-mismatch: ToyCrossParams::allow_short is not in spec/toy_cross.json: every field is a "
                  "spec entry (add it to the spec or remove the field)"}},
        {"the whole signature, as the templates call it",
         [](GeneratorConfig& c) { c.strategy_entry = toy_entry(); },
         {}},
        {"an entry written before a parameter was added (Note [Entry signature checked])",
         [](GeneratorConfig& c) {
             c.strategy_entry = toy_entry();
             c.strategy_entry.push_back({"periods", "double *"});
         },
         {band + "19:23: strategy-entry: toy::run_toy_band_strategy takes 6 parameters, the templates pass 7: it "
                 "lacks the last 1 (periods): an outdated signature; write run_toy_band_strategy(const toy::Quote "
                 "*tape, const NAMESeries &s, const NAMEParams &p, const toy::Costs &costs, toy::Result &out, int n, "
                 "double *periods)",
          cross + "22:23: strategy-entry: toy::run_toy_cross_strategy takes 6 parameters, the templates pass 7: it "
                  "lacks the last 1 (periods): an outdated signature; write run_toy_cross_strategy(const toy::Quote "
                  "*tape, const NAMESeries &s, const NAMEParams &p, const toy::Costs &costs, toy::Result &out, int n, "
                  "double *periods)"}},
        {"a parameter of another type than the templates pass",
         [](GeneratorConfig& c) {
             c.strategy_entry = toy_entry();
             c.strategy_entry[5].type = "double";
             c.strategies.pop_back();
         },
         {band + "19:23: strategy-entry: toy::run_toy_band_strategy: parameter 6 (n) is 'int' but the templates "
                 "pass n as 'double'; write run_toy_band_strategy(const toy::Quote *tape, const NAMESeries &s, const "
                 "NAMEParams &p, const toy::Costs &costs, toy::Result &out, double n)"}},
        {"an entry that is not there",
         [](GeneratorConfig& c) { c.strategies[0].entry = "toy::run_nothing"; },
         {"reference/strategies/toy_band/toy_band_strategy.h:1:1: strategy-entry: no BT_KERNEL function "
          "toy::run_nothing in reference/strategies/toy_band/toy_band_strategy.h (Note [Strategy discovery]: the "
          "entry of strategy 'toy_band' is named after it)"}},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        GeneratorConfig config = f.config;
        c.edit(config);
        std::vector<std::string> got;
        for (const Violation& v : check_strategy_contracts(f.model, config)) {
            got.push_back(test::where(v) + ": " + v.rule + ": " + v.explanation);
        }
        CHECK(got == c.expected);
    }
}

// The indicator kernels are checked on the repository's own reference and
// generator spec (the fixture has no indicators).
TEST_CASE("emitters: indicator kernels call each reference function with its inputs, parameters and outputs") {
    const fs::path root = source_dir();
    GeneratorConfig config = load_generator_config(root, "spec/generator.json");
    ParseOptions parse;
    parse.repository_root = root;
    parse.entry_headers = config.reference_headers;
    ReferenceModel model = parse_reference(parse);
    REQUIRE(model.violations.empty());
    EmitContext context{model, config, InputStamp{"golden", root, root}, root / "templates"};
    REQUIRE(config.indicators.size() == 19);
    CHECK(max_indicator_args(config) == 3);
    CHECK(max_indicator_outputs(config) == 3);

    OutputFile kernels = emit_indicator_kernels(context);
    CHECK(kernels.name == "indicator_series.cu");
    CHECK(kernels.content.find("        case 7:  // ATR\n            atr_compute(own.high, own.low, own.close, n, "
                               "static_cast<int>(job.args[0]), out[0]);") != std::string::npos);
    // A one-input indicator reads the job's column (Note [Indicator input column]).
    CHECK(kernels.content.find("bbands_compute(own_price_column(own, job.input), n, static_cast<int>(job.args[0]), "
                               "job.args[1], out[0], out[1], out[2]);") != std::string::npos);
    CHECK(kernels.content.find("max_compute(own_price_column(own, job.input), n, static_cast<int>(job.args[0]), "
                               "out[0]);") != std::string::npos);
    CHECK(kernels.content.find("mfi_compute(own.high, own.low, own.close, own.volume, n, "
                               "static_cast<int>(job.args[0]), out[0]);") != std::string::npos);
    CHECK(kernels.content.find("obv_compute(own.close, own.volume, n, out[0]);") != std::string::npos);
    CHECK(kernels.content.find("BREADTH") == std::string::npos);

    SUBCASE("a function with other inputs") {
        config.indicators[0].function = "btforge::atr_compute";  // SMA reads close only
        CHECK_THROWS_WITH_AS(emit_indicator_kernels(context),
                             doctest::Contains("indicator-signature: atr_compute cannot compute SMA: it takes 6 "
                                               "arguments, not 4"),
                             std::runtime_error);
    }
    SUBCASE("a parameter by another name") {
        config.indicators[0].function = "btforge::ema_compute";
        config.indicators[0].signature.params = {"length"};
        CHECK_THROWS_WITH_AS(emit_indicator_kernels(context),
                             doctest::Contains("argument 'int period' should be the parameter 'int length'"),
                             std::runtime_error);
    }
    SUBCASE("outputs in the wrong order") {
        std::swap(config.indicators[11].signature.outputs[0], config.indicators[11].signature.outputs[1]);  // STOCH
        CHECK_THROWS_WITH_AS(emit_indicator_kernels(context),
                             doctest::Contains("argument 'double * out_slowk' should be the output 'double * slowd'"),
                             std::runtime_error);
    }
    SUBCASE("a non-integer parameter taken as an int") {
        config.indicators[6].signature.integer_params = {true, true};  // BBANDS k
        CHECK_THROWS_WITH_AS(emit_indicator_kernels(context),
                             doctest::Contains("argument 'double k' should be the parameter 'int k'"),
                             std::runtime_error);
    }
    SUBCASE("an input in the wrong place") {
        config.indicators[13].signature.inputs = {"close", "high", "low", "volume"};  // MFI
        CHECK_THROWS_WITH_AS(emit_indicator_kernels(context),
                             doctest::Contains("argument 'const double * high' should be the input 'const double * "
                                               "close'"),
                             std::runtime_error);
    }
}

TEST_CASE("emitters: a missing template is named") {
    const Fixture& f = fixture();
    EmitContext context{f.model, f.config, f.context->stamp, fixture_root() / "no-templates-here"};
    CHECK_THROWS_WITH_AS(emit_entry_points(context), "cannot read template templates/btforge_entry_points.h",
                         std::runtime_error);
}

// Note [Kernel variants]
TEST_CASE("emitters: the symbol capacity becomes BTFORGE_SYMBOL_CAPACITY, and must equal the largest variant") {
    const Fixture& f = fixture();
    OutputFile device = emit_device_code(*f.context);
    CHECK(device.content.find("inline constexpr int kMaxSymbols = BTFORGE_SYMBOL_CAPACITY;") != std::string::npos);
    CHECK(device.content.find("#define BTFORGE_SYMBOL_CAPACITY 4\n") != std::string::npos);
    OutputFile entries = emit_entry_points(*f.context);
    CHECK(entries.content.find("#define BTFORGE_FOR_EACH_KERNEL_VARIANT(X) X(small, 4, ) X(large, 8, _large) ") !=
          std::string::npos);

    GeneratorConfig too_small = f.config;
    too_small.symbol_capacity.variants.back().max_symbols = 9;
    EmitContext mismatched{f.model, too_small, f.context->stamp, f.context->templates_dir};
    CHECK_THROWS_WITH_AS(emit_device_code(mismatched),
                         doctest::Contains("symbol-capacity: toy::kMaxSymbols is 8 but the largest kernel variant"),
                         std::runtime_error);

    GeneratorConfig unknown = f.config;
    unknown.symbol_capacity.constant = "toy::kMaxLegs";  // in the layout: shared by every variant
    EmitContext in_layout{f.model, unknown, f.context->stamp, f.context->templates_dir};
    CHECK_THROWS_WITH_AS(emit_layout_header(in_layout), doctest::Contains("the layout is shared by every kernel variant"),
                         std::runtime_error);
}

// ---------------------------------------------------------------- device rewriter

// Tokens of `text` the way libclang hands them to the rewriter: comments are
// not tokens, offsets index the text. Enough C++ lexing for these tests.
std::vector<Token> lex(const std::string& text) {
    std::vector<Token> out;
    std::size_t i = 0;
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
    while (i < text.size()) {
        char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            ++i;
        } else if (text.compare(i, 2, "//") == 0) {
            i = text.find('\n', i);
            if (i == std::string::npos) i = text.size();
        } else if (text.compare(i, 2, "/*") == 0) {
            i = text.find("*/", i + 2);
            REQUIRE(i != std::string::npos);
            i += 2;
        } else if (ident(c)) {
            std::size_t start = i;
            while (i < text.size() && (ident(text[i]) || (std::isdigit(static_cast<unsigned char>(c)) != 0 &&
                                                          text[i] == '.'))) {
                ++i;
            }
            bool literal = std::isdigit(static_cast<unsigned char>(c)) != 0;
            out.push_back(Token{literal ? Token::Kind::Literal : Token::Kind::Identifier, text.substr(start, i - start),
                                start});
        } else {
            std::size_t n = 1;
            for (const char* two : {"::", "->", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=", "-="}) {
                if (text.compare(i, 2, two) == 0) n = 2;
            }
            out.push_back(Token{Token::Kind::Punctuation, text.substr(i, n), i});
            i += n;
        }
    }
    return out;
}

Entity entity(Entity::Kind kind, std::string text) {
    Entity e;
    e.kind = kind;
    e.text = std::move(text);
    e.tokens = lex(e.text);
    return e;
}

std::string rewrite(Entity::Kind kind, const std::string& text) { return rewrite_for_device(entity(kind, text)); }

TEST_CASE("rewriter: hand-built tokens, no lexer") {
    Entity e;
    e.kind = Entity::Kind::Function;
    e.text = "BT_KERNEL double r(double x) { return std::sqrt(x); }";
    //        0         10        20        30        40        50
    e.tokens = {{Token::Kind::Identifier, "BT_KERNEL", 0}, {Token::Kind::Keyword, "double", 10},
                {Token::Kind::Identifier, "r", 17},        {Token::Kind::Punctuation, "(", 18},
                {Token::Kind::Keyword, "double", 19},      {Token::Kind::Identifier, "x", 26},
                {Token::Kind::Punctuation, ")", 27},       {Token::Kind::Punctuation, "{", 29},
                {Token::Kind::Keyword, "return", 31},      {Token::Kind::Identifier, "std", 38},
                {Token::Kind::Punctuation, "::", 41},      {Token::Kind::Identifier, "sqrt", 43},
                {Token::Kind::Punctuation, "(", 47},       {Token::Kind::Identifier, "x", 48},
                {Token::Kind::Punctuation, ")", 49},       {Token::Kind::Punctuation, ";", 50},
                {Token::Kind::Punctuation, "}", 52}};
    for (const Token& t : e.tokens) REQUIRE(e.text.compare(t.offset, t.spelling.size(), t.spelling) == 0);
    CHECK(rewrite_for_device(e) == "BTFORGE_DEVICE double r(double x) { return sqrt(x); }");
    // The lexer of the other cases agrees with the hand-built list.
    std::vector<Token> lexed = lex(e.text);
    REQUIRE(lexed.size() == e.tokens.size());
    for (std::size_t i = 0; i < lexed.size(); ++i) {
        CHECK(lexed[i].spelling == e.tokens[i].spelling);
        CHECK(lexed[i].offset == e.tokens[i].offset);
    }
}

TEST_CASE("rewriter: BT_KERNEL on a function becomes BTFORGE_DEVICE") {
    CHECK(rewrite(Entity::Kind::Function, "// Half of x.\nBT_KERNEL inline double half(double x) { return x / 2.0; }") ==
          "// Half of x.\nBTFORGE_DEVICE inline double half(double x) { return x / 2.0; }");
    // Marker after the return type's line break, as clang-format may leave it.
    CHECK(rewrite(Entity::Kind::Function, "BT_KERNEL\ninline int one() { return 1; }") ==
          "BTFORGE_DEVICE\ninline int one() { return 1; }");
}

TEST_CASE("rewriter: BT_KERNEL on a struct, an enum or a constant is removed with one space") {
    CHECK(rewrite(Entity::Kind::Struct, "// A point.\nstruct BT_KERNEL Point {\n    double x;\n    double y;\n};") ==
          "// A point.\nstruct Point {\n    double x;\n    double y;\n};");
    CHECK(rewrite(Entity::Kind::Enum, "enum BT_KERNEL Side : int { kShort = -1, kLong = 1 };") ==
          "enum Side : int { kShort = -1, kLong = 1 };");
    CHECK(rewrite(Entity::Kind::Constant, "BT_KERNEL inline constexpr int kN = 4;") == "inline constexpr int kN = 4;");
    // Only the marker token goes: a field or variable merely containing it stays.
    CHECK(rewrite(Entity::Kind::Struct, "struct BT_KERNEL S {\n    int BT_KERNEL_count;\n};") ==
          "struct S {\n    int BT_KERNEL_count;\n};");
}

TEST_CASE("rewriter: BT_COLD becomes BTFORGE_COLD (volatile in device code, Note [Cold fields])") {
    CHECK(rewrite(Entity::Kind::Struct, "struct BT_KERNEL P {\n    int mode;\n    BT_COLD double sl_atr;  // at entries\n};") ==
          "struct P {\n    int mode;\n    double BTFORGE_COLD sl_atr;  // at entries\n};");
    // A pointer field: the pointer is cold, not what it points to.
    CHECK(rewrite(Entity::Kind::Struct, "struct BT_KERNEL S {\n    BT_COLD const double* atr;\n    const double* rsi;\n};") ==
          "struct S {\n    const double* BTFORGE_COLD atr;\n    const double* rsi;\n};");
    // Default member initializers and bit-fields: the name, not what follows.
    CHECK(rewrite(Entity::Kind::Struct, "struct BT_KERNEL U {\n    BT_COLD double x = kStart, y{2.0};\n    BT_COLD int f : 3;\n};") ==
          "struct U {\n    double BTFORGE_COLD x = kStart, BTFORGE_COLD y{2.0};\n    int BTFORGE_COLD f : 3;\n};");
    // Every name of the declaration, arrays included; the next field is left alone.
    CHECK(rewrite(Entity::Kind::Struct, "struct BT_KERNEL T {\n    BT_COLD int a, b[4];\n    int c;\n};") ==
          "struct T {\n    int BTFORGE_COLD a, BTFORGE_COLD b[4];\n    int c;\n};");
}

TEST_CASE("rewriter: BT_NO_UNROLL becomes BTFORGE_NO_UNROLL (Note [Loops kept rolled])") {
    CHECK(rewrite(Entity::Kind::Function,
                  "BT_KERNEL int f(int n) {\n    int k = 0;\n    BT_NO_UNROLL  // why\n"
                  "    for (int i = 0; i < n; ++i) k += i;\n    return k;\n}") ==
          "BTFORGE_DEVICE int f(int n) {\n    int k = 0;\n    BTFORGE_NO_UNROLL  // why\n"
          "    for (int i = 0; i < n; ++i) k += i;\n    return k;\n}");
    // Only the marker token: a name that merely starts with it stays.
    CHECK(rewrite(Entity::Kind::Function, "BT_KERNEL int g(int BT_NO_UNROLL_x) { return BT_NO_UNROLL_x; }") ==
          "BTFORGE_DEVICE int g(int BT_NO_UNROLL_x) { return BT_NO_UNROLL_x; }");
}

TEST_CASE("rewriter: std math functions lose their namespace") {
    for (const char* fn : {"sqrt", "fabs", "round", "floor", "ceil", "fmin", "fmax", "isnan", "abs", "trunc"}) {
        INFO(fn);
        std::string name(fn);
        CHECK(rewrite(Entity::Kind::Function, "BT_KERNEL double f(double x) { return std::" + name + "(x); }") ==
              "BTFORGE_DEVICE double f(double x) { return " + name + "(x); }");
    }
    CHECK(rewrite(Entity::Kind::Function,
                  "BT_KERNEL double f(double a, double b) { return std::fmax(std::fabs(a), std::sqrt(b)); }") ==
          "BTFORGE_DEVICE double f(double a, double b) { return fmax(fabs(a), sqrt(b)); }");
}

TEST_CASE("rewriter: std fixed-width integer types become the device's built-in types") {
    const std::vector<std::pair<std::string, std::string>> types = {
        {"int64_t", "long long"},    {"uint64_t", "unsigned long long"}, {"int32_t", "int"},
        {"uint32_t", "unsigned int"}, {"int16_t", "short"},               {"uint16_t", "unsigned short"},
        {"int8_t", "signed char"},   {"uint8_t", "unsigned char"}};
    for (const auto& [from, to] : types) {
        INFO(from);
        CHECK(rewrite(Entity::Kind::Struct, "struct BT_KERNEL S {\n    const std::" + from + "* p;  // array\n};") ==
              "struct S {\n    const " + to + "* p;  // array\n};");
    }
    CHECK(rewrite(Entity::Kind::Function, "BT_KERNEL std::int64_t span(std::int64_t a, std::int64_t b) { return b - a; }") ==
          "BTFORGE_DEVICE long long span(long long a, long long b) { return b - a; }");
}

TEST_CASE("rewriter: numeric_limits<double> infinity and quiet_NaN become the device helpers") {
    CHECK(rewrite(Entity::Kind::Function,
                  "BT_KERNEL double inf() { return std::numeric_limits<double>::infinity(); }") ==
          "BTFORGE_DEVICE double inf() { return btforge_infinity(); }");
    CHECK(rewrite(Entity::Kind::Function,
                  "BT_KERNEL double nan() { return std::numeric_limits<double>::quiet_NaN(); }") ==
          "BTFORGE_DEVICE double nan() { return btforge_quiet_nan(); }");
    CHECK(rewrite(Entity::Kind::Function,
                  "BT_KERNEL double lowest() { return -std::numeric_limits<double>::infinity(); }") ==
          "BTFORGE_DEVICE double lowest() { return -btforge_infinity(); }");
    // Anything else of numeric_limits is left alone (the subset rules reject it).
    CHECK(rewrite(Entity::Kind::Function, "BT_KERNEL int big() { return std::numeric_limits<int>::max(); }") ==
          "BTFORGE_DEVICE int big() { return std::numeric_limits<int>::max(); }");
    CHECK(rewrite(Entity::Kind::Function, "BT_KERNEL double eps() { return std::numeric_limits<double>::epsilon(); }") ==
          "BTFORGE_DEVICE double eps() { return std::numeric_limits<double>::epsilon(); }");
}

TEST_CASE("rewriter: comments and whitespace between tokens are kept") {
    const std::string text =
        "// Root of x, halved.\n"
        "// (two comment lines)\n"
        "BT_KERNEL /* marker */ inline double f(double x) {\n"
        "    // the root\n"
        "    double r = std::sqrt(x) /* root */ * 0.5;   // trailing\n"
        "\n"
        "    if (std::isnan(r)) return std::numeric_limits<double>::quiet_NaN();  /* nan */\n"
        "    return\tr;\n"
        "}";
    CHECK(rewrite(Entity::Kind::Function, text) ==
          "// Root of x, halved.\n"
          "// (two comment lines)\n"
          "BTFORGE_DEVICE /* marker */ inline double f(double x) {\n"
          "    // the root\n"
          "    double r = sqrt(x) /* root */ * 0.5;   // trailing\n"
          "\n"
          "    if (isnan(r)) return btforge_quiet_nan();  /* nan */\n"
          "    return\tr;\n"
          "}");
    // A comment that merely mentions the names is text, not tokens.
    CHECK(rewrite(Entity::Kind::Struct, "// BT_KERNEL std::sqrt std::int64_t\nstruct BT_KERNEL S {\n    int n;  // std::uint8_t\n};") ==
          "// BT_KERNEL std::sqrt std::int64_t\nstruct S {\n    int n;  // std::uint8_t\n};");
}

TEST_CASE("rewriter: everything else is copied as it is") {
    // std functions outside the device list, other namespaces, a trailing `std ::`.
    CHECK(rewrite(Entity::Kind::Function, "BT_KERNEL double f(double x) { return std::log(x) + my::sqrt(x); }") ==
          "BTFORGE_DEVICE double f(double x) { return std::log(x) + my::sqrt(x); }");
    CHECK(rewrite(Entity::Kind::Constant, "BT_KERNEL inline constexpr int std_size = 4;") ==
          "inline constexpr int std_size = 4;");
    std::string no_marker = "inline double g(double x) {\n    return x;  // unchanged\n}";
    CHECK(rewrite(Entity::Kind::Function, no_marker) == no_marker);
    CHECK(rewrite(Entity::Kind::Function, "") == "");
}

}  // namespace
}  // namespace btforge::gen
